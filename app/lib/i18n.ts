import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages";

/** Translation namespaces; each is a file locales/{lng}/{ns}.json. */
/** `admin` is the back office's: loaded on /admin pages only (never inlined on player pages). */
export const NAMESPACES = ["common", "admin"] as const;
export type Namespace = (typeof NAMESPACES)[number];

export function isNamespace(value: unknown): value is Namespace {
  return typeof value === "string" && (NAMESPACES as readonly string[]).includes(value);
}

/** i18next options shared by the server and the browser. */
export const i18nOptions = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  ns: [...NAMESPACES],
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
} as const;

/** Id of the <script type="application/json"> that carries the page's translations to the browser. */
export const I18N_DATA_ID = "i18n-resources";
