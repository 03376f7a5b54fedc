/** checkin_settings (0054): the owner's check-in and streak rules; the deposits a streak counts. */
import { DEFAULT_CHECKIN, type CheckinSettings } from "../core/checkin";

type Row = {
  checkin_enabled: number;
  checkin_amount_minor: number;
  checkin_turnover_multiple: string;
  streak_enabled: number;
  streak_days: number;
  streak_amount_minor: number;
  streak_turnover_multiple: string;
};

export async function readCheckinSettings(db: D1Database, agencyId: string): Promise<CheckinSettings> {
  const row = await db
    .prepare(
      `SELECT checkin_enabled, checkin_amount_minor, checkin_turnover_multiple, streak_enabled, streak_days, streak_amount_minor, streak_turnover_multiple
         FROM checkin_settings WHERE agency_id = ?1`,
    )
    .bind(agencyId)
    .first<Row>();
  if (!row) return DEFAULT_CHECKIN;
  return {
    checkinEnabled: row.checkin_enabled === 1,
    checkinAmountMinor: row.checkin_amount_minor,
    checkinMultiple: row.checkin_turnover_multiple,
    streakEnabled: row.streak_enabled === 1,
    streakDays: row.streak_days,
    streakAmountMinor: row.streak_amount_minor,
    streakMultiple: row.streak_turnover_multiple,
  };
}

export function upsertCheckinSettingsStatement(db: D1Database, agencyId: string, s: CheckinSettings, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO checkin_settings (agency_id, checkin_enabled, checkin_amount_minor, checkin_turnover_multiple, streak_enabled, streak_days, streak_amount_minor, streak_turnover_multiple, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
       ON CONFLICT (agency_id) DO UPDATE SET checkin_enabled = excluded.checkin_enabled, checkin_amount_minor = excluded.checkin_amount_minor,
         checkin_turnover_multiple = excluded.checkin_turnover_multiple, streak_enabled = excluded.streak_enabled, streak_days = excluded.streak_days,
         streak_amount_minor = excluded.streak_amount_minor, streak_turnover_multiple = excluded.streak_turnover_multiple, updated_at = excluded.updated_at`,
    )
    .bind(
      agencyId,
      s.checkinEnabled ? 1 : 0,
      s.checkinAmountMinor,
      s.checkinMultiple,
      s.streakEnabled ? 1 : 0,
      s.streakDays,
      s.streakAmountMinor,
      s.streakMultiple,
      now,
    );
}

/**
 * When the player's settled deposits since `fromIso` were paid (epoch ms), for the streak
 * rule: the index of decision 078 (deposit_orders_view_player_paid). Hand credits (MANUAL)
 * are not the player's deposits, as for the VIP levels (decision 091). A streak reads at most
 * 31 days; the LIMIT only bounds a player who deposits hundreds of times a day.
 */
export async function depositTimesSince(db: D1Database, agencyId: string, playerId: string, fromIso: string): Promise<number[]> {
  const { results } = await db
    .prepare(
      `SELECT paid_at FROM deposit_orders_view
        WHERE player_id = ?2 AND paid_at >= ?3 AND status = 'SUCCESS' AND channel_code IS NOT 'MANUAL' AND agency_id = ?1
        ORDER BY paid_at DESC LIMIT 2000`,
    )
    .bind(agencyId, playerId, fromIso)
    .all<{ paid_at: string }>();
  return results.map((r) => Date.parse(r.paid_at)).filter(Number.isFinite);
}
