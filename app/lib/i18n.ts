import { DEFAULT_LANGUAGE, LANGUAGES } from "@workers/core/languages";

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

/**
 * Translations per page (decision 032). A route module says which key groups it
 * renders: `export const handle = { i18n: ["deposit", "credits", "errors.code"] }`. A group is
 * a key path (a top-level key or a deeper one, "errors.generic"), taken from every namespace
 * the page has (`common` and `player` may hold the same top-level key). A page ships the union
 * of its matched routes' groups (the root's: navbar, menu, footer; the player layout's: its
 * notices), not whole namespaces. A page whose deepest route declares nothing (the back
 * office, a page that forgot) ships the whole namespaces of `namespacesFor`: heavier, never
 * broken. tests/unit/i18n-keys.test.ts fails when a route renders a key its page does not ship.
 */
export type I18nHandle = { i18n?: readonly string[] };

function declaredGroups(match: { handle?: unknown }): readonly string[] | undefined {
  const handle = match.handle;
  return typeof handle === "object" && handle !== null ? (handle as I18nHandle).i18n : undefined;
}

/** The key groups a page ships (sorted, once each), or null: the whole namespaces. */
export function keyGroupsOf(matches: readonly { handle?: unknown }[]): string[] | null {
  const leaf = matches.at(-1);
  if (!leaf || !declaredGroups(leaf)) return null;
  return [...new Set(matches.flatMap((match) => declaredGroups(match) ?? []))].sort();
}

type Tree = Record<string, unknown>;

/** The part of a namespace's tree under the given key paths (groups it does not hold are left out). */
export function pickGroups(bundle: Tree | undefined, groups: readonly string[]): Tree {
  const picked: Tree = {};
  for (const group of groups) {
    const path = group.split(".");
    let node: unknown = bundle;
    for (const part of path) node = typeof node === "object" && node !== null ? (node as Tree)[part] : undefined;
    if (node === undefined) continue;
    let target = picked;
    for (const part of path.slice(0, -1)) target = (target[part] ??= {}) as Tree;
    target[path.at(-1)!] = node;
  }
  return picked;
}

/** Query parameters of `GET /locales/{lng}/keys.json`: the namespaces and the groups wanted. */
export const KEYS_FILE = "keys.json";
