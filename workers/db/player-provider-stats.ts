/**
 * player_provider_daily (0025): each player's daily turnover and win/loss per game provider
 * (decisions 029 and 030: cashback and the referral share of net loss come from these, never from
 * deposits). Written by the scheduled collection beside provider_daily_stats; amounts are
 * credit minor units (THB satang), win/loss on the agency's side (positive: the player lost).
 */
import type { Provider } from "../core/providers";
import { exactNumber } from "./provider-stats";

/** One player's day at one provider, replacing earlier figures (a re-run writes the same row). */
export function upsertPlayerProviderDayStatement(
  db: D1Database,
  input: { agencyId: string; playerId: string; provider: Provider; day: string; turnoverMinor: bigint; winLossMinor: bigint; collectedAt: string },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO player_provider_daily (agency_id, player_id, provider, day, turnover_minor, win_loss_minor, collected_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (agency_id, player_id, provider, day) DO UPDATE SET turnover_minor = excluded.turnover_minor,
         win_loss_minor = excluded.win_loss_minor, collected_at = excluded.collected_at`,
    )
    .bind(input.agencyId, input.playerId, input.provider, input.day, exactNumber(input.turnoverMinor), exactNumber(input.winLossMinor), input.collectedAt);
}

/**
 * Per player and provider over the days `from`..`to` (inclusive, 'YYYY-MM-DD' Vientiane):
 * summed turnover and win/loss, with how many days have figures (a period with fewer days
 * than it has is incomplete). `playerIds` null: every player of the agency.
 */
export async function sumPlayerProviderDays(
  db: D1Database,
  agencyId: string,
  from: string,
  to: string,
  playerIds: string[] | null = null,
): Promise<{ playerId: string; provider: Provider; turnoverMinor: number; winLossMinor: number; days: number }[]> {
  const filter = playerIds ? ` AND player_id IN (SELECT value FROM json_each(?4))` : "";
  const stmt = db.prepare(
    `SELECT player_id, provider, SUM(turnover_minor) AS turnover, SUM(win_loss_minor) AS win_loss, COUNT(*) AS days
       FROM player_provider_daily WHERE agency_id = ?1 AND day BETWEEN ?2 AND ?3${filter}
      GROUP BY player_id, provider ORDER BY player_id, provider`,
  );
  const bound = playerIds ? stmt.bind(agencyId, from, to, JSON.stringify(playerIds)) : stmt.bind(agencyId, from, to);
  const { results } = await bound.all<{ player_id: string; provider: Provider; turnover: number; win_loss: number; days: number }>();
  return results.map((r) => ({ playerId: r.player_id, provider: r.provider, turnoverMinor: r.turnover, winLossMinor: r.win_loss, days: r.days }));
}
