import { formatPercent, judgeCashback, parsePercent, type CashbackRefusal, type CashbackSettings } from "../../core/cashback";
import { formatAmount, parseAmount } from "../../core/money";
import { isProvider, type Provider } from "../../core/providers";
import { parseMultiple } from "../../core/reward";
import { cashbackTerms } from "../../core/vip-levels";
import { daysOfWeek, lastCompleteWeek, type RewardWeek } from "../../core/reward-period";
import { auditStatement, type AuditActor } from "../../db/audit";
import { readCashbackSettings, upsertCashbackSettingsStatement } from "../../db/cashback";
import { sumPlayerProviderDays } from "../../db/player-provider-stats";
import { listRewardClaims } from "../../db/rewards";
import type { Reward } from "../../wallet/player-wallet";
import type { Agency } from "../agency";
import type { CurrentPlayer } from "../../core/session";
import { holdRewardKey } from "../../core/holds";
import { heldRewards } from "../holds";
import { offersPaused, walletOf } from "../wallets";
import type { OfferPause } from "../../core/responsible-gaming";
import { playerLevel } from "./levels";
import { claimWalletReward, listWalletRewards, withRetry, withTurnoverProgress, type RewardWithProgress } from "./rewards";

/**
 * Weekly cashback (decision 029): the player's net loss per provider over
 * the last complete week (player_provider_daily, collected daily), a percent of it capped
 * per claim, claimed once per week and provider, credited at that provider by the wallet's
 * reward path with a turnover requirement. Owner settings are audited.
 */

type CashbackLine = {
  provider: Provider;
  /** The player's net loss at the provider over the week (THB decimal; negative: the player won). */
  netLoss: string;
  daysCollected: number;
  /** What a claim pays now (THB decimal), 0.00 when nothing. */
  cashback: string;
  claimable: boolean;
  /** REWARD_HELD / REWARD_REFUSED: this week's cashback is held for review, or was refused after it (decision 094). */
  refusal: CashbackRefusal | "REWARD_HELD" | "REWARD_REFUSED" | null;
  claimed: { code: string; status: Reward["status"] } | null;
};

export type CashbackPage = {
  week: RewardWeek;
  settings: { enabled: boolean; percent: string; cap: string; min: string; turnoverMultiple: string; combinable: boolean };
  lines: CashbackLine[];
  history: RewardWithProgress[];
  /** Offers paused (decision 091): then no line is shown, only why and until when. */
  paused: OfferPause | null;
};

function settingsView(s: CashbackSettings) {
  return {
    enabled: s.enabled,
    percent: formatPercent(s.percentHundredths),
    cap: formatAmount(BigInt(s.capMinor), "THB"),
    min: formatAmount(BigInt(s.minMinor), "THB"),
    turnoverMultiple: s.turnoverMultiple,
    combinable: s.combinable,
  };
}

/** Everything a claim is judged on, read at once. */
async function facts(env: Env, agency: Agency, player: CurrentPlayer, now: number) {
  const week = lastCompleteWeek(now);
  const wallet = walletOf(env, agency.id, player.id);
  const [agencySettings, standing, sums, rewards, usage, paused, holds] = await Promise.all([
    readCashbackSettings(env.DB, agency.id),
    playerLevel(env.DB, agency.id, player.id, now),
    sumPlayerProviderDays(env.DB, agency.id, week.from, week.to, [player.id]),
    listWalletRewards(env, agency.id, player.id, "CASHBACK", 1, 50),
    wallet.activeUsage(now),
    offersPaused(env, agency.id, player.id, now),
    heldRewards(env, agency.id, player.id, [{ kind: "CASHBACK", subject: week.key }]),
  ]);
  const held = holds.get(holdRewardKey("CASHBACK", week.key)) ?? null;
  // a player's VIP level brings its own percent and cap (decision 091)
  const settings = cashbackTerms(agencySettings, standing.level);
  const line = (provider: Provider): CashbackLine => {
    const sum = sums.find((s) => s.provider === provider);
    const netLossMinor = BigInt(sum?.winLossMinor ?? 0);
    // a FAILED credit gave its claim up: the player may claim again
    const claimed = rewards.items.find((r) => r.period === week.key && r.provider === provider && r.status !== "FAILED") ?? null;
    const verdict = judgeCashback({
      settings,
      netLossMinor,
      daysCollected: sum?.days ?? 0,
      claimed: claimed !== null,
      promotionActive: usage !== null,
      offersPaused: paused !== null,
    });
    return {
      provider,
      netLoss: formatAmount(netLossMinor, "THB"),
      daysCollected: sum?.days ?? 0,
      cashback: formatAmount(verdict.amountMinor, "THB"),
      // held for review: the offer is not made again, the page says it is being checked
      claimable: verdict.ok && held === null,
      refusal: !verdict.ok ? verdict.error : held === "HELD" ? "REWARD_HELD" : held === "REFUSED" ? "REWARD_REFUSED" : null,
      claimed: claimed && { code: claimed.code, status: claimed.status },
    };
  };
  return { week, settings, line, history: rewards.items, paused };
}

