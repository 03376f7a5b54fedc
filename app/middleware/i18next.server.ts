import { createCookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next";
import { initReactI18next } from "react-i18next";
import loCommon from "../../locales/lo/common.json";
import cnCommon from "../../locales/cn/common.json";
import vnCommon from "../../locales/vn/common.json";
import loPlayer from "../../locales/lo/player.json";
import cnPlayer from "../../locales/cn/player.json";
import vnPlayer from "../../locales/vn/player.json";
import loAdmin from "../../locales/lo/admin.json";
import cnAdmin from "../../locales/cn/admin.json";
import vnAdmin from "../../locales/vn/admin.json";
import { i18nOptions, type Namespace } from "../lib/i18n";
import { chooseLanguage, DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, type Language } from "@workers/core/languages";
import { agencyContext } from "../lib/context.server";
import { LANGUAGE_COOKIE_OPTIONS } from "../lib/cookies.server";

/** Bundled at build time: Workers have no file system. */
export const resources: Record<Language, Record<Namespace, Record<string, unknown>>> = {
  lo: { common: loCommon, player: loPlayer, admin: loAdmin },
  cn: { common: cnCommon, player: cnPlayer, admin: cnAdmin },
  vn: { common: vnCommon, player: vnPlayer, admin: vnAdmin },
};

/** The visitor's language choice; a year, readable by the server only. */
const languageCookie = createCookie(LANGUAGE_COOKIE, LANGUAGE_COOKIE_OPTIONS);

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    cookie: languageCookie,
    // cookie first; then our own step: the agency's fallback setting, else `lo`.
    order: ["cookie", "custom"],
    async findLocale({ context }) {
      return chooseLanguage(null, context.get(agencyContext)?.fallbackLanguage);
    },
  },
  i18next: { ...i18nOptions, resources },
  plugins: [initReactI18next],
});

/** Set-Cookie value for a language the visitor picked (the switcher's action). */
export function serializeLanguageCookie(language: Language, secure: boolean): Promise<string> {
  return languageCookie.serialize(language, { secure });
}
