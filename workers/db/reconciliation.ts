/**
 * The SQL of the reconciliation page (decision 047): the bank's
 * transfers and their witnesses (migration 0030) with what became of them (payments queue,
 * deposit read model), the withdrawals staff marked paid, the statement imports' ranges, the
 * channels' windows and the staff notes of a day. Times are ms, except the read models' ISO
 * strings, turned into ms here.
 */
import type { CreditRow, DebitRow, FutureRow, ImportRange, Note, PayoutRow, ReportedDeposits } from "../core/reconciliation";
import type { WitnessSource } from "../core/bank-witness";

export type Span = { from: number; to: number };

const ms = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);
const sourcesOf = (text: string | null): WitnessSource[] => [...new Set((text ?? "").split(",").filter(Boolean))].sort() as WitnessSource[];

/** The sources of a transfer's reports (?1 is the agency). */
const WITNESSES = `
  (SELECT group_concat(w.source) FROM bank_witnesses w WHERE w.agency_id = bt.agency_id AND w.channel_code = bt.channel_code AND w.transfer_id = bt.bank_transaction_id) AS sources`;

type CreditSqlRow = {
  channel_code: string;
  bank_transaction_id: string;
  amount: string;
  bank_time: number;
  outcome: CreditRow["outcome"];
  order_code: string | null;
  sources: string | null;
  credits: number;
  credits_json: string | null;
  queue_id: string | null;
  queue_status: "OPEN" | "RESOLVING" | "CREDITED" | "REFUNDED" | null;
  manual_code: string | null;
  queue_note: string | null;
  deposit_code: string | null;
  provider: string | null;
  paid_at: string | null;
  paid_minor: number | null;
  credit_minor: number | null;
};

/**
 * The codes of the credits a transfer's reports caused (bank_credits, decision 069), as JSON, read
 * for a transfer the derivation counted two unsettled credits on (credited twice): from the
 * transfer's reports to their credits (CROSS JOIN keeps that order: without statistics SQLite read
 * every credit of the channel for each transfer).
 */
const TWICE_CREDITS = `
  CASE WHEN bt.credits >= 2 THEN
  (SELECT json_group_array(json_object('code', c.code, 'settled', c.settled))
     FROM bank_witnesses w CROSS JOIN bank_credits c ON c.agency_id = w.agency_id AND c.channel_code = w.channel_code AND c.source = w.source AND c.witness_id = w.witness_id
    WHERE w.agency_id = bt.agency_id AND w.channel_code = bt.channel_code AND w.transfer_id = bt.bank_transaction_id) END AS credits_json`;

/**
 * Bank credits of the span, and the transfers of the deposits the reports count in `reported`
 * (applied to their order, or credited by hand from the queue), each with what the derivation
 * (decision 069) says became of it: how many unsettled credits it caused (`credits`, what the
 * derivation wrote), its queue item and the deposit it credited (SUCCESS only). Without their raw texts: a page reads those for its own lines
 * (`loadCreditTexts`).
 */
