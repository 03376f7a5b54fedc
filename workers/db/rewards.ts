/**
 * reward_claims (0026): the rewards the players' wallets credited (cashback, referral
 * share), copied by the wallet's projection; the claims reports read it.
 */
import type { RewardKind } from "../core/reward";

export type RewardView = {
  code: string;
  agencyId: string;
  playerId: string;
  kind: RewardKind;
  period: string;
  provider: string;
  amount: string;
  amountMinor: number;
  status: "PENDING" | "SUCCESS" | "FAILED";
  reason: string | null;
  turnoverTarget: string;
  turnoverMet: boolean;
  createdAt: number;
  settledAt: number | null;
  retries: number;
};

export function upsertRewardViewStatement(db: D1Database, view: RewardView): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO reward_claims (code, agency_id, player_id, kind, period, provider, amount, amount_minor, status, reason, turnover_target, turnover_met, created_at, settled_at, updated_at, retries)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
       ON CONFLICT(code) DO UPDATE SET status = excluded.status, reason = excluded.reason, turnover_met = excluded.turnover_met,
         settled_at = excluded.settled_at, updated_at = excluded.updated_at, retries = excluded.retries`,
    )
    .bind(
      view.code,
      view.agencyId,
      view.playerId,
      view.kind,
      view.period,
      view.provider,
      view.amount,
      view.amountMinor,
      view.status,
      view.reason,
      view.turnoverTarget,
      view.turnoverMet ? 1 : 0,
      new Date(view.createdAt).toISOString(),
      view.settledAt === null ? null : new Date(view.settledAt).toISOString(),
      new Date().toISOString(),
      view.retries,
    );
}

export type RewardClaimRow = {
  code: string;
  playerId: string;
  username: string;
  kind: RewardKind;
  period: string;
  provider: string;
  amount: string;
  status: string;
  reason: string | null;
  turnoverMet: boolean;
  createdAt: string;
  retries: number;
};

/** The agency's claims of one kind, newest first, with the player's username; `period` null: every period. */
export async function listRewardClaims(
  db: D1Database,
  agencyId: string,
  kind: RewardKind,
  period: string | null,
  limit = 200,
): Promise<{ items: RewardClaimRow[]; totalMinor: number }> {
  const { results } = await db
    .prepare(
      `SELECT r.code, r.player_id, p.username, r.kind, r.period, r.provider, r.amount, r.amount_minor, r.status, r.reason, r.turnover_met, r.created_at, r.retries
         FROM reward_claims r JOIN players p ON p.id = r.player_id
        WHERE r.agency_id = ?1 AND r.kind = ?2 AND (?3 IS NULL OR r.period = ?3)
        ORDER BY r.created_at DESC, r.code DESC LIMIT ?4`,
    )
    .bind(agencyId, kind, period, limit)
    .all<{
      code: string;
      player_id: string;
      username: string;
      kind: RewardKind;
      period: string;
      provider: string;
      amount: string;
      amount_minor: number;
      status: string;
      reason: string | null;
      turnover_met: number;
      created_at: string;
      retries: number;
    }>();
  const totalMinor = results.filter((r) => r.status === "SUCCESS").reduce((sum, r) => sum + r.amount_minor, 0);
  return {
    items: results.map((r) => ({
      code: r.code,
      playerId: r.player_id,
      username: r.username,
      kind: r.kind,
      period: r.period,
      provider: r.provider,
      amount: r.amount,
      status: r.status,
      reason: r.reason,
      turnoverMet: r.turnover_met === 1,
      createdAt: r.created_at,
      retries: r.retries,
    })),
    totalMinor,
  };
}

/** One claim of this agency (another agency's code: null), with whose wallet holds it. */
export async function findRewardClaim(
  db: D1Database,
  agencyId: string,
  code: string,
): Promise<{ playerId: string; username: string; kind: RewardKind; period: string } | null> {
  const row = await db
    .prepare(
      `SELECT r.player_id, p.username, r.kind, r.period FROM reward_claims r JOIN players p ON p.id = r.player_id WHERE r.agency_id = ?1 AND r.code = ?2`,
    )
    .bind(agencyId, code)
    .first<{ player_id: string; username: string; kind: RewardKind; period: string }>();
  return row && { playerId: row.player_id, username: row.username, kind: row.kind, period: row.period };
}
