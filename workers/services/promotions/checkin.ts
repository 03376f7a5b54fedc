import {
  checkinDay,
  judgeCheckin,
  judgeStreak,
  STREAK_DAYS_MAX,
  streakProgress,
  streakWindowStart,
  type CheckinRefusal,
  type CheckinSettings,
  type StreakProgress,
  type StreakRefusal,
} from "../../core/checkin";
import { formatPercent } from "../../core/cashback";
import { formatAmount, parseAmount } from "../../core/money";
import { isProvider, type Provider } from "../../core/providers";
import { parseMultiple, type RewardKind } from "../../core/reward";
import type { OfferPause } from "../../core/responsible-gaming";
import type { CurrentPlayer } from "../../core/session";
import { auditStatement, type AuditActor } from "../../db/audit";
import { depositTimesSince, readCheckinSettings, upsertCheckinSettingsStatement } from "../../db/checkin";
import { findRewardClaim, listRewardClaims } from "../../db/rewards";
import type { ClaimRewardResult, Reward } from "../../wallet/player-wallet";
import type { Agency } from "../agency";
import { holdRewardKey } from "../../core/holds";
import { heldRewards } from "../holds";
import { offersPaused } from "../wallets";
import { claimWalletReward, listWalletRewards, withRetry, withTurnoverProgress, type HeldReward, type RewardWithProgress } from "./rewards";

/**
 * Daily check-in and deposit-streak rewards (decision 095): reward kinds on the wallet's
 * reward path (decision 029), not promotions, so they do not take the player's one promotion.
 * Each claim is judged here from fresh facts, then credited by claimWalletReward, the one door
 * of every reward, which also refuses while offers are paused (decision 091). Owner settings
 * are audited.
 */

type SettingsView = {
  checkinEnabled: boolean;
  checkinAmount: string;
  checkinMultiple: string;
  streakEnabled: boolean;
  streakDays: number;
  streakAmount: string;
  streakMultiple: string;
};

function settingsView(s: CheckinSettings): SettingsView {
  return {
    checkinEnabled: s.checkinEnabled,
    checkinAmount: formatAmount(BigInt(s.checkinAmountMinor), "THB"),
    checkinMultiple: s.checkinMultiple,
    streakEnabled: s.streakEnabled,
    streakDays: s.streakDays,
    streakAmount: formatAmount(BigInt(s.streakAmountMinor), "THB"),
    streakMultiple: s.streakMultiple,
  };
}

/** A reward of today's period already claimed (not given up by a failed credit). */
type Claimed = { code: string; status: Reward["status"]; provider: Provider; amount: string } | null;

type HeldRefusal = "REWARD_HELD" | "REWARD_REFUSED";
const heldRefusal = (status: "HELD" | "REFUSED" | undefined): HeldRefusal | null =>
  status === "HELD" ? "REWARD_HELD" : status === "REFUSED" ? "REWARD_REFUSED" : null;

/** What is on offer today; absent while offers are paused (nothing of it may be shown then). */
type CheckinOffer = {
  settings: SettingsView;
  today: string;
  providers: Provider[];
  /** REWARD_HELD / REWARD_REFUSED: today's claim is held for review, or was refused after it (decision 094). */
  checkin: { refusal: CheckinRefusal | HeldRefusal | null; claimed: Claimed };
  streak: { progress: StreakProgress; refusal: StreakRefusal | HeldRefusal | null; claimed: Claimed };
};

export type CheckinPage = { offer: CheckinOffer | null; paused: OfferPause | null; history: RewardWithProgress[] };

const live = (r: Reward) => r.status !== "FAILED";
const claimedView = (r: Reward | undefined): Claimed => (r ? { code: r.code, status: r.status, provider: r.provider, amount: r.amount } : null);

