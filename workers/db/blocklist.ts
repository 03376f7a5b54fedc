import type { BlocklistAction, BlocklistCheckpoint, BlocklistKind, BlocklistMatch } from "../core/blocklist";
import { boundedCount, pageOfRows, type BoundedCount, type ListAsk, type ListPage } from "../core/keyset";
import { boundedCountSql, keysetSql, numberedParams } from "./keyset";

/**
 * Statements over the owner's blocklist (migration 0050, decision 090): `blocklist_entries`, the
 * listed values by their match key, and `blocklist_flags`, the players a "flag" entry matched.
 */

export type BlocklistEntry = {
  id: string;
  kind: BlocklistKind;
  matchKey: string;
  shown: string;
  bankCode: string | null;
  action: BlocklistAction;
  note: string;
  addedBy: string;
  createdAt: string;
};

type EntryRow = {
  id: string;
  kind: BlocklistKind;
  match_key: string;
  shown: string;
  bank_code: string | null;
  action: BlocklistAction;
  note: string;
  added_by: string;
  created_at: string;
};

const toEntry = (row: EntryRow): BlocklistEntry => ({
  id: row.id,
  kind: row.kind,
  matchKey: row.match_key,
  shown: row.shown,
  bankCode: row.bank_code,
  action: row.action,
  note: row.note,
  addedBy: row.added_by,
  createdAt: row.created_at,
});

/** The entries whose key is one of `keys` (a registration's phone and device, an account and its holder): one seek each. */
export type BlocklistMatchRow = BlocklistMatch & { note: string };

export async function blocklistMatches(db: D1Database, agencyId: string, keys: readonly string[]): Promise<BlocklistMatchRow[]> {
  if (keys.length === 0) return [];
  const { results } = await db
    .prepare(
      `SELECT id, kind, action, shown, note FROM blocklist_entries WHERE agency_id = ?1 AND match_key IN (${keys.map((_, i) => `?${i + 2}`).join(", ")})`,
    )
    .bind(agencyId, ...keys)
    .all<BlocklistMatchRow>();
  return results;
}

/** Adds an entry; false when the value is listed already (the unique match key), nothing written. */
export function insertBlocklistEntryStatement(db: D1Database, agencyId: string, entry: Omit<BlocklistEntry, "createdAt">): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO blocklist_entries (id, agency_id, kind, match_key, shown, bank_code, action, note, added_by)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (agency_id, match_key) DO NOTHING`,
    )
    .bind(entry.id, agencyId, entry.kind, entry.matchKey, entry.shown, entry.bankCode, entry.action, entry.note, entry.addedBy);
}

export async function findBlocklistEntry(db: D1Database, agencyId: string, id: string): Promise<BlocklistEntry | null> {
  const row = await db.prepare(`SELECT * FROM blocklist_entries WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id).first<EntryRow>();
  return row ? toEntry(row) : null;
}

export async function findBlocklistEntryByKey(db: D1Database, agencyId: string, matchKey: string): Promise<BlocklistEntry | null> {
  const row = await db.prepare(`SELECT * FROM blocklist_entries WHERE agency_id = ?1 AND match_key = ?2`).bind(agencyId, matchKey).first<EntryRow>();
  return row ? toEntry(row) : null;
}

export function deleteBlocklistEntryStatement(db: D1Database, agencyId: string, id: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM blocklist_entries WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id);
}

/**
 * A keyset page of the entries, newest first (decision 077), all kinds or one, with the count up
 * to COUNT_BOUND, in one batch: through blocklist_entries_newest or blocklist_entries_kind.
 */
export async function blocklistEntriesPage(
  db: D1Database,
  agencyId: string,
  kind: BlocklistKind | null,
  ask: ListAsk,
): Promise<ListPage<BlocklistEntry> & { total: BoundedCount }> {
  const { params, param } = numberedParams(agencyId);
  const where = ["agency_id = ?1", ...(kind ? [`kind = ${param(kind)}`] : [])];
  const countParams = [...params];
  const page = keysetSql({ at: "created_at", id: "id" }, "DESC", ask, param);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(boundedCountSql(`FROM blocklist_entries WHERE ${where.join(" AND ")}`)).bind(...countParams),
    db
      .prepare(`SELECT * FROM blocklist_entries WHERE ${[...where, ...(page.where ? [page.where] : [])].join(" AND ")} ${page.orderBy} LIMIT ${page.limit}`)
      .bind(...params),
  ]);
  const listed = pageOfRows((rows.results as EntryRow[]).map(toEntry), ask, (e) => ({ at: e.createdAt, id: e.id }));
  return { ...listed, total: boundedCount(Number((count.results[0] as { n: number } | undefined)?.n ?? 0)) };
}

/**
 * The rows of one flag per matched entry, for the batch that makes the account or its bank
 * account: each written only when the statement before it changed a row (`changes()`), so a
 * guarded replacement that lost its race, or a write that changed nothing, flags no one.
 */
export function insertBlocklistFlagStatements(
  db: D1Database,
  agencyId: string,
  playerId: string,
  checkpoint: BlocklistCheckpoint,
  matches: readonly BlocklistMatchRow[],
): D1PreparedStatement[] {
  return matches.map((m) =>
    db
      .prepare(
        `INSERT INTO blocklist_flags (id, agency_id, player_id, entry_id, kind, shown, note, checkpoint)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE changes() > 0`,
      )
      .bind(crypto.randomUUID(), agencyId, playerId, m.id, m.kind, m.shown, m.note, checkpoint),
  );
}

export type BlocklistFlag = { entryId: string; kind: BlocklistKind; shown: string; note: string; checkpoint: BlocklistCheckpoint; createdAt: string };

/** A player's flags, newest first (the staff player page). */
export async function playerBlocklistFlags(db: D1Database, agencyId: string, playerId: string): Promise<BlocklistFlag[]> {
  const { results } = await db
    .prepare(
      `SELECT entry_id, kind, shown, note, checkpoint, created_at FROM blocklist_flags WHERE agency_id = ?1 AND player_id = ?2 ORDER BY created_at DESC LIMIT 50`,
    )
    .bind(agencyId, playerId)
    .all<{ entry_id: string; kind: BlocklistKind; shown: string; note: string; checkpoint: BlocklistCheckpoint; created_at: string }>();
  return results.map((r) => ({ entryId: r.entry_id, kind: r.kind, shown: r.shown, note: r.note, checkpoint: r.checkpoint, createdAt: r.created_at }));
}
