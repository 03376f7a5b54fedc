/**
 * Referral (decision 030): each player's code and link, the tie at
 * registration, which referred players count, the weekly share, its claim as credit at a
 * provider through the player's wallet (the reward path: ledger, turnover, once per period),
 * the player's page. The back office's report and settings: referral-admin.ts.
 */
import { formatAmount } from "../../core/money";
import { isProvider, type Provider } from "../../core/providers";
import {
  completeWeeks,
  deviceKey,
  isClaimable,
  laterVerdict,
  newReferralCode,
  normalizeReferralCode,
  registrationFlag,
  tieVerdict,
  turnoverRequired,
  weeklyEarnings,
  weekStarting,
  type Earnings,
  type NotCountingReason,
  type ReferralMode,
  type ReferralSettings,
  type Week,
} from "../../core/referral";
import { sumPlayerProviderDays } from "../../db/player-provider-stats";
import {
  banksOf,
  findCodeHolder,
  findReferralClaim,
  findReferralCode,
  fingerprintsOf,
  insertReferral,
  insertReferralClaim,
  insertReferralCode,
  listReferralClaims,
  listReferrals,
  settleClaim,
  readReferralSettings,
  sessionIpsOf,
  stopCountingStatement,
  sumSettledDeposits,
  sumWithdrawnCredit,
  type ClaimStatus,
  type ReferralClaim,
  type ReferralRecord,
} from "../../db/referrals";
import type { OfferPause } from "../../core/responsible-gaming";
import { holdRewardKey } from "../../core/holds";
import { weekOfDay } from "../../core/reward-period";
import { heldRewards } from "../holds";
import { offersPaused } from "../wallets";
import { creditReferralReward, referralRewardProgress, referralRewardStatuses } from "./referral-reward";

export type Clock = () => number;
export const systemNow: Clock = () => Date.now();

/** How many complete weeks the player's page and the report look back. */
export const WEEKS_SHOWN = 8;

// ---- Codes ---------------------------------------------------------------------------

/** The player's code, created on first use (existing players get theirs lazily). */
export async function ensureReferralCode(db: D1Database, agencyId: string, playerId: string): Promise<string> {
  const existing = await findReferralCode(db, agencyId, playerId);
  if (existing) return existing;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const code = await insertReferralCode(db, agencyId, playerId, newReferralCode(crypto.getRandomValues(new Uint8Array(8))));
      if (code) return code;
    } catch (error) {
      // Another player drew the same code (about 1 in 10^11): draw again.
      if (!String(error).includes("UNIQUE")) throw error;
    }
  }
  throw new Error("could not allocate a referral code");
}

export type ReferralCodeCheck = { status: "none" } | { status: "invalid"; given: string } | { status: "valid"; code: string; referrerName: string };

/** What the register page says about `?ref=`: nothing, "invited by <name>", or "this code is not valid". */
export async function checkReferralCode(db: D1Database, agencyId: string, raw: string | null): Promise<ReferralCodeCheck> {
  if (raw === null || raw.trim() === "") return { status: "none" };
  const code = normalizeReferralCode(raw);
  const holder = code ? await findCodeHolder(db, agencyId, code) : null;
  if (!code || !holder) return { status: "invalid", given: raw.trim().slice(0, 32) };
  return { status: "valid", code, referrerName: holder.displayName };
}

export type TieOutcome = "tied" | "not_counting" | "invalid" | "self" | null;

/** What the registration knows of the newcomer besides the code (decision 049). */
export type Registrant = {
  /** The device fingerprint the register form carried (docs/product.md §3; empty without JavaScript). */
  fingerprint?: string | null;
  /** The phone number registered with: the referrer's makes the tie not count. */
  phone?: string | null;
  /** The client's IP address: the referrer's (a current session's) only flags the tie for staff. */
  ip?: string | null;
};

