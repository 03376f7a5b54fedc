/**
 * provider_attempts (migration 0032, decision 049): each call a wallet's sagas made to a game
 * provider, with its outcome. Written only by the wallet's projection (one statement per
 * attempt, in the batch that copies the wallet's deposits); read by the dashboard (and the
 * staff alerts); pruned by the 5-minute cron. Also the dashboard's other provider figure:
 * the deposits paid and still waiting for their provider's credit (deposit_orders_view).
 */
import type { AttemptOp, AttemptOutcome } from "../core/provider-attempts";

export type ProviderAttemptCopy = {
  agencyId: string;
  playerId: string;
  /** The wallet outbox's row id: a copy sent again is written once. */
  seq: number;
  provider: string;
  orderCode: string;
  reference: string;
  op: AttemptOp;
  outcome: AttemptOutcome;
  errorCode: string | null;
  detail: string | null;
  /** ISO time of the answer. */
  at: string;
};

export function insertProviderAttemptStatement(db: D1Database, a: ProviderAttemptCopy): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO provider_attempts (agency_id, player_id, seq, provider, order_code, reference, op, outcome, error_code, detail, at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (player_id, seq) DO NOTHING`,
    )
    .bind(a.agencyId, a.playerId, a.seq, a.provider, a.orderCode, a.reference, a.op, a.outcome, a.errorCode, a.detail, a.at);
}

export type ProviderFailures = { provider: string; timeouts: number; errors: number; lastFailureAt: string };

/** Per provider, the timeouts and errors answered at or after `sinceIso` (providers without any are left out). */
export async function recentProviderFailures(db: D1Database, agencyId: string, sinceIso: string, untilIso: string): Promise<ProviderFailures[]> {
  const { results } = await db
    .prepare(
      `SELECT provider, SUM(outcome = 'timeout') AS timeouts, SUM(outcome = 'error') AS errors, MAX(at) AS last_at
         FROM provider_attempts
        WHERE agency_id = ?1 AND at >= ?2 AND at <= ?3 AND outcome IN ('timeout', 'error')
        GROUP BY provider ORDER BY provider`,
    )
    .bind(agencyId, sinceIso, untilIso)
    .all<{ provider: string; timeouts: number; errors: number; last_at: string }>();
  return results.map((r) => ({ provider: r.provider, timeouts: Number(r.timeouts), errors: Number(r.errors), lastFailureAt: r.last_at }));
}

/** Deposits paid and not yet credited at their provider (PAID), with the oldest one's paid time. */
export async function waitingDeposits(db: D1Database, agencyId: string): Promise<{ count: number; oldestPaidAt: string | null }> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS n, MIN(COALESCE(paid_at, created_at)) AS oldest FROM deposit_orders_view WHERE agency_id = ?1 AND status = 'PAID'`)
    .bind(agencyId)
    .first<{ n: number; oldest: string | null }>();
  return { count: Number(row?.n ?? 0), oldestPaidAt: row?.oldest ?? null };
}

/** The cron's prune: up to `limit` rows answered before `beforeIso`, oldest first, every agency (the index on `at`). */
export async function deleteProviderAttemptsBefore(db: D1Database, beforeIso: string, limit: number): Promise<number> {
  const result = await db
    .prepare(`DELETE FROM provider_attempts WHERE rowid IN (SELECT rowid FROM provider_attempts WHERE at < ?1 ORDER BY at LIMIT ?2)`)
    .bind(beforeIso, limit)
    .run();
  return result.meta.changes ?? 0;
}
