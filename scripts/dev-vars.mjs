// Writes .dev.vars (local secrets) once, with a random cookie secret, so a fresh clone
// starts without anyone inventing secrets by hand. Never committed (.gitignore).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

export function ensureDevVars(path = ".dev.vars") {
  const current = existsSync(path) ? readFileSync(path, "utf8") : "";
  let next = current;
  if (!/^SESSION_SECRET=/m.test(next)) next += `SESSION_SECRET=${randomBytes(32).toString("hex")}\n`;
  // AES-256-GCM key (base64) for provider credentials stored in D1 (workers/core/secret-box.ts).
  if (!/^CREDENTIALS_KEY=/m.test(next)) next += `CREDENTIALS_KEY=${randomBytes(32).toString("base64")}\n`;
  if (next === current) return;
  writeFileSync(path, next);
  console.log(`wrote local secrets to ${path} (SESSION_SECRET, CREDENTIALS_KEY)`);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureDevVars();
