/**
 * Statements over the payment tables: receiving channels and exchange rates (read by deposits,
 * read and written by the owner's settings), payments that matched no order, the gateway's applied
 * transactions and the webhook deliveries already answered.
 */
import { boundedCount, pageOfRows, type BoundedCount, type ListAsk, type ListPage } from "../core/keyset";
import { boundedCountSql, keysetSql, numberedParams } from "./keyset";

import { readOne, rowsOf, type Read } from "./reads";

// ---- payment channels (migration 0004)

/** A receiving channel of an agency: the merchant the deposit QR pays. */
export type PaymentChannel = {
  code: string;
  mid: string;
  displayName: string;
  currency: "LAK";
  bankCode: string;
  iin: string;
  merchantName: string;
  merchantCity: string;
  active: boolean;
};

type PaymentChannelRow = {
  code: string;
  mid: string;
  display_name: string;
  currency: "LAK";
  bank_code: string;
  iin: string;
  merchant_name: string;
  merchant_city: string;
  active: number;
};

const CHANNEL_COLUMNS = `code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, active`;

function toPaymentChannel(row: PaymentChannelRow): PaymentChannel {
  return {
    code: row.code,
    mid: row.mid,
    displayName: row.display_name,
    currency: row.currency,
    bankCode: row.bank_code,
    iin: row.iin,
    merchantName: row.merchant_name,
    merchantCity: row.merchant_city,
    active: row.active === 1,
  };
}

/** The channels a player may pay into, by code. */
export function activePaymentChannelsRead(db: D1Database, agencyId: string): Read<PaymentChannel[]> {
  return {
    statement: db.prepare(`SELECT ${CHANNEL_COLUMNS} FROM payment_channels WHERE agency_id = ?1 AND active = 1 ORDER BY code`).bind(agencyId),
    read: (result) => rowsOf<PaymentChannelRow>(result).map(toPaymentChannel),
  };
}

export function listActivePaymentChannels(db: D1Database, agencyId: string): Promise<PaymentChannel[]> {
  return readOne(activePaymentChannelsRead(db, agencyId));
}

/** Every channel of the agency, active ones first (the settings screen). */
export async function listPaymentChannels(db: D1Database, agencyId: string): Promise<PaymentChannel[]> {
  const { results } = await db
    .prepare(`SELECT ${CHANNEL_COLUMNS} FROM payment_channels WHERE agency_id = ?1 ORDER BY active DESC, code`)
    .bind(agencyId)
    .all<PaymentChannelRow>();
  return results.map(toPaymentChannel);
}

export async function findPaymentChannel(db: D1Database, agencyId: string, code: string): Promise<PaymentChannel | null> {
  const row = await db
    .prepare(`SELECT ${CHANNEL_COLUMNS} FROM payment_channels WHERE agency_id = ?1 AND code = ?2`)
    .bind(agencyId, code)
    .first<PaymentChannelRow>();
  return row ? toPaymentChannel(row) : null;
}

/** Whether the agency pays through the sandbox gateway (the demo agency, locally and in tests). */
export async function hasActiveSandboxChannel(db: D1Database, agencyId: string): Promise<boolean> {
  return (await db.prepare(`SELECT 1 FROM payment_channels WHERE agency_id = ?1 AND gateway = 'sandbox' AND active = 1`).bind(agencyId).first()) !== null;
}

/** How a channel takes money (migration 0016): its gateway ('own_account': the agency's own bank account), static QR and QR mode. */
export type ChannelKind = { code: string; gateway: string; staticQr: string | null; qrMode: "derived" | "static"; active: boolean };

/** The kind of each of the agency's channels (own-account deposits, the matcher). */
export function channelKindsRead(db: D1Database, agencyId: string): Read<ChannelKind[]> {
  type Row = { code: string; gateway: string; static_qr: string | null; qr_mode: "derived" | "static"; active: number };
  return {
    statement: db.prepare(`SELECT code, gateway, static_qr, qr_mode, active FROM payment_channels WHERE agency_id = ?1 ORDER BY code`).bind(agencyId),
    read: (result) => rowsOf<Row>(result).map((r) => ({ code: r.code, gateway: r.gateway, staticQr: r.static_qr, qrMode: r.qr_mode, active: r.active === 1 })),
  };
}

