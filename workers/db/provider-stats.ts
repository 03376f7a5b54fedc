/**
 * provider_daily_stats (0023): the game providers' daily turnover and win/loss per agency
 * (decision 058), and what the collecting job reads to know whom to ask:
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

/** One page of the players a provider-day's pass asks about, and where the page ended. */
export type ProviderPlayersPage = {
  players: { playerId: string; username: string }[];
  /** The last player id the page reached (the pass's next cursor); null when none was left. */
  lastId: string | null;
  /** Whether players may follow (the page was full). */
  more: boolean;
};

/**
 * The players of an agency who ever received credit at a provider (a successful deposit,
 * bonus and manual credits included: they are deposits too): only they can have bet there.
 * One page: the next `limit` after `afterId` in id order (decision 051: the job's batches),
 * so no run reads every player of a large agency at once.
 *
 * Each next player is one seek in the index of successful deposits by agency, provider and
 * player (migration 0039): the smallest player id after the one before, `limit` times (a
 * recursive query that skips over each player's other deposits). Rows read grow with the
 * page, never with the agency's players or orders (decision 075): reading the players and
 * looking up each one's deposits read every order of the agency per player.
 */
export async function listProviderPlayersPage(
  db: D1Database,
  agencyId: string,
  provider: Provider,
  afterId: string,
  limit: number,
): Promise<ProviderPlayersPage> {
  const { results } = await db
    .prepare(
      `WITH RECURSIVE next (player_id, n) AS (
         SELECT (SELECT min(player_id) FROM deposit_orders_view WHERE agency_id = ?1 AND provider = ?2 AND status = 'SUCCESS' AND player_id > ?3), 1
         UNION ALL
         SELECT (SELECT min(v.player_id) FROM deposit_orders_view v WHERE v.agency_id = ?1 AND v.provider = ?2 AND v.status = 'SUCCESS' AND v.player_id > next.player_id),
                next.n + 1
           FROM next WHERE next.player_id IS NOT NULL AND next.n < ?4)
       SELECT next.player_id AS id, p.username FROM next LEFT JOIN players p ON p.id = next.player_id AND p.agency_id = ?1
        WHERE next.player_id IS NOT NULL ORDER BY next.player_id`,
    )
    .bind(agencyId, provider, afterId, limit)
    .all<{ id: string; username: string | null }>();
  return {
    // an order whose player row is gone (written by hand) moves the cursor, and asks nobody
    players: results.flatMap((r) => (r.username === null ? [] : [{ playerId: r.id, username: r.username }])),
    lastId: results.at(-1)?.id ?? null,
    more: results.length >= limit,
  };
}

/** One provider-day's pass of the collection (provider_stats_progress, 0034). */
export type StatsPass = {
  agencyId: string;
  provider: Provider;
  day: string;
  startedAt: string;
  cursor: string;
  players: number;
  turnoverMinor: number;
  winLossMinor: number;
};

type PassRow = {
  agency_id: string;
  provider: string;
  day: string;
  started_at: string;
  cursor: string;
  players: number;
  turnover_minor: number;
  win_loss_minor: number;
};

/**
 * A new pass for each provider-day, unless one is still in progress (it goes on where it
 * stopped: restarting it every hour would never finish a large agency). Answers how many started.
 */
export async function startStatsPasses(db: D1Database, days: { agencyId: string; provider: Provider; day: string }[], startedAt: string): Promise<number> {
  if (days.length === 0) return 0;
  const statements = days.map(({ agencyId, provider, day }) =>
    db
      .prepare(
        `INSERT INTO provider_stats_progress (agency_id, provider, day, started_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (agency_id, provider, day) DO UPDATE SET started_at = excluded.started_at, cursor = '', players = 0,
           turnover_minor = 0, win_loss_minor = 0, done_at = NULL, failure = NULL
         WHERE provider_stats_progress.done_at IS NOT NULL`,
      )
      .bind(agencyId, provider, day, startedAt),
  );
  let started = 0;
  for (let i = 0; i < statements.length; i += 100) for (const r of await db.batch(statements.slice(i, i + 100))) started += r.meta.changes ?? 0;
  return started;
}

/** The passes in progress, oldest first (only ACTIVE agencies: a disabled one's pass waits). */
export async function listOpenStatsPasses(db: D1Database, limit: number): Promise<StatsPass[]> {
  const { results } = await db
    .prepare(
      `SELECT g.agency_id, g.provider, g.day, g.started_at, g.cursor, g.players, g.turnover_minor, g.win_loss_minor
         FROM provider_stats_progress g JOIN agencies a ON a.id = g.agency_id AND a.status = 'ACTIVE'
        WHERE g.done_at IS NULL ORDER BY g.started_at, g.agency_id, g.day, g.provider LIMIT ?1`,
    )
    .bind(limit)
    .all<PassRow>();
  const out: StatsPass[] = [];
  for (const r of results) {
    const provider = PROVIDERS.find((p) => p === r.provider);
    if (!provider) continue;
    out.push({
      agencyId: r.agency_id,
      provider,
      day: r.day,
      startedAt: r.started_at,
      cursor: r.cursor,
      players: r.players,
      turnoverMinor: r.turnover_minor,
      winLossMinor: r.win_loss_minor,
    });
  }
  return out;
}

/**
 * A batch done: the cursor moves to `cursor` and its sums are added, only if the pass is
 * still where this run read it (same start, same cursor, open): a second run on the same
 * pass never adds a batch twice. Answers whether it moved. `done`: the last batch (the
 * pass is finished; `failure` when the provider could not answer).
 */
export async function advanceStatsPass(
  db: D1Database,
  pass: StatsPass,
  step: { cursor: string; players: number; turnoverMinor: bigint; winLossMinor: bigint; done: boolean; failure?: string },
  at: string,
): Promise<boolean> {
  const r = await db
    .prepare(
      `UPDATE provider_stats_progress SET cursor = ?5, players = players + ?6, turnover_minor = turnover_minor + ?7,
         win_loss_minor = win_loss_minor + ?8, done_at = ?9, failure = ?10
        WHERE agency_id = ?1 AND provider = ?2 AND day = ?3 AND started_at = ?4 AND cursor = ?11 AND done_at IS NULL`,
    )
    .bind(
      pass.agencyId,
      pass.provider,
      pass.day,
      pass.startedAt,
      step.cursor,
      step.players,
      exactNumber(step.turnoverMinor),
      exactNumber(step.winLossMinor),
      step.done ? at : null,
      step.failure?.slice(0, 500) ?? null,
      pass.cursor,
    )
    .run();
  return (r.meta.changes ?? 0) > 0;
}
