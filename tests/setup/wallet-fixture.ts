import { runInDurableObject } from "cloudflare:test";
import { playerWithBank } from "./money";
import fixture from "../integration/fixtures/wallet-v3.json";
import { migrateWalletSchema } from "../../workers/wallet/schema";

/**
 * A wallet stored by earlier code (tests/integration/fixtures/wallet-v3.json, see
 * wallet-fixture.test.ts), given to a fresh player's wallet.
 */
type Value = string | number | null;
const IDENTITY = new Set(["agencyId", "playerId", "username", "origin", "alarmAt"]);

const SCHEMA_QUERY = `SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%' ORDER BY type, name`;

/**
 * A fresh wallet whose storage is the fixture's, schema and rows (its own identity kept: it is
 * another player's wallet now), then upgraded the way the wallet upgrades a stored object on
 * its next start (migrateWalletSchema: the steps after the fixture's version).
 */
export async function walletFromFixture() {
  const p = await playerWithBank();
  await p.wallet.identify("demo", p.playerId, p.username, "http://localhost");
  const { stored, schema } = await runInDurableObject(p.wallet, (_object, state) => {
    const sql = state.storage.sql;
    const tables = fixture.tables as Record<string, Record<string, Value>[]>;
    const objects = fixture.schema as { type: string; name: string; sql: string }[];
    state.storage.transactionSync(() => {
      const identity = sql
        .exec<{ key: string; value: string }>(`SELECT key, value FROM meta`)
        .toArray()
        .filter((r) => IDENTITY.has(r.key));
      const current = sql
        .exec<{ type: string; name: string }>(`SELECT type, name FROM sqlite_master WHERE name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%'`)
        .toArray();
      for (const type of ["trigger", "index", "table"])
        for (const o of current.filter((c) => c.type === type)) sql.exec(`DROP ${type.toUpperCase()} IF EXISTS "${o.name}"`);
      for (const type of ["table", "index", "trigger"]) for (const o of objects.filter((c) => c.type === type)) sql.exec(o.sql);
      for (const [table, rows] of Object.entries(tables)) {
        for (const row of rows) {
          if (table === "meta" && IDENTITY.has(String(row.key))) continue;
          const columns = Object.keys(row);
          sql.exec(`INSERT INTO "${table}" (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, ...columns.map((c) => row[c]));
        }
      }
      for (const r of identity) sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?)`, r.key, r.value);
    });
    const stored = sql.exec(SCHEMA_QUERY).toArray();
    migrateWalletSchema(state.storage);
    return { stored, schema: sql.exec(SCHEMA_QUERY).toArray() };
  });
  return { ...p, stored, schema };
}
