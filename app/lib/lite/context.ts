/**
 * What every part of a lite page's script gets (decision 021, 034). A part is one behaviour
 * in its own module, `(ctx: LiteContext) => void`, inlined by `Function#toString` into the
 * page's one nonce'd script (lib/lite-page.server.ts): it may use nothing but `ctx` and the
 * browser's globals (no imports at run time; types only), and does nothing when the page has
 * none of its markup.
 */
import type { FingerprintKit, OfflineKit } from "./kits";

/** Plain values the server hands to the script (JSON in the page). */
export type LiteConfig = {
  /** Fill the form's `fingerprint` field (registration). */
  fingerprintField: boolean;
  /** A logged-in player's agency: send the fingerprint once a day (SPEC §1). */
  syncAgencyId: string | null;
  version: string;
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
  /** Pending UI (SPEC §9): shown after this long, then at least `pendingMinMs`. */
  pendingDelayMs: number;
  pendingMinMs: number;
  /** Live credits (decision 028): every `creditEveryMs` while visible, never within `creditGapMs`. */
  creditEveryMs: number;
  creditGapMs: number;
  /** Values a page's own parts add (lite-page.server.ts `LitePartSpec.config`). */
  [extra: string]: unknown;
};

/**
 * Pure helpers passed as source, only on pages whose parts ask for them (bytes): each is
 * absent unless a part of the page declared it (`LitePartSpec.kits`).
 */
export type LiteKit = {
  offline: OfflineKit;
  fingerprint?: FingerprintKit;
  [name: string]: unknown;
};

/** Translates `ns:key` / nested keys / `{{var}}` from the groups the page inlined (lite/translate.ts). */
export type LiteT = (key: string, vars?: Record<string, string>) => string;

export type LiteContext = {
  d: Document;
  t: LiteT;
  config: LiteConfig;
  kit: LiteKit;
};

export type LitePart = (ctx: LiteContext) => void;
