/**
 * A readable name for the device behind a session's user-agent, for the player's sessions
 * page: "Chrome on Android", "Safari on iPhone", "Firefox on Windows". The player recognises
 * their phone by the browser and the system, never by the raw string (which also names build
 * numbers nobody reads). Brand names are not translated; the page translates the words around
 * them ("on", "unknown device").
 *
 * The order of the checks matters: most browsers also say "Chrome" or "Safari" (Edge, Opera,
 * Samsung Internet, in-app browsers say both), and an iPhone says "like Mac OS X".
 */
export type DeviceName = { browser: string | null; system: string | null };

/** Browsers, the specific before the generic: the first whose mark the user-agent carries. */
const BROWSERS: readonly [RegExp, string][] = [
  [/\b(FBAN|FBAV|FB_IAB)\b/, "Facebook"],
  [/\bLine\//, "LINE"],
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|OPiOS|Opera)\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bUCBrowser\//, "UC Browser"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS|Chromium|HeadlessChrome)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

/** Systems, the specific before the generic (an iPhone says "like Mac OS X", Android says "Linux"). */
const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\b(Macintosh|Mac OS X)\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const firstMatch = (text: string, table: readonly [RegExp, string][]) => table.find(([mark]) => mark.test(text))?.[1] ?? null;

/** The browser and the system a user-agent names; null for what it does not say (or no user-agent at all). */
export function deviceName(userAgent: string | null | undefined): DeviceName {
  const text = userAgent?.trim() ?? "";
  if (!text) return { browser: null, system: null };
  return { browser: firstMatch(text, BROWSERS), system: firstMatch(text, SYSTEMS) };
}
