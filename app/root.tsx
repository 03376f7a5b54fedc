import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { useTranslation } from "react-i18next";
import { getToast } from "remix-toast/middleware";
import type { Route } from "./+types/root";
import { agencyMiddleware, requireAgencyMiddleware } from "./middleware/agency.server";
import { bodyTypeMiddleware, forcedPasswordChangeMiddleware, legacyCookieMiddleware, privateCacheMiddleware } from "./middleware/request-guards.server";
import { getInstance, getLocale, i18nextMiddleware } from "./middleware/i18next.server";
import { toastMiddleware } from "./lib/toast.server";
import { sessionMiddleware } from "./lib/session.server";
import { getAgency, getBindings, getNonce, getPlayer } from "./lib/context.server";
import { FingerprintSync } from "./components/fingerprint-sync";
import { HTML_LANG, isLanguage, type Language } from "@workers/core/languages";
import { brandCss, pageBrand } from "@workers/core/brand-style";
import { NEUTRAL_BRAND } from "@workers/core/brand";
import { errorMessageKey, isErrorCode } from "./lib/errors";
import { I18N_DATA_ID, keyGroupsOf, namespacesFor, pickGroups, type I18nHandle } from "./lib/i18n";
import { loadTranslationsFor, loadWholeNamespaces } from "./lib/i18n.client";
import { litePartsOf, MARK_JS_SCRIPT, pageScriptsOf, useLitePageAssets, wantsFingerprintField, type PageScripts, type ScriptsHandle } from "./lib/page-scripts";
import { BottomBar, Footer, Navbar } from "./components/layout";
import { PendingIndicator, ScrollToTop, Toaster } from "./components/feedback";
import { Icon } from "./components/icons";
import { PlayTime } from "./components/play-time";
import { playTimeLine } from "@workers/services/wallets";
import { lastCredits } from "@workers/services/providers";
import stylesheet from "./styles/app.css?url";
import { BUILD_VERSION, LOCALE, OFFLINE_ALERT, hookProps } from "./lib/lite/hooks";

export const middleware: Route.MiddlewareFunction[] = [
  // outermost: every answer, error pages and redirects included
  privateCacheMiddleware,
  legacyCookieMiddleware,
  agencyMiddleware,
  i18nextMiddleware,
  requireAgencyMiddleware,
  toastMiddleware,
  sessionMiddleware,
  forcedPasswordChangeMiddleware,
  bodyTypeMiddleware,
];

/**
 * Both weights are preloaded (the 700 one in the Layout: not on the landing page, which draws
 * its bold from the regular, home.tsx): with `font-display: optional` (app.css) a face is used only if
 * it arrives within the first ~100 ms, and never swapped in later (a swap moved the text: CLS).
 * The stylesheet itself is not here: the Layout links it on pages that hydrate and inlines
 * it on the others (decision 021), which a static `links` cannot tell apart.
 */
