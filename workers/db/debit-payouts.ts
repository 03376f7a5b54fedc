import type { OpenPayout, PayeeEvidence } from "../core/debit-payout";
import type { WitnessSource } from "../core/bank-witness";

/**
 * Withdrawals closed by the bank's debit, and the candidates of debits that wait for the
 * cashier (migration 0047, decision 084). A payout is tied to the debit REPORT whose transfer
 * paid it, as credits are (decision 069): transfers are derived again as reports arrive.
 */

/** Sets an own-account channel's fee per transfer out (whole kip). */
export function setDebitFeeStatement(db: D1Database, agencyId: string, channelCode: string, fee: string): D1PreparedStatement {
  return db
    .prepare(`UPDATE payment_channels SET debit_fee = ?3 WHERE agency_id = ?1 AND code = ?2 AND gateway = 'own_account'`)
    .bind(agencyId, channelCode, fee);
}

type OpenPayoutRow = { code: string; player_id: string; received: string; created_at: string; account_number: string | null; account_name: string | null };

/**
 * What matching a channel's debits needs, in one round trip: the fee the owner declared for the
 * channel ('0' when none), and every withdrawal of the agency waiting for the cashier (the
 * manual queue: OPEN, review MANUAL, no decision recorded) with the account it is paid to. The
 * wallet judges again whether one may still be decided; this is who a debit may be for.
 */
export async function debitMatchingFacts(db: D1Database, agencyId: string, channelCode: string): Promise<{ fee: string; open: OpenPayout[] }> {
  const [fee, open] = await db.batch([
    db.prepare(`SELECT debit_fee FROM payment_channels WHERE agency_id = ?1 AND code = ?2`).bind(agencyId, channelCode),
    db
      .prepare(
        `SELECT v.code, v.player_id, v.received, v.created_at, b.account_number, b.account_name
           FROM withdraw_orders_view v
           LEFT JOIN bank_accounts b ON b.player_id = v.player_id AND b.agency_id = v.agency_id
          WHERE v.agency_id = ?1 AND v.status = 'OPEN' AND v.review = 'MANUAL'
            AND NOT EXISTS (SELECT 1 FROM withdraw_reviews r WHERE r.code = v.code AND r.state = 'DONE')`,
      )
      .bind(agencyId),
  ]);
  return {
    fee: (fee.results[0] as { debit_fee: string } | undefined)?.debit_fee ?? "0",
    open: (open.results as OpenPayoutRow[]).map((r) => ({
      code: r.code,
      playerId: r.player_id,
      amount: r.received,
      openedAt: Date.parse(r.created_at),
      accountNumber: r.account_number,
      accountName: r.account_name,
    })),
  };
}

export type DebitReportRef = { channelCode: string; source: WitnessSource; witnessId: string };
export type DebitPayout = DebitReportRef & { withdrawCode: string; amount: string; fee: string; evidence: PayeeEvidence; paidAt: number };

/** Ties a withdrawal to the debit report that paid it (ignored when the withdrawal has its debit already). */
export function insertDebitPayoutStatement(db: D1Database, agencyId: string, p: DebitPayout): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO bank_debit_payouts (agency_id, withdraw_code, channel_code, source, witness_id, amount, fee, evidence, paid_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
    )
    .bind(agencyId, p.withdrawCode, p.channelCode, p.source, p.witnessId, p.amount, p.fee, p.evidence, p.paidAt);
}

/** The candidates a derivation found for a debit's reports: the old ones of each report go first. */
export function clearDebitCandidatesStatement(db: D1Database, agencyId: string, r: DebitReportRef): D1PreparedStatement {
  return db
    .prepare(`DELETE FROM bank_debit_candidates WHERE agency_id = ?1 AND channel_code = ?2 AND source = ?3 AND witness_id = ?4`)
    .bind(agencyId, r.channelCode, r.source, r.witnessId);
}

export function insertDebitCandidateStatement(
  db: D1Database,
  agencyId: string,
  r: DebitReportRef & { withdrawCode: string; evidence: PayeeEvidence; foundAt: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO bank_debit_candidates (agency_id, channel_code, source, witness_id, withdraw_code, evidence, found_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    )
    .bind(agencyId, r.channelCode, r.source, r.witnessId, r.withdrawCode, r.evidence, r.foundAt);
}

/** A debit that may be a withdrawal's payout, as the withdrawal's page shows it. */
export type DebitCandidate = DebitReportRef & {
  amount: string;
  bankTime: number;
  raw: string | null;
  evidence: PayeeEvidence;
  /** the other withdrawals it may be */
  others: string[];
};

/** The debits waiting for the cashier that may be this withdrawal's payout. */
export async function debitCandidatesOf(db: D1Database, agencyId: string, withdrawCode: string): Promise<DebitCandidate[]> {
  const { results } = await db
    .prepare(
      `SELECT c.channel_code, c.source, c.witness_id, c.evidence, w.amount, w.bank_time, w.raw,
              (SELECT group_concat(o.withdraw_code) FROM bank_debit_candidates o
                WHERE o.agency_id = c.agency_id AND o.channel_code = c.channel_code AND o.source = c.source AND o.witness_id = c.witness_id
                  AND o.withdraw_code <> c.withdraw_code) AS others
         FROM bank_debit_candidates c
         JOIN bank_witnesses w ON w.agency_id = c.agency_id AND w.channel_code = c.channel_code AND w.source = c.source AND w.witness_id = c.witness_id
        WHERE c.agency_id = ?1 AND c.withdraw_code = ?2
        ORDER BY w.bank_time, c.witness_id
        LIMIT 20`,
    )
    .bind(agencyId, withdrawCode)
    .all<{
      channel_code: string;
      source: WitnessSource;
      witness_id: string;
      evidence: PayeeEvidence;
      amount: string;
      bank_time: number;
      raw: string | null;
      others: string | null;
    }>();
  return results.map((r) => ({
    channelCode: r.channel_code,
    source: r.source,
    witnessId: r.witness_id,
    evidence: r.evidence,
    amount: r.amount,
    bankTime: Number(r.bank_time),
    raw: r.raw,
    others: r.others ? r.others.split(",").sort() : [],
  }));
}

/** The debit that closed a withdrawal, if one did. */
export async function debitPayoutOf(db: D1Database, agencyId: string, withdrawCode: string): Promise<DebitPayout | null> {
  const row = await db.prepare(`SELECT * FROM bank_debit_payouts WHERE agency_id = ?1 AND withdraw_code = ?2`).bind(agencyId, withdrawCode).first<{
    withdraw_code: string;
    channel_code: string;
    source: WitnessSource;
    witness_id: string;
    amount: string;
    fee: string;
    evidence: PayeeEvidence;
    paid_at: number;
  }>();
  return row
    ? {
        withdrawCode: row.withdraw_code,
        channelCode: row.channel_code,
        source: row.source,
        witnessId: row.witness_id,
        amount: row.amount,
        fee: row.fee,
        evidence: row.evidence,
        paidAt: Number(row.paid_at),
      }
    : null;
}
