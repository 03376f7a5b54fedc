/** vip_levels and vip_settings (migration 0051, decision 091): the owner's levels and their period. */
import { DEFAULT_PERIOD_DAYS, type VipLevel } from "../core/vip-levels";

type LevelRow = { name: string; threshold_minor: number; cashback_hundredths: number; cashback_cap_minor: number; withdraw_day_minor: number | null };

const toLevel = (r: LevelRow): VipLevel => ({
  name: r.name,
  thresholdMinor: BigInt(r.threshold_minor),
  cashbackHundredths: r.cashback_hundredths,
  cashbackCapMinor: BigInt(r.cashback_cap_minor),
  withdrawDayMinor: r.withdraw_day_minor === null ? null : BigInt(r.withdraw_day_minor),
});

/** The agency's levels, lowest threshold first, and the period they count deposits over. */
export async function readLevels(db: D1Database, agencyId: string): Promise<{ levels: VipLevel[]; periodDays: number }> {
  const [levels, settings] = await db.batch([
    db
      .prepare(
        `SELECT name, threshold_minor, cashback_hundredths, cashback_cap_minor, withdraw_day_minor FROM vip_levels WHERE agency_id = ?1 ORDER BY threshold_minor`,
      )
      .bind(agencyId),
    db.prepare(`SELECT period_days FROM vip_settings WHERE agency_id = ?1`).bind(agencyId),
  ]);
  const period = (settings!.results as { period_days: number }[])[0]?.period_days ?? DEFAULT_PERIOD_DAYS;
  return { levels: (levels!.results as LevelRow[]).map(toLevel), periodDays: period };
}

/** Adds a level or replaces the one of that name; fails (UNIQUE) when another level has the threshold. */
export function upsertLevelStatement(db: D1Database, agencyId: string, level: VipLevel, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO vip_levels (agency_id, name, threshold_minor, cashback_hundredths, cashback_cap_minor, withdraw_day_minor, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (agency_id, name) DO UPDATE SET threshold_minor = excluded.threshold_minor, cashback_hundredths = excluded.cashback_hundredths,
         cashback_cap_minor = excluded.cashback_cap_minor, withdraw_day_minor = excluded.withdraw_day_minor, updated_at = excluded.updated_at`,
    )
    .bind(
      agencyId,
      level.name,
      Number(level.thresholdMinor),
      level.cashbackHundredths,
      Number(level.cashbackCapMinor),
      level.withdrawDayMinor === null ? null : Number(level.withdrawDayMinor),
      now,
    );
}

export function deleteLevelStatement(db: D1Database, agencyId: string, name: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM vip_levels WHERE agency_id = ?1 AND name = ?2`).bind(agencyId, name);
}

export function upsertLevelPeriodStatement(db: D1Database, agencyId: string, periodDays: number, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO vip_settings (agency_id, period_days, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT (agency_id) DO UPDATE SET period_days = excluded.period_days, updated_at = excluded.updated_at`,
    )
    .bind(agencyId, periodDays, now);
}

/**
 * The kip a player paid for deposits credited since `fromIso` (what levels count): settled
 * (SUCCESS) orders a payment paid, read through deposit_orders_view_player_paid (0042).
 */
export async function depositedSince(db: D1Database, agencyId: string, playerId: string, fromIso: string): Promise<bigint> {
  const row = await db
    .prepare(
      `SELECT SUM(paid_minor) AS paid FROM deposit_orders_view
        WHERE player_id = ?2 AND paid_at >= ?3 AND status = 'SUCCESS' AND channel_code IS NOT 'MANUAL' AND agency_id = ?1`,
    )
    .bind(agencyId, playerId, fromIso)
    .first<{ paid: number | null }>();
  return BigInt(row?.paid ?? 0);
}
