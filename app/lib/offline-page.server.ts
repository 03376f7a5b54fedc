import { brandCss } from "@workers/core/brand-style";
import { HTML_LANG, type Language } from "@workers/core/languages";
import type { BrandColors } from "@workers/core/brand";

export type OfflinePageInput = {
  lang: Language;
  siteName: string;
  colors: Partial<BrandColors> | null;
  nonce: string;
  text: { title: string; body: string; deposit: string; retry: string };
};

/**
 * Back online, the page the player asked for comes back by itself: a second after the browser
 * says so (the service worker's own network may follow a moment later), and every 10 s while
 * the browser believes it is online (a flaky network fails with `navigator.onLine` true).
 */
const RETRY = `function r(){location.reload()}addEventListener("online",function(){setTimeout(r,1e3)});if(navigator.onLine)setTimeout(r,1e4)`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page the service worker shows when a navigation finds no network (decision 028).
 * A plain document, not a React page: it is stored once per language at install and shown
 * from the cache, so it carries everything itself (about 1 KB brotli): its own small styles
 * with the agency's colours, the Lao font from the worker's cache, a "try again" link to the
 * address the player asked for (the empty href), and one line of script that reloads when
 * the browser is back online (RETRY; with this response's nonce: the cached copy keeps its CSP).
 */
export function offlinePageHtml({ lang, siteName, colors, nonce, text }: OfflinePageInput): string {
  const css =
    `${brandCss(colors)}` +
    `@font-face{font-family:"Noto Sans Lao";font-weight:400;font-display:swap;src:url(/fonts/noto-sans-lao-400.woff2) format("woff2");unicode-range:U+0E81-0EDF,U+200C-200D,U+25CC}` +
    `body{margin:0;font:16px/1.6 "Noto Sans Lao",system-ui,sans-serif;color:#1f2328;background:#f6f7f9}` +
    `main{max-width:32rem;margin:0 auto;padding:2rem 1rem}header{background:var(--brand);color:var(--brand-text);padding:.75rem 1rem;font-weight:700}` +
    `h1{font-size:1.4rem;line-height:1.3}a.button{display:inline-block;padding:.6rem 1.2rem;border-radius:.5rem;background:var(--brand);color:var(--brand-text);text-decoration:none;font-weight:700}`;
  return `<!doctype html><html lang="${HTML_LANG[lang]}" data-locale="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(text.title)}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style nonce="${escapeHtml(nonce)}">${css}</style></head><body data-testid="offline-page"><header>${escapeHtml(siteName)}</header><main><h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(text.body)}</p><p>${escapeHtml(text.deposit)}</p><p><a class="button" href="" data-testid="offline-retry">${escapeHtml(text.retry)}</a></p></main><script nonce="${escapeHtml(nonce)}">${RETRY}</script></body></html>`;
}
