import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { PROVIDERS } from "../../workers/core/providers";
import { forgetProviderSetup } from "../../workers/wallet/provider-port";
import { forgetAgency } from "../../workers/services/agency";
import { forgetProviderCsp } from "../../workers/services/providers";

// Runs before each test file. The files of one vitest worker share one runtime (isolate: false
// in vitest.config.ts, decision 067): the app is loaded once per worker, not once per file. So
// each file first gets back what a fresh runtime would give it: an empty D1, sandboxes with
// nothing in them, and no provider setup or agency kept in memory from the file before
// (decisions 033, 076).
const agencies = await env.DB.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'agencies'`).first();
if (agencies) {
  const { results } = await env.DB.prepare(`SELECT id FROM agencies`).all<{ id: string }>();
  for (const { id } of results) {
    for (const provider of PROVIDERS) forgetProviderSetup(id, provider);
    forgetAgency(id);
  }
  forgetProviderCsp();
}
// Every Durable Object of the runtime is deleted, with its storage and alarms: the D1 database,
// the bucket, the players' wallets and the sandboxes' objects (cloudflare:test reset()).
await reset();

// Every migration in ONE batch (one transaction, the same statements in the same order, the
// same d1_migrations rows wrangler writes): applyD1Migrations sends one batch per migration,
// 35 round trips that were most of each file's setup (decision 055).
await env.DB.prepare(
  `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
).run();
const recorded = env.DB.prepare(`INSERT INTO d1_migrations (name) VALUES (?)`);
await env.DB.batch(env.TEST_MIGRATIONS.flatMap((migration) => [...migration.queries.map((query) => env.DB.prepare(query)), recorded.bind(migration.name)]));