export function listChannelKinds(db: D1Database, agencyId: string): Promise<ChannelKind[]> {
  return readOne(channelKindsRead(db, agencyId));
}

/** What a channel is set to; `iin` is the bank's, for the EMVCo QR. */
type PaymentChannelValues = {
  code: string;
  mid: string;
  displayName: string;
  bankCode: string;
  iin: string;
  merchantName: string;
  merchantCity: string;
  active: boolean;
};

/** Inserts a channel unless its code exists (a concurrent create of the same code changes nothing). */
export function insertPaymentChannelStatement(db: D1Database, agencyId: string, channel: PaymentChannelValues): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, active)
       VALUES (?1, ?2, ?3, ?4, 'LAK', ?5, ?6, ?7, ?8, ?9)`,
    )
    .bind(
      agencyId,
      channel.code,
      channel.mid,
      channel.displayName,
      channel.bankCode,
      channel.iin,
      channel.merchantName,
      channel.merchantCity,
      channel.active ? 1 : 0,
    );
}

export function updatePaymentChannelStatement(db: D1Database, agencyId: string, channel: PaymentChannelValues): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE payment_channels SET mid = ?3, display_name = ?4, bank_code = ?5, iin = ?6, merchant_name = ?7, merchant_city = ?8, active = ?9
        WHERE agency_id = ?1 AND code = ?2`,
    )
    .bind(
      agencyId,
      channel.code,
      channel.mid,
      channel.displayName,
      channel.bankCode,
      channel.iin,
      channel.merchantName,
      channel.merchantCity,
      channel.active ? 1 : 0,
    );
}

export function setPaymentChannelActiveStatement(db: D1Database, agencyId: string, code: string, active: boolean): D1PreparedStatement {
  return db.prepare(`UPDATE payment_channels SET active = ?3 WHERE agency_id = ?1 AND code = ?2`).bind(agencyId, code, active ? 1 : 0);
}

// ---- exchange rates (migration 0004), as stored: decimal strings

export type ExchangeRate = { currency: string; buy: string; sell: string; updatedAt: string };
type ExchangeRateRow = { currency: string; buy: string; sell: string; updated_at: string };

function toExchangeRate(row: ExchangeRateRow): ExchangeRate {
  return { currency: row.currency, buy: row.buy, sell: row.sell, updatedAt: row.updated_at };
}

export function exchangeRateRead(db: D1Database, agencyId: string, currency: string): Read<ExchangeRate | null> {
  return {
    statement: db.prepare(`SELECT currency, buy, sell, updated_at FROM exchange_rates WHERE agency_id = ?1 AND currency = ?2`).bind(agencyId, currency),
    read: (result) => {
      const row = rowsOf<ExchangeRateRow>(result)[0];
      return row ? toExchangeRate(row) : null;
    },
  };
}

export function findExchangeRate(db: D1Database, agencyId: string, currency: string): Promise<ExchangeRate | null> {
  return readOne(exchangeRateRead(db, agencyId, currency));
}

export async function listExchangeRates(db: D1Database, agencyId: string): Promise<ExchangeRate[]> {
  const { results } = await db
    .prepare(`SELECT currency, buy, sell, updated_at FROM exchange_rates WHERE agency_id = ?1 ORDER BY currency`)
    .bind(agencyId)
    .all<ExchangeRateRow>();
  return results.map(toExchangeRate);
}

export type ExchangeRateChange = { id: number; currency: string; buy: string; sell: string; changedBy: string | null; changedAt: string };
type ExchangeRateChangeRow = { id: number; currency: string; buy: string; sell: string; changed_by: string | null; changed_at: string };

function toExchangeRateChange(row: ExchangeRateChangeRow): ExchangeRateChange {
  return { id: row.id, currency: row.currency, buy: row.buy, sell: row.sell, changedBy: row.changed_by, changedAt: row.changed_at };
}

