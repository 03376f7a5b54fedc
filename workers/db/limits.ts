import type { Break, BreakKind, LimitKind, LimitSetting } from "../core/responsible-gaming";
import { readOne, rowsOf, type Read } from "./reads";

/** Statements over `player_limits` and `player_breaks` (migration 0024, decision 025). */

type LimitRow = { kind: LimitKind; value: number | null; pending_value: number | null; pending_from: number | null; version: number };

export type StoredLimit = LimitSetting & { version: number };

const big = (n: number | null) => (n === null ? null : BigInt(n));

/** The player's limits by kind; a kind never set is absent. */
export function playerLimitsRead(db: D1Database, agencyId: string, playerId: string): Read<Partial<Record<LimitKind, StoredLimit>>> {
  return {
    statement: db
      .prepare(`SELECT kind, value, pending_value, pending_from, version FROM player_limits WHERE agency_id = ?1 AND player_id = ?2`)
      .bind(agencyId, playerId),
    read: (result) => limitsOf(rowsOf<LimitRow>(result)),
  };
}

export function playerLimits(db: D1Database, agencyId: string, playerId: string): Promise<Partial<Record<LimitKind, StoredLimit>>> {
  return readOne(playerLimitsRead(db, agencyId, playerId));
}

function limitsOf(results: LimitRow[]): Partial<Record<LimitKind, StoredLimit>> {
  return Object.fromEntries(
    results.map((r) => [
      r.kind,
      { value: big(r.value), pending: r.pending_from === null ? null : { value: big(r.pending_value), from: r.pending_from }, version: r.version },
    ]),
  );
}

/**
 * Writes a limit if it still is at `version` (0: never set). false: another change came
 * first (the caller reads again); so two changes at once never undo each other.
 */
export async function writeLimit(
  db: D1Database,
  agencyId: string,
  playerId: string,
  kind: LimitKind,
  setting: LimitSetting,
  version: number,
  now: number,
): Promise<boolean> {
  const num = (v: bigint | null) => (v === null ? null : Number(v));
  const values = [num(setting.value), num(setting.pending?.value ?? null), setting.pending?.from ?? null, now];
  const result =
    version === 0
      ? await db
          .prepare(
            `INSERT INTO player_limits (agency_id, player_id, kind, value, pending_value, pending_from, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (agency_id, player_id, kind) DO NOTHING`,
          )
          .bind(agencyId, playerId, kind, ...values)
          .run()
      : await db
          .prepare(
            `UPDATE player_limits SET value = ?4, pending_value = ?5, pending_from = ?6, updated_at = ?7, version = version + 1
              WHERE agency_id = ?1 AND player_id = ?2 AND kind = ?3 AND version = ?8`,
          )
          .bind(agencyId, playerId, kind, ...values, version)
          .run();
  return result.meta.changes === 1;
}

type BreakRow = { kind: BreakKind; starts_at: number; ends_at: number };

/** The player's breaks that have not ended by `now`. */
export function currentBreaksRead(db: D1Database, agencyId: string, playerId: string, now: number): Read<Break[]> {
  return {
    statement: db
      .prepare(`SELECT kind, starts_at, ends_at FROM player_breaks WHERE agency_id = ?1 AND player_id = ?2 AND ends_at > ?3 ORDER BY ends_at DESC`)
      .bind(agencyId, playerId, now),
    read: (result) => rowsOf<BreakRow>(result).map((r) => ({ kind: r.kind, startsAt: r.starts_at, endsAt: r.ends_at })),
  };
}

export function currentBreaks(db: D1Database, agencyId: string, playerId: string, now: number): Promise<Break[]> {
  return readOne(currentBreaksRead(db, agencyId, playerId, now));
}

/**
 * Adds a break unless one in force already ends at or after it (checked in the same
 * statement: two requests at once cannot both pass on a stale read). false: refused.
 */
export async function insertBreak(db: D1Database, agencyId: string, playerId: string, brk: Break, now: number): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO player_breaks (agency_id, player_id, kind, starts_at, ends_at, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6
        WHERE NOT EXISTS (SELECT 1 FROM player_breaks WHERE agency_id = ?1 AND player_id = ?2 AND starts_at <= ?6 AND ends_at >= ?5)`,
    )
    .bind(agencyId, playerId, brk.kind, brk.startsAt, brk.endsAt, now)
    .run();
  return result.meta.changes === 1;
}
