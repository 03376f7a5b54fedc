import { depositCredit, formatAmount, formatRate, parseAmount, parseRate } from "../core/money";
import { isProvider, type Provider } from "../core/providers";
import { gatewayPort } from "../ports/gateway";
import type { DepositOrder } from "../wallet/player-wallet";
import type { Agency } from "./agency";
import { auditIfChanged, type AuditActor } from "../db/audit";
import { creditRate, walletOf } from "./wallet";

/**
 * Back office, payments with no matching order (issue 7 item 3). Three kinds reach staff:
 *  - UNKNOWN_REFERENCE: the webhook got a payment whose reference is no order of ours;
 *  - AMOUNT_MISMATCH: an OPEN order was paid another amount (the order is flagged, nothing booked);
 *  - LATE_PAYMENT: the order had expired or been cancelled (flagged, booked "late-paid" in its wallet).
 * Staff resolve each one by hand, once: credit a player of the agency (the kip converted at
 * today's sell rate, through that player's wallet as a MANUAL order `<reference>M` settled by
 * the usual saga), or mark it refunded outside the system with a note. The claim is one
 * guarded UPDATE (OPEN -> RESOLVING): a second or concurrent press changes nothing.
 */

export const UNMATCHED_KINDS = ["UNKNOWN_REFERENCE", "AMOUNT_MISMATCH", "LATE_PAYMENT"] as const;
export type UnmatchedKind = (typeof UNMATCHED_KINDS)[number];
export const UNMATCHED_STATUSES = ["OPEN", "RESOLVING", "CREDITED", "REFUNDED"] as const;
export type UnmatchedStatus = (typeof UNMATCHED_STATUSES)[number];

export type UnmatchedPayment = {
  id: string;
  kind: UnmatchedKind;
  reference: string;
  transactionId: string | null;
  amount: string | null;
  currency: string;
  orderPlayerId: string | null;
  orderUsername: string | null;
  receivedAt: string;
  status: UnmatchedStatus;
  resolvedPlayerId: string | null;
  resolvedUsername: string | null;
  resolvedProvider: string | null;
  credit: string | null;
  rateSell: string | null;
  manualCode: string | null;
  note: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
};

type Row = {
  id: string;
  kind: UnmatchedKind;
  reference: string;
  transaction_id: string | null;
  amount: string | null;
  currency: string;
  order_player_id: string | null;
  order_username: string | null;
  received_at: string;
  status: UnmatchedStatus;
  resolved_player_id: string | null;
  resolved_username: string | null;
  resolved_provider: string | null;
  credit: string | null;
  rate_sell: string | null;
  manual_code: string | null;
  note: string | null;
  resolved_by: string | null;
  claimed_at: number | null;
  resolved_at: string | null;
};

const SELECT = `SELECT u.*, op.username AS order_username, rp.username AS resolved_username
  FROM unmatched_payments u
  LEFT JOIN players op ON op.id = u.order_player_id AND op.agency_id = u.agency_id
  LEFT JOIN players rp ON rp.id = u.resolved_player_id AND rp.agency_id = u.agency_id`;

function toPayment(r: Row): UnmatchedPayment {
  return {
    id: r.id,
    kind: r.kind,
    reference: r.reference,
    transactionId: r.transaction_id,
    amount: r.amount,
    currency: r.currency,
    orderPlayerId: r.order_player_id,
    orderUsername: r.order_username,
    receivedAt: r.received_at,
    status: r.status,
    resolvedPlayerId: r.resolved_player_id,
    resolvedUsername: r.resolved_username,
    resolvedProvider: r.resolved_provider,
    credit: r.credit,
    rateSell: r.rate_sell,
    manualCode: r.manual_code,
    note: r.note,
    resolvedBy: r.resolved_by,
    resolvedAt: r.resolved_at,
  };
}

function newId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[b % 32]).join("");
}