/** The latest rate changes, newest first. */
export async function listExchangeRateHistory(db: D1Database, agencyId: string, limit: number): Promise<ExchangeRateChange[]> {
  const { results } = await db
    .prepare(`SELECT id, currency, buy, sell, changed_by, changed_at FROM exchange_rate_history WHERE agency_id = ?1 ORDER BY id DESC LIMIT ?2`)
    .bind(agencyId, limit)
    .all<ExchangeRateChangeRow>();
  return results.map(toExchangeRateChange);
}

/** Replaces the current rate of a currency (or sets the first one). */
export function upsertExchangeRateStatement(db: D1Database, agencyId: string, rate: { currency: string; buy: string; sell: string }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO exchange_rates (agency_id, currency, buy, sell, updated_at) VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
       ON CONFLICT (agency_id, currency) DO UPDATE SET buy = excluded.buy, sell = excluded.sell, updated_at = excluded.updated_at`,
    )
    .bind(agencyId, rate.currency, rate.buy, rate.sell);
}

export function insertExchangeRateHistoryStatement(
  db: D1Database,
  agencyId: string,
  rate: { currency: string; buy: string; sell: string },
  changedBy: string | null,
): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO exchange_rate_history (agency_id, currency, buy, sell, changed_by) VALUES (?1, ?2, ?3, ?4, ?5)`)
    .bind(agencyId, rate.currency, rate.buy, rate.sell, changedBy);
}

// ---- payments that matched no order (migration 0009)

const UNMATCHED_KINDS = ["UNKNOWN_REFERENCE", "AMOUNT_MISMATCH", "LATE_PAYMENT", "NO_ORDER", "AMBIGUOUS", "UNREADABLE"] as const;
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
  /** Own-account payments (migration 0017): the channel, who reported it, the bank's time, the raw text. */
  channelCode: string | null;
  source: string | null;
  bankTime: number | null;
  raw: string | null;
};

/** An unmatched_payments row with the usernames of the order's and the credited player. */
type UnmatchedPaymentRow = {
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
  channel_code: string | null;
  source: string | null;
  bank_time: number | null;
  raw: string | null;
};

const SELECT_UNMATCHED = `SELECT u.*, op.username AS order_username, rp.username AS resolved_username
  FROM unmatched_payments u
  LEFT JOIN players op ON op.id = u.order_player_id AND op.agency_id = u.agency_id
  LEFT JOIN players rp ON rp.id = u.resolved_player_id AND rp.agency_id = u.agency_id`;

function toUnmatchedPayment(r: UnmatchedPaymentRow): UnmatchedPayment {
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
    channelCode: r.channel_code,
    source: r.source,
    bankTime: r.bank_time,
    raw: r.raw,
  };
}

function newUnmatchedId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[b % 32]).join("");
}

/**
 * A webhook's transaction and amount on the row the back office recorded first for the same
 * flagged order (false: no such row).
 */
export async function fillFlaggedPaymentTransaction(
  db: D1Database,
  input: { agencyId: string; kind: UnmatchedKind; reference: string; transactionId: string; amount: string | null },
): Promise<boolean> {
  const filled = await db
    .prepare(
      `UPDATE unmatched_payments SET transaction_id = ?1, amount = ?2
        WHERE agency_id = ?3 AND kind = ?4 AND reference = ?5 AND kind <> 'UNKNOWN_REFERENCE' AND transaction_id IS NULL AND status = 'OPEN'`,
    )
    .bind(input.transactionId, input.amount, input.agencyId, input.kind, input.reference)
    .run();
  return (filled.meta.changes ?? 0) > 0;
}

