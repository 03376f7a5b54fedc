/** cashback_settings (0026): the owner's cashback rules, one row per agency. */
import { DEFAULT_CASHBACK, type CashbackSettings } from "../core/cashback";

type Row = { enabled: number; percent_hundredths: number; cap_minor: number; min_minor: number; turnover_multiple: string; combinable: number };

export async function readCashbackSettings(db: D1Database, agencyId: string): Promise<CashbackSettings> {
  const row = await db
    .prepare(`SELECT enabled, percent_hundredths, cap_minor, min_minor, turnover_multiple, combinable FROM cashback_settings WHERE agency_id = ?1`)
    .bind(agencyId)
    .first<Row>();
  if (!row) return DEFAULT_CASHBACK;
  return {
    enabled: row.enabled === 1,
    percentHundredths: row.percent_hundredths,
    capMinor: row.cap_minor,
    minMinor: row.min_minor,
    turnoverMultiple: row.turnover_multiple,
    combinable: row.combinable === 1,
  };
}

export function upsertCashbackSettingsStatement(db: D1Database, agencyId: string, s: CashbackSettings): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO cashback_settings (agency_id, enabled, percent_hundredths, cap_minor, min_minor, turnover_multiple, combinable, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
       ON CONFLICT (agency_id) DO UPDATE SET enabled = excluded.enabled, percent_hundredths = excluded.percent_hundredths, cap_minor = excluded.cap_minor,
         min_minor = excluded.min_minor, turnover_multiple = excluded.turnover_multiple, combinable = excluded.combinable, updated_at = excluded.updated_at`,
    )
    .bind(agencyId, s.enabled ? 1 : 0, s.percentHundredths, s.capMinor, s.minMinor, s.turnoverMultiple, s.combinable ? 1 : 0, new Date().toISOString());
}