/** Called by registration right after the new player's row is written. */
export async function tieReferral(
  db: D1Database,
  agencyId: string,
  newPlayerId: string,
  raw: string | null | undefined,
  given: Registrant | null = null,
): Promise<TieOutcome> {
  if (!raw || raw.trim() === "") return null;
  const registrant = given ?? {};
  const code = normalizeReferralCode(raw);
  const holder = code ? await findCodeHolder(db, agencyId, code) : null;
  if (!code || !holder) return "invalid";
  const print = deviceKey(registrant.fingerprint);
  const [prints, referrerIps] = await Promise.all([
    fingerprintsOf(db, agencyId, [holder.playerId]),
    registrant.ip ? sessionIpsOf(db, agencyId, holder.playerId) : [],
  ]);
  const referrerFingerprints = prints.get(holder.playerId) ?? [];
  const verdict = tieVerdict({
    referrerId: holder.playerId,
    newPlayerId,
    fingerprint: print,
    referrerFingerprints,
    phone: registrant.phone,
    referrerPhone: holder.phone,
  });
  if (!verdict.tie) return "self";
  await insertReferral(db, {
    agencyId,
    referredPlayerId: newPlayerId,
    referrerPlayerId: holder.playerId,
    code,
    fingerprint: print,
    counts: verdict.counts,
    reason: verdict.counts ? null : verdict.reason,
    flag: registrationFlag({ ip: registrant.ip, referrerIps }),
  });
  return verdict.counts ? "tied" : "not_counting";
}

// ---- Who counts --------------------------------------------------------------------------

/**
 * The referrals (of one referrer, or of the agency), each checked again against the bank
 * accounts and devices seen since: a match stops it counting, recorded with its reason.
 */
export async function currentReferrals(db: D1Database, agencyId: string, referrerId: string | null): Promise<ReferralRecord[]> {
  const referrals = await listReferrals(db, agencyId, referrerId);
  const counting = referrals.filter((r) => r.counts);
  if (counting.length === 0) return referrals;
  const ids = [...new Set(counting.flatMap((r) => [r.referredPlayerId, r.referrerPlayerId]))];
  const [banks, prints] = await Promise.all([banksOf(db, agencyId, ids), fingerprintsOf(db, agencyId, ids)]);
  const stops: D1PreparedStatement[] = [];
  const now = new Date().toISOString();
  for (const r of counting) {
    const reason = laterVerdict({
      referredBanks: banks.get(r.referredPlayerId) ?? [],
      referrerBanks: banks.get(r.referrerPlayerId) ?? [],
      referredFingerprints: prints.get(r.referredPlayerId) ?? [],
      referrerFingerprints: prints.get(r.referrerPlayerId) ?? [],
    });
    if (reason) {
      stops.push(stopCountingStatement(db, agencyId, r.referredPlayerId, reason));
      Object.assign(r, { counts: false, reason, reasonAt: now });
    }
  }
  if (stops.length > 0) await db.batch(stops);
  return referrals;
}

// ---- The share -----------------------------------------------------------------------------

export type WeekShare = Earnings & { counted: number };

/** Each referrer's share of one week, from the counting referred players' figures. */
export async function weekShares(
  db: D1Database,
  agencyId: string,
  settings: ReferralSettings,
  referrals: ReferralRecord[],
  week: Week,
): Promise<Map<string, WeekShare>> {
  // A player tied after the week ended brought nothing to it.
  const inWeek = referrals.filter((r) => r.counts && Date.parse(r.createdAt) < week.endsAt);
  const ids = inWeek.map((r) => r.referredPlayerId);
  const netLoss = new Map<string, bigint>();
  let deposits = new Map<string, bigint>();
  let withdrawals = new Map<string, bigint>();
  if (ids.length > 0 && settings.mode === "net_loss") {
    for (const row of await sumPlayerProviderDays(db, agencyId, week.start, week.end, ids)) {
      netLoss.set(row.playerId, (netLoss.get(row.playerId) ?? 0n) + BigInt(row.winLossMinor));
    }
  } else if (ids.length > 0) {
    // deposits net of the week's withdrawals (decision 049)
    const [from, to] = [new Date(week.startsAt).toISOString(), new Date(week.endsAt).toISOString()];
    [deposits, withdrawals] = await Promise.all([sumSettledDeposits(db, agencyId, from, to, ids), sumWithdrawnCredit(db, agencyId, from, to, ids)]);
  }
  const byReferrer = new Map<string, ReferralRecord[]>();
  for (const r of inWeek) (byReferrer.get(r.referrerPlayerId) ?? byReferrer.set(r.referrerPlayerId, []).get(r.referrerPlayerId)!).push(r);
  const out = new Map<string, WeekShare>();
  for (const [referrerId, list] of byReferrer) {
    const players = list.map((r) => ({
      playerId: r.referredPlayerId,
      netLossMinor: netLoss.get(r.referredPlayerId) ?? 0n,
      depositsMinor: deposits.get(r.referredPlayerId) ?? 0n,
      withdrawalsMinor: withdrawals.get(r.referredPlayerId) ?? 0n,
    }));
    out.set(referrerId, { ...weeklyEarnings(settings, players), counted: list.length });
  }
  return out;
}

