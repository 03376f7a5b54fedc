/**
 * The browser's i18next (decision 021): what the portal's components use of it, in
 * about 1 KB instead of i18next + react-i18next's ~18 KB compressed on every page that
 * hydrates. vite.config.ts swaps it in for `i18next` in the client build only; the server
 * (remix-i18next's middleware, emails of text, the tests) keeps the real one, and the types
 * stay i18next's.
 *
 * Covered, with i18next's semantics: `ns:key`, nested keys (and flat keys with dots),
 * the hook's namespace then `fallbackNS`, then `fallbackLng`; `{{name}}` interpolation
 * without escaping (React escapes; a placeholder without a value stays); `defaultValue`; a missing
 * key returns the key. Not covered, because no string or call of ours uses them (the
 * locale check in tests/unit/i18n-browser.test.ts keeps it so): plural suffixes, `$t()`
 * nesting, formatters (`{{x, number}}`), context, `returnObjects`.
 */

type Resources = Record<string, unknown>;
type Options = {
  lng?: string;
  ns?: readonly string[];
  fallbackLng?: string;
  defaultNS?: string;
  fallbackNS?: string;
  resources?: Record<string, Record<string, Resources>>;
};
type TOptions = Record<string, unknown> & { defaultValue?: unknown; ns?: string };
type BrowserT = (key: string, options?: TOptions) => string;

function lookup(tree: unknown, key: string): unknown {
  if (tree === null || typeof tree !== "object") return undefined;
  const node = tree as Record<string, unknown>;
  if (key in node) return node[key];
  // "a.b.c": walk the longest own key first, like i18next's deepFind (flat keys with dots)
  const parts = key.split(".");
  for (let i = parts.length - 1; i > 0; i--) {
    const head = parts.slice(0, i).join(".");
    if (head in node) {
      const found = lookup(node[head], parts.slice(i).join("."));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function interpolate(text: string, values: TOptions | undefined): string {
  // like i18next, a placeholder without a value stays as it is
  if (!values) return text;
  return text.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (placeholder, name: string) => {
    const value = lookup(values, name);
    return value === undefined || value === null ? placeholder : String(value);
  });
}

function merge(into: Resources, from: Resources): Resources {
  const out: Resources = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const have = out[key];
    const bothTrees = typeof value === "object" && value !== null && typeof have === "object" && have !== null;
    out[key] = bothTrees ? merge(have as Resources, value as Resources) : value;
  }
  return out;
}

/**
 * One key in a store of resources (language -> namespace -> tree), with i18next's semantics
 * above: what `t` of this module does, and the lite pages' runtime (lib/lite/runtime.ts) uses
 * alone.
 */
export function translateIn(
  store: Record<string, Record<string, Resources>>,
  options: Options,
  language: string,
  key: string,
  values?: TOptions,
  ns?: string,
): string {
  const { defaultNS = "common", fallbackNS, fallbackLng } = options;
  let namespaces = [values?.ns ?? ns ?? defaultNS];
  let path = key;
  const colon = key.indexOf(":");
  // only a known namespace is one (i18next likewise leaves "a: b" alone)
  if (colon > 0 && (options.ns ?? []).includes(key.slice(0, colon))) {
    namespaces = [key.slice(0, colon)];
    path = key.slice(colon + 1);
  }
  if (fallbackNS && !namespaces.includes(fallbackNS)) namespaces.push(fallbackNS);
  const languages = [language, ...(fallbackLng && fallbackLng !== language ? [fallbackLng] : [])];
  for (const lng of languages) {
    for (const space of namespaces) {
      const found = lookup(store[lng]?.[space], path);
      if (typeof found === "string") return interpolate(found, values);
    }
  }
  if (values?.defaultValue !== undefined) return interpolate(String(values.defaultValue), values);
  return path;
}

class BrowserI18n {
  language = "lo";
  options: Options = {};
  store: Record<string, Record<string, Resources>> = {};

  use(_plugin: unknown): this {
    return this;
  }

  init(options: Options): Promise<BrowserT> {
    this.options = options;
    this.language = options.lng ?? options.fallbackLng ?? "lo";
    for (const [lng, namespaces] of Object.entries(options.resources ?? {})) {
      for (const [ns, bundle] of Object.entries(namespaces)) this.addResourceBundle(lng, ns, bundle);
    }
    return Promise.resolve(this.t);
  }

  hasResourceBundle(lng: string, ns: string): boolean {
    return Boolean(this.store[lng]?.[ns]);
  }

  getResourceBundle(lng: string, ns: string): Resources | undefined {
    return this.store[lng]?.[ns];
  }

  /**
   * Merges deeply, like i18next with `deep`: a page's key groups arrive in parts ("errors.generic"
   * with the page, "errors.code" on a later navigation, decision 032) and must not replace each other.
   */
  addResourceBundle(lng: string, ns: string, bundle: Resources, _deep?: boolean, _overwrite?: boolean): this {
    (this.store[lng] ??= {})[ns] = merge(this.store[lng]?.[ns] ?? {}, bundle);
    return this;
  }

  /** A `t` bound to a namespace (useTranslation("admin")), or to defaultNS. */
  getFixedT(ns?: string): BrowserT {
    return (key, options) => this.translate(key, options, ns);
  }

  t: BrowserT = (key, options) => this.translate(key, options);

  translate(key: string, options: TOptions | undefined, ns?: string): string {
    return translateIn(this.store, this.options, this.language, key, options, ns);
  }
}

// pure: a bundle that takes only translateIn (the lite pages, decision 066) leaves the class out
const i18next = /* @__PURE__ */ new BrowserI18n();
export default i18next;
