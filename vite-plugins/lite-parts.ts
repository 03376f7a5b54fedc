import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Plugin } from "vite";
import { LITE_PARTS } from "../app/lib/lite/parts";

/**
 * `virtual:lite-parts`: the lite pages' script (decision 066) as minified source the server
 * inlines. Each part of app/lib/lite/parts.ts and the runtime (app/lib/lite/runtime.ts) is
 * bundled on its own by esbuild, with what it imports (the translation runtime, the
 * fingerprint collector, the shared markup hooks), into one statement; the page's script is
 *
 *   ((config, parts, dataId) => { <each part's statement> <the runtime's statement> })(...)
 *
 * where a part's statement pushes the part into `parts` and the runtime's runs them
 * (`scriptOf`). Parts used to be inlined by `Function#toString`, which allowed them no import.
 * Not `export default` with a global name: esbuild then adds its CommonJS helpers to every part.
 *
 * It also exports `FORM_VALIDATORS_URL`, the address of the lite forms' validator module
 * (app/lib/lite/form-validators.ts, decision 034): the client build emits that module as a chunk
 * of its own, and the server build, which runs after it in the same process (React Router
 * builds the client first; `sharedDuringBuild` keeps this one plugin object for both), inlines
 * the chunk's hashed name. Under `vite dev` (and vitest) it is the module's source address, which
 * Vite serves.
 */
const MODULE_ID = "virtual:lite-parts";
const RESOLVED_ID = `\0${MODULE_ID}`;
const LITE_DIR = fileURLToPath(new URL("../app/lib/lite/", import.meta.url));
const FORM_VALIDATORS = fileURLToPath(new URL("../app/lib/lite/form-validators.ts", import.meta.url));
/** The names the statements share with the wrapper (free variables: esbuild never renames them). */
const LITE_SCRIPT_ARGS = { config: "$liteConfig", parts: "$liteParts", dataId: "$liteData" } as const;

/** One entry's code, bundled and minified, as a statement. */
async function bundleStatement(contents: string): Promise<{ code: string; files: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: LITE_DIR, sourcefile: "lite-entry.ts", loader: "ts" },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  return { code: result.outputFiles[0]!.text.trim(), files: Object.keys(result.metafile.inputs) };
}

export function liteParts(): Plugin {
  const { config, parts, dataId } = LITE_SCRIPT_ARGS;
  let validatorsChunk: string | null = null; // the client build's reference, then its file name
  let validatorsUrl: string | null = null;
  return {
    name: "portal:lite-parts",
    sharedDuringBuild: true,
    configResolved(resolved) {
      if (resolved.command === "serve") validatorsUrl = `/${relative(resolved.root, FORM_VALIDATORS)}`;
    },
    buildStart() {
      if (this.environment.mode === "build" && this.environment.name === "client") {
        validatorsChunk = this.emitFile({ type: "chunk", id: FORM_VALIDATORS, name: "form-validators", preserveSignature: "exports-only" });
      }
    },
    generateBundle() {
      if (this.environment.name === "client" && validatorsChunk) validatorsUrl = `${this.environment.config.base}${this.getFileName(validatorsChunk)}`;
    },
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const runtime = await bundleStatement(
        `import { runLitePage } from "./runtime.ts";\ndeclare const ${config}: never, ${parts}: never, ${dataId}: never;\nrunLitePage(${config}, ${parts}, ${dataId});`,
      );
      const sources: Record<string, string> = {};
      const files = new Set(runtime.files);
      for (const [name, part] of Object.entries(LITE_PARTS)) {
        const bundled = await bundleStatement(`import { ${part.run} } from "./${part.file}";\ndeclare const ${parts}: unknown[];\n${parts}.push(${part.run});`);
        sources[name] = bundled.code;
        for (const file of bundled.files) files.add(file);
      }
      // a change to a part or to what it imports rebuilds the module (vite dev)
      for (const file of files) if (existsSync(file)) this.addWatchFile(resolve(file));
      const wrapper = { open: `((${config},${parts},${dataId})=>{`, close: "})" };
      return [
        `export const LITE_RUNTIME = ${JSON.stringify(runtime.code)};`,
        `export const LITE_PARTS_SOURCE = ${JSON.stringify(sources)};`,
        `export const LITE_WRAPPER = ${JSON.stringify(wrapper)};`,
        `export const FORM_VALIDATORS_URL = ${JSON.stringify(validatorsUrl)};`,
        "",
      ].join("\n");
    },
  };
}
