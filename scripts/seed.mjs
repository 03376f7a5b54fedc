// Applies D1 migrations to local state (.wrangler/state) and seeds the demo agency.
// Idempotent: run it as often as you like.
import { execFileSync } from "node:child_process";

const wrangler = (...args) => execFileSync("npx", ["wrangler", ...args], { stdio: "inherit", env: { ...process.env, CI: "true" } });

wrangler("d1", "migrations", "apply", "DB", "--local");
wrangler("d1", "execute", "DB", "--local", "--file", "scripts/seed.sql");
console.log("seeded the demo agency (localhost, 127.0.0.1)");
