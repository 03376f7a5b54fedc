import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import i18next from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { I18N_DATA_ID, i18nOptions } from "./lib/i18n";
import { guardOfflineSubmits, registerServiceWorker, SW_REGISTER_DELAY_MS } from "./lib/offline";

/**
 * The server inlines the current language's strings in the page, so hydration needs no
 * extra request on a slow network. Other languages arrive with the root loader's data.
 */
async function hydrate() {
  const element = document.getElementById(I18N_DATA_ID);
  const payload = element?.textContent ? JSON.parse(element.textContent) : { lng: "lo", resources: {} };
  await i18next.use(initReactI18next).init({
    ...i18nOptions,
    lng: payload.lng,
    resources: { [payload.lng]: payload.resources },
  });
  // (`html.js` is set by the root's head script.) Tells the server this browser runs JavaScript, so it may stream (see entry.server).
  // biome-ignore lint/suspicious/noDocumentCookie: one synchronous write every browser knows; the Cookie Store API is newer and asynchronous
  if (!/(?:^|;\s*)js=1(?:;|$)/.test(document.cookie)) document.cookie = "js=1; path=/; max-age=31536000; samesite=lax";
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

// Before hydration: a submit while offline is stopped from the first click (decision 028).
guardOfflineSubmits();
registerServiceWorker(SW_REGISTER_DELAY_MS);
void hydrate();