export const NO_SHARE: WeekShare = { basisMinor: 0n, shareMinor: 0n, amountMinor: 0n, capped: false, counted: 0 };
export const credit = (minor: bigint) => formatAmount(minor, "THB");

// ---- The player's page -----------------------------------------------------------------------

export type SettingsView = { enabled: boolean; mode: ReferralMode; percent: string; weeklyCap: string | null; turnoverMultiplier: number };

export const settingsView = (s: ReferralSettings): SettingsView => ({
  enabled: s.enabled,
  mode: s.mode,
  percent: formatAmount(BigInt(s.percentBp), "THB").replace(/\.?0+$/, ""),
  weeklyCap: s.weeklyCapMinor > 0n ? credit(s.weeklyCapMinor) : null,
  turnoverMultiplier: s.turnoverMultiplier,
});

export type ClaimView = {
  week: string;
  weekEnd: string;
  provider: string;
  basis: string;
  amount: string;
  capped: boolean;
  referredCount: number;
  turnover: string;
  status: ClaimStatus;
  createdAt: string;
};

export const claimView = (c: ReferralClaim): ClaimView => ({
  week: c.weekStart,
  weekEnd: weekStarting(c.weekStart)?.end ?? c.weekStart,
  provider: c.provider,
  basis: credit(c.basisMinor),
  amount: credit(c.amountMinor),
  capped: c.capped,
  referredCount: c.referredCount,
  turnover: credit(turnoverRequired(c.amountMinor, c.turnoverMultiplier)),
  status: c.status,
  createdAt: c.createdAt,
});

/** `held`: the week's claim is held for review, or was refused after it (decision 094): the page says so instead of offering the claim again. */
export type WeekView = {
  week: string;
  weekEnd: string;
  counted: number;
  basis: string;
  amount: string;
  capped: boolean;
  claim: ClaimView | null;
  held: "HELD" | "REFUSED" | null;
};

export type ReferralPage = {
  code: string;
  linkPath: string;
  settings: SettingsView;
  referred: { username: string; counts: boolean; reason: NotCountingReason | null; createdAt: string }[];
  counting: number;
  notCounting: number;
  weeks: WeekView[];
  /** The claims made, each with its reward's turnover progress once credited (decision 029). */
  history: (ClaimView & { turnoverDone: string | null; turnoverMet: boolean })[];
  providers: Provider[];
  /** Offers paused (decision 091): no week's share is shown or claimable, only why and until when. */
  paused: OfferPause | null;
};

/** Usernames are shown half hidden: a referrer sees who joined, not a list of logins to try. */
const masked = (username: string) =>
  username.length <= 3 ? `${username[0]}**` : `${username.slice(0, 2)}${"*".repeat(Math.min(4, username.length - 3))}${username.slice(-1)}`;

