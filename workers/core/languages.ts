/** Interface languages, in the order the switcher shows them; `lo` is the default. */
export const LANGUAGES = ["lo", "cn", "vn"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "lo";
export const LANGUAGE_COOKIE = "lng";

/** BCP 47 tags for <html lang>, Intl and screen readers (cn/vn are the product's codes). */
export const HTML_LANG: Record<Language, string> = { lo: "lo", cn: "zh-CN", vn: "vi" };

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language of a page: the visitor's own choice (cookie) first, then the agency's
 * fallback setting, then `lo`. Anything unsupported at a step falls through to the next.
 */
export function chooseLanguage(cookieValue: string | null | undefined, agencyFallback: string | null | undefined): Language {
  if (isLanguage(cookieValue)) return cookieValue;
  if (isLanguage(agencyFallback)) return agencyFallback;
  return DEFAULT_LANGUAGE;
}
