/**
 * Keyset paging of the back office's lists (decision 077). An offset makes the database read
 * and throw away every row before the page (page 2,000 of the deposits read 50,000 rows); a
 * cursor names the last row shown (its time and its id, the id breaking ties) and the next page
 * starts right after it through an index, so a page reads about its own size whatever the
 * agency's history. The player's own lists keep page and pageSize (docs/product.md §3): they
 * read one wallet.
 */

/** A row's place in a list: its sort time and its id. */
export type ListKey = { at: string; id: string };

/** "next" reads further along the list's order (older rows of a newest-first list), "previous" back. */
type ListStep = "next" | "previous";

/** What a request asks of a list: the first page, or the page next to / before a row. */
export type ListAsk = { from: ListKey | null; step: ListStep; pageSize: number };

/** One page and the cursors of the pages around it (null: there is none). */
export type ListPage<T> = { items: T[]; next: string | null; previous: string | null };

/** Rows a bounded count reads at most: past it a page says "more than" rather than reading the whole history. */
export const COUNT_BOUND = 1000;

/** A count of at most COUNT_BOUND rows, and whether there are more. */
export type BoundedCount = { count: number; more: boolean };

const SEPARATOR = "~";
const MAX_CURSOR_LENGTH = 160;

function encodeListKey(key: ListKey): string {
  return `${key.at}${SEPARATOR}${key.id}`;
}

/** A cursor from a URL; anything malformed is no cursor (the first page), never an error. */
function parseListKey(text: string | null | undefined): ListKey | null {
  if (!text || text.length > MAX_CURSOR_LENGTH) return null;
  const at = text.indexOf(SEPARATOR);
  if (at <= 0 || at === text.length - 1) return null;
  return { at: text.slice(0, at), id: text.slice(at + 1) };
}

/**
 * The ask of a list's URL: `?after=<cursor>` is the next page, `?before=<cursor>` the previous
 * one, neither the first page.
 */
export function listAskOf(params: URLSearchParams, pageSize: number): ListAsk {
  const after = parseListKey(params.get("after"));
  if (after) return { from: after, step: "next", pageSize };
  const before = parseListKey(params.get("before"));
  if (before) return { from: before, step: "previous", pageSize };
  return { from: null, step: "next", pageSize };
}

/** The first page of a list (jobs and alerts read only the head of a queue). */
export function firstListPage(pageSize: number): ListAsk {
  return { from: null, step: "next", pageSize };
}

/**
 * The page from the rows a query returned for `ask`: pageSize + 1 rows in the direction read
 * (the extra one only says there is more). A "previous" read runs backwards, so its rows are
 * turned back into the list's order.
 */
export function pageOfRows<T>(rows: T[], ask: ListAsk, keyOf: (row: T) => ListKey): ListPage<T> {
  const more = rows.length > ask.pageSize;
  const read = rows.slice(0, ask.pageSize);
  const items = ask.step === "previous" ? read.reverse() : read;
  const first = items[0];
  const last = items[items.length - 1];
  if (ask.step === "next") {
    return {
      items,
      next: more && last ? encodeListKey(keyOf(last)) : null,
      previous: ask.from && first ? encodeListKey(keyOf(first)) : null,
    };
  }
  return {
    items,
    next: last ? encodeListKey(keyOf(last)) : null,
    previous: more && first ? encodeListKey(keyOf(first)) : null,
  };
}

/** A bounded count from the rows a `LIMIT COUNT_BOUND + 1` count query saw. */
export function boundedCount(seen: number): BoundedCount {
  return seen > COUNT_BOUND ? { count: COUNT_BOUND, more: true } : { count: seen, more: false };
}

/**
 * The range of strings that start with `prefix` for an index: [prefix, prefix + U+10FFFF).
 * SQLite compares TEXT by its UTF-8 bytes, and no character's bytes sort after U+10FFFF's.
 */
export function prefixRange(prefix: string): { from: string; until: string } {
  return { from: prefix, until: `${prefix}\u{10FFFF}` };
}