export async function referralPage(
  env: Env,
  agency: { id: string; enabledProviders: readonly Provider[] },
  player: { id: string; username: string },
  now: Clock = systemNow,
): Promise<ReferralPage> {
  const db = env.DB;
  const playerId = player.id;
  const [code, settings, referrals, claims, paused] = await Promise.all([
    ensureReferralCode(db, agency.id, playerId),
    readReferralSettings(db, agency.id),
    currentReferrals(db, agency.id, playerId),
    listReferralClaims(db, agency.id, playerId),
    offersPaused(env, agency.id, playerId, now()),
  ]);
  await syncPendingClaims(env, agency.id, playerId, claims);
  const pendingWeeks = claims.filter((c) => c.status === "PENDING").map((c) => ({ kind: "REFERRAL" as const, subject: weekOfDay(c.weekStart).key }));
  const [progress, holds] = await Promise.all([
    referralRewardProgress(env, { agencyId: agency.id, playerId, username: player.username }),
    heldRewards(env, agency.id, playerId, pendingWeeks),
  ]);
  const claimed = new Map(claims.map((c) => [c.weekStart, c]));
  const first = referrals.reduce((min, r) => Math.min(min, Date.parse(r.createdAt)), Number.POSITIVE_INFINITY);
  const weeks: WeekView[] = [];
  // paused: the weeks' shares (what a claim would pay) are not shown at all
  for (const week of Number.isFinite(first) && !paused ? completeWeeks(now(), first, WEEKS_SHOWN) : []) {
    const claim = claimed.get(week.start);
    const share = claim ? null : ((await weekShares(db, agency.id, settings, referrals, week)).get(playerId) ?? NO_SHARE);
    weeks.push({
      week: week.start,
      weekEnd: week.end,
      counted: claim ? claim.referredCount : share!.counted,
      basis: credit(claim ? claim.basisMinor : share!.basisMinor),
      amount: credit(claim ? claim.amountMinor : share!.amountMinor),
      capped: claim ? claim.capped : share!.capped,
      claim: claim ? claimView(claim) : null,
      held: claim?.status === "PENDING" ? (holds.get(holdRewardKey("REFERRAL", weekOfDay(claim.weekStart).key)) ?? null) : null,
    });
  }
  return {
    code,
    linkPath: `/register?ref=${code}`,
    settings: settingsView(settings),
    referred: referrals.map((r) => ({ username: masked(r.username), counts: r.counts, reason: r.reason, createdAt: r.createdAt })),
    counting: referrals.filter((r) => r.counts).length,
    notCounting: referrals.filter((r) => !r.counts).length,
    weeks,
    history: claims.map((c) => {
      const reward = c.status === "CREDITED" ? progress.get(c.weekStart) : undefined;
      return { ...claimView(c), turnoverDone: reward?.turnoverDone ?? null, turnoverMet: reward?.turnoverMet ?? false };
    }),
    providers: [...agency.enabledProviders],
    paused,
  };
}

// ---- The claim -------------------------------------------------------------------------------

type ClaimError =
  | "REFERRAL_DISABLED"
  | "REFERRAL_WEEK_INVALID"
  | "REFERRAL_WEEK_OPEN"
  | "REFERRAL_ALREADY_CLAIMED"
  | "REFERRAL_NOTHING_TO_CLAIM"
  | "PROVIDER_UNAVAILABLE"
  | "REFERRAL_CREDIT_FAILED"
  | "REFERRAL_PAUSED"
  | "REWARD_HELD"
  | "REWARD_REFUSED";
export type ClaimResult = { ok: true; amount: string; provider: Provider; turnover: string; pending: boolean } | { ok: false; error: ClaimError };

/**
 * Claims a complete week's share as credit at the provider the player chose. Once per week:
 * the claim row's primary key decides between concurrent posts (the losers hear "already
 * claimed"), and the wallet's reward path is unique per (kind, period), so a repeat of a
 * claim whose credit has not landed yet (PENDING) asks the wallet again and is credited at
 * most once.
 */
export async function claimReferralWeek(
  env: Env,
  agency: { id: string; enabledProviders: readonly Provider[] },
  player: { id: string; username: string },
  input: { week: string; provider: string },
  now: Clock = systemNow,
): Promise<ClaimResult> {
  const db = env.DB;
  const playerId = player.id;
  const week = weekStarting(input.week);
  if (!week) return { ok: false, error: "REFERRAL_WEEK_INVALID" };
  if (!isClaimable(week, now())) return { ok: false, error: "REFERRAL_WEEK_OPEN" };
  // asked before the claim row is written, so a paused player leaves no claim behind (the wallet asks again)
  if (await offersPaused(env, agency.id, playerId, now())) return { ok: false, error: "REFERRAL_PAUSED" };
  const existing = await findReferralClaim(db, agency.id, playerId, week.start);
  if (existing) return existing.status === "PENDING" ? creditClaim(env, agency.id, player, existing, false) : { ok: false, error: "REFERRAL_ALREADY_CLAIMED" };
  if (!isProvider(input.provider) || !agency.enabledProviders.includes(input.provider)) return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  const settings = await readReferralSettings(db, agency.id);
  if (!settings.enabled) return { ok: false, error: "REFERRAL_DISABLED" };
  const referrals = await currentReferrals(db, agency.id, playerId);
  const share = (await weekShares(db, agency.id, settings, referrals, week)).get(playerId) ?? NO_SHARE;
  if (share.amountMinor <= 0n) return { ok: false, error: "REFERRAL_NOTHING_TO_CLAIM" };
  const row = {
    referrerPlayerId: playerId,
    weekStart: week.start,
    provider: input.provider,
    mode: settings.mode,
    percentBp: settings.percentBp,
    turnoverMultiplier: settings.turnoverMultiplier,
    referredCount: share.counted,
    basisMinor: share.basisMinor,
    amountMinor: share.amountMinor,
    capped: share.capped,
  };
  if (!(await insertReferralClaim(db, agency.id, row))) return { ok: false, error: "REFERRAL_ALREADY_CLAIMED" };
  return creditClaim(env, agency.id, player, { ...row, status: "PENDING", createdAt: "", creditedAt: null }, true);
}