/** A payment reported by the webhook; ignored when its transaction is already recorded. */
export async function insertUnmatchedPayment(
  db: D1Database,
  input: { agencyId: string; kind: UnmatchedKind; reference: string; transactionId: string; amount: string | null; orderPlayerId: string | null },
): Promise<void> {
  await db
    .prepare(
      `INSERT OR IGNORE INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, order_player_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    )
    .bind(newUnmatchedId(), input.agencyId, input.kind, input.reference, input.transactionId, input.amount, input.orderPlayerId)
    .run();
}

/**
 * A bank transaction of an own-account channel the matcher could not apply (NO_ORDER,
 * AMBIGUOUS, LATE_PAYMENT) or a text nobody could read (UNREADABLE), with the raw text for
 * staff. `transactionKey` is unique per agency + channel + bank id (or per unreadable text).
 */
export async function insertBankUnmatchedPayment(
  db: D1Database,
  input: {
    agencyId: string;
    kind: UnmatchedKind;
    reference: string;
    transactionKey: string;
    amount: string | null;
    orderPlayerId: string | null;
    channelCode: string;
    source: string;
    bankTime: number | null;
    raw: string | null;
  },
): Promise<void> {
  await db
    .prepare(
      `INSERT OR IGNORE INTO unmatched_payments (id, agency_id, kind, reference, transaction_id, amount, order_player_id, channel_code, source, bank_time, raw)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
    )
    .bind(
      newUnmatchedId(),
      input.agencyId,
      input.kind,
      input.reference,
      input.transactionKey,
      input.amount,
      input.orderPlayerId,
      input.channelCode,
      input.source,
      input.bankTime,
      input.raw === null ? null : input.raw.slice(0, 4000),
    )
    .run();
}

/** A flagged order found in the read model (no transaction yet); ignored when already recorded. */
export function insertFlaggedOrderPaymentStatement(
  db: D1Database,
  input: { agencyId: string; kind: UnmatchedKind; reference: string; amount: string | null; orderPlayerId: string },
): D1PreparedStatement {
  return db
    .prepare(`INSERT OR IGNORE INTO unmatched_payments (id, agency_id, kind, reference, amount, order_player_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
    .bind(newUnmatchedId(), input.agencyId, input.kind, input.reference, input.amount, input.orderPlayerId);
}

/**
 * A keyset page of the agency's unmatched payments, newest first (decision 077): one status, or
 * all still waiting (OPEN, RESOLVING); and the count up to COUNT_BOUND, in one batch.
 */
export async function listUnmatchedPayments(
  db: D1Database,
  agencyId: string,
  opts: { status: UnmatchedStatus | null; ask: ListAsk },
): Promise<ListPage<UnmatchedPayment> & { total: BoundedCount }> {
  const { params, param } = numberedParams(agencyId);
  const where = [opts.status ? `u.agency_id = ?1 AND u.status = ${param(opts.status)}` : `u.agency_id = ?1 AND u.status IN ('OPEN', 'RESOLVING')`];
  const countParams = [...params];
  const page = keysetSql({ at: "u.received_at", id: "u.id" }, "DESC", opts.ask, param);
  if (page.where) where.push(page.where);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(boundedCountSql(`FROM unmatched_payments u WHERE ${where[0]}`)).bind(...countParams),
    db.prepare(`${SELECT_UNMATCHED} WHERE ${where.join(" AND ")} ${page.orderBy} LIMIT ${page.limit}`).bind(...params),
  ]);
  const listed = pageOfRows((rows.results as UnmatchedPaymentRow[]).map(toUnmatchedPayment), opts.ask, (u) => ({ at: u.receivedAt, id: u.id }));
  return { ...listed, total: boundedCount(Number((count.results[0] as { n: number } | undefined)?.n ?? 0)) };
}

export async function findUnmatchedPayment(db: D1Database, agencyId: string, id: string): Promise<UnmatchedPayment | null> {
  const row = await db.prepare(`${SELECT_UNMATCHED} WHERE u.id = ?1 AND u.agency_id = ?2`).bind(id, agencyId).first<UnmatchedPaymentRow>();
  return row ? toUnmatchedPayment(row) : null;
}

/** Money still waiting for staff (not yet credited or refunded), for the dashboard's batch. */
export function countWaitingUnmatchedStatement(db: D1Database, agencyId: string): D1PreparedStatement {
  return db.prepare(`SELECT COUNT(*) AS n FROM unmatched_payments WHERE agency_id = ?1 AND status IN ('OPEN', 'RESOLVING')`).bind(agencyId);
}

/** The amount (and transaction) the gateway reports, on a row that had none. */
export async function fillUnmatchedAmount(db: D1Database, id: string, amount: string, transactionId: string | null): Promise<void> {
  await db
    .prepare(`UPDATE unmatched_payments SET amount = ?1, transaction_id = COALESCE(transaction_id, ?2) WHERE id = ?3 AND amount IS NULL`)
    .bind(amount, transactionId, id)
    .run();
}

/** The first payment recorded against an order reference (UNKNOWN_REFERENCE rows aside). */
export async function firstUnmatchedIdForReference(db: D1Database, agencyId: string, reference: string): Promise<string | null> {
  const first = await db
    .prepare(`SELECT id FROM unmatched_payments WHERE agency_id = ?1 AND reference = ?2 AND kind <> 'UNKNOWN_REFERENCE' ORDER BY received_at, id LIMIT 1`)
    .bind(agencyId, reference)
    .first<{ id: string }>();
  return first?.id ?? null;
}

/** When the credit of a RESOLVING payment was claimed (epoch ms), or null. */
export async function unmatchedClaimedAt(db: D1Database, id: string): Promise<number | null> {
  const row = await db.prepare(`SELECT claimed_at FROM unmatched_payments WHERE id = ?1`).bind(id).first<{ claimed_at: number | null }>();
  return row?.claimed_at ?? null;
}

/** Takes over a stale claim (false: someone else took it since `previous`). */
export async function renewUnmatchedClaim(db: D1Database, id: string, now: number, previous: number): Promise<boolean> {
  const taken = await db
    .prepare(`UPDATE unmatched_payments SET claimed_at = ?1 WHERE id = ?2 AND status = 'RESOLVING' AND claimed_at = ?3`)
    .bind(now, id, previous)
    .run();
  return (taken.meta.changes ?? 0) > 0;
}

/** The guarded claim OPEN -> RESOLVING with who gets what (changes nothing if not OPEN). */
export function claimUnmatchedForCreditStatement(
  db: D1Database,
  claim: {
    id: string;
    agencyId: string;
    playerId: string;
    provider: string;
    amount: string;
    credit: string;
    rateSell: string;
    manualCode: string;
    staffUsername: string | null;
    claimedAt: number;
    overrideReason: string | null;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE unmatched_payments SET status = 'RESOLVING', resolved_player_id = ?1, resolved_provider = ?2, amount = ?3, credit = ?4, rate_sell = ?5,
              manual_code = ?6, resolved_by = ?7, claimed_at = ?8, note = ?11
        WHERE id = ?9 AND agency_id = ?10 AND status = 'OPEN'`,
    )
    .bind(
      claim.playerId,
      claim.provider,
      claim.amount,
      claim.credit,
      claim.rateSell,
      claim.manualCode,
      claim.staffUsername,
      claim.claimedAt,
      claim.id,
      claim.agencyId,
      claim.overrideReason,
    );
}

