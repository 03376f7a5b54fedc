/**
 * Referral rules (issue 18 part 2, decision 030): codes, the tie at registration, whether a
 * referred player counts, the weekly share and when a week can be claimed. Pure: no I/O.
 * Amounts are credit minor units (THB satang, like player_provider_daily and the wallet).
 */
import { weekAt, weekInstants, weekOfDay, type RewardWeek } from "./reward-period";

const DAY = 24 * 60 * 60 * 1000;

// ---- Codes -----------------------------------------------------------------------------

/**
 * 8 characters from 31 that cannot be mistaken for one another when read aloud or typed from
 * a screenshot: no 0/O, 1/I/L, no U (read as V). 31^8 is about 8.5e11 codes: guessing one is
 * hopeless and a collision at creation is retried.
 */
export const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ";
const CODE_LENGTH = 8;

/** A new random code from `random` bytes (crypto.getRandomValues in production). */
export function newReferralCode(random: Uint8Array): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[random[i]! % CODE_ALPHABET.length];
  return code;
}

/**
 * What a person typed or a link carried, in the stored form: upper case (lower case is
 * accepted), spaces and dashes dropped. null: cannot be a code (wrong length, or a
 * character outside the alphabet).
 */
export function normalizeReferralCode(input: string | null | undefined): string | null {
  if (!input) return null;
  const code = input.trim().toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== CODE_LENGTH) return null;
  for (const c of code) if (!CODE_ALPHABET.includes(c)) return null;
  return code;
}

// ---- The tie -----------------------------------------------------------------------------

/** Why a referred player does not count (stored with the referral; shown to staff and player). */
const NOT_COUNTING_REASONS = ["same_device", "same_bank"] as const;
export type NotCountingReason = (typeof NOT_COUNTING_REASONS)[number];

export type TieVerdict = { tie: false; reason: "self" } | { tie: true; counts: true } | { tie: true; counts: false; reason: NotCountingReason };

/**
 * At registration. Self-referral is never tied. A registration fingerprint already seen on
 * the referrer's account is tied (so it cannot be tied again through another code) but does
 * not count: the same phone or computer opening a second account is the commonest way to
 * refer oneself.
 */
export function tieVerdict(input: { referrerId: string; newPlayerId: string; fingerprint: string | null; referrerFingerprints: readonly string[] }): TieVerdict {
  if (input.referrerId === input.newPlayerId) return { tie: false, reason: "self" };
  if (input.fingerprint && input.referrerFingerprints.includes(input.fingerprint)) return { tie: true, counts: false, reason: "same_device" };
  return { tie: true, counts: true };
}

/** A bank account (bank + number): the referred player's and the referrer's, now or before. */
export type BankKey = { bankCode: string; accountNumber: string };
const bankKey = (b: BankKey) => `${b.bankCode}:${b.accountNumber.replace(/\D/g, "")}`;

/**
 * Checked again whenever referrals are read: a referred player who later adds (or switches to)
 * a bank account the referrer holds or held, or whose device is later seen on the referrer's
 * account, stops counting. null: still counts.
 */
export function laterVerdict(input: {
  referredBanks: readonly BankKey[];
  referrerBanks: readonly BankKey[];
  referredFingerprints: readonly string[];
  referrerFingerprints: readonly string[];
}): NotCountingReason | null {
  const theirs = new Set(input.referrerBanks.map(bankKey));
  if (input.referredBanks.some((b) => theirs.has(bankKey(b)))) return "same_bank";
  const devices = new Set(input.referrerFingerprints);
  if (input.referredFingerprints.some((f) => devices.has(f))) return "same_device";
  return null;
}

// ---- Settings ----------------------------------------------------------------------------

export const REFERRAL_MODES = ["net_loss", "deposits"] as const;
export type ReferralMode = (typeof REFERRAL_MODES)[number];