/** "60000" and "60000.00" are the same kip; anything else is not an amount. */
function normalizeLak(text: string | null | undefined): string | null {
  if (!text) return null;
  const minor = parseAmount(text, "LAK");
  return minor === null || minor <= 0n ? null : formatAmount(minor, "LAK");
}

/**
 * Records a payment staff must look at (webhook: unknown reference, wrong amount, late).
 * One row per gateway transaction, and one per flagged order: a gateway retry of the same
 * delivery, or the back office having found the flagged order first, adds nothing.
 */
export async function recordUnmatchedPayment(
  db: D1Database,
  input: { agencyId: string; kind: UnmatchedKind; reference: string; transactionId: string; amount: string; orderPlayerId?: string | null },
): Promise<void> {
  const amount = normalizeLak(input.amount);
  const filled = await db
    .prepare(
      `UPDATE unmatched_payments SET transaction_id = ?1, amount = ?2
        WHERE agency_id = ?3 AND kind = ?4 AND reference = ?5 AND kind <> 'UNKNOWN_REFERENCE' AND transaction_id IS NULL AND status = 'OPEN'`,
    )
    .bind(input.transactionId, amount, input.agencyId, input.kind, input.reference)
    .run();
  if ((filled.meta.changes ?? 0) > 0) return;
  await db
    .prepare(
      `INSERT OR IGNORE INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, order_player_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    )
    .bind(newId(), input.agencyId, input.kind, input.reference, input.transactionId, amount, input.orderPlayerId ?? null)
    .run();
}

/**
 * Flagged orders the webhook did not report (found by the player's Check button or the
 * wallet's reconciler) are taken from the read model, so none is missed.
 */
export async function importFlaggedOrders(db: D1Database, agencyId: string): Promise<void> {
  const { results } = await db
    .prepare(
      `SELECT v.code, v.player_id, v.flag, v.amount FROM deposit_orders_view v
        WHERE v.agency_id = ?1 AND v.flag IN ('LATE_PAYMENT', 'AMOUNT_MISMATCH')
          AND NOT EXISTS (SELECT 1 FROM unmatched_payments u WHERE u.agency_id = v.agency_id AND u.reference = v.code AND u.kind = v.flag)`,
    )
    .bind(agencyId)
    .all<{ code: string; player_id: string; flag: UnmatchedKind; amount: string }>();
  if (results.length === 0) return;
  await db.batch(
    results.map((r) =>
      db
        .prepare(`INSERT OR IGNORE INTO unmatched_payments (id, agency_id, kind, reference, amount, order_player_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
        // a late payment was booked at the order's amount; a mismatch's amount is asked from the gateway
        .bind(newId(), agencyId, r.flag, r.code, r.flag === "LATE_PAYMENT" ? r.amount : null, r.player_id),
    ),
  );
}

export async function listUnmatched(db: D1Database, agencyId: string, opts: { status?: string | null; page: number; pageSize: number }) {
  await importFlaggedOrders(db, agencyId);
  const status = opts.status && (UNMATCHED_STATUSES as readonly string[]).includes(opts.status) ? opts.status : null;
  const where = status ? `u.agency_id = ?1 AND u.status = ?2` : `u.agency_id = ?1 AND u.status IN ('OPEN', 'RESOLVING')`;
  const params = status ? [agencyId, status] : [agencyId];
  const total = (await db.prepare(`SELECT COUNT(*) AS n FROM unmatched_payments u WHERE ${where}`).bind(...params).first<{ n: number }>())?.n ?? 0;
  const { results } = await db
    .prepare(`${SELECT} WHERE ${where} ORDER BY u.received_at DESC, u.id LIMIT ${Math.floor(opts.pageSize)} OFFSET ${Math.floor((opts.page - 1) * opts.pageSize)}`)
    .bind(...params)
    .all<Row>();
  return { total, items: results.map(toPayment) };
}

