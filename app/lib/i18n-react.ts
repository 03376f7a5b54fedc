import { createContext, createElement, useContext, useMemo, type ReactNode } from "react";
import browserI18n from "./i18n-browser";

/**
 * The browser's react-i18next (decision 021): `useTranslation`, `I18nextProvider` and
 * `initReactI18next`, over lib/i18n-browser.ts. vite.config.ts swaps it in for
 * `react-i18next` in the client build only. The language never changes without a new
 * document (the switcher is a form post), so nothing here needs to re-render on a change.
 */
type Instance = typeof browserI18n;

const I18nContext = createContext<Instance>(browserI18n);

export const initReactI18next = { type: "3rdParty", init: () => {} };

export function I18nextProvider({ i18n, children }: { i18n: Instance; children?: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

export function useTranslation(ns?: string) {
  const i18n = useContext(I18nContext);
  // stable per namespace, like react-i18next's (components list `t` in effect dependencies)
  return useMemo(() => ({ t: i18n.getFixedT(ns), i18n, ready: true }), [i18n, ns]);
}
