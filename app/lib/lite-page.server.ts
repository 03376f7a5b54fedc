import { FORM_VALIDATORS_URL, LITE_PARTS_SOURCE, LITE_RUNTIME, LITE_WRAPPER } from "virtual:lite-parts";
import { AUTH_LIMITS } from "./schemas/auth";
import { PENDING_DELAY_MS, PENDING_MIN_MS, SCROLL_TOP_THRESHOLD_PX, TOAST_DURATION_MS, TOAST_SWIPE_PX } from "../components/feedback";
import { FINGERPRINT_SYNC_DELAY_MS } from "./fingerprint";
import { holdsStylesheet, stylesheetCookie, type LitePageAssets, type PublicScriptOptions } from "./page-scripts";
import { CREDIT_REFRESH, SW_REGISTER_DELAY_MS } from "./offline";
import { I18N_DATA_ID } from "./i18n";
import type { LiteConfig } from "./lite/context";
import { isLitePartName, LAST_PARTS, LITE_PARTS, PLAYER_PARTS, type LitePartName } from "./lite/parts";
// The processed stylesheet as text (Vite `?inline`), for the lite pages' <style>; and its
// address as a file (`?url`, the one the pages that hydrate link), for a browser that holds it.
import appCss from "../styles/app.css?inline";
import appCssHref from "../styles/app.css?url";

/** The parts a page runs, in order, without repeats; unknown names are a programming error. */
function partsFor(options: PublicScriptOptions): LitePartName[] {
  const wanted = new Set<string>([
    "public",
    ...(options.fingerprintField || options.syncAgencyId ? ["fingerprint"] : []),
    ...(options.syncAgencyId ? PLAYER_PARTS : []),
    ...options.parts,
  ]);
  for (const name of wanted) if (!isLitePartName(name)) throw new Error(`unknown lite part: ${name}`);
  const names = (Object.keys(LITE_PARTS) as LitePartName[]).filter((name) => wanted.has(name) && !LAST_PARTS.includes(name));
  if (options.syncAgencyId || options.parts.some((p) => LAST_PARTS.includes(p as LitePartName))) names.push(...LAST_PARTS);
  return names;
}

/** The inline script of a lite page (rendered with the CSP nonce by the root Layout). */
function publicScript(options: PublicScriptOptions): string {
  const names = partsFor(options);
  const config: LiteConfig = {
    parts: names,
    fingerprintField: options.fingerprintField,
    syncAgencyId: options.syncAgencyId,
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
  };
  const parts = names.map((name) => LITE_PARTS_SOURCE[name]).join("");
  // JSON in a script: "<" escaped so a value can never close the element.
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  return `${LITE_WRAPPER.open}${parts}${LITE_RUNTIME}${LITE_WRAPPER.close}(${json(config)},[],${json(I18N_DATA_ID)});`;
}

export const litePageAssets: Omit<LitePageAssets, "nonce" | "stylesheet" | "buildVersion"> = {
  script: publicScript,
  css: appCss,
  formValidators: FORM_VALIDATORS_URL,
};

/** The stylesheet file, and whether this request's browser holds it (decision 044). */
export function liteStylesheet(cookieHeader: string | null): LitePageAssets["stylesheet"] {
  return appCssHref ? { href: appCssHref, held: holdsStylesheet(cookieHeader, appCssHref) } : null;
}
