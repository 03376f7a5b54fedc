import { blocklistKey, blocklistVerdict, isBlocklistKind, type BlocklistAction, type BlocklistCheckpoint, type BlocklistKind } from "../../core/blocklist";
import { findBank } from "../../core/banks";
import { firstListPage, type BoundedCount, type ListAsk, type ListPage } from "../../core/keyset";
import { auditIfChanged, recordAudit, type AuditActor } from "../../db/audit";
import {
  blocklistEntriesPage,
  blocklistMatches,
  deleteBlocklistEntryStatement,
  findBlocklistEntry,
  findBlocklistEntryByKey,
  insertBlocklistEntryStatement,
  insertBlocklistFlagStatements,
  playerBlocklistFlags,
  type BlocklistEntry,
  type BlocklistFlag,
  type BlocklistMatchRow,
} from "../../db/blocklist";

/**
 * The owner's blocklist (decision 090): the owner's page (list, add, remove, CSV), and the
 * checks registration and the bank account forms make. A player is never told about the list:
 * a refusal says "contact staff" and nothing else, a flag says nothing at all.
 */

export type { BlocklistEntry, BlocklistFlag };

/** What a check decided: refused (nothing may be written), or the flags to write in the same batch as the account. */
export type BlocklistScreen = { action: "refuse" } | { action: "flag"; matches: BlocklistMatchRow[] } | null;

/** The entries the keys match (one D1 read), and what they decide. */
export async function screenBlocklist(db: D1Database, agencyId: string, keys: string[]): Promise<BlocklistScreen> {
  const verdict = blocklistVerdict(await blocklistMatches(db, agencyId, keys));
  if (!verdict) return null;
  return verdict.action === "refuse" ? { action: "refuse" } : { action: "flag", matches: verdict.matches };
}

/**
 * The statements that flag a player, to follow the write that made the account, the bank account
 * or the replacement in one batch: one row per matched entry, then the audit row the staff
 * alerts' security sweep raises an alert from (decision 057), each only if the write before it
 * changed a row. `username`: when known (registration), written in the audit row for the alert.
 */
export function flagStatements(
  db: D1Database,
  actor: AuditActor,
  playerId: string,
  checkpoint: BlocklistCheckpoint,
  screen: BlocklistScreen,
  username?: string,
): D1PreparedStatement[] {
  if (screen?.action !== "flag") return [];
  return [
    ...insertBlocklistFlagStatements(db, actor.agencyId, playerId, checkpoint, screen.matches),
    auditIfChanged(db, actor, {
      action: "player.blocklist-flag",
      target: playerId,
      after: { checkpoint, username: username ?? null, entries: screen.matches.map((m) => ({ id: m.id, kind: m.kind, shown: m.shown })) },
    }),
  ];
}

/** A player's flags for the staff player page. */
export function blocklistFlagsOf(db: D1Database, agencyId: string, playerId: string): Promise<BlocklistFlag[]> {
  return playerBlocklistFlags(db, agencyId, playerId);
}

// ---- The owner's page ------------------------------------------------------------------------

export type BlocklistPageAsk = { kind: string | null; ask: ListAsk };

/** One page of the entries, newest first, all kinds or the one asked (anything else: all). */
export async function blocklistPage(
  db: D1Database,
  agencyId: string,
  { kind, ask }: BlocklistPageAsk,
): Promise<ListPage<BlocklistEntry> & { total: BoundedCount; kind: BlocklistKind | null }> {
  const shownKind = isBlocklistKind(kind) ? kind : null;
  return { ...(await blocklistEntriesPage(db, agencyId, shownKind, ask)), kind: shownKind };
}

export type NewBlocklistEntry = { kind: BlocklistKind; value: string; bankCode?: string | null; action: BlocklistAction; note: string };

/** How an entry is shown: a bank account with its bank, a phone or a name as typed, a device's first 16 characters kept whole. */
function shownOf(input: NewBlocklistEntry): string {
  const value = input.value.trim().replace(/\s+/g, " ");
  return input.kind === "bank" ? `${findBank(input.bankCode ?? "")?.code ?? input.bankCode} ${value}` : input.kind === "device" ? value.toLowerCase() : value;
}

export type AddBlocklistResult =
  | { ok: true; entry: BlocklistEntry }
  | { ok: false; code: "INVALID" }
  | { ok: false; code: "ALREADY_LISTED"; entry: BlocklistEntry };

/** Adds an entry and its audit row in one batch; a value already listed (in any spelling) is not listed twice. */
export async function addBlocklistEntry(db: D1Database, actor: AuditActor, input: NewBlocklistEntry): Promise<AddBlocklistResult> {
  const matchKey = blocklistKey(input.kind, input.value, input.bankCode);
  if (!matchKey) return { ok: false, code: "INVALID" };
  const entry = {
    id: crypto.randomUUID(),
    kind: input.kind,
    matchKey,
    shown: shownOf(input),
    bankCode: input.kind === "bank" ? (input.bankCode ?? null) : null,
    action: input.action,
    note: input.note.trim(),
    addedBy: actor.staffUsername ?? "?",
  };
  const [inserted] = await db.batch([
    insertBlocklistEntryStatement(db, actor.agencyId, entry),
    auditIfChanged(db, actor, {
      action: "blocklist.add",
      target: entry.id,
      after: { kind: entry.kind, shown: entry.shown, action: entry.action, note: entry.note },
    }),
  ]);
  if ((inserted.meta.changes ?? 0) === 0) {
    const listed = await findBlocklistEntryByKey(db, actor.agencyId, matchKey);
    if (listed) return { ok: false, code: "ALREADY_LISTED", entry: listed };
  }
  return { ok: true, entry: (await findBlocklistEntry(db, actor.agencyId, entry.id))! };
}

/** Removes an entry, audited with what it said; gone already: NOT_FOUND (and no audit row). */
export async function removeBlocklistEntry(
  db: D1Database,
  actor: AuditActor,
  entryId: string,
): Promise<{ ok: true; entry: BlocklistEntry } | { ok: false; code: "NOT_FOUND" }> {
  const entry = await findBlocklistEntry(db, actor.agencyId, entryId);
  if (!entry) return { ok: false, code: "NOT_FOUND" };
  const [deleted] = await db.batch([
    deleteBlocklistEntryStatement(db, actor.agencyId, entryId),
    auditIfChanged(db, actor, {
      action: "blocklist.remove",
      target: entryId,
      before: { kind: entry.kind, shown: entry.shown, action: entry.action, note: entry.note, addedBy: entry.addedBy, createdAt: entry.createdAt },
    }),
  ]);
  return (deleted.meta.changes ?? 0) > 0 ? { ok: true, entry } : { ok: false, code: "NOT_FOUND" };
}

/** Entries an export reads per statement, newest first by keyset. */
const EXPORT_PAGE = 500;

/**
 * Every entry for the CSV export, newest first, read a page at a time through the list's own
 * index; the export is audited before the rows are returned (as the reports', decision 059).
 */
export async function blocklistExport(db: D1Database, actor: AuditActor): Promise<BlocklistEntry[]> {
  const entries: BlocklistEntry[] = [];
  let ask: ListAsk = firstListPage(EXPORT_PAGE);
  for (;;) {
    const page = await blocklistEntriesPage(db, actor.agencyId, null, ask);
    entries.push(...page.items);
    if (!page.next) break;
    const last = page.items[page.items.length - 1]!;
    ask = { from: { at: last.createdAt, id: last.id }, step: "next", pageSize: EXPORT_PAGE };
  }
  await recordAudit(db, actor, { action: "blocklist.export", after: { rows: entries.length } });
  return entries;
}
