// The image and colour rules of workers/core/brand.ts for the operator scripts (seed,
// agency:create): bundled with esbuild on the fly, so a script checks a file with exactly
// the rules the Worker applies to an upload (no second copy to drift).
import { build } from "esbuild";

let rules = null;

export async function loadBrandRules() {
  if (rules) return rules;
  const out = await build({
    entryPoints: [new URL("../workers/core/brand.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  rules = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].contents).toString("base64")}`);
  return rules;
}
