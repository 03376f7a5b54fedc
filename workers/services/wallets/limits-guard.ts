import { parseAmount } from "../../core/money";
import {
  activeBreak,
  breakRefusal,
  DEPOSIT_LIMIT_OF,
  depositAllowance,
  depositRefusal,
  depositUsage,
  effectiveLimit,
  NO_LIMIT,
  periodStart,
  PERIODS,
  playedFromSpans,
  playTimeRefusal,
  usageFrom,
  type Break,
  type LimitKind,
  type LimitSetting,
  type OfferPause,
  type Period,
  type Refusal,
} from "../../core/responsible-gaming";
import { PLAYER_SESSION } from "../../core/session";
import { currentBreaks, currentBreaksRead, playerLimitsRead, type StoredLimit } from "../../db/limits";
import { playSpansRead, type PlaySpan } from "../../db/play-spans";
import { readTogether } from "../../db/reads";
import { walletOf } from "./wallet";

/**
 * The responsible-gaming guards (decision 025) the deposit and game-launch services call
 * first, and the time played every page shows. Apart from responsible-gaming.ts, which
 * cancels deposits through deposit.ts: deposit.ts calls this file, so no import cycle.
 */

export type Limits = Partial<Record<LimitKind, StoredLimit>>;
export const settingOf = (limits: Limits, kind: LimitKind, now: number): LimitSetting => effectiveLimit(limits[kind] ?? NO_LIMIT, now);

export async function breakInForce(db: D1Database, agencyId: string, playerId: string, now: number): Promise<Break | null> {
  return activeBreak(await currentBreaks(db, agencyId, playerId, now), now);
}

/** The deposits of the current day, week and month windows, summed from the wallet's orders (newest first, paged). */
export async function depositsUsed(env: Env, agencyId: string, playerId: string, now: number): Promise<Record<Period, bigint>> {
  const wallet = walletOf(env, agencyId, playerId);
  const from = usageFrom(now);
  const orders: { amountMinor: bigint; status: string; createdAt: number }[] = [];
  for (let page = 1; ; page++) {
    const { items } = await wallet.listDeposits(page, 100);
    for (const o of items) if (o.createdAt >= from) orders.push({ amountMinor: parseAmount(o.amount, "LAK") ?? 0n, status: o.status, createdAt: o.createdAt });
    if (items.length < 100 || items[items.length - 1].createdAt < from) break;
  }
  return depositUsage(orders, now);
}

/** What the deposit guard reads from D1: sent by the deposit service with its own reads, in one batch. */
export function depositGuardReads(db: D1Database, agencyId: string, playerId: string, now: number) {
  return [currentBreaksRead(db, agencyId, playerId, now), playerLimitsRead(db, agencyId, playerId)] as const;
}

/** The breaks in force and the limits, as depositGuardReads read them. */
type DepositGuardFacts = { breaks: Break[]; limits: Limits };

/**
 * The deposit service's first step: null lets the deposit go on. A break refuses every new
 * order; a deposit limit refuses an amount above what is left. With an order already OPEN no
 * new one can be created (the wallet keeps one at a time), so the limit is not judged then
 * and a repeated post still finds its order. The refusal is CANNOT_DEPOSIT (docs/product.md §8) with the
 * reason beside it for the page. `facts`: the breaks and limits already read (depositGuardReads).
 */
export async function depositLimitGuard(
  env: Env,
  agencyId: string,
  playerId: string,
  amountMinor: bigint,
  facts: DepositGuardFacts,
  now = Date.now(),
): Promise<{ ok: false; error: "CANNOT_DEPOSIT"; limit: Refusal } | null> {
  const refusal = await depositRefusalFor(env, agencyId, playerId, amountMinor, facts, now);
  return refusal ? { ok: false, error: "CANNOT_DEPOSIT", limit: refusal } : null;
}

async function depositRefusalFor(
  env: Env,
  agencyId: string,
  playerId: string,
  amountMinor: bigint,
  { breaks, limits }: DepositGuardFacts,
  now: number,
): Promise<Refusal | null> {
  const held = breakRefusal(activeBreak(breaks, now));
  if (held) return held;
  const values = Object.fromEntries(PERIODS.map((p) => [p, settingOf(limits, DEPOSIT_LIMIT_OF[p], now).value])) as Record<Period, bigint | null>;
  if (PERIODS.every((p) => values[p] === null)) return null;
  if (await walletOf(env, agencyId, playerId).openDepositOrder(now)) return null;
  return depositRefusal(depositAllowance(values, await depositsUsed(env, agencyId, playerId, now)), amountMinor, now);
}

/** Today's time played (ms): the union of the player's sessions today, ended ones included; a live one counts up to now. */
const playedMs = (spans: readonly PlaySpan[], now: number) => playedFromSpans(spans, PLAYER_SESSION.idleMs, now);

/** The game-launch service's first step: a break, or today's play time at its limit, refuses a new launch. One round trip to D1. */
export async function gameLaunchGuard(
  db: D1Database,
  agencyId: string,
  playerId: string,
  now = Date.now(),
): Promise<{ ok: false; error: "RESPONSIBLE_GAMING"; limit: Refusal } | null> {
  const [breaks, limits, spans] = await readTogether(db, [
    currentBreaksRead(db, agencyId, playerId, now),
    playerLimitsRead(db, agencyId, playerId),
    playSpansRead(db, agencyId, playerId, periodStart("day", now)),
  ]);
  const refusal = breakRefusal(activeBreak(breaks, now)) ?? playTimeRefusal(settingOf(limits, "play_day", now).value, playedMs(spans, now), now);
  return refusal ? { ok: false, error: "RESPONSIBLE_GAMING", limit: refusal } : null;
}

/** The line every page shows a logged-in player: time played today, and the day's limit (minutes) if set. One round trip to D1. */
export async function playTimeLine(
  db: D1Database,
  agencyId: string,
  playerId: string,
  now = Date.now(),
): Promise<{ playedMs: number; limitMinutes: number | null }> {
  const [spans, limits] = await readTogether(db, [playSpansRead(db, agencyId, playerId, periodStart("day", now)), playerLimitsRead(db, agencyId, playerId)]);
  const limit = settingOf(limits, "play_day", now).value;
  return { playedMs: playedMs(spans, now), limitMinutes: limit === null ? null : Number(limit) };
}

/**
 * May this player be offered anything now, and if not why (decision 091): the one rule of
 * workers/core, judged by the player's wallet (which holds the deposits the limits count and
 * credits every reward, its alarm included). Asked by every page and claim that shows or pays
 * an offer.
 */
export function offersPaused(env: Env, agencyId: string, playerId: string, now = Date.now()): Promise<OfferPause | null> {
  return walletOf(env, agencyId, playerId).offerPause(agencyId, playerId, now);
}
