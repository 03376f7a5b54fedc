import { execFileSync } from "node:child_process";

/**
 * A statement against the e2e server's local D1, for specs that seed what a scheduled job
 * would have written (retried: two projects' wrangler calls may meet the database busy).
 */
export function d1(sql: string): Array<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const out = execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--json", "--command", sql], { encoding: "utf8", env: { ...process.env, CI: "true" }, stdio: ["ignore", "pipe", "inherit"] });
      return (JSON.parse(out) as Array<{ results: Array<Record<string, unknown>> }>).flatMap((p) => p.results ?? []);
    } catch (error) {
      if (attempt >= 4) throw error;
      execFileSync("sleep", [String(attempt)]);
    }
  }
}