/**
 * Own-account payments of the queue already credited by hand (or being credited) with the same
 * amount on the channel within the window of a bank time: a second hand credit of one transfer.
 */
export async function handCreditedNear(
  db: D1Database,
  agencyId: string,
  q: { channelCode: string; amount: string; bankTime: number; window: number; exceptId: string; receivedAt: number; coolDown: number },
): Promise<UnmatchedPayment[]> {
  // within the window of the payment's bank time; or, whatever times were typed, money of the
  // same order: the unique pay amount of an order whose life and cool-down hold both payments
  const { results } = await db
    .prepare(
      `${SELECT_UNMATCHED}
        WHERE u.agency_id = ?1 AND u.channel_code = ?2 AND u.amount = ?3 AND u.status IN ('RESOLVING', 'CREDITED') AND u.id <> ?6
          AND (u.bank_time BETWEEN ?4 - ?5 AND ?4 + ?5
               OR EXISTS (SELECT 1 FROM pay_amount_reservations r WHERE r.agency_id = ?1 AND r.channel_code = ?2 AND r.pay_amount = ?3
                             AND ?7 BETWEEN r.created_at - ?8 AND MIN(r.expires_at, COALESCE(r.ended_at, r.expires_at)) + ?8
                             AND u.bank_time BETWEEN r.created_at - ?8 AND r.expires_at + ?8))
        ORDER BY u.bank_time LIMIT 20`,
    )
    .bind(agencyId, q.channelCode, q.amount, q.bankTime, q.window, q.exceptId, q.receivedAt, q.coolDown)
    .all<UnmatchedPaymentRow>();
  return results.map(toUnmatchedPayment);
}

