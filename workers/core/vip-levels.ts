/**
 * VIP levels (decision 091): the owner's levels by the kip a player deposited in the last
 * `periodDays` days, each with its own cashback percent and cap and a limit on the credit
 * withdrawn per Vientiane day. Pure: amounts in minor units (bigint), times epoch ms.
 */

export type VipLevel = {
  name: string;
  /** Settled deposits (LAK minor units) in the period that reach this level. */
  thresholdMinor: bigint;
  /** Cashback percent in hundredths (750 = 7.5 %), in place of the agency's. */
  cashbackHundredths: number;
  /** Most one cashback claim pays (THB minor units); 0: no cap. */
  cashbackCapMinor: bigint;
  /** Credit that may be withdrawn per Vientiane day (THB minor units); null: no limit. */
  withdrawDayMinor: bigint | null;
};

export const DEFAULT_PERIOD_DAYS = 30;
export const PERIOD_DAYS_MAX = 365;
export const LEVELS_MAX = 20;

/** When the period counted for levels begins, for a level judged at `now`. */
export function levelPeriodFrom(periodDays: number, now: number): number {
  return now - periodDays * 24 * 3600_000;
}

export type LevelStanding = {
  /** The highest level whose threshold the deposits reach; null: below the first. */
  level: VipLevel | null;
  /** The next level up and the kip still to deposit in the period to reach it; null: at the top. */
  next: { level: VipLevel; remainingMinor: bigint } | null;
};

/** Where `depositedMinor` puts a player among `levels` (any order). */
export function levelStanding(levels: readonly VipLevel[], depositedMinor: bigint): LevelStanding {
  const sorted = [...levels].sort((a, b) => (a.thresholdMinor < b.thresholdMinor ? -1 : a.thresholdMinor > b.thresholdMinor ? 1 : 0));
  let level: VipLevel | null = null;
  for (const l of sorted) if (l.thresholdMinor <= depositedMinor) level = l;
  const above = sorted.find((l) => l.thresholdMinor > depositedMinor) ?? null;
  return { level, next: above && { level: above, remainingMinor: above.thresholdMinor - depositedMinor } };
}

/**
 * The level's cashback terms over the agency's: a player with a level has its percent and cap;
 * without one, the agency's own.
 */
export function cashbackTerms<T extends { percentHundredths: number; capMinor: number }>(settings: T, level: VipLevel | null): T {
  if (!level) return settings;
  return { ...settings, percentHundredths: level.cashbackHundredths, capMinor: Number(level.cashbackCapMinor) };
}

/**
 * A withdrawal of `requestedMinor` credit against the level's daily limit, given the credit
 * already withdrawn today: refused (with what is left) when it goes over.
 */
export function withdrawDayRefusal(level: VipLevel | null, withdrawnTodayMinor: bigint, requestedMinor: bigint): { remainingMinor: bigint } | null {
  if (!level || level.withdrawDayMinor === null) return null;
  const left = level.withdrawDayMinor > withdrawnTodayMinor ? level.withdrawDayMinor - withdrawnTodayMinor : 0n;
  return requestedMinor > left ? { remainingMinor: left } : null;
}
