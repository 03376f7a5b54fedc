import { DEFAULT_LANGUAGE, LANGUAGES } from "../../workers/core/languages";

/**
 * Translation namespaces; each is a file locales/{lng}/{ns}.json. `common` is inlined on
 * every page; `player` (money screens) only under /player and /admin, so the landing page
 * a phone loads first stays small; `admin` is the back office's, only under /admin.
 */
const NAMESPACES = ["common", "player", "admin"] as const;
export type Namespace = (typeof NAMESPACES)[number];

export function isNamespace(value: unknown): value is Namespace {
  return typeof value === "string" && (NAMESPACES as readonly string[]).includes(value);
}

/** i18next options shared by the server and the browser. */
export const i18nOptions = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  // player-page keys ("deposit.amount") are found without a prefix once `player` is loaded
  fallbackNS: "player",
  ns: [...NAMESPACES],
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
} as const;

/** Id of the <script type="application/json"> that carries the page's translations to the browser. */
export const I18N_DATA_ID = "i18n-resources";

/** The namespaces a page needs, by its path (what the server inlines, what the browser loads on navigation). */
export function namespacesFor(pathname: string): Namespace[] {
  if (pathname === "/admin" || pathname.startsWith("/admin/")) return ["common", "player", "admin"];
  if (pathname === "/player" || pathname.startsWith("/player/")) return ["common", "player"];
  return ["common"];
}
