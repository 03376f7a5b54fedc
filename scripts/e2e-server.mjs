// The server Playwright tests against: the same production build as `npm start`, on its own
// port, with its own local state (.local/e2e-<port>) and the tests' build (.local/test, decision 055),
// so a running `npm start` is left alone.
import { startLocalPortal } from "./local-dirs.mjs";

// X_LOCAL_EXPLORER: Miniflare's local explorer answers at /cdn-cgi/local/explorer/api inside this
// same workerd, so a spec seeds what a scheduled job would have written through the server's own
// D1 (tests/e2e/d1.ts). A second process opening the SQLite file (`wrangler d1 execute --local`)
// held its lock while the server's D1 failed at once with SQLITE_BUSY (500s in other specs).
// Local preview only: a deployed Worker has no such path.
const port = process.env.E2E_PORT ?? "4173";
const server = await startLocalPortal({
  // a state per port: two e2e servers side by side never share a D1 file
  name: `e2e-${port}`,
  buildName: "test",
  port,
  seed: ["demo", "e2e", "e2e-own-account"],
  env: { X_LOCAL_EXPLORER: "true" },
  // workerd alone, no `vite preview` Node server in front of it (scripts/workerd-portal.mjs)
  server: "workerd",
});
server.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
