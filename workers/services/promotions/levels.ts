import { formatPercent, parsePercent } from "../../core/cashback";
import { formatAmount, parseAmount } from "../../core/money";
import { cleanName } from "../../core/names";
import type { OfferPause } from "../../core/responsible-gaming";
import { LEVELS_MAX, levelPeriodFrom, levelStanding, PERIOD_DAYS_MAX, type VipLevel } from "../../core/vip-levels";
import { auditStatement, type AuditActor } from "../../db/audit";
import { deleteLevelStatement, depositedSince, readLevels, upsertLevelPeriodStatement, upsertLevelStatement } from "../../db/vip-levels";
import { offersPaused } from "../wallets";

/**
 * VIP levels (decision 091): the owner's levels by deposits in a period, the player's level
 * and the way to the next. A level's cashback terms are used by cashback.ts, its daily
 * withdrawal limit by the withdraw steps (withdrawals/withdraw.ts, through playerLevel).
 */

/** A level as pages show it: amounts as decimal strings (kip for the threshold, credit otherwise). */
type LevelView = { name: string; threshold: string; cashbackPercent: string; cashbackCap: string; withdrawDay: string | null };

const view = (l: VipLevel): LevelView => ({
  name: l.name,
  threshold: formatAmount(l.thresholdMinor, "LAK"),
  cashbackPercent: formatPercent(l.cashbackHundredths),
  cashbackCap: formatAmount(l.cashbackCapMinor, "THB"),
  withdrawDay: l.withdrawDayMinor === null ? null : formatAmount(l.withdrawDayMinor, "THB"),
});

/** The player's level now: what they deposited in the period and where it puts them. */
export async function playerLevel(db: D1Database, agencyId: string, playerId: string, now = Date.now()) {
  const { levels, periodDays } = await readLevels(db, agencyId);
  if (levels.length === 0) return { periodDays, depositedMinor: 0n, level: null, next: null, levels };
  const depositedMinor = await depositedSince(db, agencyId, playerId, new Date(levelPeriodFrom(periodDays, now)).toISOString());
  return { periodDays, depositedMinor, ...levelStanding(levels, depositedMinor), levels };
}

export type LevelPage =
  | { paused: OfferPause; configured: boolean }
  | {
      paused: null;
      configured: boolean;
      periodDays: number;
      deposited: string;
      level: LevelView | null;
      next: { level: LevelView; remaining: string } | null;
      levels: LevelView[];
    };

/**
 * The player's level page. While offers are paused (a break or a limit) it shows neither the
 * level's perks nor the way to the next: "deposit this much more" is the lure a player who
 * asked to be stopped must not see.
 */
export async function levelPage(env: Env, agencyId: string, playerId: string, now = Date.now()): Promise<LevelPage> {
  const [standing, paused] = await Promise.all([playerLevel(env.DB, agencyId, playerId, now), offersPaused(env, agencyId, playerId, now)]);
  const configured = standing.levels.length > 0;
  if (paused) return { paused, configured };
  return {
    paused: null,
    configured,
    periodDays: standing.periodDays,
    deposited: formatAmount(standing.depositedMinor, "LAK"),
    level: standing.level && view(standing.level),
    next: standing.next && { level: view(standing.next.level), remaining: formatAmount(standing.next.remainingMinor, "LAK") },
    levels: standing.levels.map(view),
  };
}

// ---- the owner ----

export async function levelsAdminPage(db: D1Database, agencyId: string) {
  const { levels, periodDays } = await readLevels(db, agencyId);
  return { periodDays, levels: levels.map(view) };
}

export type LevelInput = { name: string; threshold: string; cashbackPercent: string; cashbackCap: string; withdrawDay: string };
export type LevelError = { ok: false; code: "NAME_INVALID" | "AMOUNT_INVALID" | "PERCENT_INVALID" | "THRESHOLD_TAKEN" | "TOO_MANY"; field: keyof LevelInput };

/** Adds a level, or replaces the one of the same name; audited (`levels.save`). */
export async function saveLevel(db: D1Database, actor: AuditActor, input: LevelInput, now = Date.now()): Promise<{ ok: true } | LevelError> {
  const name = cleanName(input.name);
  if (!name.ok || name.value.length === 0 || name.value.length > 40) return { ok: false, code: "NAME_INVALID", field: "name" };
  const threshold = parseAmount(input.threshold, "LAK");
  if (threshold === null || threshold < 0n) return { ok: false, code: "AMOUNT_INVALID", field: "threshold" };
  const percent = parsePercent(input.cashbackPercent);
  if (percent === null) return { ok: false, code: "PERCENT_INVALID", field: "cashbackPercent" };
  const cap = parseAmount(input.cashbackCap, "THB");
  if (cap === null || cap < 0n) return { ok: false, code: "AMOUNT_INVALID", field: "cashbackCap" };
  const day = input.withdrawDay.trim() === "" ? null : parseAmount(input.withdrawDay, "THB");
  if (day !== null && day <= 0n) return { ok: false, code: "AMOUNT_INVALID", field: "withdrawDay" };
  if (input.withdrawDay.trim() !== "" && day === null) return { ok: false, code: "AMOUNT_INVALID", field: "withdrawDay" };
  const level: VipLevel = { name: name.value, thresholdMinor: threshold, cashbackHundredths: percent, cashbackCapMinor: cap, withdrawDayMinor: day };
  const { levels } = await readLevels(db, actor.agencyId);
  const before = levels.find((l) => l.name === level.name) ?? null;
  if (levels.some((l) => l.name !== level.name && l.thresholdMinor === level.thresholdMinor)) return { ok: false, code: "THRESHOLD_TAKEN", field: "threshold" };
  if (!before && levels.length >= LEVELS_MAX) return { ok: false, code: "TOO_MANY", field: "name" };
  try {
    await db.batch([
      upsertLevelStatement(db, actor.agencyId, level, now),
      auditStatement(db, actor, { action: "levels.save", target: level.name, before: before && view(before), after: view(level) }),
    ]);
  } catch (error) {
    // two owners saving two levels at one threshold at once: the UNIQUE index decides
    if (String(error).includes("UNIQUE")) return { ok: false, code: "THRESHOLD_TAKEN", field: "threshold" };
    throw error;
  }
  return { ok: true };
}

/** Removes a level, audited (`levels.delete`); a name not found changes nothing. */
export async function deleteLevel(db: D1Database, actor: AuditActor, name: string): Promise<{ ok: boolean }> {
  const { levels } = await readLevels(db, actor.agencyId);
  const before = levels.find((l) => l.name === name);
  if (!before) return { ok: false };
  await db.batch([
    deleteLevelStatement(db, actor.agencyId, name),
    auditStatement(db, actor, { action: "levels.delete", target: name, before: view(before), after: null }),
  ]);
  return { ok: true };
}

/** The period deposits are counted over (1 to 365 days), audited (`levels.period`). */
export async function saveLevelPeriod(db: D1Database, actor: AuditActor, periodDays: number, now = Date.now()): Promise<{ ok: boolean }> {
  if (!Number.isInteger(periodDays) || periodDays < 1 || periodDays > PERIOD_DAYS_MAX) return { ok: false };
  const { periodDays: before } = await readLevels(db, actor.agencyId);
  await db.batch([
    upsertLevelPeriodStatement(db, actor.agencyId, periodDays, now),
    auditStatement(db, actor, { action: "levels.period", target: null, before: { periodDays: before }, after: { periodDays } }),
  ]);
  return { ok: true };
}