export async function getUnmatched(db: D1Database, agencyId: string, id: string): Promise<UnmatchedPayment | null> {
  const row = await db.prepare(`${SELECT} WHERE u.id = ?1 AND u.agency_id = ?2`).bind(id, agencyId).first<Row>();
  return row ? toPayment(row) : null;
}

export type ResolveError = "NOT_FOUND" | "ALREADY_RESOLVED" | "PLAYER_NOT_FOUND" | "PROVIDER_REQUIRED" | "NO_RATE" | "AMOUNT_UNKNOWN" | "NOTE_REQUIRED";

export type CreditPreview = {
  payment: UnmatchedPayment;
  player: { id: string; username: string; displayName: string };
  provider: Provider;
  amount: string;
  amountMinor: bigint;
  credit: string;
  creditMinor: bigint;
  rateSell: string;
  manualCode: string;
};

/** The amount of a payment: recorded by the webhook, else asked from the gateway by reference. */
async function knownAmount(env: Env, payment: UnmatchedPayment): Promise<{ amount: string; transactionId: string | null } | null> {
  if (payment.amount) return { amount: payment.amount, transactionId: payment.transactionId };
  if (payment.kind === "UNKNOWN_REFERENCE") return null;
  const status = await gatewayPort(env).paymentStatus(payment.reference);
  if (status.kind !== "paid") return null;
  const amount = normalizeLak(status.amount);
  if (!amount) return null;
  await env.DB.prepare(`UPDATE unmatched_payments SET amount = ?1, transaction_id = COALESCE(transaction_id, ?2) WHERE id = ?3 AND amount IS NULL`)
    .bind(amount, status.transactionId || null, payment.id)
    .run()
    .catch(() => undefined); // the transaction id may already be recorded on another row; the amount is what matters here
  return { amount, transactionId: status.transactionId || null };
}

/**
 * The MANUAL order's code: `<order code>M` for the first payment recorded against an order
 * (an order code is ours: short and safe for every provider's reference field); `U<id>M`
 * for an unknown reference or a further payment for the same order, so no two resolutions
 * ever share a code (a unique index backs this up).
 */
async function manualCodeOf(db: D1Database, agencyId: string, payment: UnmatchedPayment): Promise<string> {
  if (payment.kind === "UNKNOWN_REFERENCE" || !/^[A-Z0-9]{4,24}$/.test(payment.reference)) return `U${payment.id}M`;
  const first = await db
    .prepare(`SELECT id FROM unmatched_payments WHERE agency_id = ?1 AND reference = ?2 AND kind <> 'UNKNOWN_REFERENCE' ORDER BY received_at, id LIMIT 1`)
    .bind(agencyId, payment.reference)
    .first<{ id: string }>();
  return first?.id === payment.id ? `${payment.reference}M` : `U${payment.id}M`;
}

/** The confirm step: who gets what, at today's sell rate. Nothing changes. */
export async function previewManualCredit(
  env: Env,
  agency: Agency,
  id: string,
  input: { username: string; provider: string },
): Promise<{ ok: true; preview: CreditPreview } | { ok: false; error: ResolveError; payment?: UnmatchedPayment }> {
  const payment = await getUnmatched(env.DB, agency.id, id);
  if (!payment) return { ok: false, error: "NOT_FOUND" };
  if (payment.status !== "OPEN") return { ok: false, error: "ALREADY_RESOLVED", payment };
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED", payment };
  const player = await env.DB.prepare(`SELECT id, username, display_name FROM players WHERE agency_id = ?1 AND username = ?2`)
    .bind(agency.id, input.username.trim().toLowerCase())
    .first<{ id: string; username: string; display_name: string }>();
  if (!player) return { ok: false, error: "PLAYER_NOT_FOUND", payment };
  const known = await knownAmount(env, payment);
  if (!known) return { ok: false, error: "AMOUNT_UNKNOWN", payment };
  const rate = await creditRate(env.DB, agency.id);
  const amountMinor = parseAmount(known.amount, "LAK")!;
  const creditMinor = depositCredit(amountMinor, rate);
  if (!rate || creditMinor <= 0n) return { ok: false, error: "NO_RATE", payment };
  return {
    ok: true,
    preview: {
      payment: { ...payment, amount: known.amount, transactionId: payment.transactionId ?? known.transactionId },
      player: { id: player.id, username: player.username, displayName: player.display_name },
      provider: input.provider,
      amount: known.amount,
      amountMinor,
      credit: formatAmount(creditMinor, "THB"),
      creditMinor,
      rateSell: formatRate(rate.sell),
      manualCode: await manualCodeOf(env.DB, agency.id, payment),
    },
  };
}

