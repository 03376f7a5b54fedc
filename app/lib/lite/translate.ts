import type { LiteT } from "./context";

/**
 * `t` of a lite page: reads the key groups the page inlined (`<script id="i18n-resources">`,
 * the same JSON an app page carries, decision 032) on first use. Inlined by Function#toString,
 * so it is one self-contained function: a tiny copy of lib/i18n-browser.ts's lookup and
 * interpolation (those are separate module functions that call each other, which a build may
 * rename; tests/unit/lite-translate.test.ts compares the two on every key of every locale).
 * Covered: `ns:key` (common, player, admin), nested keys and flat keys with dots, the `common`
 * namespace then `player`, `{{var}}`; a missing key returns the key.
 */
export function createLiteT(d: Document, dataId: string): LiteT {
  let data: { resources: Record<string, unknown> } | null = null;
  const lookup = (tree: unknown, key: string): unknown => {
    if (tree === null || typeof tree !== "object") return undefined;
    const node = tree as Record<string, unknown>;
    if (key in node) return node[key];
    const parts = key.split(".");
    for (let i = parts.length - 1; i > 0; i--) {
      const head = parts.slice(0, i).join(".");
      if (head in node) {
        const found = lookup(node[head], parts.slice(i).join("."));
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return (key, vars) => {
    if (!data) {
      try {
        data = JSON.parse(d.getElementById(dataId)?.textContent ?? "") as { resources: Record<string, unknown> };
      } catch {
        data = { resources: {} };
      }
    }
    let namespaces = ["common", "player"];
    let path = key;
    const colon = key.indexOf(":");
    if (colon > 0 && ["common", "player", "admin"].includes(key.slice(0, colon))) {
      namespaces = [key.slice(0, colon)];
      path = key.slice(colon + 1);
    }
    for (const ns of namespaces) {
      const found = lookup(data.resources[ns], path);
      if (typeof found === "string")
        return found.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (placeholder, name: string) => {
          const value = vars?.[name];
          return value === undefined || value === null ? placeholder : String(value);
        });
    }
    return path;
  };
}
