import { deriveUnplacedReports } from "./services/bank-in";
import { RouterContextProvider } from "react-router";
import { cloudflareContext } from "../app/lib/context.server";
import { misconfiguredResponse } from "./config";
import { browserUrl } from "./core/host";
import { d1MetricsHeader, meteredD1 } from "./db/metered";
import { isLocalEnvironment } from "./core/provider-setup";
import { finishRequestBody } from "./request-body";
import { lazyRequestHandler } from "./request-handler";
import { createNonce, isCrossSiteRequest, withSecurityHeaders } from "./security";
import { buryAlerts, deliverAlerts, sweepAlerts, type AlertMessageBody } from "./services/alerts";
import { findAgencyByHost, optimizeDatabase, sweepBrandAssets } from "./services/agency";
import { providerCspForHost, pruneProviderAttempts } from "./services/providers";
import { backfillReadModels, collectProviderStats, continueProviderStats, rollUpReportDays } from "./services/reports";
import { rearmWallets } from "./services/wallets";

export { PlayerWallet } from "./wallet/player-wallet";

const requestHandler = lazyRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE, import.meta.env.DEV);

/** The hourly trigger of wrangler.toml (top level and every [env.*]) that collects provider figures. */
const PROVIDER_STATS_CRON = "17 * * * *";
/** The every-minute trigger: staff alerts' sweep (decision 057). */
const ALERTS_CRON = "* * * * *";

/**
 * Every answer of the portal. Whatever it is, a request body it left unread (the early
 * refusals: cross-site 403 below, 401, 413, 415) is read to its end first: locally an unread
 * body made the answer a 500 of vite preview (workers/request-body.ts, decision 051).
 */
async function answer(received: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  // Under `wrangler dev --env <agency>` the URL is the route's, without the port the browser
  // used: put back before anything builds a link or compares an Origin with it (core/host.ts).
  const url = browserUrl(received.url, received.headers.get("MF-Original-Hostname"));
  const request = url === received.url ? received : new Request(url, received);
  const response = await respond(request, env, ctx);
  await finishRequestBody(request);
  return response;
}

/**
 * Outside production every answer says what it asked of D1 (`X-D1-Metrics`: the sequential
 * round trips, statements and rows; workers/db/metered.ts, decision 076), read by the tests
 * that hold each page's round trips and by the scale bench. Production talks to D1 directly.
 */
async function respond(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  if (!isLocalEnvironment(env.ENVIRONMENT)) return respondWith(request, env, ctx);
  const metered = meteredD1(env.DB);
  const response = await respondWith(request, { ...env, DB: metered.db }, ctx);
  response.headers.set("X-D1-Metrics", d1MetricsHeader(metered.metrics()));
  // asked for (a test over its budget): each round trip's level and SQL, in the order sent
  if (request.headers.get("X-D1-Trail") === "1") response.headers.set("X-D1-Trail", encodeURIComponent(JSON.stringify(metered.trail())));
  return response;
}

async function respondWith(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const nonce = createNonce();
  const dev = import.meta.env.DEV;
  // A deployed agency with a missing or demo secret serves nothing (workers/config.ts).
  const misconfigured = misconfiguredResponse(env);
  if (misconfigured) return withSecurityHeaders(misconfigured, nonce, { dev });
  if (isCrossSiteRequest(request)) {
    return withSecurityHeaders(new Response("Cross-site request refused", { status: 403 }), nonce, { dev });
  }
  // Pages admit the agency's configured provider image and launch hosts, nothing else. Kept by
  // the isolate; when not, read while the page renders, not after it (decision 076). The
  // agency (kept the same way) is read at the same moment: both in one round trip, not one
  // after the other however long the middleware before the agency's takes.
  const providerSources = providerCspForHost(env, request.headers.get("Host") ?? new URL(request.url).host);
  const agency = findAgencyByHost(env.DB, new URL(request.url).host);
  agency.catch(() => {}); // (awaited by the agency middleware, which reports a failure)
  const context = new RouterContextProvider();
  context.set(cloudflareContext, { env, ctx, nonce, agency });
  const response = await requestHandler(request, context);
  const html = (response.headers.get("Content-Type") ?? "").startsWith("text/html");
  // not a page: the read still ends (and is kept) after the answer
  if (!html) ctx.waitUntil(providerSources);
  return withSecurityHeaders(response, nonce, { dev, providers: html ? await providerSources : undefined });
}

export default {
  fetch: answer,
  // wrangler.toml [triggers]: every 5 minutes wallets with due work are woken even if an
  // alarm was lost, and wallets written before migration 0022 re-project their rows for the
  // reports (a no-op once done), and provider attempts older than a week are deleted
  // (decision 049), and bank reports never placed in a transfer are derived (decision 069), and
  // expired sessions are deleted; once an hour (PROVIDER_STATS_CRON) the providers' figures
  // of yesterday and today are collected for the reports instead (decision 058), in bounded
  // batches: what one run could not finish goes on at the next 5-minute tick (decision 051).
  // Every statement of these jobs reads through an index, and every delete is bounded
  // (decision 075).
  async scheduled(controller, env, ctx) {
    const at = controller.scheduledTime;
    if (controller.cron === ALERTS_CRON) {
      // staff alerts' timed events, quiet hours' end and lost messages (services/alerts/alerts.ts)
      ctx.waitUntil(sweepAlerts(env, at));
      return;
    }
    if (controller.cron === PROVIDER_STATS_CRON) {
      ctx.waitUntil(collectProviderStats(env, at));
      // brand images no page has used for 30 days (decision 053)
      ctx.waitUntil(sweepBrandAssets(env, at));
      // the query planner's statistics, as the tables grow (decision 075)
      ctx.waitUntil(optimizeDatabase(env.DB));
      return;
    }
    ctx.waitUntil(rearmWallets(env));
    ctx.waitUntil(backfillReadModels(env));
    ctx.waitUntil(pruneProviderAttempts(env.DB, at));
    ctx.waitUntil(continueProviderStats(env));
    // bank reports whose request died before their transfers were derived (decision 069)
    ctx.waitUntil(deriveUnplacedReports(env));
    // closed days' report figures, a bounded number of days a tick (decision 078)
    ctx.waitUntil(rollUpReportDays(env, at));
    // sessions past their expiry, in bounded batches; a player's keeps its play time (decision
    // 025). Loaded here, not at the top: the players' and staff's services would otherwise join
    // the Worker's global scope, which every cold start evaluates (workers/request-handler.ts).
    ctx.waitUntil(import("./services/players").then(({ pruneExpiredPlayerSessions }) => pruneExpiredPlayerSessions(env.DB, at)));
    ctx.waitUntil(import("./services/staff").then(({ pruneExpiredStaffSessions }) => pruneExpiredStaffSessions(env.DB, at)));
  },
  // wrangler.toml [[queues.consumers]]: the staff alerts (decision 057) and their dead letters
  // (every environment names its own queues; the dead-letter one ends in "-dead").
  async queue(batch, env) {
    const alerts = batch as MessageBatch<AlertMessageBody>;
    if (batch.queue.endsWith("-dead")) await buryAlerts(alerts, env);
    else await deliverAlerts(alerts, env);
  },
} satisfies ExportedHandler<Env>;
