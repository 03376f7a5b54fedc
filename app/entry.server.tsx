import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { getInstance } from "./middleware/i18next.server";
import { getNonce } from "./lib/context.server";
import { LitePageContext, pageScriptsOf } from "./lib/page-scripts";
import { litePageAssets } from "./lib/lite-page.server";

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
      <LitePageContext.Provider value={{ ...litePageAssets, nonce }}>
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
  // Streamed parts (provider credits) are swapped in by inline scripts, which a browser
  // without JavaScript never runs. Bots, and browsers that have not shown us they run
  // JavaScript (no `js` cookie, set by entry.client), get the whole document at once; so
  // does a page that ships no React (nothing there to stream into).
  const userAgent = request.headers.get("user-agent");
  const runsJs = /(?:^|;\s*)js=1(?:;|$)/.test(request.headers.get("Cookie") ?? "");
  const hydrates = pageScriptsOf(routerContext.staticHandlerContext.matches.map((m) => routerContext.routeModules[m.route.id] ?? {})) === "app";
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode || !runsJs || !hydrates) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
