import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { getInstance } from "./middleware/i18next.server";
import { getNonce } from "./lib/context.server";
import { LitePageContext, pageScriptsOf } from "./lib/page-scripts";
import { litePageAssets, liteStylesheet } from "./lib/lite-page.server";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  let shellRendered = false;
  const nonce = getNonce(loadContext);
  const body = await renderToReadableStream(
    <I18nextProvider i18n={getInstance(loadContext)}>
      {/* What the lite pages inline is built here, on the server only (decision 021). */}
      <LitePageContext.Provider
        value={{ ...litePageAssets, nonce, stylesheet: liteStylesheet(request.headers.get("Cookie")), buildVersion: routerContext.manifest.version ?? null }}
      >
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </LitePageContext.Provider>
    </I18nextProvider>,
    {
      nonce,
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    },
  );
  shellRendered = true;
  // Streamed parts (provider credits) are swapped in by React's inline reveal scripts (`$RC`,
  // nonce'd), which need no React in the browser but do need JavaScript. Bots, and browsers
  // that have not shown us they run JavaScript (no `js` cookie, set by entry.client and by the
  // lite script), get the whole document at once; so does a page that ships no script at all,
  // and the lite script's own refetch of its page (`X-Whole-Document`: it parses the HTML and
  // runs none of its scripts, lib/lite/credits.ts).
  const userAgent = request.headers.get("user-agent");
  const runsJs = /(?:^|;\s*)js=1(?:;|$)/.test(request.headers.get("Cookie") ?? "");
  const scripts = pageScriptsOf(routerContext.staticHandlerContext.matches.map((m) => routerContext.routeModules[m.route.id] ?? {}));
  const whole = request.headers.has("X-Whole-Document") || scripts === "none";
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode || !runsJs || whole) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
