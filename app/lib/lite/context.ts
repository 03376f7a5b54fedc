/**
 * What every part of a lite page's script gets (decision 021, 034, 066). A part is one
 * behaviour in its own module, `(ctx: LiteContext) => void`, bundled by the build with what it
 * imports (vite-plugins/lite-parts.ts) into the page's one nonce'd script
 * (lib/lite-page.server.ts), and does nothing when the page has none of its markup.
 */

/** Plain values the server hands to the script (JSON in the page). */
export type LiteConfig = {
  /** The parts this page runs, by name (app/lib/lite/parts.ts), in order. */
  parts: readonly string[];
  /** Fill the form's `fingerprint` field (registration). */
  fingerprintField: boolean;
  /** A logged-in player's agency: send the fingerprint once a day (docs/product.md §1). */
  syncAgencyId: string | null;
  toastMs: number;
  swipePx: number;
  scrollPx: number;
  usernamePattern: string;
  swDelayMs: number;
  /** The stylesheet this page inlined, to fetch into the cache, and the cookie that says so (decision 044). */
  stylesheetHref: string | null;
  stylesheetCookie: string | null;
  /** The daily fingerprint waits this long after `load` (lib/fingerprint.ts FINGERPRINT_SYNC_DELAY_MS). */
  fingerprintDelayMs: number;
  /** Pending UI (docs/product.md §9): shown after this long, then at least `pendingMinMs`. */
  pendingDelayMs: number;
  pendingMinMs: number;
  /** Live credits (decision 028): every `creditEveryMs` while visible, never within `creditGapMs`. */
  creditEveryMs: number;
  creditGapMs: number;
  /** Values a page's own parts add (lite-page.server.ts `LitePartSpec.config`). */
  [extra: string]: unknown;
};

/** Translates `ns:key` / nested keys / `{{var}}` from the groups the page inlined (the browser i18next, lite/runtime.ts). */
export type LiteT = (key: string, vars?: Record<string, string>) => string;

export type LiteContext = {
  d: Document;
  t: LiteT;
  config: LiteConfig;
};

export type LitePart = (ctx: LiteContext) => void;
