import type { RewardKind } from "../core/reward";
import type { Provider } from "../core/providers";

/** The rewards table's statements (schema.ts v5); synchronous like the rest of the wallet's storage. */

export type RewardRow = {
  code: string;
  claim_key: string | null;
  kind: RewardKind;
  period: string;
  provider: Provider;
  amount_minor: string;
  turnover_multiple: string;
  turnover_target_minor: string;
  turnover_start_minor: string | null;
  turnover_since: number | null;
  turnover_met_at: number | null;
  basis_json: string;
  status: "PENDING" | "SUCCESS" | "FAILED";
  reason: string | null;
  attempts: number;
  next_attempt_at: number | null;
  created_at: number;
  settled_at: number | null;
  projected: number;
  released_key: string | null;
  reference: string | null;
  retries: number;
};

export class RewardStore {
  constructor(private readonly sql: SqlStorage) {}

  private rows(query: string, ...args: (string | number | null)[]): RewardRow[] {
    return this.sql.exec<RewardRow>(query, ...args).toArray();
  }

  byCode(code: string): RewardRow | null {
    return this.rows(`SELECT * FROM rewards WHERE code = ?`, code)[0] ?? null;
  }

  byClaimKey(key: string): RewardRow | null {
    return this.rows(`SELECT * FROM rewards WHERE claim_key = ?`, key)[0] ?? null;
  }

  insertPending(input: {
    code: string;
    claimKey: string;
    kind: RewardKind;
    period: string;
    provider: Provider;
    amountMinor: string;
    turnoverMultiple: string;
    turnoverTargetMinor: string;
    basisJson: string;
    now: number;
  }): void {
    this.sql.exec(
      `INSERT INTO rewards (code, claim_key, kind, period, provider, amount_minor, turnover_multiple, turnover_target_minor, basis_json, status, created_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?)`,
      input.code,
      input.claimKey,
      input.kind,
      input.period,
      input.provider,
      input.amountMinor,
      input.turnoverMultiple,
      input.turnoverTargetMinor,
      input.basisJson,
      input.now,
      input.now,
    );
  }

  recordAttempt(code: string, attempt: number, nextAttemptAt: number): void {
    this.sql.exec(`UPDATE rewards SET attempts = ?, next_attempt_at = ? WHERE code = ? AND status = 'PENDING'`, attempt, nextAttemptAt, code);
  }

  recordTurnoverStart(code: string, startMinor: bigint, since: number): void {
    this.sql.exec(
      `UPDATE rewards SET turnover_start_minor = ?, turnover_since = ? WHERE code = ? AND turnover_start_minor IS NULL`,
      startMinor.toString(),
      since,
      code,
    );
  }

  /** PENDING -> SUCCESS or FAILED, once; a FAILED reward gives its claim key up (kept aside for a staff retry). */
  finish(code: string, to: "SUCCESS" | "FAILED", reason: string | null, now: number): boolean {
    const cursor = this.sql.exec(
      `UPDATE rewards SET status = ?, reason = ?, settled_at = ?, next_attempt_at = NULL, projected = 0${to === "FAILED" ? ", released_key = claim_key, claim_key = NULL" : ""}
        WHERE code = ? AND status = 'PENDING'`,
      to,
      reason,
      now,
      code,
    );
    return cursor.rowsWritten > 0;
  }

  /**
   * Staff retry: FAILED -> PENDING, only at the retry count the staff member saw, taking the
   * claim key back. "claimed-again": the player claimed this period again since (the UNIQUE
   * claim key refuses), so this reward stays FAILED. `freshTurnover`: the credit has not
   * landed, so the turnover counter is read again before it (bets before the retry do not count).
   */
  retake(code: string, expectedRetries: number, reference: string, freshTurnover: boolean, now: number): "ok" | "stale" | "claimed-again" {
    try {
      const cursor = this.sql.exec(
        `UPDATE rewards SET status = 'PENDING', claim_key = released_key, released_key = NULL, reference = ?, retries = retries + 1, attempts = 0,
                next_attempt_at = ?, reason = NULL, settled_at = NULL, projected = 0${freshTurnover ? ", turnover_start_minor = NULL, turnover_since = NULL" : ""}
          WHERE code = ? AND status = 'FAILED' AND retries = ?`,
        reference,
        now,
        code,
        expectedRetries,
      );
      return cursor.rowsWritten > 0 ? "ok" : "stale";
    } catch (error) {
      if (String(error).includes("UNIQUE")) return "claimed-again";
      throw error;
    }
  }

  markTurnoverMet(code: string, now: number): void {
    this.sql.exec(`UPDATE rewards SET turnover_met_at = ?, projected = 0 WHERE code = ? AND status = 'SUCCESS' AND turnover_met_at IS NULL`, now, code);
  }

  dueForSettlement(now: number): RewardRow[] {
    return this.rows(`SELECT * FROM rewards WHERE status = 'PENDING' AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY created_at`, now);
  }

  /** Rewards at this provider that hold a withdrawal from it: not credited yet, or credited with turnover still to play. */
  holdingWithdraw(provider: string): RewardRow[] {
    return this.rows(
      `SELECT * FROM rewards WHERE provider = ? AND (status = 'PENDING' OR (status = 'SUCCESS' AND turnover_met_at IS NULL AND turnover_target_minor <> '0')) ORDER BY created_at`,
      provider,
    );
  }

  count(kind: RewardKind | null): number {
    return kind
      ? this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM rewards WHERE kind = ?`, kind).one().n
      : this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM rewards`).one().n;
  }

  page(kind: RewardKind | null, page: number, pageSize: number): RewardRow[] {
    return kind
      ? this.rows(`SELECT * FROM rewards WHERE kind = ? ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, kind, pageSize, (page - 1) * pageSize)
      : this.rows(`SELECT * FROM rewards ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, pageSize, (page - 1) * pageSize);
  }

  unprojected(): RewardRow[] {
    return this.rows(`SELECT * FROM rewards WHERE projected = 0 LIMIT 200`);
  }

  unprojectedCount(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM rewards WHERE projected = 0`).one().n;
  }

  /** Marked copied only if unchanged since it was read (a change in flight keeps it marked). */
  markProjected(row: RewardRow): void {
    this.sql.exec(
      `UPDATE rewards SET projected = 1 WHERE code = ? AND status = ? AND settled_at IS ? AND turnover_met_at IS ? AND retries = ?`,
      row.code,
      row.status,
      row.settled_at,
      row.turnover_met_at,
      row.retries,
    );
  }

  markAllUnprojected(): void {
    this.sql.exec(`UPDATE rewards SET projected = 0`);
  }
}