/** The owner's settings. percentBp: hundredths of a percent (250 = 2.5 %). capMinor 0: no cap. */
export type ReferralSettings = {
  enabled: boolean;
  mode: ReferralMode;
  percentBp: number;
  weeklyCapMinor: bigint;
  turnoverMultiplier: number;
};

/** Off until the owner turns it on; the numbers are a starting point shown in the form. */
export const DEFAULT_REFERRAL_SETTINGS: ReferralSettings = { enabled: false, mode: "net_loss", percentBp: 500, weeklyCapMinor: 0n, turnoverMultiplier: 1 };

export const PERCENT_BP_MAX = 5000; // 50 %: above that the agency gives away more than half
export const TURNOVER_MULTIPLIER_MAX = 50;

// ---- Weeks -------------------------------------------------------------------------------

/**
 * The Monday-to-Sunday week in Vientiane holding `at`. One calendar for every reward
 * (core/reward-period.ts, which cashback uses too): this is its week seen from the referral,
 * `start` (the Monday, 'YYYY-MM-DD') being the id a referral claim is stored under, with the
 * instants the deposits of the week and its end are measured by.
 */
export type Week = { start: string; end: string; startsAt: number; endsAt: number };

function referralWeek(week: RewardWeek): Week {
  return { start: week.from, end: week.to, ...weekInstants(week) };
}

export function weekOf(at: number): Week {
  return referralWeek(weekAt(at));
}

/** The week whose Monday is `start` ('YYYY-MM-DD'), or null when it is not a Monday. */
export function weekStarting(start: string): Week | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(start)) return null;
  const week = weekOfDay(start);
  return week.from === start ? referralWeek(week) : null;
}

/**
 * A week is complete, and its share can be claimed, two hours after it ended: the provider
 * figures are collected hourly at :17 for yesterday and today, so by Monday 02:00 Vientiane
 * Sunday's figures are in.
 */
export const SETTLE_MS = 2 * 60 * 60 * 1000;

export function isClaimable(week: Week, now: number): boolean {
  return now >= week.endsAt + SETTLE_MS;
}

/** The last `count` complete weeks, newest first, not before `since` (the first referral). */
export function completeWeeks(now: number, since: number, count: number): Week[] {
  const weeks: Week[] = [];
  let week = weekOf(now - SETTLE_MS - 7 * DAY);
  while (weeks.length < count && week.endsAt > since) {
    weeks.push(week);
    week = weekOf(week.startsAt - DAY);
  }
  return weeks;
}

// ---- The share ---------------------------------------------------------------------------

/** One referred player's week: net loss (agency side, over every provider) and deposits (credit). */
export type ReferredWeek = { playerId: string; netLossMinor: bigint; depositsMinor: bigint };

export type Earnings = { basisMinor: bigint; shareMinor: bigint; amountMinor: bigint; capped: boolean };

/**
 * The referrer's share of a week: the basis is, per counting referred player, their net loss
 * (a player who won adds 0, never less: one winner does not erase another's loss) or their
 * deposits; then percent, rounded down to the satang, then the cap.
 */
export function weeklyEarnings(settings: Pick<ReferralSettings, "mode" | "percentBp" | "weeklyCapMinor">, players: readonly ReferredWeek[]): Earnings {
  let basis = 0n;
  for (const p of players) {
    const value = settings.mode === "net_loss" ? p.netLossMinor : p.depositsMinor;
    if (value > 0n) basis += value;
  }
  const share = (basis * BigInt(settings.percentBp)) / 10000n;
  const capped = settings.weeklyCapMinor > 0n && share > settings.weeklyCapMinor;
  return { basisMinor: basis, shareMinor: share, amountMinor: capped ? settings.weeklyCapMinor : share, capped };
}

/** The turnover the credit must be played through before it can be withdrawn, like a promotion's. */
export function turnoverRequired(amountMinor: bigint, multiplier: number): bigint {
  return amountMinor * BigInt(multiplier);
}
