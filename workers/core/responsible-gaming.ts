/**
 * Responsible gaming rules (decision 025): the player's own deposit and
 * play-time limits, cooling-off and self-exclusion. Pure: times are epoch milliseconds,
 * amounts LAK minor units (bigint); the service reads and writes the stores.
 */
import { weekAt, weekInstants } from "./reward-period";
import { addVientianeMonths, vientianeDayStart, vientianeMonthStart } from "./vientiane";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const PERIODS = ["day", "week", "month"] as const;
export type Period = (typeof PERIODS)[number];

/** When the Vientiane day, week (Monday to Sunday) or month holding `now` began. */
export function periodStart(period: Period, now: number): number {
  if (period === "day") return vientianeDayStart(now);
  if (period === "week") return weekInstants(weekAt(now)).startsAt; // the one week calendar (reward periods)
  return vientianeMonthStart(now);
}

/** When the period holding `now` ends (the next one starts): the limit's "resets at". */
export function periodEnd(period: Period, now: number): number {
  if (period === "day") return periodStart("day", now) + DAY;
  if (period === "week") return periodStart("week", now) + 7 * DAY;
  return addMonths(periodStart("month", now), 1);
}

/** The same Vientiane wall-clock time `months` later; the 31st becomes the month's last day. */
export const addMonths = addVientianeMonths;

// ---- limits: lowering applies at once, raising after 24 h ----------------------------------

/** A raise (or removing a limit) waits this long: the cool head decides, not the hot one. */
export const RAISE_DELAY_MS = 24 * HOUR;

/** The player's limits: three deposit windows (LAK minor units) and minutes of play per day. */
const LIMIT_KINDS = ["deposit_day", "deposit_week", "deposit_month", "play_day"] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export const DEPOSIT_LIMIT_OF: Record<Period, LimitKind> = { day: "deposit_day", week: "deposit_week", month: "deposit_month" };

/** `value` null: no limit. `pending`: a raise waiting until `from` (its value null: the limit goes). */
export type LimitSetting = { value: bigint | null; pending: { value: bigint | null; from: number } | null };
export const NO_LIMIT: LimitSetting = { value: null, pending: null };

/** The setting as it stands at `now`: a pending raise whose time has come is the value. */
export function effectiveLimit(setting: LimitSetting, now: number): LimitSetting {
  if (setting.pending && setting.pending.from <= now) return { value: setting.pending.value, pending: null };
  return setting;
}

/** a is at most b, where null is "no limit" (above every number). */
function atMost(a: bigint | null, b: bigint | null): boolean {
  if (b === null) return true;
  return a !== null && a <= b;
}

/**
 * The player asks for `requested` (null: no limit). Lower or equal: applies now and drops
 * any pending raise. Higher: the current value stays and the raise is pending for 24 h
 * from this request (a new raise restarts the wait, so a small raise cannot be swapped for a
 * large one at the last minute).
 */
export function changeLimit(setting: LimitSetting, requested: bigint | null, now: number): LimitSetting {
  const current = effectiveLimit(setting, now);
  if (atMost(requested, current.value)) return { value: requested, pending: null };
  return { value: current.value, pending: { value: requested, from: now + RAISE_DELAY_MS } };
}

// ---- deposits --------------------------------------------------------------------------------

/**
 * Deposit orders that count against a limit: every order not CANCELED/REJECTED. OPEN orders
 * count (the player may pay them any minute); PAID, SUCCESS and FAILED count (FAILED here
 * means the kip was paid and the credit is owed: staff retry it). Cancelled and expired orders
 * moved no money (a late payment turns one back into PAID, and then it counts).
 */
export function countsAgainstLimit(status: string): boolean {
  return status !== "CANCELED" && status !== "REJECTED";
}

