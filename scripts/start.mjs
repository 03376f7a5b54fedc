// `npm start`: local state, demo data, a production build, served at http://localhost:5173.
import { execFileSync, spawn } from "node:child_process";
import { ensureDevVars } from "./dev-vars.mjs";

ensureDevVars();
execFileSync("node", ["scripts/local-seed.mjs", "demo"], { stdio: "inherit" });
execFileSync("npx", ["react-router", "build"], { stdio: "inherit" });
const server = spawn("npx", ["vite", "preview"], {
  stdio: "inherit",
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
server.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