export const links: Route.LinksFunction = () => [
  { rel: "preload", href: "/fonts/noto-sans-lao-400.woff2", as: "font", type: "font/woff2", crossOrigin: "anonymous" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const agency = getAgency(context);
  const locale = getLocale(context) as Language;
  // Public brand data only: it goes to the browser with the page (decision 020).
  const brand = pageBrand(agency.brand, {
    agencyName: agency.name,
    lang: locale,
    origin: new URL(request.url).origin,
    defaultDescription: getInstance(context).t("home.subtitle"),
  });
  const player = getPlayer(context);
  const { DB } = getBindings(context);
  // Read together (one level of D1 round trips): the time played today (decision 025) and the
  // last credits known, for the header's credit (decision 081; no provider is asked here).
  const [playTime, credits] = player ? await Promise.all([playTimeLine(DB, agency.id, player.id), lastCredits(DB, agency, player.id)]) : [null, null];
  return data({
    locale,
    nonce: getNonce(context),
    // `name` is the site name in this language (the brand's, else the agency's)
    agency: { id: agency.id, name: brand.siteName, social: agency.social },
    brand: { colors: brand.colors, logo: brand.logo, icon: brand.icon },
    preview: brand.preview,
    player: playerSummary(player),
    // time played today, shown on every page (decision 025)
    playTime,
    // the header's credit: what is known, and the providers the lite script asks live
    credits: credits && { known: credits, providers: agency.enabledProviders, now: Date.now() },
    toast: getToast(context),
  });
}

/**
 * A client navigation fetches the translations its page ships and this document lacks
 * (decision 032), alongside the page's data: the page renders only when both are there.
 * An error page shows any error's message: it gets the whole namespaces.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ request }, next) => {
    const pathname = new URL(request.url).pathname;
    const translations = loadTranslationsFor(pathname);
    const results = await next();
    await translations;
    if (Object.values(results ?? {}).some((result) => result?.type === "error")) await loadWholeNamespaces(namespacesFor(pathname));
    return results;
  },
];

/**
 * The key groups the root renders on every page that declares its own (decision 032): skip
 * link, offline alert, navbar with the change-password dialog (its schema's messages:
 * `validation`), drawer menu, footer, bottom bar, toasts, pending indicator, scroll-to-top,
 * time played, the header's credit (and the deposit notice's "play now"), the error
 * boundary's generic texts. An error page ships everything.
 */
export const handle = {
  i18n: [
    "nav",
    "bottom",
    "menu",
    "banks",
    "referral.menu",
    "cashback.menu",
    "checkin.menu",
    "levels.menu",
    "contact",
    "footer",
    "limits.footer",
    "toast",
    "pending",
    "scrollTop",
    "offline.notSent",
    "password",
    "auth.showPasswords",
    "validation",
    "limits.hm",
    "limits.playedLine",
    "limits.playedLineOf",
    "creditChip",
    "errors.generic",
    "errors.notFound",
    "errors.backHome",
  ],
} satisfies I18nHandle;

export function isAdminPath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}

/** What the browser may know of the player: no session data, no username needed. */
function playerSummary(player: { id: string; displayName: string } | null) {
  return player ? { id: player.id, displayName: player.displayName } : null;
}

/**
 * The page's scripts (decision 021): its routes' `handle.scripts`, except that a page without
 * any script still gets the lite one for a logged-in player (the daily fingerprint, docs/product.md §1).
 */
