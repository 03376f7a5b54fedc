import { translateIn } from "../i18n-browser";
import { i18nOptions } from "../i18n";
import type { LiteConfig, LiteContext, LitePart, LiteT } from "./context";

/**
 * The lite page's runtime (decision 034, 066): runs the page's parts once the document is
 * parsed (the script is the body's last element), then marks the page enhanced
 * (tests/e2e/fixtures.ts PAGE_READY). `t` is the browser i18next's own lookup
 * (lib/i18n-browser.ts translateIn, the one the pages that hydrate use) over the translations
 * the page inlined (`<script id="i18n-resources">`, decision 032), read on first use.
 */
export function runLitePage(config: LiteConfig, parts: LitePart[], dataId: string): void {
  const d = document;
  let store: Record<string, Record<string, Record<string, unknown>>> | null = null;
  let lng: string = i18nOptions.fallbackLng;
  const t: LiteT = (key, vars) => {
    if (!store) {
      let data: { lng?: string; resources?: Record<string, Record<string, unknown>> } = {};
      try {
        data = JSON.parse(d.getElementById(dataId)?.textContent ?? "{}") ?? {};
      } catch {
        // no translations: every key reads as itself
      }
      lng = data.lng ?? lng;
      store = { [lng]: data.resources ?? {} };
    }
    return translateIn(store, i18nOptions, lng, key, vars);
  };
  const ctx: LiteContext = { d, t, config };
  for (const part of parts) part(ctx);
  d.documentElement.dataset.enhanced = "true";
}
