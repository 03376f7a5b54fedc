import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { resources } from "../../app/middleware/i18next.server";
import { i18nOptions } from "../../app/lib/i18n";
import browserI18n from "../../app/lib/i18n-browser";
import { I18nextProvider, useTranslation } from "../../app/lib/i18n-react";
import { LANGUAGES } from "../../workers/core/languages";

/**
 * The browser build swaps i18next and react-i18next for app/lib/i18n-browser.ts and
 * i18n-react.ts (vite.config.ts, decision 021). These hold the small versions to the real
 * one: every key of every locale file, in every language, the way components ask for it.
 */

type Tree = Record<string, unknown>;

function leaves(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[prefix + key, value] as [string, string]] : leaves(value as Tree, `${prefix}${key}.`),
  );
}

/** A value for every {{placeholder}} of a string. */
function valuesFor(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => [m[1]!, `<${m[1]}>`]));
}

async function pair(lng: (typeof LANGUAGES)[number]) {
  const real = createInstance();
  await real.init({ ...i18nOptions, lng, resources: { [lng]: resources[lng] } });
  const small = Object.create(Object.getPrototypeOf(browserI18n)) as typeof browserI18n;
  Object.assign(small, { language: "lo", options: {}, store: {} });
  small.t = (key, options) => small.translate(key, options);
  await small.init({ ...i18nOptions, lng, resources: { [lng]: resources[lng] } });
  return { real, small };
}

/** A component reading two namespaces through the hook. */
function Probe() {
  const { t, i18n } = useTranslation("admin");
  const common = useTranslation();
  return createElement("p", null, `${i18n.language}|${t("common:nav.login")}|${common.t("nav.login")}`);
}

describe("the browser's i18next", () => {
  it("gives i18next's string for every key of every namespace and language, with and without values", async () => {
    let compared = 0;
    for (const lng of LANGUAGES) {
      const { real, small } = await pair(lng);
      for (const ns of ["common", "player", "admin"] as const) {
        const fixedReal = real.getFixedT(lng, ns);
        const fixedSmall = small.getFixedT(ns);
        for (const [key, text] of leaves(resources[lng][ns])) {
          const values = valuesFor(text);
          // as useTranslation(ns) asks, as `ns:key` from any hook, and without values
          expect(fixedSmall(key, values), `${lng} ${ns}:${key}`).toBe(fixedReal(key, values));
          expect(small.t(`${ns}:${key}`, values), `${lng} ${ns}:${key}`).toBe(real.t(`${ns}:${key}`, values));
          expect(fixedSmall(key), `${lng} ${ns}:${key}`).toBe(fixedReal(key));
          // values, but not the ones the string names
          expect(fixedSmall(key, { unrelated: 1 }), `${lng} ${ns}:${key}`).toBe(fixedReal(key, { unrelated: 1 }));
          compared += 4;
        }
      }
      // the default namespace falls back to `player` (fallbackNS), as the player pages ask
      for (const [key, text] of leaves(resources[lng].player)) expect(small.t(key, valuesFor(text))).toBe(real.t(key, valuesFor(text)));
      // missing keys and defaultValue
      for (const key of ["nope.nothing", "common:providers.unknown-provider", "admin:nope"]) {
        expect(small.t(key)).toBe(real.t(key));
        expect(small.t(key, { defaultValue: "fallback {{x}}", x: 1 })).toBe(real.t(key, { defaultValue: "fallback {{x}}", x: 1 }));
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("no locale string uses what the small version leaves out (plurals, nesting, formats)", () => {
    for (const lng of LANGUAGES) {
      for (const ns of ["common", "player", "admin"] as const) {
        for (const [key, text] of leaves(resources[lng][ns])) {
          expect(key, `${lng} ${ns}`).not.toMatch(/_(zero|one|two|few|many|other)$|_plural$/);
          expect(text, `${lng} ${ns}:${key}`).not.toMatch(/\$t\(|\{\{[^}]*,[^}]*\}\}|\{\{-/);
        }
      }
    }
  });

  it("useTranslation under I18nextProvider: the hook's namespace, the instance, the language", async () => {
    const { small } = await pair("cn");
    const html = renderToString(createElement(I18nextProvider, { i18n: small }, createElement(Probe)));
    const login = (resources.cn.common as { nav: { login: string } }).nav.login;
    expect(html).toBe(`<p>cn|${login}|${login}</p>`);
  });
});
