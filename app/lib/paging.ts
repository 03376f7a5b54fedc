/** SPEC §3 list groups take page and pageSize; bounded so a client cannot ask for everything. */
const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 50;

export function readPaging(url: URL): { page: number; pageSize: number } {
  const page = Math.max(1, Math.floor(Number(url.searchParams.get("page")) || 1));
  const requested = Math.floor(Number(url.searchParams.get("pageSize")) || DEFAULT_PAGE_SIZE);
  return { page, pageSize: Math.min(MAX_PAGE_SIZE, Math.max(1, requested)) };
}
