import { AUTH_LIMITS } from "./schemas/auth";
import { PENDING_DELAY_MS, PENDING_MIN_MS, SCROLL_TOP_THRESHOLD_PX, TOAST_DURATION_MS, TOAST_SWIPE_PX } from "../components/feedback";
import {
  afterLoadWhenIdle,
  FINGERPRINT_SYNC_DELAY_MS,
  FINGERPRINT_VERSION,
  fingerprintStorageKey,
  localDate,
  parseStored,
  shouldSendFingerprint,
} from "./fingerprint";
import { collectFingerprint, syncFingerprintWith } from "./fingerprint-collect";
import { holdsStylesheet, stylesheetCookie, type LitePageAssets, type PublicScriptOptions } from "./page-scripts";
import { CREDIT_REFRESH, guardOfflineSubmits, nextPollDelay, registerServiceWorker, SW_REGISTER_DELAY_MS } from "./offline";
import { I18N_DATA_ID } from "./i18n";
import type { LiteConfig, LiteContext, LiteKit, LitePart } from "./lite/context";
import { createLiteT } from "./lite/translate";
import { publicPart } from "./lite/public";
import { menusPart } from "./lite/menus";
import { creditsPart } from "./lite/credits";
import { pendingPart } from "./lite/pending";
import { playTimePart } from "./lite/play-time";
import { copyPart } from "./lite/copy";
import { liteValidate } from "./lite/validate";
import { liteCountdown, liteCreditPreview, liteDepositStatus, liteSelectOnFocus } from "./lite/deposit";
import { litePasswordDialog } from "./lite/password-dialog";
// The processed stylesheet as text (Vite `?inline`), for the lite pages' <style>; and its
// address as a file (`?url`, the one the pages that hydrate link), for a browser that holds it.
import appCss from "../styles/app.css?inline";
import appCssHref from "../styles/app.css?url";

/** The fingerprint functions as source, only for the pages that need them (most of the script's weight). */
const FINGERPRINT_KIT = `{collect:${collectFingerprint},sync:${syncFingerprintWith},storageKey:${fingerprintStorageKey},localDate:${localDate},parseStored:${parseStored},shouldSend:${shouldSendFingerprint},later:${afterLoadWhenIdle}}`;
const OFFLINE_KIT = `{register:${registerServiceWorker},guard:${guardOfflineSubmits}}`;
/**
 * Extra pure helpers as source, by name, for parts that need them (`LitePartSpec.kits`): a
 * page carries only the kits its parts ask for.
 */
const KITS: Record<string, string> = {
  nextPollDelay: String(nextPollDelay),
};

/** A part of a lite page's script, and what it needs beyond the base config. */
type LitePartSpec = { run: LitePart; kits?: readonly string[]; config?: Record<string, unknown> };

/**
 * Every part by name. `public` runs on every lite page (decision 021); a logged-in player's
 * page adds PLAYER_PARTS; a route asks for more with `handle.lite: ["name", ...]`
 * (page-scripts.ts `litePartsOf`). Order matters: `pending` last, so it sees a submit or a
 * click another part stopped (`defaultPrevented`).
 */
const PARTS: Record<string, LitePartSpec> = {
  public: { run: publicPart },
  menus: { run: menusPart },
  credits: { run: creditsPart },
  playTime: { run: playTimePart },
  copy: { run: copyPart },
  pending: { run: pendingPart },
  // the money forms (decision 034): lib/lite/validate.ts, lib/lite/deposit.ts
  validate: { run: liteValidate },
  creditPreview: { run: liteCreditPreview },
  depositStatus: { run: liteDepositStatus, kits: ["nextPollDelay"] },
  countdown: { run: liteCountdown },
  selectOnFocus: { run: liteSelectOnFocus },
  // the player menu's change-password dialog (decision 052): lib/lite/password-dialog.ts
  passwordDialog: { run: litePasswordDialog },
};
const PLAYER_PARTS = ["menus", "credits", "playTime", "passwordDialog"];
const LAST_PARTS = ["pending"];

