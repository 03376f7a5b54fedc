/**
 * A statement against the e2e server's D1, for specs that seed what a scheduled job would have
 * written (or move a row back in time). It runs INSIDE the server's own workerd, through
 * Miniflare's local explorer (`/cdn-cgi/local/explorer/api`, turned on by scripts/e2e-server.mjs
 * with X_LOCAL_EXPLORER; a deployed Worker has no such path): the same D1 object the portal
 * uses, its statements queued with the portal's. Never `wrangler d1 execute --local` while the
 * server runs: that second process held the SQLite file's lock and the portal's D1 failed at once
 * (SQLITE_BUSY, a 500 in whatever spec the other Playwright worker ran;
 * tests/scripts/e2e-no-external-d1.test.ts keeps it out). Static rows belong in scripts/seed-e2e.mjs.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const API = `http://localhost:${port}/cdn-cgi/local/explorer/api/d1/database`;

type Answer<T> = { success: boolean; errors?: Array<{ message: string }>; result: T };

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: Answer<T>;
  try {
    body = JSON.parse(text) as Answer<T>;
  } catch {
    // the portal's own 404 page: the server was started without the explorer (an old `reuseExistingServer`)
    throw new Error(`${url} answered ${res.status} without JSON: start the e2e server with scripts/e2e-server.mjs (X_LOCAL_EXPLORER=true)`);
  }
  if (!res.ok || !body.success) throw new Error(`D1 through the e2e server: ${body.errors?.map((e) => e.message).join("; ") || res.status}`);
  return body.result;
}

let database: Promise<string> | undefined;

/** The id of the portal's D1 (the one database the local explorer lists: the sandboxes bind none). */
async function databaseId(): Promise<string> {
  const list = await call<Array<{ uuid: string; name: string }>>(API);
  const db = list.find((d) => d.name === "DB") ?? (list.length === 1 ? list[0] : undefined);
  if (!db) throw new Error(`no single D1 database behind the e2e server: ${JSON.stringify(list)}`);
  return db.uuid;
}

/** One statement (never a batch: one statement, one answer), its rows as objects. */
export async function d1(sql: string): Promise<Array<Record<string, unknown>>> {
  database ??= databaseId();
  const answers = await call<Array<{ results: { columns: string[]; rows: unknown[][] } }>>(`${API}/${await database}/raw`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sql }),
  });
  return answers.flatMap(({ results }) => results.rows.map((row) => Object.fromEntries(results.columns.map((c, i) => [c, row[i]]))));
}