/** What the periods' deposits add up to: the requested amounts of counted orders created in each window. */
export function depositUsage(orders: readonly { amountMinor: bigint; status: string; createdAt: number }[], now: number): Record<Period, bigint> {
  const used: Record<Period, bigint> = { day: 0n, week: 0n, month: 0n };
  for (const period of PERIODS) {
    const from = periodStart(period, now);
    for (const o of orders) if (o.createdAt >= from && countsAgainstLimit(o.status)) used[period] += o.amountMinor;
  }
  return used;
}

/** The earliest time any window may reach back to (week and month can each start first). */
export function usageFrom(now: number): number {
  return Math.min(periodStart("week", now), periodStart("month", now));
}

export type Allowance = { remainingMinor: bigint; period: Period } | null;

/** How much may still be deposited, and which window binds; null: no deposit limit is set. */
export function depositAllowance(limits: Record<Period, bigint | null>, used: Record<Period, bigint>): Allowance {
  let best: Allowance = null;
  for (const period of PERIODS) {
    const limit = limits[period];
    if (limit === null) continue;
    const left = limit > used[period] ? limit - used[period] : 0n;
    if (!best || left < best.remainingMinor) best = { remainingMinor: left, period };
  }
  return best;
}

// ---- cooling-off and self-exclusion ------------------------------------------------------------

export const BREAK_KINDS = ["cooling_off", "self_exclusion"] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];
/** Cooling-off: 24 h to 6 weeks, in days. */
export const COOLING_OFF_DAYS = [1, 3, 7, 14, 28, 42] as const;
/** Self-exclusion: 6 months or more. */
export const EXCLUSION_MONTHS = [6, 12, 24, 60] as const;

export type Break = { kind: BreakKind; startsAt: number; endsAt: number };

/** When a break asked for now ends; null: a length the rules do not offer. */
export function breakEnd(kind: BreakKind, length: number, now: number): number | null {
  if (kind === "cooling_off") return (COOLING_OFF_DAYS as readonly number[]).includes(length) ? now + length * DAY : null;
  return (EXCLUSION_MONTHS as readonly number[]).includes(length) ? addMonths(now, length) : null;
}

/** The break in force at `now` (the one ending last), else null. */
export function activeBreak(breaks: readonly Break[], now: number): Break | null {
  let found: Break | null = null;
  for (const b of breaks) if (b.startsAt <= now && now < b.endsAt && (!found || b.endsAt > found.endsAt)) found = b;
  return found;
}

/** A new break may lengthen the one in force, never shorten it (nobody ends an exclusion early). */
export function mayStartBreak(current: Break | null, endsAt: number): boolean {
  return current === null || endsAt > current.endsAt;
}

// ---- play time -----------------------------------------------------------------------------------

/** Play-time limits a player may choose, in minutes per Vientiane day. */
export const PLAY_MINUTES_MAX = 24 * 60;

/**
 * Time played today (decision 025): the time the player was logged in today, the union of
 * their sessions' spans (login to last activity; the current one to now), each cut to the
 * Vientiane day. Two devices at once count once.
 */
export function playedToday(sessions: readonly { from: number; to: number }[], now: number): number {
  const dayStart = periodStart("day", now);
  const spans = sessions
    .map((s) => ({ from: Math.max(s.from, dayStart), to: Math.min(s.to, now) }))
    .filter((s) => s.to > s.from)
    .sort((a, b) => a.from - b.from);
  let total = 0;
  let end = -Infinity;
  for (const s of spans) {
    if (s.from >= end) {
      total += s.to - s.from;
      end = s.to;
    } else if (s.to > end) {
      total += s.to - end;
      end = s.to;
    }
  }
  return total;
}

// ---- refusals ---------------------------------------------------------------------------------

/** Why a deposit or a game launch is refused; plain JSON (it travels to the page). `until`: epoch ms. */
export type Refusal =
  | { code: "COOLING_OFF" | "SELF_EXCLUDED"; until: number }
  | { code: "DEPOSIT_LIMIT_REACHED"; period: Period; remainingMinor: string; until: number }
  | { code: "PLAY_TIME_LIMIT_REACHED"; minutes: number; until: number };