export async function loadCredits(db: D1Database, agencyId: string, span: Span, reported: { fromIso: string; toIso: string }): Promise<CreditRow[]> {
  const { results } = await db
    .prepare(
      `WITH picked AS (
         SELECT channel_code, bank_transaction_id FROM bank_transactions
          WHERE agency_id = ?1 AND direction = 'credit' AND bank_time >= ?2 AND bank_time < ?3
         UNION
         SELECT w.channel_code, w.transfer_id FROM deposit_orders_view d
           JOIN bank_credits c ON c.agency_id = d.agency_id AND c.code = d.code
           JOIN bank_witnesses w ON w.agency_id = c.agency_id AND w.channel_code = c.channel_code AND w.source = c.source AND w.witness_id = c.witness_id
          WHERE d.agency_id = ?1 AND d.paid_at >= ?4 AND d.paid_at < ?5 AND d.status = 'SUCCESS'
       )
       SELECT bt.channel_code, bt.bank_transaction_id, bt.amount, bt.bank_time, bt.outcome, bt.order_code, bt.credits, ${WITNESSES}, ${TWICE_CREDITS},
              u.id AS queue_id, u.status AS queue_status, u.manual_code, u.note AS queue_note,
              d.code AS deposit_code, d.provider, d.paid_at, d.paid_minor, d.credit_minor
         FROM picked p
         JOIN bank_transactions bt ON bt.agency_id = ?1 AND bt.channel_code = p.channel_code AND bt.bank_transaction_id = p.bank_transaction_id AND bt.direction = 'credit'
         LEFT JOIN unmatched_payments u ON u.id = bt.queue_id AND u.agency_id = ?1
         LEFT JOIN deposit_orders_view d ON d.code = CASE WHEN bt.outcome = 'APPLIED' THEN bt.order_code ELSE u.manual_code END
               AND d.agency_id = ?1 AND d.status = 'SUCCESS'
        ORDER BY bt.bank_time, bt.bank_transaction_id`,
    )
    .bind(agencyId, span.from, span.to, reported.fromIso, reported.toIso)
    .all<CreditSqlRow>();
  return results.map((r) => ({
    channelCode: r.channel_code,
    transferId: r.bank_transaction_id,
    amount: r.amount,
    bankTime: Number(r.bank_time),
    raw: null,
    outcome: r.outcome,
    orderCode: r.order_code,
    sources: sourcesOf(r.sources),
    unsettled: {
      n: Number(r.credits),
      codes: (JSON.parse(r.credits_json ?? "[]") as { code: string; settled: string | null }[])
        .filter((c) => c.settled === null)
        .map((c) => c.code)
        .sort((a, b) => a.localeCompare(b)),
    },
    queue: r.queue_status && r.queue_id ? { id: r.queue_id, status: r.queue_status, manualCode: r.manual_code, note: r.queue_note } : null,
    deposit:
      r.deposit_code && r.paid_at
        ? {
            code: r.deposit_code,
            provider: r.provider ?? "",
            paidAt: ms(r.paid_at)!,
            kipMinor: Number(r.paid_minor ?? 0),
            creditMinor: Number(r.credit_minor ?? 0),
          }
        : null,
  }));
}

/**
 * The raw texts of some credit transfers (the lines of one page, or one chunk of the CSV): the
 * key report's, else the first report's that has one. Keyed `channel:transfer`. The keys drive
 * (CROSS JOIN): each is one lookup by the transfer's key.
 */
export async function loadCreditTexts(
  db: D1Database,
  agencyId: string,
  transfers: readonly { channelCode: string; transferId: string }[],
): Promise<Map<string, string>> {
  if (transfers.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `SELECT bt.channel_code, bt.bank_transaction_id,
              COALESCE(bt.raw, (SELECT w.raw FROM bank_witnesses w WHERE w.agency_id = bt.agency_id AND w.channel_code = bt.channel_code
                                   AND w.transfer_id = bt.bank_transaction_id AND w.raw IS NOT NULL ORDER BY w.recorded_at LIMIT 1)) AS raw
         FROM json_each(?2) k
         CROSS JOIN bank_transactions bt ON bt.agency_id = ?1 AND bt.channel_code = k.value ->> '$[0]' AND bt.bank_transaction_id = k.value ->> '$[1]'`,
    )
    .bind(agencyId, JSON.stringify(transfers.map((t) => [t.channelCode, t.transferId])))
    .all<{ channel_code: string; bank_transaction_id: string; raw: string | null }>();
  return new Map(results.filter((r) => r.raw !== null).map((r) => [`${r.channel_code}:${r.bank_transaction_id}`, r.raw!]));
}

