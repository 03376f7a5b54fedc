import i18next from "i18next";
import { matchRoutes } from "react-router";
import { I18N_DATA_ID, keyGroupsOf, KEYS_FILE, namespacesFor, type Namespace } from "./i18n";

/**
 * What this document has of each namespace: all of it, or only some key groups (decision 032).
 * Read once from the page's inlined translations (root Layout: `groups` null = whole namespaces).
 */
type Loaded = { whole: Set<string>; groups: Set<string> };
let loaded: Loaded | null = null;

function loadedSoFar(): Loaded {
  if (loaded) return loaded;
  const text = document.getElementById(I18N_DATA_ID)?.textContent;
  const payload = text ? (JSON.parse(text) as { resources?: Record<string, unknown>; groups?: string[] | null }) : {};
  const namespaces = Object.keys(payload.resources ?? {});
  loaded = payload.groups ? { whole: new Set(), groups: new Set(payload.groups) } : { whole: new Set(namespaces), groups: new Set() };
  return loaded;
}

type ClientRoute = { handle?: unknown; lazy?: unknown; children?: ClientRoute[] };

/**
 * The `handle`s of the routes a path matches, from the browser's router. A route module not
 * loaded yet is loaded through the router's own lazy `handle` (the same module the navigation
 * loads anyway: one download).
 */
async function handlesOf(pathname: string): Promise<{ handle?: unknown }[] | null> {
  const router = (window as { __reactRouterDataRouter?: { routes: ClientRoute[] } }).__reactRouterDataRouter;
  const matches = router ? matchRoutes(router.routes as never, pathname) : null;
  if (!matches) return null;
  return Promise.all(
    matches.map(async ({ route }: { route: ClientRoute }) => {
      if (route.handle !== undefined) return { handle: route.handle };
      const lazy = route.lazy as { handle?: () => Promise<unknown> } | undefined;
      return { handle: typeof lazy === "object" && lazy?.handle ? await lazy.handle() : undefined };
    }),
  );
}

async function fetchJson(url: string): Promise<Record<string, unknown> | null> {
  try {
    // no cookies: a translation file needs none, and the request must not consume the
    // flash cookie (a toast waiting for the page this navigation is going to)
    const res = await fetch(url, { credentials: "omit" });
    return res.ok ? ((await res.json()) as Record<string, unknown>) : null;
  } catch {
    return null; // offline: the navigation itself fails the same way
  }
}

/** Fetches the whole namespaces not held whole yet (GET /locales/{lng}/{ns}.json). */
export async function loadWholeNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  const lng = i18next.language;
  const state = loadedSoFar();
  await Promise.all(
    namespaces
      .filter((ns) => !state.whole.has(ns))
      .map(async (ns) => {
        const bundle = await fetchJson(`/locales/${lng}/${ns}.json`);
        if (!bundle) return;
        i18next.addResourceBundle(lng, ns, bundle, true, false);
        state.whole.add(ns);
      }),
  );
}

/**
 * Before a client navigation renders its page: the key groups that page ships in its HTML and
 * this document does not have yet, in one request (GET /locales/{lng}/keys.json). A page that
 * declares no groups gets its whole namespaces; a resource route (a fetcher's target) outside
 * /admin needs nothing.
 */
export async function loadTranslationsFor(pathname: string): Promise<void> {
  const handles = await handlesOf(pathname);
  const groups = handles ? keyGroupsOf(handles) : null;
  const namespaces = namespacesFor(pathname);
  if (!groups) {
    if (namespaces.includes("admin") || (handles && handles.length > 0 && pathname.startsWith("/player"))) await loadWholeNamespaces(namespaces);
    return;
  }
  const state = loadedSoFar();
  const partial = namespaces.filter((ns) => !state.whole.has(ns));
  const missing = groups.filter((group) => !state.groups.has(group));
  if (partial.length === 0 || missing.length === 0) return;
  const lng = i18next.language;
  const answer = await fetchJson(`/locales/${lng}/${KEYS_FILE}?ns=${partial.join(",")}&g=${missing.map(encodeURIComponent).join(",")}`);
  if (!answer) return;
  for (const ns of partial) i18next.addResourceBundle(lng, ns, (answer[ns] ?? {}) as Record<string, unknown>, true, false);
  for (const group of missing) state.groups.add(group);
}
