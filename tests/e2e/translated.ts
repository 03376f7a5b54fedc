import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";

/**
 * How the specs read a page's words (decision 032): the locale files as the portal ships them,
 * a key's text with its values, and the raw keys a page shows where a translation is missing.
 */
export type Tree = Record<string, unknown>;

/** A namespace of a language as the portal ships it (locales/<lng>/<ns>.json). */
export const bundle = (info: TestInfo, lng: string, ns: string) =>
  JSON.parse(readFileSync(join(dirname(info.config.configFile!), `locales/${lng}/${ns}.json`), "utf8")) as Tree;

/** A key's text in a namespace tree, its {{values}} filled in. */
export const textOf = (tree: Tree, key: string, values: Record<string, string | number> = {}) => {
  const template = key.split(".").reduce<unknown>((node, part) => (node as Tree)[part], tree);
  expect(typeof template, key).toBe("string");
  return (template as string).replace(/\{\{(\w+)\}\}/g, (_all, name: string) => String(values[name] ?? ""));
};

/** Every key of the namespaces ("deposit.amount"; the player's by default): what a missing translation shows instead. */
export function allKeys(info: TestInfo, namespaces = ["common", "player"]): Set<string> {
  const keys = new Set<string>();
  const walk = (tree: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value === "string") keys.add(prefix + key);
      else walk(value as Tree, `${prefix}${key}.`);
    }
  };
  for (const ns of namespaces) walk(bundle(info, "lo", ns), "");
  return keys;
}

/** Raw keys among what the page shows: its text, and the labels a screen reader or tooltip shows. */
export async function rawKeysOn(page: Page, keys: Set<string>): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll("[aria-label],[placeholder],[title],[alt]")) {
      for (const name of ["aria-label", "placeholder", "title", "alt"]) texts.push(el.getAttribute(name) ?? "");
    }
    return texts.join("\n");
  });
  return [...new Set(shown.match(/[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+/g) ?? [])].filter((token) => keys.has(token));
}

/** A phone nobody of this run has: 020 + 8 digits from the clock and chance. */
export const freshPhone = () => `020${String(Date.now() % 1e6).padStart(6, "0")}${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
