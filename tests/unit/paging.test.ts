import { describe, expect, it } from "vitest";
import { askedPaging, MAX_PAGE, readPaging } from "~/lib/paging";

/** The one paging reader every paged page and API call passes through (decision 050). */
const asked = (query: string) => askedPaging(new URL(`http://localhost/x?${query}`));

describe("askedPaging / readPaging", () => {
  it.each([
    ["", 1],
    ["page=abc", 1],
    ["page=0", 1],
    ["page=-3", 1],
    ["page=-Infinity", 1],
    ["page=2.9", 2],
    ["page=7", 7],
    [`page=${MAX_PAGE}`, MAX_PAGE],
  ])("%s: page %i, within the bound", (query, page) => {
    expect(asked(query)).toMatchObject({ page, pageBeyondBound: false });
  });

  it.each(["1e99", "Infinity", "1e308", "9007199254740993", String(MAX_PAGE + 1)])("page=%s: beyond the bound, read as the bound", (value) => {
    expect(asked(`page=${value}`)).toMatchObject({ page: MAX_PAGE, pageBeyondBound: true });
    expect(readPaging(new URL(`http://localhost/x?page=${value}`))).toEqual({ page: MAX_PAGE, pageSize: 10 });
  });

  it("every offset it allows is a whole number SQLite takes", () => {
    const { page, pageSize } = asked("page=1e99&pageSize=1e99");
    expect(pageSize).toBe(50);
    expect(Number.isSafeInteger((page - 1) * pageSize)).toBe(true);
  });

  it.each([
    ["", 10],
    ["pageSize=0", 10],
    ["pageSize=-4", 1],
    ["pageSize=25", 25],
    ["pageSize=500", 50],
    ["pageSize=Infinity", 50],
  ])("%s: page size %i", (query, pageSize) => {
    expect(asked(query).pageSize).toBe(pageSize);
  });
});
