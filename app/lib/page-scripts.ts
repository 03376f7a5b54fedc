import { createContext, useContext } from "react";

/**
 * What JavaScript a page ships (decision 021). A route module says it with
 * `export const handle = { scripts: "lite" }`; the deepest route that says wins, and a page
 * whose routes say nothing gets the whole app (the safe default, which the 404 and error
 * pages take; the back office is lite since decision 089).
 *
 * - "app": React hydrates the page (entry.client, route chunks, modulepreloads).
 * - "lite": no React, no module script: one small inline script (lite-page.server.ts) made of
 *   parts (lib/lite/*): what a public page does in the browser (toast timer, scroll-to-top,
 *   password switch, the device fingerprint where the page asks for it or a player is logged
 *   in), and on a player's page the layout's menus, live credits, pending UI and the page's
 *   own parts (decision 034).
 * - "none": not a byte of JavaScript.
 */
export type PageScripts = "app" | "lite" | "none";

/**
 * The head script of every page with a script (root Layout, decision 045): marks the document
 * as running JavaScript (`html.js`, app.css's `.js-only`) before the body is parsed. The one
 * place that sets the class.
 */
export const MARK_JS_SCRIPT = 'document.documentElement.classList.add("js")';

export type ScriptsHandle = {
  scripts?: PageScripts;
  /**
   * The page's own stylesheet text (a `?inline` import), inlined after the app's: rules only
   * its page draws (the deposit's QR step, the lobby's tiles) stay out of every other page's
   * first load (decision 085).
   */
  styles?: string;
  /** The page's form carries a `fingerprint` field the lite script fills (docs/product.md §3: registration). */
  fingerprintField?: boolean;
  /**
   * Parts of the lite script this page runs beyond the common ones (lib/lite-page.server.ts
   * `PARTS`, decision 034): the union over the matched routes.
   */
  lite?: readonly string[];
};

type WithHandle = { handle?: unknown };

function scriptsHandle(match: WithHandle): ScriptsHandle {
  return typeof match.handle === "object" && match.handle !== null ? (match.handle as ScriptsHandle) : {};
}

/** The page's mode from its matched routes (root first): the deepest route that declares one. */
export function pageScriptsOf(matches: readonly WithHandle[]): PageScripts {
  for (let i = matches.length - 1; i >= 0; i--) {
    const scripts = scriptsHandle(matches[i]!).scripts;
    if (scripts) return scripts;
  }
  return "app";
}

/**
 * The cookie by which a browser says it holds this build's stylesheet in its cache (decision
 * 044): its value is the file's name, which changes with every build that changes the CSS.
 */
const STYLESHEET_COOKIE = "css";
const STYLESHEET_COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/** The stylesheet's file name (`app-QDnLl0VN.css`): the cookie's value. */
const stylesheetName = (href: string) => href.slice(href.lastIndexOf("/") + 1);

/** Whether the request's cookies say the browser holds the stylesheet at `href`. */
export function holdsStylesheet(cookieHeader: string | null, href: string): boolean {
  return (cookieHeader ?? "").split(/;\s*/).includes(`${STYLESHEET_COOKIE}=${stylesheetName(href)}`);
}

/** What the lite script writes to `document.cookie` once it has the stylesheet in the cache. */
export function stylesheetCookie(href: string): string {
  return `${STYLESHEET_COOKIE}=${stylesheetName(href)}; path=/; max-age=${STYLESHEET_COOKIE_MAX_AGE_S}; samesite=lax`;
}

export function wantsFingerprintField(matches: readonly WithHandle[]): boolean {
  return matches.some((match) => scriptsHandle(match).fingerprintField === true);
}

/** The lite script's extra parts the matched routes ask for (`handle.lite`), in route order. */
export function litePartsOf(matches: readonly WithHandle[]): string[] {
  return [...new Set(matches.flatMap((match) => scriptsHandle(match).lite ?? []))];
}

/**
 * What a lite page inlines, handed to the root Layout by entry.server (the only place it is
 * built): the Layout is also client code, and a page that hydrates never renders these, so
 * the browser bundle need not carry the script's source nor the stylesheet's text.
 */
export type LitePageAssets = {
  /** The inline script (lib/lite-page.server.ts). */
  script: (options: PublicScriptOptions) => string;
  /** The app stylesheet's text: inlined, it no longer blocks the first paint for a round trip. */
  css: string;
  /**
   * The same stylesheet as a file (its hashed address), and whether this browser said it holds
   * it (`holdsStylesheet`): then the page links it from the cache instead of inlining the text
   * (decision 044). Null when there is no client build (tests that render pages without one).
   */
  stylesheet: { href: string; held: boolean } | null;
  /**
   * The response's CSP nonce. The root loader's data carries it too, but an error page whose
   * root loader failed (an unknown host) has no loader data, and its inline script and style
   * still need it.
   */
  nonce: string;
  /** The lite forms' validator module's address (lib/lite/form-validators.ts); null without a client build. */
  formValidators: string | null;
  /**
   * This build's version (React Router's manifest, a hash of the client chunks' names): the
   * service worker is registered per build with it (decision 028). Null without a client build.
   */
  buildVersion: string | null;
};

export const LitePageContext = createContext<LitePageAssets | null>(null);

export function useLitePageAssets(): LitePageAssets | null {
  return useContext(LitePageContext);
}

export type PublicScriptOptions = {
  /** Fill the form's `fingerprint` field (registration). */
  fingerprintField: boolean;
  /** A logged-in player's agency: send the fingerprint once a day (docs/product.md §1). */
  syncAgencyId: string | null;
  /** Extra parts by name (`handle.lite`). */
  parts: readonly string[];
  /** The stylesheet this page inlined, for the script to put into the cache (decision 044). */
  cacheStylesheet: string | null;
};

/**
 * The `clientLoader` of a page that never hydrates: when a page that does (a player page, the
 * 404 page) links to it, the browser loads it as a document instead of rendering it with
 * React, so it always runs exactly what its own HTML carries (its inline script included).
 */
export function loadAsDocument({ request }: { request: Request }): Promise<never> {
  window.location.assign(request.url);
  return new Promise<never>(() => {});
}