/** Everything a check-in or a streak claim is judged on, read at once. */
async function facts(env: Env, agency: Agency, player: CurrentPlayer, now: number) {
  const today = checkinDay(now);
  const [settings, paused, checkins, streaks, paidAt, holds] = await Promise.all([
    readCheckinSettings(env.DB, agency.id),
    offersPaused(env, agency.id, player.id, now),
    listWalletRewards(env, agency.id, player.id, "CHECKIN", 1, 20),
    listWalletRewards(env, agency.id, player.id, "STREAK", 1, 20),
    // the longest streak's window, so this read need not wait for the settings
    depositTimesSince(env.DB, agency.id, player.id, new Date(streakWindowStart(STREAK_DAYS_MAX, now)).toISOString()),
    heldRewards(env, agency.id, player.id, [
      { kind: "CHECKIN", subject: today },
      { kind: "STREAK", subject: today },
    ]),
  ]);
  const checkedIn = checkins.items.find((r) => r.period === today && live(r));
  // the last streak claimed: its days and those before it do not count for the next
  const lastStreak = streaks.items.filter(live).reduce<string | null>((last, r) => (last === null || r.period > last ? r.period : last), null);
  const progress = streakProgress(paidAt, settings.streakDays, now, lastStreak);
  const streakToday = streaks.items.find((r) => r.period === today && live(r));
  const offer: CheckinOffer = {
    settings: settingsView(settings),
    today,
    providers: agency.enabledProviders,
    checkin: {
      refusal:
        judgeCheckin({ settings, checkedInToday: checkedIn !== undefined, offersPaused: paused !== null }) ??
        heldRefusal(holds.get(holdRewardKey("CHECKIN", today))),
      claimed: claimedView(checkedIn),
    },
    streak: {
      progress,
      refusal:
        judgeStreak({ settings, progress, claimedToday: streakToday !== undefined, offersPaused: paused !== null }) ??
        heldRefusal(holds.get(holdRewardKey("STREAK", today))),
      claimed: claimedView(streakToday),
    },
  };
  const history = [...checkins.items, ...streaks.items].sort((a, b) => b.createdAt - a.createdAt || (a.code < b.code ? 1 : -1)).slice(0, 20);
  return { settings, paused, offer, history };
}

/** The player's check-in page (and the JSON status): today's check-in, the streak, the history. */
export async function checkinPage(env: Env, agency: Agency, player: CurrentPlayer, now = Date.now()): Promise<CheckinPage> {
  const f = await facts(env, agency, player, now);
  const history = await withTurnoverProgress(env, { agencyId: agency.id, playerId: player.id, username: player.username }, f.history);
  // paused: nothing on offer is shown, not even the streak's progress ("one more deposit" is a lure); the history stays
  return { offer: f.paused ? null : f.offer, paused: f.paused, history };
}

type CheckinClaimError = CheckinRefusal | StreakRefusal | "PROVIDER_REQUIRED" | "REWARD_CREDIT_FAILED" | "REWARD_HELD" | "REWARD_REFUSED";
export type CheckinClaimResult =
  | { ok: true; reward: Reward; repeated: boolean }
  | { ok: false; error: "OFFERS_PAUSED"; pause: OfferPause }
  | { ok: false; error: Exclude<CheckinClaimError, "OFFERS_PAUSED"> };

/** The reward door's answer as the player is told it: held for review (decision 094) credited nothing, "being checked", never "done". */
function claimOutcome(result: ClaimRewardResult | HeldReward): CheckinClaimResult {
  switch (result.kind) {
    case "paused":
      return { ok: false, error: "OFFERS_PAUSED", pause: result.pause };
    case "created":
    case "existing":
      if (result.reward.status === "FAILED") return { ok: false, error: "REWARD_CREDIT_FAILED" };
      return { ok: true, reward: result.reward, repeated: result.kind === "existing" };
    case "held":
      return { ok: false, error: result.status === "REFUSED" ? "REWARD_REFUSED" : "REWARD_HELD" };
  }
}

function refused(error: CheckinRefusal | StreakRefusal | HeldRefusal, pause: OfferPause | null): CheckinClaimResult {
  if (error === "OFFERS_PAUSED" && pause) return { ok: false, error, pause };
  return { ok: false, error: error as Exclude<CheckinClaimError, "OFFERS_PAUSED"> };
}

/** Today's check-in at the provider the player chose: judged again here (the page may be old), once per Vientiane day. */
export async function checkIn(env: Env, agency: Agency, player: CurrentPlayer, input: { provider: string }, now = Date.now()): Promise<CheckinClaimResult> {
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED" };
  const f = await facts(env, agency, player, now);
  if (f.offer.checkin.refusal) return refused(f.offer.checkin.refusal, f.paused);
  const result = await claimWalletReward(
    env,
    { agencyId: agency.id, playerId: player.id, username: player.username },
    {
      kind: "CHECKIN",
      period: f.offer.today,
      perProvider: false,
      provider: input.provider,
      amountMinor: String(f.settings.checkinAmountMinor),
      turnoverMultiple: f.settings.checkinMultiple,
      basis: { day: f.offer.today },
    },
    now,
  );
  return claimOutcome(result);
}

