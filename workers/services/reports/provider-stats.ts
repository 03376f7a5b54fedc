import type { Provider } from "../../core/providers";
import { legacyProviderUsername } from "../../core/provider-username";
import { periodsOf, vientianeDate, type ReportRange } from "../../core/report-range";
import { upsertPlayerProviderDayStatement } from "../../db/player-provider-stats";
import {
  advanceStatsPass,
  listActiveAgencyProviders,
  listOpenStatsPasses,
  listProviderDayStats,
  listProviderPlayersPage,
  markProviderDayUnavailable,
  startStatsPasses,
  upsertProviderDayOk,
  type ProviderPlayersPage,
  type StatsPass,
} from "../../db/provider-stats";
import type { GameProviderPort, PeriodSummary, SummaryInput } from "../../ports/provider";
import { providerPortFor } from "../../wallet/provider-port";

/**
 * Provider figures (decision 058): each game provider's daily
 * turnover and win/loss per agency, collected by the scheduled job into provider_daily_stats
 * and read by the reports.
 *
 * Definitions (the port's PeriodSummary): turnover = the sum of the day's VALID bets of the
 * agency's players at that provider; win/loss = the AGENCY's result, stakes minus payouts
 * (positive: the players lost). Credit minor units (THB satang). Days are Asia/Vientiane.
 */

/** Time one batch of one provider may take (a slow provider's day is recorded unavailable, retried by the next pass). */
const PROVIDER_BUDGET_MS = 25_000;
const DAY_MS = 86_400_000;
/** Statements per D1 batch when writing players' days. */
const PLAYER_BATCH = 100;
/**
 * Players asked in one batch (decision 051): one page of players, one periodSummary, their
 * days written, the cursor moved. Locally the sandbox provider answers a report with one
 * Durable Object call per player on the same workerd thread as every page: 2,400 players at
 * once held that thread 12-13 s. The size does not change how much one run does (that is
 * RUN_SUBREQUESTS, counted per player); smaller batches only hold that thread less at a time.
 */
const PLAYERS_PER_BATCH = 100;
/**
 * What one scheduled run may spend before it leaves the rest to the next tick (every 5
 * minutes): subrequests counted the way the worst adapter makes them (Betflix asks per
 * member: a batch of 100 players is 100 calls, plus its D1 statements), under the 10,000 of
 * a paid Worker's invocation; and wall time.
 */
const RUN_SUBREQUESTS = 9_000;
const RUN_MS = 60_000;

export type CollectResult = {
  /** Days written with figures. */
  collected: number;
  /** Days the provider could not answer (recorded unavailable, left for the next run). */
  unavailable: { agencyId: string; provider: Provider; day: string; reason: string }[];
  /** Players' days written (player_provider_daily), and players' days the provider could not answer. */
  playerDays: number;
  playerDaysUnavailable: number;
  /** Batches run, and provider-days whose pass is still in progress (the next run goes on). */
  batches: number;
  pending: number;
};

type RunOptions = { budgetMs?: number; playersPerBatch?: number; runSubrequests?: number; runMs?: number };

/**
 * The hourly job: yesterday and today (Vientiane) for every ACTIVE agency and each
 * provider it offers, through the agency's own provider setup (providerPortFor: the
 * sandbox, AMB, Betflix, or not configured). A pass starts for each provider-day (one still
 * in progress goes on instead), then runs as far as one run may (continueProviderStats); the
 * scheduled tick every 5 minutes goes on with the rest. Idempotent: a day's row is replaced
 * by the newest figures. A provider that fails or runs out of its time budget is logged and
 * recorded unavailable (never 0; earlier figures kept); it never stops the others.
 */
export async function collectProviderStats(env: Env, now: Date | number, options: RunOptions = {}): Promise<CollectResult> {
  const at = typeof now === "number" ? now : now.getTime();
  const today = vientianeDate(at);
  const days = [vientianeDate(at - DAY_MS), today];
  const startedAt = new Date(at).toISOString();
  const wanted = (await listActiveAgencyProviders(env.DB)).flatMap(({ agencyId, providers }) =>
    providers.flatMap((provider) => days.map((day) => ({ agencyId, provider, day }))),
  );
  await startStatsPasses(env.DB, wanted, startedAt);
  return continueProviderStats(env, options);
}

