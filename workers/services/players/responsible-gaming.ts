import { formatAmount, parseAmount } from "../../core/money";
import {
  breakEnd,
  changeLimit,
  DEPOSIT_LIMIT_OF,
  effectiveLimit,
  mayStartBreak,
  NO_LIMIT,
  periodEnd,
  PERIODS,
  type Break,
  type BreakKind,
  type LimitKind,
  type LimitSetting,
  type Period,
} from "../../core/responsible-gaming";
import { insertBreak, playerLimits, writeLimit } from "../../db/limits";
import { cancelDeposit } from "../deposits";
import { breakInForce, depositsUsed, offersPaused, playTimeLine, settingOf, walletOf, type Limits } from "../wallets";

/**
 * Responsible gaming (decision 025): the player's limits page, setting
 * limits, starting a break, and the staff's read-only view (the guards are limits-guard.ts). Limits and breaks live in D1; deposits are read from the
 * player's wallet (the only current account of them).
 */

type LimitView = { value: string | null; pending: { value: string | null; from: number } | null };

/** Deposit limits as kip strings ("500000.00"), play time as minutes ("90"); null: no limit. */
function viewOf(kind: LimitKind, setting: LimitSetting): LimitView {
  const show = (v: bigint | null) => (v === null ? null : kind === "play_day" ? v.toString() : formatAmount(v, "LAK"));
  return { value: show(setting.value), pending: setting.pending && { value: show(setting.pending.value), from: setting.pending.from } };
}

function limitsView(limits: Limits, now: number) {
  return {
    deposit: Object.fromEntries(PERIODS.map((p) => [p, viewOf(DEPOSIT_LIMIT_OF[p], settingOf(limits, DEPOSIT_LIMIT_OF[p], now))])) as Record<Period, LimitView>,
    playDay: viewOf("play_day", settingOf(limits, "play_day", now)),
  };
}

/** The player's page: limits (with pending raises), what each window has used and left, the break in force, time played. */
export async function limitsPage(env: Env, agencyId: string, playerId: string, now = Date.now()) {
  const [limits, held, used, line, offers] = await Promise.all([
    playerLimits(env.DB, agencyId, playerId),
    breakInForce(env.DB, agencyId, playerId, now),
    depositsUsed(env, agencyId, playerId, now),
    playTimeLine(env.DB, agencyId, playerId, now),
    offersPaused(env, agencyId, playerId, now),
  ]);
  const view = limitsView(limits, now);
  return {
    ...view,
    usage: Object.fromEntries(PERIODS.map((p) => [p, { used: formatAmount(used[p], "LAK"), resetsAt: periodEnd(p, now) }])) as Record<
      Period,
      { used: string; resetsAt: number }
    >,
    break: held,
    /** Whether offers are paused by the break or a limit, and until when (decision 091). */
    offersPaused: offers,
    ...line,
  };
}

export type LimitsInput = { day: string; week: string; month: string; playMinutes: string };
export type LimitsChange = { kind: LimitKind; applied: "now" | "pending" | "unchanged" };

/** Blank: no limit. Kip for deposits, minutes for play (the form's schema already checked the digits). */
function requested(kind: LimitKind, text: string): bigint | null {
  const t = text.trim();
  if (!t) return null;
  return kind === "play_day" ? BigInt(t) : parseAmount(t, "LAK");
}

/**
 * Saves the form: each limit lower or equal applies now, each raise (or removal) waits
 * 24 h. A concurrent change makes this one read again (at most 3 tries).
 */
export async function setLimits(db: D1Database, agencyId: string, playerId: string, input: LimitsInput, now = Date.now()): Promise<LimitsChange[]> {
  const asked: [LimitKind, string][] = [
    ["deposit_day", input.day],
    ["deposit_week", input.week],
    ["deposit_month", input.month],
    ["play_day", input.playMinutes],
  ];
  const changes: LimitsChange[] = [];
  for (const [kind, text] of asked) {
    const want = requested(kind, text);
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = (await playerLimits(db, agencyId, playerId))[kind];
      const before = effectiveLimit(stored ?? NO_LIMIT, now);
      const after = changeLimit(before, want, now);
      // the same raise asked again keeps its time (sending the form twice must not restart the wait)
      const unchanged = after.pending
        ? before.pending !== null && before.pending.value === after.pending.value
        : before.pending === null && before.value === after.value;
      if (unchanged) {
        changes.push({ kind, applied: "unchanged" });
        break;
      }
      if (await writeLimit(db, agencyId, playerId, kind, after, stored?.version ?? 0, now)) {
        changes.push({ kind, applied: after.pending ? "pending" : "now" });
        break;
      }
    }
  }
  return changes;
}

export type BreakInput = { kind: BreakKind; length: number };
export type BreakResult = { ok: true; break: Break; cancelledDeposit: string | null } | { ok: false; error: "BREAK_LENGTH" | "BREAK_SHORTER" };

/**
 * Starts a cooling-off or a self-exclusion. It may lengthen the break in force, never
 * shorten it. The player's OPEN deposit order is then cancelled through the wallet, as
 * the player's own cancel does (a payment that still arrives goes to staff as late), and so
 * is a promotion claimed and not yet in use.
 */
export async function startBreak(env: Env, agencyId: string, playerId: string, input: BreakInput, now = Date.now()): Promise<BreakResult> {
  const endsAt = breakEnd(input.kind, input.length, now);
  if (endsAt === null) return { ok: false, error: "BREAK_LENGTH" };
  if (!mayStartBreak(await breakInForce(env.DB, agencyId, playerId, now), endsAt)) return { ok: false, error: "BREAK_SHORTER" };
  const brk: Break = { kind: input.kind, startsAt: now, endsAt };
  if (!(await insertBreak(env.DB, agencyId, playerId, brk, now))) return { ok: false, error: "BREAK_SHORTER" };
  const wallet = walletOf(env, agencyId, playerId);
  const open = await wallet.openDepositOrder(now);
  if (open) await cancelDeposit(env, agencyId, playerId, open.code);
  // a promotion claimed but not yet carried by a deposit is an offer waiting: it goes with the
  // break rather than waiting to pay a bonus on the first deposit after it (decision 091)
  const usage = await wallet.activeUsage(now);
  if (usage?.status === "CLAIMED") await wallet.cancelPromotion(usage.id, now);
  return { ok: true, break: brk, cancelledDeposit: open?.code ?? null };
}

/** The back office's read-only view (staff cannot change or shorten anything here). */
export async function staffLimitsView(db: D1Database, agencyId: string, playerId: string, now = Date.now()) {
  const [limits, held] = await Promise.all([playerLimits(db, agencyId, playerId), breakInForce(db, agencyId, playerId, now)]);
  return { ...limitsView(limits, now), break: held };
}
