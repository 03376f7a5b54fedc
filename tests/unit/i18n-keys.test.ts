import { describe, expect, it } from "vitest";
import common from "../../locales/lo/common.json";
import player from "../../locales/lo/player.json";
import { keyGroupsOf, pickGroups } from "../../app/lib/i18n";

/**
 * Translations per page (decision 032): a page ships only the key groups its routes declare in
 * `handle.i18n`. This test reads the source of every player page's route modules (root, player
 * layout, the page) and of every browser module they import (components, app/lib,
 * workers/core; dynamic imports too: the lazy form schemas), takes every string literal that
 * names a translation key (or, for a template literal, the key path before its first `${`),
 * and fails when the page's groups do not cover it. String literals, not only `t("...")`: keys
 * also travel as data (the menu's entries, errors.ts's code -> key table, schema messages).
 */

type Tree = Record<string, unknown>;
const NAMESPACES: Record<string, Tree> = { common, player };

// Every source of the app and of the pure core, as text (Vite's ?raw; no file system in workerd).
const SOURCES = import.meta.glob<string>(["/app/**/*.{ts,tsx}", "/workers/core/**/*.ts"], { query: "?raw", import: "default", eager: true });
const ROUTE_MODULES = import.meta.glob<{ handle?: unknown }>("/app/routes/player/*.tsx");

/** A path of the locale tree ("deposit.title" or a subtree "providers"), in either namespace. */
function keyNode(path: string): unknown {
  for (const tree of Object.values(NAMESPACES)) {
    let node: unknown = tree;
    for (const part of path.split(".")) node = typeof node === "object" && node !== null ? (node as Tree)[part] : undefined;
    if (node !== undefined) return node;
  }
  return undefined;
}

