/**
 * Bank transactions seen by the own-account matcher (migration 0017): one row per agency +
 * channel + the bank's transaction id, so a transaction is applied at most once however often
 * it is reported (staff, statement import, forwarder, or all three).
 */

export type BankTransactionOutcomeKind = "PENDING" | "APPLIED" | "NO_ORDER" | "AMBIGUOUS" | "LATE";

export type BankTransactionRecord = {
  channelCode: string;
  bankTransactionId: string;
  amount: string;
  bankTime: number;
  reference: string | null;
  source: "staff" | "statement" | "forwarder";
  raw: string | null;
  outcome: BankTransactionOutcomeKind;
  orderCode: string | null;
  playerId: string | null;
  recordedAt: number;
};

type Row = {
  channel_code: string;
  bank_transaction_id: string;
  amount: string;
  bank_time: number;
  reference: string | null;
  source: "staff" | "statement" | "forwarder";
  raw: string | null;
  outcome: BankTransactionOutcomeKind;
  order_code: string | null;
  player_id: string | null;
  recorded_at: number;
};

function toRecord(r: Row): BankTransactionRecord {
  return {
    channelCode: r.channel_code,
    bankTransactionId: r.bank_transaction_id,
    amount: r.amount,
    bankTime: r.bank_time,
    reference: r.reference,
    source: r.source,
    raw: r.raw,
    outcome: r.outcome,
    orderCode: r.order_code,
    playerId: r.player_id,
    recordedAt: r.recorded_at,
  };
}

export async function findBankTransaction(db: D1Database, agencyId: string, channelCode: string, bankTransactionId: string): Promise<BankTransactionRecord | null> {
  const row = await db
    .prepare(`SELECT * FROM bank_transactions WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id = ?3`)
    .bind(agencyId, channelCode, bankTransactionId)
    .first<Row>();
  return row ? toRecord(row) : null;
}

/**
 * Records a transaction with the order it is meant for (PENDING until the wallet has applied
 * it). false: the transaction was recorded before (by this call's twin, or any earlier one).
 */
export async function claimBankTransaction(
  db: D1Database,
  agencyId: string,
  input: Omit<BankTransactionRecord, "outcome" | "recordedAt"> & { outcome: BankTransactionOutcomeKind; staffUsername: string | null; recordedAt: number },
): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO bank_transactions (agency_id, channel_code, bank_transaction_id, amount, bank_time, reference, source, raw, outcome, order_code, player_id, staff_username, recorded_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
    )
    .bind(
      agencyId,
      input.channelCode,
      input.bankTransactionId,
      input.amount,
      input.bankTime,
      input.reference,
      input.source,
      input.raw,
      input.outcome,
      input.orderCode,
      input.playerId,
      input.staffUsername,
      input.recordedAt,
    )
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** What the wallet made of a PENDING transaction. */
export async function settleBankTransaction(db: D1Database, agencyId: string, channelCode: string, bankTransactionId: string, outcome: BankTransactionOutcomeKind): Promise<void> {
  await db
    .prepare(`UPDATE bank_transactions SET outcome = ?4 WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id = ?3`)
    .bind(agencyId, channelCode, bankTransactionId, outcome)
    .run();
}