export function markUnmatchedCreditedStatement(db: D1Database, id: string, resolvedAt: string): D1PreparedStatement {
  return db.prepare(`UPDATE unmatched_payments SET status = 'CREDITED', resolved_at = ?1 WHERE id = ?2 AND status = 'RESOLVING'`).bind(resolvedAt, id);
}

/** The guarded OPEN -> REFUNDED with staff's note (changes nothing if not OPEN). */
export function markUnmatchedRefundedStatement(
  db: D1Database,
  refund: { id: string; agencyId: string; note: string; staffUsername: string | null; resolvedAt: string },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE unmatched_payments SET status = 'REFUNDED', note = ?1, resolved_by = ?2, resolved_at = ?3 WHERE id = ?4 AND agency_id = ?5 AND status = 'OPEN'`,
    )
    .bind(refund.note, refund.staffUsername, refund.resolvedAt, refund.id, refund.agencyId);
}

/**
 * A queue item its transfer no longer needs (the derivation found the transfer credited, or
 * another item speaking for it): deleted while still OPEN only; the report behind it is kept.
 */
export function deleteOpenUnmatchedStatement(db: D1Database, agencyId: string, id: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM unmatched_payments WHERE agency_id = ?1 AND id = ?2 AND status = 'OPEN'`).bind(agencyId, id);
}