/** Reports dated after they arrived (beyond the clock grace) that arrived within the span: listed on the day they arrived. */
export async function loadFutureReports(db: D1Database, agencyId: string, span: Span): Promise<FutureRow[]> {
  const { results } = await db
    .prepare(
      `SELECT channel_code, source, witness_id, direction, amount, bank_time, recorded_at, raw FROM bank_witnesses
        WHERE agency_id = ?1 AND future = 1 AND recorded_at >= ?2 AND recorded_at < ?3 ORDER BY recorded_at, witness_id`,
    )
    .bind(agencyId, span.from, span.to)
    .all<{
      channel_code: string;
      source: WitnessSource;
      witness_id: string;
      direction: "credit" | "debit";
      amount: string;
      bank_time: number;
      recorded_at: number;
      raw: string | null;
    }>();
  return results.map((r) => ({
    channelCode: r.channel_code,
    source: r.source,
    witnessId: r.witness_id,
    direction: r.direction,
    amount: r.amount,
    bankTime: Number(r.bank_time),
    receivedAt: Number(r.recorded_at),
    raw: r.raw,
  }));
}

/**
 * Bank debits of the span (statement debit rows, forwarded debit messages), in no order (the
 * pairing orders what it compares): sorted here, SQLite preferred the index of every transfer by
 * time to the debits' own.
 */
export async function loadDebits(db: D1Database, agencyId: string, span: Span): Promise<DebitRow[]> {
  const { results } = await db
    .prepare(
      `SELECT bt.channel_code, bt.bank_transaction_id, bt.amount, bt.bank_time, bt.raw, bt.order_code, ${WITNESSES},
              (SELECT pc.debit_fee FROM payment_channels pc WHERE pc.agency_id = bt.agency_id AND pc.code = bt.channel_code) AS fee
         FROM bank_transactions bt
        WHERE bt.agency_id = ?1 AND bt.direction = 'debit' AND bt.bank_time >= ?2 AND bt.bank_time < ?3`,
    )
    .bind(agencyId, span.from, span.to)
    .all<{
      channel_code: string;
      bank_transaction_id: string;
      amount: string;
      bank_time: number;
      raw: string | null;
      order_code: string | null;
      sources: string | null;
      fee: string | null;
    }>();
  return results.map((r) => ({
    channelCode: r.channel_code,
    transferId: r.bank_transaction_id,
    amount: r.amount,
    bankTime: Number(r.bank_time),
    raw: r.raw,
    sources: sourcesOf(r.sources),
    // a debit transfer's order_code is the withdrawal it closed (decision 084)
    withdrawal: r.order_code,
    fee: r.fee ?? "0",
  }));
}

/**
 * Withdrawals staff (or the operator API) marked paid within the span, with the kip paid out,
 * the credit taken from the provider, and the player's account number (bank_accounts: the one
 * account a player has; an owner replaces it only while no withdrawal is open).
 */
export async function loadPayouts(db: D1Database, agencyId: string, span: Span): Promise<PayoutRow[]> {
  const { results } = await db
    .prepare(
      `SELECT r.code, r.decided_at, w.provider, w.received, w.credit_minor, w.created_at, w.paid_at, b.account_number
         FROM withdraw_reviews r
         JOIN withdraw_orders_view w ON w.code = r.code AND w.agency_id = r.agency_id
         LEFT JOIN bank_accounts b ON b.agency_id = w.agency_id AND b.player_id = w.player_id
        WHERE r.agency_id = ?1 AND r.decided_at >= ?2 AND r.decided_at < ?3 AND r.decision = 'PAID' AND r.state = 'DONE'
        ORDER BY r.decided_at, r.code`,
    )
    .bind(agencyId, span.from, span.to)
    .all<{
      code: string;
      decided_at: number;
      provider: string;
      received: string;
      credit_minor: number | null;
      created_at: string;
      paid_at: string | null;
      account_number: string | null;
    }>();
  return results.map((r) => ({
    code: r.code,
    provider: r.provider,
    amount: r.received,
    creditMinor: Number(r.credit_minor ?? 0),
    accountNumber: r.account_number,
    requestedAt: ms(r.created_at) ?? Number(r.decided_at),
    markedPaidAt: Number(r.decided_at),
    reportsAt: ms(r.paid_at),
  }));
}

