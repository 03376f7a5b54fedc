import {
  DEPOSIT_LIMIT_OF,
  depositUsage,
  effectiveLimit,
  NO_LIMIT,
  offerPause,
  periodStart,
  PERIODS,
  playedFromSpans,
  usageFrom,
  type OfferPause,
  type Period,
} from "../core/responsible-gaming";
import { PLAYER_SESSION } from "../core/session";
import { currentBreaksRead, playerLimitsRead } from "../db/limits";
import { playSpansRead } from "../db/play-spans";
import { readTogether } from "../db/reads";
import type { WalletContext } from "./context";

/**
 * The facts of the offers rule (decision 091), gathered where they live: breaks, limits and
 * play spans from D1 in one batch, the deposit windows from this wallet's own orders (the only
 * current account of them). Here rather than in a service because the wallet's alarm, which
 * has no service to ask, credits rewards too; the services ask the wallet (offerPause RPC).
 */
export async function offerPauseOf(w: WalletContext, agencyId: string, playerId: string, now: number): Promise<OfferPause | null> {
  const db = w.env.DB;
  const [breaks, limits, spans] = await readTogether(db, [
    currentBreaksRead(db, agencyId, playerId, now),
    playerLimitsRead(db, agencyId, playerId),
    playSpansRead(db, agencyId, playerId, periodStart("day", now)),
  ]);
  const value = (kind: keyof typeof limits) => effectiveLimit(limits[kind] ?? NO_LIMIT, now).value;
  const depositLimits = Object.fromEntries(PERIODS.map((p) => [p, value(DEPOSIT_LIMIT_OF[p])])) as Record<Period, bigint | null>;
  // the wallet's orders are read only when a window has a limit to measure against
  const depositsUsed = PERIODS.some((p) => depositLimits[p] !== null)
    ? depositUsage(
        w.store.depositsCreatedSince(usageFrom(now)).map((o) => ({ amountMinor: o.amount_minor, status: o.status, createdAt: o.created_at })),
        now,
      )
    : null;
  return offerPause(
    { breaks, depositLimits, playLimitMinutes: value("play_day"), depositsUsed, playedMs: playedFromSpans(spans, PLAYER_SESSION.idleMs, now) },
    now,
  );
}