/**
 * Runs the page's parts once the document is parsed (the script is the body's last element),
 * then marks the page enhanced (tests/e2e/fixtures.ts PAGE_READY). Inlined by toString.
 */
function run(config: LiteConfig, kit: LiteKit, parts: LitePart[], makeT: typeof createLiteT, dataId: string) {
  const d = document;
  const ctx: LiteContext = { d, t: makeT(d, dataId), config, kit };
  for (const part of parts) part(ctx);
  d.documentElement.dataset.enhanced = "true";
}
const RUN = String(run);
const CREATE_T = String(createLiteT);

/** The parts a page runs, in order, without repeats; unknown names are a programming error. */
function partsFor(options: PublicScriptOptions): string[] {
  const wanted = new Set(["public", ...(options.syncAgencyId ? PLAYER_PARTS : []), ...options.parts]);
  const names = [...Object.keys(PARTS).filter((name) => wanted.has(name) && !LAST_PARTS.includes(name))];
  for (const name of wanted) if (!PARTS[name]) throw new Error(`unknown lite part: ${name}`);
  if (options.syncAgencyId || options.parts.some((p) => LAST_PARTS.includes(p))) names.push(...LAST_PARTS);
  return names;
}

/** The inline script of a lite page (rendered with the CSP nonce by the root Layout). */
function publicScript(options: PublicScriptOptions): string {
  const names = partsFor(options);
  const specs = names.map((name) => PARTS[name]!);
  const config: LiteConfig = Object.assign(
    {
      fingerprintField: options.fingerprintField,
      syncAgencyId: options.syncAgencyId,
      version: FINGERPRINT_VERSION,
      toastMs: TOAST_DURATION_MS,
      swipePx: TOAST_SWIPE_PX,
      scrollPx: SCROLL_TOP_THRESHOLD_PX,
      usernamePattern: `^[a-z0-9_-]{${AUTH_LIMITS.usernameMin},${AUTH_LIMITS.usernameMax}}$`,
      swDelayMs: SW_REGISTER_DELAY_MS,
      stylesheetHref: options.cacheStylesheet,
      stylesheetCookie: options.cacheStylesheet ? stylesheetCookie(options.cacheStylesheet) : null,
      fingerprintDelayMs: FINGERPRINT_SYNC_DELAY_MS,
      pendingDelayMs: PENDING_DELAY_MS,
      pendingMinMs: PENDING_MIN_MS,
      creditEveryMs: CREDIT_REFRESH.everyMs,
      creditGapMs: CREDIT_REFRESH.minGapMs,
    },
    ...specs.map((spec) => spec.config ?? {}),
  );
  const kits = [
    `offline:${OFFLINE_KIT}`,
    ...(options.fingerprintField || options.syncAgencyId ? [`fingerprint:${FINGERPRINT_KIT}`] : []),
    ...[...new Set(specs.flatMap((spec) => spec.kits ?? []))].map((name) => `${name}:${KITS[name]}`),
  ];
  const parts = specs.map((spec) => String(spec.run));
  // JSON in a script: "<" escaped so a value can never close the element.
  return `(${RUN})(${JSON.stringify(config).replace(/</g, "\\u003c")},{${kits.join(",")}},[${parts.join(",")}],${CREATE_T},${JSON.stringify(I18N_DATA_ID)});`;
}

export const litePageAssets: Omit<LitePageAssets, "nonce" | "stylesheet"> = { script: publicScript, css: appCss };

/** The stylesheet file, and whether this request's browser holds it (decision 044). */
export function liteStylesheet(cookieHeader: string | null): LitePageAssets["stylesheet"] {
  return appCssHref ? { href: appCssHref, held: holdsStylesheet(cookieHeader, appCssHref) } : null;
}