function usePageScripts(loggedIn: boolean): PageScripts {
  const mode = pageScriptsOf(useMatches());
  return mode === "none" && loggedIn ? "lite" : mode;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  const scripts = usePageScripts(Boolean(root?.player));
  const lite = useLitePageAssets();
  const { i18n } = useTranslation();
  const locale: Language = root?.locale ?? (isLanguage(i18n.language) ? i18n.language : "lo");
  // The nonce is only known on the server; in the browser React keeps the rendered one.
  const nonce = root?.nonce ?? lite?.nonce;
  const brand = root?.brand;
  // This build's version: the service worker is registered per build with it (decision 028).
  // Given by entry.server; a page that hydrates keeps the server's attribute (React does not
  // patch attributes when it hydrates, and this one never changes within a build).
  const build = lite?.buildVersion ?? undefined;
  // Only what this page renders is inlined (decision 032): its routes' key groups, or whole
  // namespaces for a page that declares none and for an error page (any error's message).
  // The back office draws none of the root's groups (its App returns the admin chrome's own):
  // a staff page ships only what its own routes declare (decision 089).
  const { pathname } = useLocation();
  const admin = isAdminPath(pathname);
  const groups = useRouteError() == null ? keyGroupsOf(admin ? matches.slice(1) : matches) : null; // (null outside an error boundary)
  const bundles = Object.fromEntries(
    namespacesFor(pathname).map((ns) => {
      const bundle = i18n.getResourceBundle(locale, ns);
      return [ns, groups ? pickGroups(bundle, groups) : bundle];
    }),
  );
  return (
    <html
      lang={HTML_LANG[locale]}
      {...hookProps(LOCALE, locale)}
      data-scripts={scripts}
      {...(build && hookProps(BUILD_VERSION, build))}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={brand?.colors.primary ?? NEUTRAL_BRAND.colors.primary} />
        <Meta />
        <link rel="icon" href={brand?.icon?.url ?? "/favicon.svg"} type={brand?.icon?.type ?? "image/svg+xml"} />
        <link rel="manifest" href="/app.webmanifest" />
        <Links />
        {/* `html.js` before the body is parsed: the `.js-only` controls are in the first layout
            instead of appearing when the page's script runs at the end of the body, after a
            paint (the "show passwords" switch moved the login form down: CLS; decision 045). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of this module, run under the page's nonce */}
        {scripts !== "none" && nonce && <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: MARK_JS_SCRIPT }} />}
        {/* the 700 weight too, except on a page that draws its bold from the regular (home.tsx) */}
        {!matches.some((m) => (m.handle as { fonts?: string } | undefined)?.fonts === "regular") && (
          <link rel="preload" href="/fonts/noto-sans-lao-700.woff2" as="font" type="font/woff2" crossOrigin="anonymous" />
        )}
        {/* (no stylesheet when the tests render pages without a client build) */}
        {scripts === "app"
          ? stylesheet && <link rel="stylesheet" href={stylesheet} />
          : lite &&
            (lite.stylesheet?.held ? (
              // this browser holds the file (decision 044): from its cache, no text in the page
              <link rel="stylesheet" href={lite.stylesheet.href} />
            ) : (
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the build's own stylesheet, inlined (decision 044)
              <style nonce={lite.nonce} dangerouslySetInnerHTML={{ __html: lite.css }} />
            ))}
        {/* the page's own rules (handle.styles), after the app's: on a lite page only, each its own text */}
        {scripts !== "app" &&
          matches
            .map((m) => (m.handle as ScriptsHandle | undefined)?.styles)
            .filter(Boolean)
            .map((css) => (
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the build's own stylesheet of the page's route, inlined
              <style key={css!.length} nonce={nonce} dangerouslySetInnerHTML={{ __html: css! }} />
            ))}
        {/* The agency's colours, in the HTML itself: no flash of the default, no request, no
            JavaScript. After the stylesheet, so they win over its defaults. brandCss writes
            validated #rrggbb values only. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: brandCss writes validated #rrggbb values only */}
        {brand && <style nonce={nonce} suppressHydrationWarning data-testid="brand-colors" dangerouslySetInnerHTML={{ __html: brandCss(brand.colors) }} />}
      </head>
      <body>
        {children}
        {/* Shown by guardOfflineSubmits (lib/offline.ts) when a form is sent without a network. */}
        <p className="offline-alert" role="alert" tabIndex={-1} {...hookProps(OFFLINE_ALERT)} data-testid="offline-alert" hidden>
          {i18n.t("offline.notSent")}
        </p>
        {/* The page's translations: for React on a page that hydrates; for the lite script's `t`
            (lib/lite/translate.ts) on a lite page whose routes declare groups (decision 034;
            public lite pages declare none and get none). */}
        {(scripts === "app" || (scripts === "lite" && groups)) && (
          <script
            type="application/json"
            id={I18N_DATA_ID}
            suppressHydrationWarning
            // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON of our own translations, with every "<" escaped
            dangerouslySetInnerHTML={{
              __html: JSON.stringify({ lng: locale, groups, resources: bundles }).replace(/</g, "\\u003c"),
            }}
          />
        )}
        {scripts === "app" ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          scripts === "lite" &&
          lite && (
            <script
              nonce={lite.nonce}
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the lite script is the build's own source (app/lib/lite), run under the page's nonce
              dangerouslySetInnerHTML={{
                __html: lite.script({
                  fingerprintField: wantsFingerprintField(matches),
                  // (a player's session in the same browser: never the player's parts on a staff page)
                  syncAgencyId: root?.player && !admin ? root.agency.id : null,
                  parts: litePartsOf(matches),
                  cacheStylesheet: lite.stylesheet && !lite.stylesheet.held ? lite.stylesheet.href : null,
                }),
              }}
            />
          )
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { locale, agency, brand, player, toast, playTime, credits } = loaderData;
  // The language switcher is a plain form post that reloads the document, so the strings
  // inlined in the page (see Layout) always match the locale.
  const { i18n } = useTranslation();
  const scripts = usePageScripts(Boolean(player));
  const creditProvider = useLobbyProvider(credits?.providers ?? []);
  // Marks the page as interactive (tests wait for it before touching the DOM themselves).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  // The back office (/admin) draws its own header and navigation (routes/admin/layout.tsx).
  if (isAdminPath(useLocation().pathname)) {
    return (
      <>
        <Outlet />
        <PendingIndicator logoAlt={agency.name} logo={brand.logo} serverOnly={scripts === "lite"} />
      </>
    );
  }
  return (
    <>
      <a href="#main" className="skip-link">
        {i18n.t("nav.skip")}
      </a>
      <Navbar
        agencyName={agency.name}
        logo={brand.logo}
        player={player}
        locale={locale}
        social={agency.social}
        lite={scripts === "lite"}
        credits={credits}
        creditProvider={creditProvider}
      />
      <main id="main" className="main" tabIndex={-1}>
        {playTime && <PlayTime {...playTime} />}
        <Outlet />
      </main>
      <Footer agencyName={agency.name} logo={brand.logo} loggedIn={Boolean(player)} />
      <BottomBar social={agency.social} />
      <Toaster toast={toast} />
      <ScrollToTop serverOnly={scripts === "lite"} />
      <PendingIndicator logoAlt={agency.name} logo={brand.logo} serverOnly={scripts === "lite"} />
      {/* (a lite page sends it from its inline script) */}
      {player && scripts === "app" && <FingerprintSync agencyId={agency.id} />}
    </>
  );
}

