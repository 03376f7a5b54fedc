import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The vitest pool runs auxiliary Workers from plain JavaScript, so the sandboxes are
 * bundled with esbuild when the test config loads (milliseconds), into .wrangler/tmp.
 */
export async function bundleSandbox(name: "provider" | "bank" | "telegram"): Promise<string> {
  const outdir = join(".wrangler", "tmp", "sandbox-bundles");
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `${name}.mjs`);
  await build({
    entryPoints: [`workers/sandbox/${name}/index.ts`],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["cloudflare:*", "node:*"],
    logLevel: "warning",
  });
  return outfile;
}
