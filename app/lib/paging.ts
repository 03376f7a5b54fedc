/** docs/product.md §3 list groups take page and pageSize; bounded so a client cannot ask for everything. */
const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 50;
/**
 * The last page any list serves (decision 050). Without a bound, ?page=1e99 made an offset of
 * 1e100, which SQLite refuses (SQLITE_MISMATCH: every paged list answered 500). A million
 * pages of 50 is an offset of 5e7: a whole integer, past any agency's rows.
 */
export const MAX_PAGE = 1_000_000;

export type Paging = { page: number; pageSize: number };

/**
 * The paging a URL asks for, and whether its page is beyond MAX_PAGE (then page is MAX_PAGE).
 * A missing, non-numeric or non-positive page is page 1, as it always was; a page size is
 * brought into 1..50.
 */
export function askedPaging(url: URL): Paging & { pageBeyondBound: boolean } {
  const asked = Math.floor(Number(url.searchParams.get("page")) || 1);
  const requested = Math.floor(Number(url.searchParams.get("pageSize")) || DEFAULT_PAGE_SIZE);
  return {
    page: Math.min(MAX_PAGE, Math.max(1, asked)),
    pageSize: Math.min(MAX_PAGE_SIZE, Math.max(1, requested)),
    pageBeyondBound: asked > MAX_PAGE,
  };
}

/** Pages (player histories, back office): a page beyond the bound shows the bound, an empty page. */
export function readPaging(url: URL): Paging {
  const { page, pageSize } = askedPaging(url);
  return { page, pageSize };
}
