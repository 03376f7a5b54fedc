/**
 * Referral rules (decision 030): codes, the tie at registration, whether a
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

/**
 * Why a referred player does not count (stored with the referral; shown to staff and player).
 * same_phone and same_holder (decision 049): a second account of the referrer is caught
 * without the fingerprint a browser may not send (none with JavaScript off).
 */
const NOT_COUNTING_REASONS = ["same_device", "same_bank", "same_phone", "same_holder"] as const;
export type NotCountingReason = (typeof NOT_COUNTING_REASONS)[number];

/**
 * What only flags a referral for staff, the referral still counting (decision 049): the
 * referrer's IP address at registration. Shared addresses are common (a family's Wi-Fi, a
 * mobile operator's NAT, an internet cafe), so it is a hint, not a proof.
 */
export type ReferralFlag = "same_ip";

/**
 * Lao (U+0ED0-0ED9) and Thai (U+0E50-0E59) digits as 0-9: a Lao keyboard types its own digits,
 * and "໐໒໐ ໕໕໕໕ ໑໒໓໔" is the same phone number as "020 5555 1234" (`\d` knows only 0-9).
 */
function latinDigits(text: string): string {
  return text.replace(/[\u0ed0-\u0ed9\u0e50-\u0e59]/g, (d) => String((d.charCodeAt(0) - 0x0e50) % 0x80));
}

/**
 * A phone number in one form, so spellings of one number compare equal: digits only, the
 * international prefix (00 or +) and Laos' 856 dropped, then the trunk 0 ("020 5555 1234",
 * "+856 20 5555 1234" -> "2055551234"). null: too short to tell anything (fewer than 6 digits).
 */
export function normalizePhone(raw: string | null | undefined): string | null {
  let digits = latinDigits(raw ?? "").replace(/\D/g, "");
  if (digits.startsWith("00")) digits = digits.slice(2);
  if (digits.startsWith("856") && digits.length > 9) digits = digits.slice(3);
  digits = digits.replace(/^0+/, "");
  return digits.length >= 6 ? digits : null;
}

/**
 * Bank account holder names in one form: case, spaces, punctuation and Latin accents left out
 * ("Nguyễn Văn An" = "NGUYEN VAN AN", "Somchai P." = "SOMCHAI P"); Lao vowel and tone marks are
 * letters' parts and stay. Banks print names in capitals, people type them as they like.
 */
export function holderKey(name: string | null | undefined): string {
  return (name ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[đĐ]/g, "d")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]/gu, "");
}

export function sameHolderName(a: string | null | undefined, b: string | null | undefined): boolean {
  const ka = holderKey(a);
  return ka.length > 0 && ka === holderKey(b);
}

export type TieVerdict = { tie: false; reason: "self" } | { tie: true; counts: true } | { tie: true; counts: false; reason: NotCountingReason };

/**
 * At registration. Self-referral is never tied. A registration fingerprint already seen on
 * the referrer's account is tied (so it cannot be tied again through another code) but does
 * not count: the same phone or computer opening a second account is the commonest way to
 * refer oneself. The phone number the newcomer registers with being the referrer's does the
 * same (decision 049): the form always sends it, JavaScript or not.
 */
export function tieVerdict(input: {
  referrerId: string;
  newPlayerId: string;
  fingerprint: string | null;
  referrerFingerprints: readonly string[];
  phone?: string | null;
  referrerPhone?: string | null;
}): TieVerdict {
  if (input.referrerId === input.newPlayerId) return { tie: false, reason: "self" };
  if (input.fingerprint && input.referrerFingerprints.includes(input.fingerprint)) return { tie: true, counts: false, reason: "same_device" };
  const phone = normalizePhone(input.phone);
  if (phone !== null && phone === normalizePhone(input.referrerPhone)) return { tie: true, counts: false, reason: "same_phone" };
  return { tie: true, counts: true };
}

/** The registration's IP address among the addresses the referrer's sessions came from: a flag for staff only. */
export function registrationFlag(input: { ip: string | null | undefined; referrerIps: readonly string[] }): ReferralFlag | null {
  return input.ip && input.referrerIps.includes(input.ip) ? "same_ip" : null;
}

/** A bank account (bank + number, and the holder's name when known): the referred player's and the referrer's, now or before. */
export type BankKey = { bankCode: string; accountNumber: string; accountName?: string | null };
/** An account in one form: the bank and the number's digits ("010-12-00-1234567" = "010120 01234567"; Lao digits as 0-9). */
export const bankKey = (b: Pick<BankKey, "bankCode" | "accountNumber">) => `${b.bankCode}:${latinDigits(b.accountNumber).replace(/\D/g, "")}`;

/**
 * A device fingerprint in its stored form (lower-case hex, what the collector sends: 16 to 128
 * characters), or null when it cannot be one: the tie and the blocklist (decision 090) compare
 * these, and a value a client made up is not a device.
 */
export function deviceKey(raw: string | null | undefined): string | null {
  const print = (raw ?? "").trim().toLowerCase();
  return /^[a-f0-9]{16,128}$/.test(print) ? print : null;
}

/**
 * Checked again whenever referrals are read: a referred player who later adds (or switches to)
 * a bank account the referrer holds or held, or one in the name of a holder of the referrer's
 * accounts (any bank, any number: decision 049), or whose device is later seen on the
 * referrer's account, stops counting. null: still counts.
 */
export function laterVerdict(input: {
  referredBanks: readonly BankKey[];
  referrerBanks: readonly BankKey[];
  referredFingerprints: readonly string[];
  referrerFingerprints: readonly string[];
}): NotCountingReason | null {
  const theirs = new Set(input.referrerBanks.map(bankKey));
  if (input.referredBanks.some((b) => theirs.has(bankKey(b)))) return "same_bank";
  if (input.referredBanks.some((b) => input.referrerBanks.some((o) => sameHolderName(b.accountName, o.accountName)))) return "same_holder";
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

/**
 * One referred player's week: net loss (agency side, over every provider), deposits (credit,
 * bonus excluded) and the credit withdrawn (taken from the providers and not given back).
 */
export type ReferredWeek = { playerId: string; netLossMinor: bigint; depositsMinor: bigint; withdrawalsMinor: bigint };

export type Earnings = { basisMinor: bigint; shareMinor: bigint; amountMinor: bigint; capped: boolean };

/**
 * The referrer's share of a week: the basis is, per counting referred player, their net loss
 * (a player who won adds 0, never less: one winner does not erase another's loss) or their
 * deposits net of the week's withdrawals (decision 049: money deposited and taken out again
 * brings the agency nothing, so it earns the referrer nothing; a player who took out more
 * adds 0, never less); then percent, rounded down to the satang, then the cap.
 */
export function weeklyEarnings(settings: Pick<ReferralSettings, "mode" | "percentBp" | "weeklyCapMinor">, players: readonly ReferredWeek[]): Earnings {
  let basis = 0n;
  for (const p of players) {
    const value = settings.mode === "net_loss" ? p.netLossMinor : p.depositsMinor - p.withdrawalsMinor;
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