/**
 * Deposits the reports count in the window (SUCCESS by paid time) that came through an
 * own-account channel or its queue, per provider: how many, their kip and their credit.
 */
export async function loadReportedDeposits(db: D1Database, agencyId: string, reported: { fromIso: string; toIso: string }): Promise<ReportedDeposits[]> {
  const { results } = await db
    .prepare(
      `SELECT d.provider, COUNT(*) AS n, TOTAL(d.paid_minor) AS kip_minor, TOTAL(d.credit_minor) AS credit_minor FROM deposit_orders_view d
        WHERE d.agency_id = ?1 AND d.paid_at >= ?2 AND d.paid_at < ?3 AND d.status = 'SUCCESS'
          AND (d.channel_code IN (SELECT code FROM payment_channels WHERE agency_id = ?1 AND gateway = 'own_account')
               OR (d.channel_code = 'MANUAL' AND EXISTS (SELECT 1 FROM unmatched_payments u WHERE u.manual_code = d.code AND u.agency_id = ?1 AND u.channel_code IS NOT NULL)))
        GROUP BY d.provider`,
    )
    .bind(agencyId, reported.fromIso, reported.toIso)
    .all<{ provider: string; n: number; kip_minor: number; credit_minor: number }>();
  return results.map((r) => ({ provider: r.provider, n: Number(r.n), kipMinor: Number(r.kip_minor), creditMinor: Number(r.credit_minor) }));
}

/** Statement imports whose bank-time range overlaps the span. */
export async function loadStatementImports(db: D1Database, agencyId: string, span: Span): Promise<ImportRange[]> {
  const { results } = await db
    .prepare(`SELECT channel_code, bank_time_from, bank_time_to FROM statement_imports WHERE agency_id = ?1 AND bank_time_from < ?3 AND bank_time_to >= ?2`)
    .bind(agencyId, span.from, span.to)
    .all<{ channel_code: string; bank_time_from: number; bank_time_to: number }>();
  return results.map((r) => ({ channelCode: r.channel_code, from: Number(r.bank_time_from), to: Number(r.bank_time_to) }));
}

/** The witness window (minutes) of each own-account channel. */
export async function loadWitnessWindows(db: D1Database, agencyId: string): Promise<Record<string, number>> {
  const { results } = await db
    .prepare(`SELECT code, witness_window_minutes FROM payment_channels WHERE agency_id = ?1 AND gateway = 'own_account'`)
    .bind(agencyId)
    .all<{ code: string; witness_window_minutes: number }>();
  return Object.fromEntries(results.map((r) => [r.code, Number(r.witness_window_minutes)]));
}

export async function loadReconciliationNotes(db: D1Database, agencyId: string, bankDay: string): Promise<Record<string, Note>> {
  const { results } = await db
    .prepare(`SELECT line_key, note, staff_username, noted_at FROM reconciliation_notes WHERE agency_id = ?1 AND bank_day = ?2`)
    .bind(agencyId, bankDay)
    .all<{ line_key: string; note: string; staff_username: string | null; noted_at: number }>();
  return Object.fromEntries(results.map((r) => [r.line_key, { note: r.note, staffUsername: r.staff_username, notedAt: Number(r.noted_at) }]));
}

/** A staff note on a difference of a day: written, or replaced (the audit log keeps the one before). */
export function saveReconciliationNoteStatement(db: D1Database, agencyId: string, bankDay: string, lineKey: string, note: Note): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO reconciliation_notes (agency_id, bank_day, line_key, note, staff_username, noted_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (agency_id, bank_day, line_key) DO UPDATE SET note = excluded.note, staff_username = excluded.staff_username, noted_at = excluded.noted_at`,
    )
    .bind(agencyId, bankDay, lineKey, note.note, note.staffUsername, note.notedAt);
}