/** A queued own-account payment staff credited to the order its pay amount belongs to (no MANUAL order: the order itself was paid). */
export function markUnmatchedCreditedToOrderStatement(
  db: D1Database,
  c: { id: string; agencyId: string; playerId: string; orderCode: string; staffUsername: string | null; note: string | null; resolvedAt: string },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE unmatched_payments SET status = 'CREDITED', resolved_player_id = ?3, note = COALESCE(?6, 'order ' || ?4), resolved_by = ?5, resolved_at = ?7
        WHERE id = ?1 AND agency_id = ?2 AND status = 'OPEN'`,
    )
    .bind(c.id, c.agencyId, c.playerId, c.orderCode, c.staffUsername, c.note, c.resolvedAt);
}

// ---- gateway transactions applied (migration 0004)

export function recordGatewayEventStatement(db: D1Database, transactionId: string, code: string): D1PreparedStatement {
  return db.prepare(`INSERT OR IGNORE INTO gateway_events (transaction_id, code) VALUES (?1, ?2)`).bind(transactionId, code);
}

// ---- webhook deliveries (migrations 0005, 0015)

/** Records a delivery's signature with the hash of its body (no change: the signature was seen before). */
export function recordWebhookSignatureStatement(db: D1Database, signature: string, bodySha256: string): D1PreparedStatement {
  return db.prepare(`INSERT OR IGNORE INTO webhook_signatures (signature, body_sha256) VALUES (?1, ?2)`).bind(signature, bodySha256);
}

export type WebhookDelivery = { bodySha256: string | null; answerStatus: number | null; answerJson: string | null };

export async function findWebhookDelivery(db: D1Database, signature: string): Promise<WebhookDelivery | null> {
  const row = await db
    .prepare(`SELECT body_sha256, answer_status, answer_json FROM webhook_signatures WHERE signature = ?1`)
    .bind(signature)
    .first<{ body_sha256: string | null; answer_status: number | null; answer_json: string | null }>();
  return row ? { bodySha256: row.body_sha256, answerStatus: row.answer_status, answerJson: row.answer_json } : null;
}

/** The answer given to a delivery, to give again when the same request is seen again. */
export function saveWebhookAnswerStatement(db: D1Database, signature: string, status: number, answerJson: string): D1PreparedStatement {
  return db.prepare(`UPDATE webhook_signatures SET answer_status = ?2, answer_json = ?3 WHERE signature = ?1`).bind(signature, status, answerJson);
}

// ---- own-account channels (migration 0016): the agency's own bank account, set up from its static LAO QR

export type QrMode = "derived" | "static";

/** An own-account channel as the owner's channel screen shows it. */
export type OwnAccountChannel = PaymentChannel & {
  staticQr: string;
  qrMode: QrMode;
  witnessWindowMinutes: number;
  /** the bank's fee per transfer out, whole kip (decision 084) */
  debitFee: string;
  /** the owner confirmed the bank reports a slip's OneProof reference as its own id (decision 087) */
  slipReferenceConfirmed: boolean;
};

type OwnAccountChannelRow = PaymentChannelRow & {
  static_qr: string;
  qr_mode: QrMode;
  witness_window_minutes: number;
  debit_fee: string;
  slip_reference_confirmed: number;
};

const toOwnAccountChannel = (row: OwnAccountChannelRow): OwnAccountChannel => ({
  ...toPaymentChannel(row),
  staticQr: row.static_qr,
  qrMode: row.qr_mode,
  witnessWindowMinutes: row.witness_window_minutes,
  debitFee: row.debit_fee,
  slipReferenceConfirmed: row.slip_reference_confirmed === 1,
});

export async function listOwnAccountChannels(db: D1Database, agencyId: string): Promise<OwnAccountChannel[]> {
  const { results } = await db
    .prepare(
      `SELECT ${CHANNEL_COLUMNS}, static_qr, qr_mode, witness_window_minutes, debit_fee, slip_reference_confirmed FROM payment_channels WHERE agency_id = ?1 AND gateway = 'own_account' ORDER BY active DESC, code`,
    )
    .bind(agencyId)
    .all<OwnAccountChannelRow>();
  return results.map(toOwnAccountChannel);
}

export async function findOwnAccountChannel(db: D1Database, agencyId: string, code: string): Promise<OwnAccountChannel | null> {
  const row = await db
    .prepare(
      `SELECT ${CHANNEL_COLUMNS}, static_qr, qr_mode, witness_window_minutes, debit_fee, slip_reference_confirmed FROM payment_channels WHERE agency_id = ?1 AND code = ?2 AND gateway = 'own_account'`,
    )
    .bind(agencyId, code)
    .first<OwnAccountChannelRow>();
  return row ? toOwnAccountChannel(row) : null;
}

/** Inserts an own-account channel unless its code exists (a concurrent create of the same code changes nothing). */
export function insertOwnAccountChannelStatement(
  db: D1Database,
  agencyId: string,
  channel: {
    code: string;
    displayName: string;
    bankCode: string;
    iin: string;
    receiverId: string;
    merchantName: string;
    merchantCity: string;
    staticQr: string;
    qrMode: QrMode;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO payment_channels (agency_id, code, mid, display_name, currency, bank_code, iin, merchant_name, merchant_city, gateway, active, static_qr, qr_mode)
       VALUES (?1, ?2, ?3, ?4, 'LAK', ?5, ?6, ?7, ?8, 'own_account', 1, ?9, ?10)`,
    )
    .bind(
      agencyId,
      channel.code,
      channel.receiverId,
      channel.displayName,
      channel.bankCode,
      channel.iin,
      channel.merchantName,
      channel.merchantCity,
      channel.staticQr,
      channel.qrMode,
    );
}

export function setOwnAccountQrModeStatement(db: D1Database, agencyId: string, code: string, mode: QrMode): D1PreparedStatement {
  return db.prepare(`UPDATE payment_channels SET qr_mode = ?3 WHERE agency_id = ?1 AND code = ?2 AND gateway = 'own_account'`).bind(agencyId, code, mode);
}

/** Whether a slip's OneProof reference is the id this channel's bank reports carry (decision 087). */
export function setSlipReferenceStatement(db: D1Database, agencyId: string, code: string, confirmed: boolean): D1PreparedStatement {
  return db
    .prepare(`UPDATE payment_channels SET slip_reference_confirmed = ?3 WHERE agency_id = ?1 AND code = ?2 AND gateway = 'own_account'`)
    .bind(agencyId, code, confirmed ? 1 : 0);
}

/** The window of the witness rule (minutes): reports of one amount this close in bank time are one transfer (decision 046). */
export function setWitnessWindowStatement(db: D1Database, agencyId: string, code: string, minutes: number): D1PreparedStatement {
  return db
    .prepare(`UPDATE payment_channels SET witness_window_minutes = ?3 WHERE agency_id = ?1 AND code = ?2 AND gateway = 'own_account'`)
    .bind(agencyId, code, minutes);
}
