// Writes .dev.vars (local secrets) once, with a random cookie secret, so a fresh clone
// starts without anyone inventing secrets by hand. Never committed (.gitignore).
import { existsSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

export function ensureDevVars(path = ".dev.vars") {
  if (existsSync(path)) return;
  writeFileSync(path, `SESSION_SECRET=${randomBytes(32).toString("hex")}\n`);
  console.log(`wrote ${path} with a fresh random SESSION_SECRET`);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureDevVars();
