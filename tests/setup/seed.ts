import { env } from "cloudflare:workers";

/** The demo seed of scripts/seed.sql, loaded into a test file's own D1. */
import seedSql from "../../scripts/seed.sql?raw";
import { markupOf } from "./lite-script";

export async function seedDemo(): Promise<void> {
  const statements = seedSql
    .split(/;\s*\n/)
    .map((s) => s.replace(/^--.*$/gm, "").trim())
    .filter(Boolean);
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
}

/**
 * A page's markup as staff or a player see it: without its scripts. A page that hydrates carries
 * every translation of its namespace in a script, so a message looked for in the whole page is
 * always "found" (the admin pages: every admin message).
 */
export async function shownOf(res: Response): Promise<string> {
  return markupOf(await res.text());
}

/**
 * Where a Post/Redirect/Get lands and the page there as shown, with the toast the action
 * flashed (its cookie sent along with `cookie`).
 */
export async function afterRedirect(res: Response, cookie: string): Promise<{ location: string; html: string }> {
  if (res.status !== 302) throw new Error(`expected a redirect, got ${res.status}`);
  const location = res.headers.get("Location")!;
  const flash = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  return { location, html: await shownOf(await fetchApp(`http://localhost${location}`, { headers: { Cookie: [cookie, ...flash].join("; ") } })) };
}

/** Fetch a page or endpoint from the real Worker (the whole React Router app). */
export async function fetchApp(url: string, init?: RequestInit): Promise<Response> {
  const { exports } = await import("cloudflare:workers");
  return (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default.fetch(new Request(url, init));
}