/** A claim older than this whose credit never completed (the request died) may be resumed. */
export const RESUME_AFTER_MS = 60_000;

/**
 * Credit the payment to a player, once. The claim (OPEN -> RESOLVING with the player,
 * provider, credit and rate) and its audit row are one D1 batch; only the press that won
 * it talks to the wallet. The wallet's MANUAL order is idempotent by the payment id, so a
 * claim whose request died can be resumed (by anyone, after a minute) without a second credit.
 */
export async function resolveWithCredit(
  env: Env,
  agency: Agency,
  actor: AuditActor,
  id: string,
  input: { username: string; provider: string },
): Promise<{ ok: true; order: DepositOrder; payment: UnmatchedPayment } | { ok: false; error: ResolveError; payment?: UnmatchedPayment }> {
  const now = Date.now();
  let payment = await getUnmatched(env.DB, agency.id, id);
  if (!payment) return { ok: false, error: "NOT_FOUND" };
  if (payment.status === "RESOLVING") {
    // resume a claim left half done (the wallet call is idempotent)
    const row = await env.DB.prepare(`SELECT claimed_at FROM unmatched_payments WHERE id = ?1`).bind(id).first<{ claimed_at: number | null }>();
    if (!row?.claimed_at || now - row.claimed_at < RESUME_AFTER_MS) return { ok: false, error: "ALREADY_RESOLVED", payment };
    const taken = await env.DB.prepare(`UPDATE unmatched_payments SET claimed_at = ?1 WHERE id = ?2 AND status = 'RESOLVING' AND claimed_at = ?3`).bind(now, id, row.claimed_at).run();
    if ((taken.meta.changes ?? 0) === 0) return { ok: false, error: "ALREADY_RESOLVED", payment };
    return finishCredit(env, agency, actor, payment, now);
  }
  const priced = await previewManualCredit(env, agency, id, input);
  if (!priced.ok) return priced;
  const p = priced.preview;
  const after = { status: "RESOLVING", player: p.player.username, provider: p.provider, amount: p.amount, credit: p.credit, rateSell: p.rateSell, manualCode: p.manualCode };
  const [claim] = await env.DB.batch([
    env.DB.prepare(
      `UPDATE unmatched_payments SET status = 'RESOLVING', resolved_player_id = ?1, resolved_provider = ?2, amount = ?3, credit = ?4, rate_sell = ?5,
              manual_code = ?6, resolved_by = ?7, claimed_at = ?8
        WHERE id = ?9 AND agency_id = ?10 AND status = 'OPEN'`,
    ).bind(p.player.id, p.provider, p.amount, p.credit, p.rateSell, p.manualCode, actor.staffUsername, now, id, agency.id),
    auditIfChanged(env.DB, actor, { action: "payment.credit", target: id, before: { status: "OPEN", kind: payment.kind, reference: payment.reference, amount: p.amount }, after }),
  ]);
  if ((claim.meta.changes ?? 0) === 0) return { ok: false, error: "ALREADY_RESOLVED", payment: (await getUnmatched(env.DB, agency.id, id)) ?? payment };
  payment = (await getUnmatched(env.DB, agency.id, id))!;
  return finishCredit(env, agency, actor, payment, now);
}

