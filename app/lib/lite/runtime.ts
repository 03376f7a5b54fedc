import i18next from "../i18n-browser";
import { i18nOptions } from "../i18n";
import type { LiteConfig, LiteContext, LitePart, LiteT } from "./context";

/**
 * The lite page's runtime (decision 034, 066): runs the page's parts once the document is
 * parsed (the script is the body's last element), then marks the page enhanced
 * (tests/e2e/fixtures.ts PAGE_READY). Bundled by the build with the browser's i18next
 * (lib/i18n-browser.ts, the one the pages that hydrate use), which reads the translations the
 * page inlined (`<script id="i18n-resources">`, decision 032) on first use.
 */
export function runLitePage(config: LiteConfig, parts: LitePart[], dataId: string): void {
  const d = document;
  let ready = false;
  const t: LiteT = (key, vars) => {
    if (!ready) {
      ready = true;
      let data: { lng?: string; resources?: Record<string, Record<string, unknown>> } = {};
      try {
        data = JSON.parse(d.getElementById(dataId)?.textContent ?? "{}") ?? {};
      } catch {
        // no translations: every key reads as itself
      }
      const lng = data.lng ?? i18nOptions.fallbackLng;
      void i18next.init({ ...i18nOptions, lng, resources: { [lng]: data.resources ?? {} } });
    }
    return i18next.t(key, vars);
  };
  const ctx: LiteContext = { d, t, config };
  for (const part of parts) part(ctx);
  d.documentElement.dataset.enhanced = "true";
}
