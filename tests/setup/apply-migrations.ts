import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Runs before each test file: storage is isolated per file, so every file starts from
// the migrated schema and the demo seed.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