async function finishCredit(env: Env, agency: Agency, actor: AuditActor, payment: UnmatchedPayment, now: number) {
  const playerId = payment.resolvedPlayerId!;
  const player = await env.DB.prepare(`SELECT username FROM players WHERE id = ?1 AND agency_id = ?2`).bind(playerId, agency.id).first<{ username: string }>();
  const wallet = walletOf(env, agency.id, playerId);
  await wallet.identify(agency.id, playerId, player!.username);
  const amountMinor = parseAmount(payment.amount!, "LAK")!;
  const creditMinor = parseAmount(payment.credit!, "THB")!;
  const rateSell = parseRate(payment.rateSell!)!;
  const made = await wallet.creditManualPayment({
    idempotencyKey: `manual:${payment.id}`,
    code: payment.manualCode!,
    provider: payment.resolvedProvider as Provider,
    amountMinor: amountMinor.toString(),
    creditMinor: creditMinor.toString(),
    rateSell: rateSell.toString(),
    now,
  });
  // a late payment was booked as owed to the order's player: that booking is now accounted for
  if (payment.kind !== "UNKNOWN_REFERENCE" && payment.orderPlayerId) {
    await walletOf(env, agency.id, payment.orderPlayerId).releaseLatePayment(payment.reference, "late-credited", now);
  }
  await env.DB.batch([
    env.DB.prepare(`UPDATE unmatched_payments SET status = 'CREDITED', resolved_at = ?1 WHERE id = ?2 AND status = 'RESOLVING'`).bind(new Date().toISOString(), payment.id),
    auditIfChanged(env.DB, actor, {
      action: "payment.credited",
      target: payment.id,
      before: { status: "RESOLVING" },
      after: { status: "CREDITED", manualCode: made.order.code, orderStatus: made.order.status, player: player!.username, provider: payment.resolvedProvider, credit: made.order.credit },
    }),
  ]);
  return { ok: true as const, order: made.order, payment: (await getUnmatched(env.DB, agency.id, payment.id))! };
}

/** Mark a payment refunded outside the system (a note says how), once. */
export async function resolveAsRefunded(
  env: Env,
  actor: AuditActor,
  id: string,
  note: string,
): Promise<{ ok: true; payment: UnmatchedPayment } | { ok: false; error: ResolveError; payment?: UnmatchedPayment }> {
  const payment = await getUnmatched(env.DB, actor.agencyId, id);
  if (!payment) return { ok: false, error: "NOT_FOUND" };
  const text = note.trim();
  if (!text) return { ok: false, error: "NOTE_REQUIRED", payment };
  if (payment.status !== "OPEN") return { ok: false, error: "ALREADY_RESOLVED", payment };
  const resolvedAt = new Date().toISOString();
  const [claim] = await env.DB.batch([
    env.DB.prepare(
      `UPDATE unmatched_payments SET status = 'REFUNDED', note = ?1, resolved_by = ?2, resolved_at = ?3 WHERE id = ?4 AND agency_id = ?5 AND status = 'OPEN'`,
    ).bind(text.slice(0, 500), actor.staffUsername, resolvedAt, id, actor.agencyId),
    auditIfChanged(env.DB, actor, { action: "payment.refunded", target: id, before: { status: "OPEN", kind: payment.kind, reference: payment.reference, amount: payment.amount }, after: { status: "REFUNDED", note: text.slice(0, 500) } }),
  ]);
  if ((claim.meta.changes ?? 0) === 0) return { ok: false, error: "ALREADY_RESOLVED", payment: (await getUnmatched(env.DB, actor.agencyId, id)) ?? payment };
  if (payment.kind !== "UNKNOWN_REFERENCE" && payment.orderPlayerId) {
    await walletOf(env, actor.agencyId, payment.orderPlayerId).releaseLatePayment(payment.reference, "late-refunded", Date.now());
  }
  return { ok: true, payment: (await getUnmatched(env.DB, actor.agencyId, id))! };
}

