// The server Playwright tests against: the same production build as `npm start`, on its
// own port so a running `npm start` is left alone.
import { execFileSync, spawn } from "node:child_process";
import { ensureDevVars } from "./dev-vars.mjs";

const port = process.env.E2E_PORT ?? "4173";
ensureDevVars();
execFileSync("node", ["scripts/seed.mjs"], { stdio: "inherit" });
execFileSync("node", ["scripts/seed-e2e.mjs"], { stdio: "inherit" });
execFileSync("node", ["scripts/seed-e2e-own-account.mjs"], { stdio: "inherit" });
execFileSync("npx", ["react-router", "build"], { stdio: "inherit" });
// X_LOCAL_EXPLORER: Miniflare's local explorer answers at /cdn-cgi/local/explorer/api inside this
// same workerd, so a spec seeds what a scheduled job would have written through the server's own
// D1 (tests/e2e/d1.ts). A second process opening the SQLite file (`wrangler d1 execute --local`)
// held its lock while the server's D1 failed at once with SQLITE_BUSY (500s in other specs).
// Local preview only: a deployed Worker has no such path.
const server = spawn("npx", ["vite", "preview", "--port", port], {
  stdio: "inherit",
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", X_LOCAL_EXPLORER: "true" },
});
server.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
