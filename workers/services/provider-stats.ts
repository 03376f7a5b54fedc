import type { Provider } from "../core/providers";
import { legacyProviderUsername } from "../core/provider-username";
import { periodsOf, vientianeDate, type ReportRange } from "../core/report-range";
import { upsertPlayerProviderDayStatement } from "../db/player-provider-stats";
import { listActiveAgencyProviders, listProviderDayStats, listProviderPlayers, markProviderDayUnavailable, upsertProviderDayOk } from "../db/provider-stats";
import type { PeriodSummary } from "../ports/provider";
import { providerPortFor } from "../wallet/provider-port";

/**
 * Provider figures (issue 17, decision 019 "Provider figures"): each game provider's daily
 * turnover and win/loss per agency, collected by the scheduled job into provider_daily_stats
 * and read by the reports.
 *
 * Definitions (the port's PeriodSummary): turnover = the sum of the day's VALID bets of the
 * agency's players at that provider; win/loss = the AGENCY's result, stakes minus payouts
 * (positive: the players lost). Credit minor units (THB satang). Days are Asia/Vientiane.
 */

/** Time one provider of one agency may take for its days, per run (a slow provider is left for the next run). */
const PROVIDER_BUDGET_MS = 25_000;
const DAY_MS = 86_400_000;
/** Statements per D1 batch when writing players' days. */
const PLAYER_BATCH = 100;

export type CollectResult = {
  /** Days written with figures. */
  collected: number;
  /** Days the provider could not answer (recorded unavailable, left for the next run). */
  unavailable: { agencyId: string; provider: Provider; day: string; reason: string }[];
  /** Players' days written (player_provider_daily), and players' days the provider could not answer. */
  playerDays: number;
  playerDaysUnavailable: number;
};

/**
 * The scheduled job: yesterday and today (Vientiane) for every ACTIVE agency and each
 * provider it offers, through the agency's own provider setup (providerPortFor: the
 * sandbox, AMB, Betflix, or not configured). Idempotent: a day's row is replaced by the
 * newest figures. A provider that fails or runs out of its time budget is logged and
 * recorded unavailable (never 0; earlier figures kept); it never stops the others.
 */
export async function collectProviderStats(env: Env, now: Date | number, options: { budgetMs?: number } = {}): Promise<CollectResult> {
  const at = typeof now === "number" ? now : now.getTime();
  const today = vientianeDate(at);
  const days = [vientianeDate(at - DAY_MS), today];
  const collectedAt = new Date(at).toISOString();
  const budgetMs = options.budgetMs ?? PROVIDER_BUDGET_MS;
  const result: CollectResult = { collected: 0, unavailable: [], playerDays: 0, playerDaysUnavailable: 0 };
  for (const { agencyId, providers } of await listActiveAgencyProviders(env.DB)) {
    // The providers of one agency are asked side by side; each has its own budget.
    await Promise.all(
      providers.map(async (provider) => {
        for (const outcome of await collectOne(env, agencyId, provider, days, budgetMs)) {
          const { day, summary, asked } = outcome;
          // each player's figures for the day, from the same answer (only players it has
          // figures for: a missing day has no row, never a 0)
          const answered = summary.kind === "ok" ? [...summary.players] : [];
          result.playerDaysUnavailable += asked - answered.length;
          try {
            const statements = answered.map(([playerId, figures]) =>
              upsertPlayerProviderDayStatement(env.DB, { agencyId, playerId, provider, day, turnoverMinor: figures.turnoverMinor, winLossMinor: figures.winLossMinor, collectedAt }),
            );
            for (let i = 0; i < statements.length; i += PLAYER_BATCH) await env.DB.batch(statements.slice(i, i + PLAYER_BATCH));
            result.playerDays += statements.length;
          } catch (error) {
            result.playerDaysUnavailable += answered.length;
            console.error("player provider days not stored", error);
          }
          try {
            if (summary.kind === "ok") {
              await upsertProviderDayOk(env.DB, { agencyId, provider, day, turnoverMinor: summary.turnoverMinor, winLossMinor: summary.winLossMinor, collectedAt });
              result.collected++;
            } else {
              await markProviderDayUnavailable(env.DB, { agencyId, provider, day, reason: summary.reason, collectedAt });
              result.unavailable.push({ agencyId, provider, day, reason: summary.reason });
            }
          } catch (error) {
            result.unavailable.push({ agencyId, provider, day, reason: `not stored: ${String(error)}` });
          }
        }
      }),
    );
  }
  if (result.unavailable.length > 0) console.warn(JSON.stringify({ event: "provider.stats", collected: result.collected, unavailable: result.unavailable }));
  return result;
}

