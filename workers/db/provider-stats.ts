/**
 * provider_daily_stats (0023): the game providers' daily turnover and win/loss per agency
 * (decision 019, "Provider figures"), and what the collecting job reads to know whom to ask:
 * the active agencies with their enabled providers, and the players of an agency who ever
 * received credit at a provider.
 */
import { PROVIDERS, type Provider } from "../core/providers";

export type ProviderDayStat =
  | { provider: Provider; day: string; status: "ok"; turnoverMinor: number; winLossMinor: number; collectedAt: string }
  | { provider: Provider; day: string; status: "unavailable"; reason: string | null; collectedAt: string };

type StatRow = {
  provider: string;
  day: string;
  status: "ok" | "unavailable";
  turnover_minor: number | null;
  win_loss_minor: number | null;
  reason: string | null;
  collected_at: string;
};

/** Minor units as an exact JS number for an INTEGER column (refused beyond 2^53). */
export function exactNumber(minor: bigint): number {
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < BigInt(Number.MIN_SAFE_INTEGER)) throw new RangeError("amount beyond 2^53 minor units");
  return Number(minor);
}

/**
 * The day's figures, replacing earlier ones (idempotent: a re-run writes the same row).
 */
export async function upsertProviderDayOk(
  db: D1Database,
  input: { agencyId: string; provider: Provider; day: string; turnoverMinor: bigint; winLossMinor: bigint; collectedAt: string },
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO provider_daily_stats (agency_id, provider, day, status, turnover_minor, win_loss_minor, reason, collected_at)
       VALUES (?1, ?2, ?3, 'ok', ?4, ?5, NULL, ?6)
       ON CONFLICT (agency_id, provider, day) DO UPDATE SET status = 'ok', turnover_minor = excluded.turnover_minor,
         win_loss_minor = excluded.win_loss_minor, reason = NULL, collected_at = excluded.collected_at`,
    )
    .bind(input.agencyId, input.provider, input.day, exactNumber(input.turnoverMinor), exactNumber(input.winLossMinor), input.collectedAt)
    .run();
}

/**
 * The provider could not be read for that day: recorded as unavailable (never as 0) when
 * nothing was collected yet; figures collected earlier are kept (the next run refreshes them).
 */
export async function markProviderDayUnavailable(
  db: D1Database,
  input: { agencyId: string; provider: Provider; day: string; reason: string; collectedAt: string },
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO provider_daily_stats (agency_id, provider, day, status, turnover_minor, win_loss_minor, reason, collected_at)
       VALUES (?1, ?2, ?3, 'unavailable', NULL, NULL, ?4, ?5)
       ON CONFLICT (agency_id, provider, day) DO UPDATE SET reason = excluded.reason, collected_at = excluded.collected_at
         WHERE provider_daily_stats.status = 'unavailable'`,
    )
    .bind(input.agencyId, input.provider, input.day, input.reason.slice(0, 500), input.collectedAt)
    .run();
}

/** An agency's stored days from..to inclusive ('YYYY-MM-DD'), by day then provider. */
export async function listProviderDayStats(db: D1Database, agencyId: string, from: string, to: string): Promise<ProviderDayStat[]> {
  const { results } = await db
    .prepare(
      `SELECT provider, day, status, turnover_minor, win_loss_minor, reason, collected_at FROM provider_daily_stats
        WHERE agency_id = ?1 AND day >= ?2 AND day <= ?3 ORDER BY day, provider`,
    )
    .bind(agencyId, from, to)
    .all<StatRow>();
  const out: ProviderDayStat[] = [];
  for (const row of results) {
    const provider = PROVIDERS.find((p) => p === row.provider);
    if (!provider) continue;
    if (row.status === "ok" && row.turnover_minor !== null && row.win_loss_minor !== null) {
      out.push({ provider, day: row.day, status: "ok", turnoverMinor: row.turnover_minor, winLossMinor: row.win_loss_minor, collectedAt: row.collected_at });
    } else {
      out.push({ provider, day: row.day, status: "unavailable", reason: row.reason, collectedAt: row.collected_at });
    }
  }
  return out;
}

/** Every ACTIVE agency with the providers it offers (agency_settings.enabled_providers), in the product's order. */
export async function listActiveAgencyProviders(db: D1Database): Promise<{ agencyId: string; providers: Provider[] }[]> {
  const { results } = await db
    .prepare(`SELECT a.id, s.enabled_providers FROM agencies a JOIN agency_settings s ON s.agency_id = a.id WHERE a.status = 'ACTIVE' ORDER BY a.id`)
    .all<{ id: string; enabled_providers: string }>();
  return results.map((row) => {
    let listed: unknown = [];
    try {
      listed = JSON.parse(row.enabled_providers);
    } catch {
      listed = [];
    }
    return { agencyId: row.id, providers: Array.isArray(listed) ? PROVIDERS.filter((p) => listed.includes(p)) : [] };
  });
}

/**
 * The players of an agency who ever received credit at a provider (a successful deposit,
 * bonus and manual credits included: they are deposits too): only they can have bet there.
 */
export async function listProviderPlayers(db: D1Database, agencyId: string, provider: Provider): Promise<{ playerId: string; username: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT p.id, p.username FROM deposit_orders_view v JOIN players p ON p.id = v.player_id AND p.agency_id = v.agency_id
        WHERE v.agency_id = ?1 AND v.provider = ?2 AND v.status = 'SUCCESS' ORDER BY p.id`,
    )
    .bind(agencyId, provider)
    .all<{ id: string; username: string }>();
  return results.map((r) => ({ playerId: r.id, username: r.username }));
}