/** Keys named by a module's string literals. Server-only calls (`translate(context, "...")`) are left out: the server has every key. */
function keysIn(source: string): Set<string> {
  const text = source
    // comments out (strings kept whole, so a "//" inside one stays)
    .replace(/("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (_all, literal?: string) => literal ?? "")
    .replace(/(?:translate\(\s*context\s*,|getInstance\(context\)\.t\()\s*(["'`])[^"'`]*\1/g, "");
  const keys = new Set<string>();
  const consider = (raw: string, subtree = false) => {
    const literal = raw.replace(/^(common|player):/, "");
    // a key is nested ("a.b") except the few top-level strings ("pending", "scrollTop")
    if (!subtree && !literal.includes(".") && typeof keyNode(literal) !== "string") return;
    if (literal && keyNode(literal) !== undefined) keys.add(literal);
  };
  for (const m of text.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g)) consider(m[1] ?? m[2] ?? "");
  for (const m of text.matchAll(/`((?:[^`\\]|\\.)*)`/g)) {
    const body = m[1]!;
    const at = body.indexOf("${");
    // `providers.${p}` needs the subtree "providers"; `${a}.b` names nothing by itself
    if (at < 0) consider(body);
    else if (body.slice(0, at).endsWith(".")) consider(body.slice(0, at - 1), true);
  }
  return keys;
}

function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("~/")) base = `/app/${spec.slice(2)}`;
  else if (spec.startsWith(".")) {
    const parts = from.split("/").slice(0, -1);
    for (const part of spec.split("/")) {
      if (part === "..") parts.pop();
      else if (part !== ".") parts.push(part);
    }
    base = parts.join("/");
  } else return null; // a package
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) if (candidate in SOURCES) return candidate;
  return null;
}

/** The module and the browser modules it imports, transitively: no *.server, no workers/ but core. */
function moduleGraph(entry: string, skip: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || skip.has(file)) return;
    seen.add(file);
    const source = SOURCES[file]!.replace(/^import type .*$/gm, "");
    for (const m of source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      const target = resolve(file, m[1]!);
      if (!target || /\.server\.tsx?$/.test(target) || /\/middleware\//.test(target)) continue;
      if (target.startsWith("/workers/") && !target.startsWith("/workers/core/")) continue;
      visit(target);
    }
  };
  visit(entry);
  return [...seen];
}

function covered(key: string, groups: readonly string[]): boolean {
  return groups.some((group) => key === group || key.startsWith(`${group}.`));
}

/** Keys a page renders: root (its error boundary aside: error pages ship whole namespaces), player layout, the route. */
function keysOfPage(route: string): Map<string, string> {
  const found = new Map<string, string>(); // key -> a module naming it
  // errors.ts is the root's only for its ErrorBoundary (codes -> messages)
  const rootGraph = moduleGraph("/app/root.tsx", new Set(["/app/lib/errors.ts"]));
  for (const file of [...rootGraph, ...moduleGraph("/app/routes/player/layout.tsx"), ...moduleGraph(route)]) {
    for (const key of keysIn(file === "/app/root.tsx" ? SOURCES[file]!.split("export function ErrorBoundary")[0]! : SOURCES[file]!)) {
      if (!found.has(key)) found.set(key, file);
    }
  }
  return found;
}

describe("translations per page", () => {
  const pages = Object.keys(ROUTE_MODULES).filter((file) => !file.endsWith("/layout.tsx"));

  it("finds the player pages and the keys they name", () => {
    expect(pages.length).toBeGreaterThanOrEqual(14);
    const deposit = keysOfPage("/app/routes/player/deposit.tsx");
    expect(deposit.has("nav.logout") || [...deposit.keys()].some((k) => k.startsWith("nav."))).toBe(true);
    expect([...deposit.keys()].some((k) => k.startsWith("deposit."))).toBe(true);
    // data keys count: the drawer menu's entries (lib/menu.ts)
    expect(deposit.get("menu.depositHistory")).toBe("/app/lib/menu.ts");
  });

  for (const file of Object.keys(ROUTE_MODULES).filter((f) => !f.endsWith("/layout.tsx"))) {
    it(`${file} ships every key it renders`, async () => {
      const [root, layout, page] = await Promise.all([import("../../app/root"), ROUTE_MODULES["/app/routes/player/layout.tsx"]!(), ROUTE_MODULES[file]!()]);
      const groups = keyGroupsOf([root, layout, page]);
      expect(groups, `${file} declares handle.i18n`).not.toBeNull();
      const missing = [...keysOfPage(file)].filter(([key]) => !covered(key, groups!)).map(([key, from]) => `${key} (${from})`);
      expect(missing.join(", "), `${file}: keys rendered but not in its page's groups`).toBe("");
    });
  }

  it("a key the page does not declare fails the check (the check can fail)", () => {
    expect(covered("deposit.title", ["deposit"])).toBe(true);
    expect(covered("deposit.title", ["deposit.amount"])).toBe(false);
    expect(covered("depositHistory.x", ["deposit"])).toBe(false);
    expect(keysIn(`t("deposit.amount"); t(\`providers.\${p}\`); const x = "not.a.key"; // t("deposit.provider")`)).toEqual(
      new Set(["deposit.amount", "providers"]),
    );
  });
});

describe("keyGroupsOf and pickGroups", () => {
  it("a page ships its routes' groups, or whole namespaces when its deepest route declares none", () => {
    expect(keyGroupsOf([{ handle: { i18n: ["nav"] } }, {}, { handle: { i18n: ["deposit", "nav"] } }])).toEqual(["deposit", "nav"]);
    expect(keyGroupsOf([{ handle: { i18n: ["nav"] } }, { handle: { scripts: "app" } }])).toBeNull();
    expect(keyGroupsOf([])).toBeNull();
  });
  it("picks nested groups and leaves out the rest", () => {
    const tree = { errors: { generic: { title: "g" }, code: { A: "a" } }, nav: { home: "h" }, pending: "p" };
    expect(pickGroups(tree, ["errors.generic", "pending", "missing.group"])).toEqual({ errors: { generic: { title: "g" } }, pending: "p" });
    expect(pickGroups(undefined, ["nav"])).toEqual({});
  });
});

describe("GET /locales/{lng}/keys.json", () => {
  it("answers only the asked groups of the asked namespaces, in the asked language", async () => {
    const { loader } = await import("../../app/routes/locales");
    const ask = (lng: string, query: string) =>
      loader({ params: { lng, file: "keys.json" }, request: new Request(`http://localhost/locales/${lng}/keys.json?${query}`) } as never) as Response;
    const res = ask("cn", "ns=common,player&g=deposit.amount,providers,limits.hm");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, Record<string, unknown>>;
    expect(Object.keys(body).sort()).toEqual(["common", "player"]);
    expect(Object.keys(body.player!.deposit as object)).toEqual(["amount"]);
    expect(body.common!.providers).toBeTruthy();
    expect(JSON.stringify(body)).not.toContain("withdraw");
    // an unknown namespace is left out, an unknown language is a 404
    expect(Object.keys((await ask("lo", "ns=common,nope&g=nav").json()) as object)).toEqual(["common"]);
    expect(ask("en", "ns=common&g=nav").status).toBe(404);
  });
});

describe("the browser's i18next with groups arriving in parts", () => {
  it("merges a later group into the same top-level key instead of replacing it", async () => {
    const { default: browserI18n } = await import("../../app/lib/i18n-browser");
    const small = Object.create(Object.getPrototypeOf(browserI18n)) as typeof browserI18n;
    Object.assign(small, { language: "lo", options: {}, store: {} });
    small.t = (key, options) => small.translate(key, options);
    await small.init({ lng: "lo", defaultNS: "common", ns: ["common"], resources: { lo: { common: { errors: { generic: { title: "G" } } } } } });
    small.addResourceBundle("lo", "common", { errors: { code: { X: "x" } } }, true, false);
    expect(small.t("errors.generic.title")).toBe("G");
    expect(small.t("errors.code.X")).toBe("x");
  });
});
