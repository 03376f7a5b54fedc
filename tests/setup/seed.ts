import { env } from "cloudflare:workers";

/** The demo seed of scripts/seed.sql, loaded into a test file's own D1. */
import seedSql from "../../scripts/seed.sql?raw";

export async function seedDemo(): Promise<void> {
  const statements = seedSql
    .split(/;\s*\n/)
    .map((s) => s.replace(/^--.*$/gm, "").trim())
    .filter(Boolean);
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
}

/** Fetch a page or endpoint from the real Worker (the whole React Router app). */
export async function fetchApp(url: string, init?: RequestInit): Promise<Response> {
  const { exports } = await import("cloudflare:workers");
  return (exports as unknown as { default: { fetch(r: Request): Promise<Response> } }).default.fetch(new Request(url, init));
}
