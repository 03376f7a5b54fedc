import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { resources } from "../../app/middleware/i18next.server";
import { I18N_DATA_ID, i18nOptions } from "../../app/lib/i18n";
import { createLiteT } from "../../app/lib/lite/translate";
import { LANGUAGES } from "../../workers/core/languages";

/**
 * The lite pages' `t` (lib/lite/translate.ts, decision 034) is a small copy of the browser
 * i18next's lookup, inlined into the page as source: held to the real i18next on every key of
 * the namespaces a player page inlines, in every language, as `ns:key` and as a plain key
 * (`common`, then `player`), with values, without, and with unrelated ones.
 */

type Tree = Record<string, unknown>;

function leaves(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[prefix + key, value] as [string, string]] : leaves(value as Tree, `${prefix}${key}.`),
  );
}

function valuesFor(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => [m[1]!, `<${m[1]}>`]));
}

/** A document holding the page's inlined translations, as the root Layout renders them. */
function pageWith(json: string | null): Document {
  return { getElementById: (id: string) => (id === I18N_DATA_ID && json !== null ? { textContent: json } : null) } as unknown as Document;
}

describe("the lite pages' t", () => {
  it("gives i18next's string for every key of common and player in every language", async () => {
    let compared = 0;
    for (const lng of LANGUAGES) {
      const real = createInstance();
      await real.init({ ...i18nOptions, lng, resources: { [lng]: resources[lng] } });
      const bundles = { common: resources[lng].common, player: resources[lng].player };
      const t = createLiteT(pageWith(JSON.stringify({ lng, groups: null, resources: bundles })), I18N_DATA_ID);
      for (const ns of ["common", "player"] as const) {
        for (const [key, text] of leaves(resources[lng][ns])) {
          const values = valuesFor(text);
          expect(t(`${ns}:${key}`, values), `${lng} ${ns}:${key}`).toBe(real.t(`${ns}:${key}`, values));
          expect(t(`${ns}:${key}`), `${lng} ${ns}:${key}`).toBe(real.t(`${ns}:${key}`));
          expect(t(`${ns}:${key}`, { unrelated: "1" }), `${lng} ${ns}:${key}`).toBe(real.t(`${ns}:${key}`, { unrelated: "1" }));
          compared += 3;
        }
      }
      // a plain key: `common` first, then `player` (i18nOptions' defaultNS and fallbackNS)
      for (const [key, text] of [...leaves(resources[lng].common), ...leaves(resources[lng].player)]) {
        expect(t(key, valuesFor(text)), `${lng} ${key}`).toBe(real.t(key, valuesFor(text)));
      }
      for (const key of ["nope.nothing", "common:providers.unknown-provider"]) expect(t(key)).toBe(real.t(key));
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("reads only what the page inlined, and a page without translations gets the key back", () => {
    const t = createLiteT(pageWith(JSON.stringify({ resources: { common: { pending: "Loading" } } })), I18N_DATA_ID);
    expect(t("pending")).toBe("Loading");
    expect(t("nav.home")).toBe("nav.home");
    expect(createLiteT(pageWith(null), I18N_DATA_ID)("pending")).toBe("pending");
  });
});