/** One provider-day: the port's answer, and how many players it was asked for. */
type DayOutcome = { day: string; summary: PeriodSummary; asked: number };

/**
 * One provider of one agency, its days in order, within one time budget; never throws.
 * One periodSummary per day answers the agency's figures and each player's (the port's
 * PlayerFigures, from the same provider answers): the provider is never asked per player
 * on top (issue 18 asked every AMB hour once more per player, and every Betflix member twice).
 */
async function collectOne(env: Env, agencyId: string, provider: Provider, days: string[], budgetMs: number): Promise<DayOutcome[]> {
  const signal = AbortSignal.timeout(budgetMs);
  const out: DayOutcome[] = [];
  let players: { username: string; playerId: string }[];
  try {
    players = (await listProviderPlayers(env.DB, agencyId, provider)).map((p) => ({ username: legacyProviderUsername(agencyId, p.username), playerId: p.playerId }));
  } catch (error) {
    return days.map((day) => ({ day, summary: { kind: "unavailable", reason: `players unreadable: ${String(error)}` }, asked: 0 }));
  }
  const port = providerPortFor(env, agencyId, provider);
  for (const day of days) {
    const summary: PeriodSummary = signal.aborted
      ? { kind: "unavailable", reason: `time budget of ${budgetMs} ms spent` }
      : await withinBudget(port.periodSummary({ from: day, to: day, players, signal }), signal, budgetMs);
    out.push({ day, summary, asked: players.length });
  }
  return out;
}

/** The adapter's answer, or unavailable when the budget runs out first (an adapter that ignores the signal included). */
function withinBudget(summary: Promise<PeriodSummary>, signal: AbortSignal, budgetMs: number): Promise<PeriodSummary> {
  const spent = new Promise<PeriodSummary>((resolve) => {
    const done = () => resolve({ kind: "unavailable", reason: `time budget of ${budgetMs} ms spent` });
    if (signal.aborted) done();
    else signal.addEventListener("abort", done, { once: true });
  });
  return Promise.race([summary.catch((error: unknown): PeriodSummary => ({ kind: "unavailable", reason: String(error) })), spent]);
}

type ProviderFigure = { provider: Provider; turnover: number; winLoss: number };
export type ProvidersReport = {
  /**
   * One row per day and provider with figures. Providers report per DAY: with the "hour"
   * grouping (one day) the rows still carry the day ('YYYY-MM-DD'), there is no hour split.
   */
  periods: (ProviderFigure & { period: string })[];
  /** Per provider over the range; `missingDays`: days of the range without figures (unavailable or not collected). */
  total: (ProviderFigure & { missingDays: number })[];
  /** Days a provider could not be read (recorded by the job), so the screen can say so. */
  unavailable: { provider: Provider; day: string; reason: string | null }[];
  /** Always "day": the finest grain of provider figures. */
  granularity: "day";
};

/**
 * The providers part of the reports: the collected days of the range, for THIS agency only.
 * Amounts are credit minor units (THB satang) as numbers; win/loss is the agency's side.
 */
export async function providersReport(db: D1Database, agencyId: string, range: ReportRange): Promise<ProvidersReport> {
  const stats = await listProviderDayStats(db, agencyId, range.from, range.to);
  const days = periodsOf({ ...range, grouping: "day" });
  const periods: ProvidersReport["periods"] = [];
  const unavailable: ProvidersReport["unavailable"] = [];
  const totals = new Map<Provider, { turnover: number; winLoss: number; days: number }>();
  for (const s of stats) {
    const t = totals.get(s.provider) ?? { turnover: 0, winLoss: 0, days: 0 };
    totals.set(s.provider, t);
    if (s.status === "ok") {
      periods.push({ period: s.day, provider: s.provider, turnover: s.turnoverMinor, winLoss: s.winLossMinor });
      t.turnover += s.turnoverMinor;
      t.winLoss += s.winLossMinor;
      t.days++;
    } else {
      unavailable.push({ provider: s.provider, day: s.day, reason: s.reason });
    }
  }
  const total = [...totals].map(([provider, t]) => ({ provider, turnover: t.turnover, winLoss: t.winLoss, missingDays: days.length - t.days }));
  return { periods, total, unavailable, granularity: "day" };
}