export function breakRefusal(current: Break | null): Refusal | null {
  if (!current) return null;
  return { code: current.kind === "cooling_off" ? "COOLING_OFF" : "SELF_EXCLUDED", until: current.endsAt };
}

/** A deposit of `amountMinor` against the allowance: refused when it goes over, with what is left. */
export function depositRefusal(allowance: Allowance, amountMinor: bigint, now: number): Refusal | null {
  if (!allowance || amountMinor <= allowance.remainingMinor) return null;
  return {
    code: "DEPOSIT_LIMIT_REACHED",
    period: allowance.period,
    remainingMinor: allowance.remainingMinor.toString(),
    until: periodEnd(allowance.period, now),
  };
}

/** A new game launch once today's play time reached the limit (minutes): refused until the next Vientiane day. */
export function playTimeRefusal(limitMinutes: bigint | null, playedMs: number, now: number): Refusal | null {
  if (limitMinutes === null || playedMs < Number(limitMinutes) * MINUTE) return null;
  return { code: "PLAY_TIME_LIMIT_REACHED", minutes: Number(limitMinutes), until: periodEnd("day", now) };
}

// ---- offers (decision 091) ---------------------------------------------------------------------

/** A player's session as play time counts it: a live one (seen within the idle window) runs to now. */
export function playedFromSpans(spans: readonly { from: number; to: number; ended: boolean }[], idleMs: number, now: number): number {
  return playedToday(
    spans.map((s) => ({ from: s.from, to: !s.ended && now - s.to < idleMs ? now : s.to })),
    now,
  );
}

/** Everything the offers rule is judged on: the breaks not yet ended, the limits as they stand now, what the windows used. */
export type OfferFacts = {
  breaks: readonly Break[];
  /** Deposit limits by window (null: none) and the play-time limit in minutes (null: none), as they stand now. */
  depositLimits: Record<Period, bigint | null>;
  playLimitMinutes: bigint | null;
  /** Deposits counted in each window (depositUsage); unread (null) when no deposit limit is set. */
  depositsUsed: Record<Period, bigint> | null;
  playedMs: number;
};

/** Why offers are paused, and until when (epoch ms): the break or limit that holds them back longest. */
export type OfferPause = { reason: "COOLING_OFF" | "SELF_EXCLUDED" | "DEPOSIT_LIMIT_REACHED" | "PLAY_TIME_LIMIT_REACHED"; until: number };

/**
 * May this player be offered anything now (a promotion, cashback, a referral share, a level,
 * check-in or streak reward), and if not, why (decision 091). No offer is shown or paid while
 * a cooling-off or self-exclusion is in force, while a deposit window has nothing left, or
 * once today's play time reached its limit: a player who asked to be stopped is not tempted
 * back. The break comes first (it names the longest pause); between limits, the one that
 * resets last, since offers wait for all of them.
 */
export function offerPause(facts: OfferFacts, now: number): OfferPause | null {
  const held = activeBreak(facts.breaks, now);
  if (held) return { reason: held.kind === "cooling_off" ? "COOLING_OFF" : "SELF_EXCLUDED", until: held.endsAt };
  let pause: OfferPause | null = null;
  const later = (next: OfferPause) => {
    if (!pause || next.until > pause.until) pause = next;
  };
  if (facts.depositsUsed) {
    for (const period of PERIODS) {
      const limit = facts.depositLimits[period];
      if (limit !== null && facts.depositsUsed[period] >= limit) later({ reason: "DEPOSIT_LIMIT_REACHED", until: periodEnd(period, now) });
    }
  }
  const played = playTimeRefusal(facts.playLimitMinutes, facts.playedMs, now);
  if (played) later({ reason: "PLAY_TIME_LIMIT_REACHED", until: played.until });
  return pause;
}