/** On a provider's lobby (routes/player/game.tsx) that provider, when the agency offers it: the header shows its credit. */
function useLobbyProvider(providers: readonly string[]): string | null {
  const provider = useMatches().find((m) => m.id === "routes/player/game")?.params.provider;
  return provider && providers.includes(provider) ? provider : null;
}

/** Per-agency title and link previews (Telegram, Facebook); pages without a meta of their own inherit these. */
export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { agency, preview } = loaderData;
  return [
    { title: agency.name },
    { name: "description", content: preview.description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: agency.name },
    { property: "og:title", content: preview.title },
    { property: "og:description", content: preview.description },
    ...(preview.image ? [{ property: "og:image", content: preview.image }] : []),
    { name: "twitter:card", content: preview.card },
  ];
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const agencyMissing = isRouteErrorResponse(error) && error.status === 404 && error.data?.reason === "AGENCY_NOT_FOUND";
  if (agencyMissing) {
    return (
      <main className="error-page" data-testid="agency-error">
        <Icon name="contact" size={48} />
        <h1>{t("errors.agency.title")}</h1>
        <p>{t("errors.agency.contact")}</p>
        <p>{t("errors.agency.apology")}</p>
        <title>{t("errors.agency.title")}</title>
      </main>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  // A refusal that names its error code (e.g. a body that is not a form) says why.
  const code = isRouteErrorResponse(error) && isErrorCode(error.data?.code) ? error.data.code : null;
  return (
    <main className="error-page" data-testid="error-page" data-code={code ?? undefined}>
      <h1>{status === 404 ? t("errors.notFound.title") : t("errors.generic.title")}</h1>
      <p>{code ? t(errorMessageKey(code)) : status === 404 ? t("errors.notFound.body") : t("errors.generic.body")}</p>
      <a href="/" className="button button-primary">
        {t("errors.backHome")}
      </a>
      <title>{t("errors.generic.title")}</title>
    </main>
  );
}