/**
 * The passes in progress, batch after batch, oldest pass first, until they are done or this
 * run's share (RUN_SUBREQUESTS, RUN_MS) is spent. A batch: the next PLAYERS_PER_BATCH
 * players after the pass's cursor, one periodSummary of them for the day, their days
 * written, then the cursor and the sums move in one conditional write (a second run on the
 * same pass never counts a batch twice). The last batch writes the day's total. Resumable
 * by construction: what is left is what lies after the cursor.
 */
export async function continueProviderStats(env: Env, options: RunOptions = {}): Promise<CollectResult> {
  const budgetMs = options.budgetMs ?? PROVIDER_BUDGET_MS;
  const perBatch = options.playersPerBatch ?? PLAYERS_PER_BATCH;
  const maxSubrequests = options.runSubrequests ?? RUN_SUBREQUESTS;
  const deadline = Date.now() + (options.runMs ?? RUN_MS);
  const result: CollectResult = { collected: 0, unavailable: [], playerDays: 0, playerDaysUnavailable: 0, batches: 0, pending: 0 };
  const open = await listOpenStatsPasses(env.DB, OPEN_PASSES_PER_RUN);
  let spent = 1;
  const ports = new Map<string, GameProviderPort>();
  for (const [i, pass] of open.entries()) {
    let current: StatsPass | null = pass;
    while (current) {
      // a batch costs at most its players (per-member adapters) and its D1 statements
      const cost = perBatch + Math.ceil(perBatch / PLAYER_BATCH) + 3;
      if (spent + cost > maxSubrequests || Date.now() > deadline) {
        result.pending = open.length - i;
        return report(result);
      }
      const key = `${current.agencyId} ${current.provider}`;
      const port = ports.get(key) ?? providerPortFor(env, current.agencyId, current.provider);
      ports.set(key, port);
      const step = await oneBatch(env, port, current, perBatch, budgetMs, result);
      spent += step.spent;
      result.batches++;
      current = step.next;
      // let the requests waiting on this thread go first (locally: the pages of every player)
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  return report(result);
}

/** Open passes one run looks at (a deployment serves one agency or a few: 5 providers x 2 days each). */
const OPEN_PASSES_PER_RUN = 500;

function report(result: CollectResult): CollectResult {
  if (result.unavailable.length > 0 || result.pending > 0) {
    console.warn(
      JSON.stringify({
        event: "provider.stats",
        collected: result.collected,
        unavailable: result.unavailable,
        batches: result.batches,
        pending: result.pending,
      }),
    );
  }
  return result;
}

/**
 * One batch of one pass; never throws. Answers the subrequests it made and the pass as it
 * now stands (null: finished, or moved by another run meanwhile).
 */
async function oneBatch(
  env: Env,
  port: GameProviderPort,
  pass: StatsPass,
  perBatch: number,
  budgetMs: number,
  result: CollectResult,
): Promise<{ spent: number; next: StatsPass | null }> {
  const { agencyId, provider, day } = pass;
  const collectedAt = pass.startedAt;
  let spent = 1;
  const finish = async (step: { cursor: string; players: number; turnoverMinor: bigint; winLossMinor: bigint; failure?: string }) => {
    spent++;
    await advanceStatsPass(env.DB, pass, { ...step, done: true }, new Date().toISOString()).catch((error: unknown) =>
      console.error("provider stats pass not finished", error),
    );
    return { spent, next: null };
  };
  let page: ProviderPlayersPage;
  try {
    page = await listProviderPlayersPage(env.DB, agencyId, provider, pass.cursor, perBatch);
  } catch (error) {
    const reason = `players unreadable: ${String(error)}`;
    result.unavailable.push({ agencyId, provider, day, reason });
    await markProviderDayUnavailable(env.DB, { agencyId, provider, day, reason, collectedAt }).catch(() => {});
    return finish({ cursor: pass.cursor, players: 0, turnoverMinor: 0n, winLossMinor: 0n, failure: reason });
  }
  const last = !page.more;
  const players = page.players.map((p) => ({ username: legacyProviderUsername(agencyId, p.username), playerId: p.playerId }));
  // A pass with nobody still asks the provider once (an adapter that is not set up answers unavailable).
  const summary: PeriodSummary =
    players.length === 0 && pass.cursor !== ""
      ? { kind: "ok", turnoverMinor: 0n, winLossMinor: 0n, players: new Map() }
      : await askWithinBudget(port, { from: day, to: day, players }, budgetMs);
  spent += Math.max(1, players.length);
  if (summary.kind === "unavailable") {
    result.unavailable.push({ agencyId, provider, day, reason: summary.reason });
    result.playerDaysUnavailable += players.length;
    spent++;
    try {
      await markProviderDayUnavailable(env.DB, { agencyId, provider, day, reason: summary.reason, collectedAt });
    } catch (error) {
      result.unavailable.push({ agencyId, provider, day, reason: `not stored: ${String(error)}` });
    }
    return finish({ cursor: pass.cursor, players: 0, turnoverMinor: 0n, winLossMinor: 0n, failure: summary.reason });
  }
  // each player's figures for the day, from the same answer (only players it has figures
  // for: a missing day has no row, never a 0)
  const answered = [...summary.players];
  result.playerDaysUnavailable += players.length - answered.length;
  try {
    const statements = answered.map(([playerId, figures]) =>
      upsertPlayerProviderDayStatement(env.DB, {
        agencyId,
        playerId,
        provider,
        day,
        turnoverMinor: figures.turnoverMinor,
        winLossMinor: figures.winLossMinor,
        collectedAt,
      }),
    );
    for (let i = 0; i < statements.length; i += PLAYER_BATCH) {
      spent++;
      await env.DB.batch(statements.slice(i, i + PLAYER_BATCH));
    }
    result.playerDays += statements.length;
  } catch (error) {
    result.playerDaysUnavailable += answered.length;
    console.error("player provider days not stored", error);
  }
  const step = {
    cursor: page.lastId ?? pass.cursor,
    players: players.length,
    turnoverMinor: summary.turnoverMinor,
    winLossMinor: summary.winLossMinor,
  };
  if (last) {
    // the day's total: the sums of the earlier batches and this one (written before the pass
    // closes: a run that repeats this batch writes the same total)
    const turnoverMinor = BigInt(pass.turnoverMinor) + summary.turnoverMinor;
    const winLossMinor = BigInt(pass.winLossMinor) + summary.winLossMinor;
    spent++;
    try {
      await upsertProviderDayOk(env.DB, { agencyId, provider, day, turnoverMinor, winLossMinor, collectedAt });
      result.collected++;
    } catch (error) {
      result.unavailable.push({ agencyId, provider, day, reason: `not stored: ${String(error)}` });
    }
    return finish(step);
  }
  spent++;
  const moved = await advanceStatsPass(env.DB, pass, { ...step, done: false }, new Date().toISOString()).catch(() => false);
  if (!moved) return { spent, next: null };
  return {
    spent,
    next: {
      ...pass,
      cursor: step.cursor,
      players: pass.players + step.players,
      turnoverMinor: pass.turnoverMinor + Number(step.turnoverMinor),
      winLossMinor: pass.winLossMinor + Number(step.winLossMinor),
    },
  };
}

/** The adapter's answer, or unavailable when the budget runs out first (an adapter that ignores the signal included). */
function askWithinBudget(port: GameProviderPort, input: Omit<SummaryInput, "signal">, budgetMs: number): Promise<PeriodSummary> {
  const signal = AbortSignal.timeout(budgetMs);
  // listening before the adapter's own abort handling: the budget is the reason given
  const spent = new Promise<PeriodSummary>((resolve) => {
    signal.addEventListener("abort", () => resolve({ kind: "unavailable", reason: `time budget of ${budgetMs} ms spent` }), { once: true });
  });
  const summary = port.periodSummary({ ...input, signal }).catch((error: unknown): PeriodSummary => ({ kind: "unavailable", reason: String(error) }));
  return Promise.race([spent, summary]);
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