/** The wallet's reward for a claim row; `first`: this post wrote the row (a repeat that finds the reward made hears "already claimed"). */
async function creditClaim(env: Env, agencyId: string, player: { id: string; username: string }, claim: ReferralClaim, first: boolean): Promise<ClaimResult> {
  const provider = claim.provider as Provider;
  let outcome: Awaited<ReturnType<typeof creditReferralReward>>;
  try {
    outcome = await creditReferralReward(
      env,
      { agencyId, playerId: player.id, username: player.username },
      {
        weekStart: claim.weekStart,
        provider,
        amountMinor: claim.amountMinor,
        turnoverMultiplier: claim.turnoverMultiplier,
        basis: { mode: claim.mode, percentBp: String(claim.percentBp), basisMinor: claim.basisMinor.toString(), referred: String(claim.referredCount) },
      },
    );
  } catch (error) {
    // The wallet did not answer: the row stays PENDING and the page offers the claim again.
    console.error("referral claim: wallet call failed", error);
    return { ok: false, error: "PROVIDER_UNAVAILABLE" };
  }
  // Paused (decision 091): nothing written in the wallet; the row stays PENDING and the claim is offered again once offers resume.
  if (outcome.status === "PAUSED") return { ok: false, error: "REFERRAL_PAUSED" };
  // Held for review (decision 094): the row stays PENDING; a release credits the reward and the page's next load settles the row.
  if (outcome.status === "HELD" || outcome.status === "REFUSED") return { ok: false, error: outcome.status === "HELD" ? "REWARD_HELD" : "REWARD_REFUSED" };
  // A refused credit books nothing and frees the wallet's claim: the row stays PENDING and the page offers the claim again.
  if (outcome.status === "FAILED") return { ok: false, error: "REFERRAL_CREDIT_FAILED" };
  if (outcome.status === "SUCCESS") await settleClaim(env.DB, agencyId, player.id, claim.weekStart);
  // A repeat that finds the wallet's reward already made (credited, or its credit still in flight for the post that
  // won, or for the wallet's alarm) is not a claim of its own: "already claimed", whatever the timing of the posts.
  if (!outcome.created && !first) return { ok: false, error: "REFERRAL_ALREADY_CLAIMED" };
  return {
    ok: true,
    amount: credit(claim.amountMinor),
    provider,
    turnover: credit(turnoverRequired(claim.amountMinor, claim.turnoverMultiplier)),
    pending: outcome.status === "PENDING",
  };
}

/** PENDING claims take the wallet's word (its alarm finishes credits the first attempt left unknown). */
async function syncPendingClaims(env: Env, agencyId: string, playerId: string, claims: ReferralClaim[]): Promise<void> {
  const pending = claims.filter((c) => c.status === "PENDING");
  if (pending.length === 0) return;
  const statuses = await referralRewardStatuses(env, agencyId, playerId);
  for (const c of pending) {
    if (statuses.get(c.weekStart) === "SUCCESS") {
      await settleClaim(env.DB, agencyId, playerId, c.weekStart);
      c.status = "CREDITED";
    }
  }
}

// ---- The back office ---------------------------------------------------------------------------
