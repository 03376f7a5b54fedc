import i18next from "i18next";
import { namespacesFor } from "./i18n";

/** Fetches the namespaces a path needs that this browser has not loaded yet (GET /locales/{lng}/{ns}.json). */
export async function loadNamespacesFor(pathname: string): Promise<void> {
  const lng = i18next.language;
  const missing = namespacesFor(pathname).filter((ns) => !i18next.hasResourceBundle(lng, ns));
  await Promise.all(
    missing.map(async (ns) => {
      // no cookies: a translation file needs none, and the request must not consume the
      // flash cookie (a toast waiting for the page this navigation is going to)
      const res = await fetch(`/locales/${lng}/${ns}.json`, { credentials: "omit" });
      if (res.ok) i18next.addResourceBundle(lng, ns, await res.json(), true, false);
    }),
  );
}