/** The deposit streak's reward, once per streak (its period: today, the streak's last day). */
export async function claimStreak(env: Env, agency: Agency, player: CurrentPlayer, input: { provider: string }, now = Date.now()): Promise<CheckinClaimResult> {
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_REQUIRED" };
  const f = await facts(env, agency, player, now);
  if (f.offer.streak.refusal) return refused(f.offer.streak.refusal, f.paused);
  const { progress } = f.offer.streak;
  const result = await claimWalletReward(
    env,
    { agencyId: agency.id, playerId: player.id, username: player.username },
    {
      kind: "STREAK",
      period: progress.period,
      perProvider: false,
      provider: input.provider,
      amountMinor: String(f.settings.streakAmountMinor),
      turnoverMultiple: f.settings.streakMultiple,
      basis: { days: String(progress.of), to: progress.period },
    },
    now,
  );
  return claimOutcome(result);
}

// ---- the owner ----

/** The owner's page: the settings and the claims of both kinds (newest first) with what may be retried. */
export async function checkinAdminPage(db: D1Database, agencyId: string) {
  const [settings, checkins, streaks] = await Promise.all([
    readCheckinSettings(db, agencyId),
    listRewardClaims(db, agencyId, "CHECKIN", null),
    listRewardClaims(db, agencyId, "STREAK", null),
  ]);
  return {
    settings: settingsView(settings),
    checkins: withRetry(checkins.items, false),
    streaks: withRetry(streaks.items, false),
    totalCredited: formatAmount(BigInt(checkins.totalMinor + streaks.totalMinor), "THB"),
  };
}

/** Which of the page's two lists a claim code belongs to (a staff retry names only the code); null: neither. */
export async function checkinClaimKind(db: D1Database, agencyId: string, code: string): Promise<Extract<RewardKind, "CHECKIN" | "STREAK"> | null> {
  const found = await findRewardClaim(db, agencyId, code);
  return found?.kind === "CHECKIN" || found?.kind === "STREAK" ? found.kind : null;
}

export type CheckinSettingsInput = {
  checkinEnabled: boolean;
  checkinAmount: string;
  checkinMultiple: string;
  streakEnabled: boolean;
  streakDays: string;
  streakAmount: string;
  streakMultiple: string;
};
export type CheckinSettingsError = {
  ok: false;
  code: "AMOUNT_INVALID" | "MULTIPLE_INVALID" | "DAYS_INVALID";
  field: "checkinAmount" | "checkinMultiple" | "streakDays" | "streakAmount" | "streakMultiple";
};

/** Saves the owner's settings, audited (`settings.checkin`, before and after). */
export async function saveCheckinSettings(
  db: D1Database,
  actor: AuditActor,
  input: CheckinSettingsInput,
  now = Date.now(),
): Promise<{ ok: true } | CheckinSettingsError> {
  const checkinAmount = parseAmount(input.checkinAmount, "THB");
  if (checkinAmount === null || checkinAmount <= 0n) return { ok: false, code: "AMOUNT_INVALID", field: "checkinAmount" };
  const checkinMultiple = parseMultiple(input.checkinMultiple);
  if (checkinMultiple === null) return { ok: false, code: "MULTIPLE_INVALID", field: "checkinMultiple" };
  const days = Number(input.streakDays.trim());
  if (!/^\d{1,2}$/.test(input.streakDays.trim()) || days < 1 || days > STREAK_DAYS_MAX) return { ok: false, code: "DAYS_INVALID", field: "streakDays" };
  const streakAmount = parseAmount(input.streakAmount, "THB");
  if (streakAmount === null || streakAmount <= 0n) return { ok: false, code: "AMOUNT_INVALID", field: "streakAmount" };
  const streakMultiple = parseMultiple(input.streakMultiple);
  if (streakMultiple === null) return { ok: false, code: "MULTIPLE_INVALID", field: "streakMultiple" };
  const next: CheckinSettings = {
    checkinEnabled: input.checkinEnabled,
    checkinAmountMinor: Number(checkinAmount),
    checkinMultiple: formatPercent(Number(checkinMultiple)),
    streakEnabled: input.streakEnabled,
    streakDays: days,
    streakAmountMinor: Number(streakAmount),
    streakMultiple: formatPercent(Number(streakMultiple)),
  };
  const before = await readCheckinSettings(db, actor.agencyId);
  await db.batch([
    upsertCheckinSettingsStatement(db, actor.agencyId, next, now),
    auditStatement(db, actor, { action: "settings.checkin", target: null, before: settingsView(before), after: settingsView(next) }),
  ]);
  return { ok: true };
}
