import { env } from "cloudflare:workers";

// Runs before each test file: storage is isolated per file, so every file starts from the
// migrated schema. Every migration in ONE batch (one transaction, the same statements in the
// same order, the same d1_migrations rows wrangler writes): applyD1Migrations sends one batch
// per migration, 35 round trips that were most of each file's setup (decision 055).
await env.DB.prepare(
  `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
).run();
const recorded = env.DB.prepare(`INSERT INTO d1_migrations (name) VALUES (?)`);
await env.DB.batch(env.TEST_MIGRATIONS.flatMap((migration) => [...migration.queries.map((query) => env.DB.prepare(query)), recorded.bind(migration.name)]));
