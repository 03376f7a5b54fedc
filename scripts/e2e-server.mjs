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
const server = spawn("npx", ["vite", "preview", "--port", port], {
  stdio: "inherit",
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
server.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
