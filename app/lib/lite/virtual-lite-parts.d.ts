/** vite-plugins/lite-parts.ts: the lite pages' runtime and parts, bundled and minified, as source. */
declare module "virtual:lite-parts" {
  /** A statement that runs the parts pushed before it (app/lib/lite/runtime.ts runLitePage). */
  export const LITE_RUNTIME: string;
  /** Each part of app/lib/lite/parts.ts by name: a statement that pushes the part. */
  export const LITE_PARTS_SOURCE: Record<import("./parts").LitePartName, string>;
  /** Around the statements: `open` starts a function of (config, parts, dataId), `close` ends it. */
  export const LITE_WRAPPER: { open: string; close: string };
  /** The lite forms' validator module's address (lib/lite/form-validators.ts); null without a client build. */
  export const FORM_VALIDATORS_URL: string | null;
}