/** The player's cashback page: last complete week per provider, what each pays, the history. */
export async function cashbackPage(env: Env, agency: Agency, player: CurrentPlayer, now = Date.now()): Promise<CashbackPage> {
  const f = await facts(env, agency, player, now);
  const history = await withTurnoverProgress(env, { agencyId: agency.id, playerId: player.id, username: player.username }, f.history);
  // paused: nothing on offer is shown, the history (what was paid before) stays
  return { week: f.week, settings: settingsView(f.settings), lines: f.paused ? [] : agency.enabledProviders.map(f.line), history, paused: f.paused };
}

export type CashbackClaimError = CashbackRefusal | "PROVIDER_REQUIRED" | "CASHBACK_CREDIT_FAILED" | "REWARD_HELD" | "REWARD_REFUSED";

/**
 * Claims the last complete week's cashback at one provider: judged again here (the page
 * may be old), then the wallet credits it; a repeat finds the same reward.
 */
export async function claimCashback(
  env: Env,
  agency: Agency,
  player: CurrentPlayer,
  input: { provider: string },
  now = Date.now(),
): Promise<{ ok: true; reward: Reward; repeated: boolean } | { ok: false; error: CashbackClaimError }> {
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED" };
  const f = await facts(env, agency, player, now);
  const line = f.line(input.provider);
  if (!line.claimable) return { ok: false, error: line.refusal! };
  const result = await claimWalletReward(
    env,
    { agencyId: agency.id, playerId: player.id, username: player.username },
    {
      kind: "CASHBACK",
      period: f.week.key,
      perProvider: true,
      provider: input.provider,
      amountMinor: (parseAmount(line.cashback, "THB") ?? 0n).toString(),
      turnoverMultiple: f.settings.turnoverMultiple,
      basis: { netLoss: line.netLoss, percent: formatPercent(f.settings.percentHundredths), from: f.week.from, to: f.week.to },
    },
    now,
  );
  if (result.kind === "paused") return { ok: false, error: "CASHBACK_PAUSED" };
  if (result.kind === "held") return { ok: false, error: result.status === "REFUSED" ? "REWARD_REFUSED" : "REWARD_HELD" };
  if (result.reward.status === "FAILED") return { ok: false, error: "CASHBACK_CREDIT_FAILED" };
  return { ok: true, reward: result.reward, repeated: result.kind === "existing" };
}

// ---- back office ----

/** The owner's page: the settings and the claims (newest first) with the total credited. */
export async function cashbackAdminPage(db: D1Database, agencyId: string, now = Date.now()) {
  const [settings, claims] = await Promise.all([readCashbackSettings(db, agencyId), listRewardClaims(db, agencyId, "CASHBACK", null)]);
  return {
    settings: settingsView(settings),
    week: lastCompleteWeek(now),
    days: daysOfWeek(lastCompleteWeek(now)),
    claims: withRetry(claims.items, true),
    totalCredited: formatAmount(BigInt(claims.totalMinor), "THB"),
  };
}

export type CashbackSettingsInput = { enabled: boolean; percent: string; cap: string; min: string; turnoverMultiple: string; combinable: boolean };
export type CashbackSettingsError = {
  ok: false;
  code: "PERCENT_INVALID" | "AMOUNT_INVALID" | "MULTIPLE_INVALID";
  field: "percent" | "cap" | "min" | "turnoverMultiple";
};

/** Saves the owner's settings, audited (`settings.cashback`, before and after). */
export async function saveCashbackSettings(db: D1Database, actor: AuditActor, input: CashbackSettingsInput): Promise<{ ok: true } | CashbackSettingsError> {
  const percentHundredths = parsePercent(input.percent);
  if (percentHundredths === null) return { ok: false, code: "PERCENT_INVALID", field: "percent" };
  const cap = parseAmount(input.cap, "THB");
  if (cap === null || cap < 0n) return { ok: false, code: "AMOUNT_INVALID", field: "cap" };
  const min = parseAmount(input.min, "THB");
  if (min === null || min < 0n) return { ok: false, code: "AMOUNT_INVALID", field: "min" };
  const multiple = parseMultiple(input.turnoverMultiple);
  if (multiple === null) return { ok: false, code: "MULTIPLE_INVALID", field: "turnoverMultiple" };
  const next: CashbackSettings = {
    enabled: input.enabled,
    percentHundredths,
    capMinor: Number(cap),
    minMinor: Number(min),
    turnoverMultiple: formatPercent(Number(multiple)),
    combinable: input.combinable,
  };
  const before = await readCashbackSettings(db, actor.agencyId);
  await db.batch([
    upsertCashbackSettingsStatement(db, actor.agencyId, next),
    auditStatement(db, actor, { action: "settings.cashback", target: null, before: settingsView(before), after: settingsView(next) }),
  ]);
  return { ok: true };
}
