/**
 * Referral tables (migration 0027, decision 030): codes, ties, the owner's settings and the
 * weekly claims; plus the reads the rules need from other tables (fingerprints, bank accounts
 * now and before, settled deposits). Every statement is scoped by agency.
 */
import type { BankKey, NotCountingReason, ReferralFlag, ReferralMode, ReferralSettings } from "../core/referral";
import { DEFAULT_REFERRAL_SETTINGS } from "../core/referral";
import { exactNumber } from "./provider-stats";

// ---- Codes ---------------------------------------------------------------------------

export async function findReferralCode(db: D1Database, agencyId: string, playerId: string): Promise<string | null> {
  const row = await db.prepare(`SELECT code FROM referral_codes WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId).first<{ code: string }>();
  return row?.code ?? null;
}

/**
 * Inserts the code unless the player has one, and reads back the player's code (this one, or
 * the one a concurrent request inserted) in the same batch; throws on the code's unique index
 * (a collision: retry).
 */
export async function insertReferralCode(db: D1Database, agencyId: string, playerId: string, code: string): Promise<string | null> {
  const [, read] = await db.batch<{ code: string }>([
    db
      .prepare(`INSERT INTO referral_codes (agency_id, player_id, code) VALUES (?1, ?2, ?3) ON CONFLICT (agency_id, player_id) DO NOTHING`)
      .bind(agencyId, playerId, code),
    db.prepare(`SELECT code FROM referral_codes WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId),
  ]);
  return read?.results[0]?.code ?? null;
}

/** The player holding a code, with their name (for "invited by") and phone (the tie's check, decision 049), or null. */
export async function findCodeHolder(db: D1Database, agencyId: string, code: string): Promise<{ playerId: string; displayName: string; phone: string } | null> {
  const row = await db
    .prepare(
      `SELECT c.player_id, p.display_name, p.phone FROM referral_codes c JOIN players p ON p.id = c.player_id AND p.agency_id = c.agency_id WHERE c.agency_id = ?1 AND c.code = ?2`,
    )
    .bind(agencyId, code)
    .first<{ player_id: string; display_name: string; phone: string }>();
  return row ? { playerId: row.player_id, displayName: row.display_name, phone: row.phone } : null;
}

// ---- Ties ----------------------------------------------------------------------------

export type ReferralRecord = {
  referredPlayerId: string;
  referrerPlayerId: string;
  username: string;
  displayName: string;
  counts: boolean;
  reason: NotCountingReason | null;
  reasonAt: string | null;
  createdAt: string;
  /** A hint for staff only (decision 049); the referral counts or not by `counts` alone. */
  flag: ReferralFlag | null;
};

/** Ties once: a second tie of the same player changes nothing (returns false). */
export async function insertReferral(
  db: D1Database,
  input: {
    agencyId: string;
    referredPlayerId: string;
    referrerPlayerId: string;
    code: string;
    fingerprint: string | null;
    counts: boolean;
    reason: NotCountingReason | null;
    flag: ReferralFlag | null;
  },
): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO referrals (agency_id, referred_player_id, referrer_player_id, code, registration_fingerprint, counts, reason, reason_at, flag)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CASE WHEN ?7 IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END, ?8)
       ON CONFLICT (agency_id, referred_player_id) DO NOTHING`,
    )
    .bind(input.agencyId, input.referredPlayerId, input.referrerPlayerId, input.code, input.fingerprint, input.counts ? 1 : 0, input.reason, input.flag)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

type ReferralRow = {
  referred_player_id: string;
  referrer_player_id: string;
  username: string;
  display_name: string;
  counts: number;
  reason: NotCountingReason | null;
  reason_at: string | null;
  created_at: string;
  flag: ReferralFlag | null;
};
const toReferral = (r: ReferralRow): ReferralRecord => ({
  referredPlayerId: r.referred_player_id,
  referrerPlayerId: r.referrer_player_id,
  username: r.username,
  displayName: r.display_name,
  counts: r.counts === 1,
  reason: r.reason,
  reasonAt: r.reason_at,
  createdAt: r.created_at,
  flag: r.flag,
});

/** A referrer's referred players, newest first (`referrerId` null: every referral of the agency). */
export async function listReferrals(db: D1Database, agencyId: string, referrerId: string | null): Promise<ReferralRecord[]> {
  const { results } = await db
    .prepare(
      `SELECT r.referred_player_id, r.referrer_player_id, p.username, p.display_name, r.counts, r.reason, r.reason_at, r.created_at, r.flag
         FROM referrals r JOIN players p ON p.id = r.referred_player_id AND p.agency_id = r.agency_id
        WHERE r.agency_id = ?1 AND (?2 IS NULL OR r.referrer_player_id = ?2)
        ORDER BY r.created_at DESC, r.referred_player_id`,
    )
    .bind(agencyId, referrerId)
    .all<ReferralRow>();
  return results.map(toReferral);
}

/** Stops a referral counting, once: the first reason found is the one kept. */
export function stopCountingStatement(db: D1Database, agencyId: string, referredPlayerId: string, reason: NotCountingReason): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE referrals SET counts = 0, reason = ?3, reason_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE agency_id = ?1 AND referred_player_id = ?2 AND counts = 1`,
    )
    .bind(agencyId, referredPlayerId, reason);
}

// ---- What the rules compare -------------------------------------------------------------

/** Every device fingerprint seen on each of these players' accounts. */
export async function fingerprintsOf(db: D1Database, agencyId: string, playerIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (playerIds.length === 0) return out;
  const { results } = await db
    .prepare(`SELECT player_id, fingerprint FROM fingerprints WHERE agency_id = ?1 AND player_id IN (SELECT value FROM json_each(?2))`)
    .bind(agencyId, JSON.stringify(playerIds))
    .all<{ player_id: string; fingerprint: string }>();
  for (const r of results) (out.get(r.player_id) ?? out.set(r.player_id, []).get(r.player_id)!).push(r.fingerprint);
  return out;
}

/** The IP addresses the player's current sessions came from (the registration flag, decision 049). */
export async function sessionIpsOf(db: D1Database, agencyId: string, playerId: string): Promise<string[]> {
  const { results } = await db
    .prepare(`SELECT DISTINCT ip FROM sessions WHERE agency_id = ?1 AND player_id = ?2 AND ip IS NOT NULL`)
    .bind(agencyId, playerId)
    .all<{ ip: string }>();
  return results.map((r) => r.ip);
}

/**
 * Every bank account each of these players holds or held, with its holder's name: the current
 * one, and the ones a replacement took away (the audit row of each replacement keeps the
 * account before it, decision 013; the audit log is append-only, so nothing is forgotten).
 */
export async function banksOf(db: D1Database, agencyId: string, playerIds: string[]): Promise<Map<string, BankKey[]>> {
  const out = new Map<string, BankKey[]>();
  if (playerIds.length === 0) return out;
  const ids = JSON.stringify(playerIds);
  const { results } = await db
    .prepare(
      `SELECT player_id, bank_code, account_number, account_name FROM bank_accounts WHERE agency_id = ?1 AND player_id IN (SELECT value FROM json_each(?2))
       UNION
       SELECT target, json_extract(before_json, '$.bankCode'), json_extract(before_json, '$.accountNumber'), json_extract(before_json, '$.accountName') FROM audit_log
        WHERE agency_id = ?1 AND action = 'player.bank-replace' AND target IN (SELECT value FROM json_each(?2)) AND before_json IS NOT NULL`,
    )
    .bind(agencyId, ids)
    .all<{ player_id: string; bank_code: string | null; account_number: string | null; account_name: string | null }>();
  for (const r of results) {
    if (!r.bank_code || !r.account_number) continue;
    (out.get(r.player_id) ?? out.set(r.player_id, []).get(r.player_id)!).push({
      bankCode: r.bank_code,
      accountNumber: r.account_number,
      accountName: r.account_name,
    });
  }
  return out;
}

/** Settled deposits (credit minor, bonus excluded) per player, paid inside [fromIso, toIso). */
export async function sumSettledDeposits(db: D1Database, agencyId: string, fromIso: string, toIso: string, playerIds: string[]): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  if (playerIds.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT player_id, SUM(credit_minor) AS credit FROM deposit_orders_view
        WHERE agency_id = ?1 AND status = 'SUCCESS' AND paid_at >= ?2 AND paid_at < ?3 AND player_id IN (SELECT value FROM json_each(?4))
        GROUP BY player_id`,
    )
    .bind(agencyId, fromIso, toIso, JSON.stringify(playerIds))
    .all<{ player_id: string; credit: number | null }>();
  for (const r of results) out.set(r.player_id, BigInt(r.credit ?? 0));
  return out;
}

/**
 * Credit withdrawn per player, requested inside [fromIso, toIso) (decision 049): a withdrawal
 * took the credit from the provider unless it FAILED (the provider never gave it) or was
 * REJECTED (staff refused it and the credit went back); PENDING (the provider's answer not
 * known yet) counts as taken, so a share is never paid on credit that may have left.
 */
export async function sumWithdrawnCredit(db: D1Database, agencyId: string, fromIso: string, toIso: string, playerIds: string[]): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  if (playerIds.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT player_id, SUM(credit_minor) AS credit FROM withdraw_orders_view
        WHERE agency_id = ?1 AND status IN ('PENDING', 'OPEN', 'SUCCESS') AND created_at >= ?2 AND created_at < ?3 AND player_id IN (SELECT value FROM json_each(?4))
        GROUP BY player_id`,
    )
    .bind(agencyId, fromIso, toIso, JSON.stringify(playerIds))
    .all<{ player_id: string; credit: number | null }>();
  for (const r of results) out.set(r.player_id, BigInt(r.credit ?? 0));
  return out;
}

// ---- Settings --------------------------------------------------------------------------

type SettingsRow = { enabled: number; mode: ReferralMode; percent_bp: number; weekly_cap_minor: number; turnover_multiplier: number };

export async function readReferralSettings(db: D1Database, agencyId: string): Promise<ReferralSettings> {
  const row = await db
    .prepare(`SELECT enabled, mode, percent_bp, weekly_cap_minor, turnover_multiplier FROM referral_settings WHERE agency_id = ?1`)
    .bind(agencyId)
    .first<SettingsRow>();
  if (!row) return DEFAULT_REFERRAL_SETTINGS;
  return {
    enabled: row.enabled === 1,
    mode: row.mode,
    percentBp: row.percent_bp,
    weeklyCapMinor: BigInt(row.weekly_cap_minor),
    turnoverMultiplier: row.turnover_multiplier,
  };
}

export function upsertReferralSettingsStatement(db: D1Database, agencyId: string, s: ReferralSettings): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO referral_settings (agency_id, enabled, mode, percent_bp, weekly_cap_minor, turnover_multiplier) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (agency_id) DO UPDATE SET enabled = excluded.enabled, mode = excluded.mode, percent_bp = excluded.percent_bp,
         weekly_cap_minor = excluded.weekly_cap_minor, turnover_multiplier = excluded.turnover_multiplier, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(agencyId, s.enabled ? 1 : 0, s.mode, s.percentBp, exactNumber(s.weeklyCapMinor), s.turnoverMultiplier);
}

// ---- Claims ----------------------------------------------------------------------------

export type ClaimStatus = "PENDING" | "CREDITED";

export type ReferralClaim = {
  referrerPlayerId: string;
  weekStart: string;
  provider: string;
  mode: ReferralMode;
  percentBp: number;
  turnoverMultiplier: number;
  referredCount: number;
  basisMinor: bigint;
  amountMinor: bigint;
  capped: boolean;
  status: ClaimStatus;
  createdAt: string;
  creditedAt: string | null;
};

type ClaimRow = {
  referrer_player_id: string;
  week_start: string;
  provider: string;
  mode: ReferralMode;
  percent_bp: number;
  turnover_multiplier: number;
  referred_count: number;
  basis_minor: number;
  amount_minor: number;
  capped: number;
  status: ClaimStatus;
  created_at: string;
  credited_at: string | null;
};

const toClaim = (r: ClaimRow): ReferralClaim => ({
  referrerPlayerId: r.referrer_player_id,
  weekStart: r.week_start,
  provider: r.provider,
  mode: r.mode,
  percentBp: r.percent_bp,
  turnoverMultiplier: r.turnover_multiplier,
  referredCount: r.referred_count,
  basisMinor: BigInt(r.basis_minor),
  amountMinor: BigInt(r.amount_minor),
  capped: r.capped === 1,
  status: r.status,
  createdAt: r.created_at,
  creditedAt: r.credited_at,
});

/** The claim row, once per referrer and week: false when another post got there first. */
export async function insertReferralClaim(
  db: D1Database,
  agencyId: string,
  claim: Omit<ReferralClaim, "status" | "createdAt" | "creditedAt">,
): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO referral_claims (agency_id, referrer_player_id, week_start, provider, mode, percent_bp, turnover_multiplier, referred_count, basis_minor, amount_minor, capped)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) ON CONFLICT (agency_id, referrer_player_id, week_start) DO NOTHING`,
    )
    .bind(
      agencyId,
      claim.referrerPlayerId,
      claim.weekStart,
      claim.provider,
      claim.mode,
      claim.percentBp,
      claim.turnoverMultiplier,
      claim.referredCount,
      exactNumber(claim.basisMinor),
      exactNumber(claim.amountMinor),
      claim.capped ? 1 : 0,
    )
    .run();
  return (result.meta.changes ?? 0) > 0;
}

export async function findReferralClaim(db: D1Database, agencyId: string, referrerId: string, weekStart: string): Promise<ReferralClaim | null> {
  const row = await db
    .prepare(`SELECT * FROM referral_claims WHERE agency_id = ?1 AND referrer_player_id = ?2 AND week_start = ?3`)
    .bind(agencyId, referrerId, weekStart)
    .first<ClaimRow>();
  return row ? toClaim(row) : null;
}

/** The wallet credited a PENDING claim at the provider. */
export async function settleClaim(db: D1Database, agencyId: string, referrerId: string, weekStart: string): Promise<void> {
  await db
    .prepare(
      `UPDATE referral_claims SET status = 'CREDITED', credited_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE agency_id = ?1 AND referrer_player_id = ?2 AND week_start = ?3 AND status = 'PENDING'`,
    )
    .bind(agencyId, referrerId, weekStart)
    .run();
}

/** Claims, newest week first (`referrerId` null: the agency's). */
export async function listReferralClaims(db: D1Database, agencyId: string, referrerId: string | null, limit = 200): Promise<ReferralClaim[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM referral_claims WHERE agency_id = ?1 AND (?2 IS NULL OR referrer_player_id = ?2) ORDER BY week_start DESC, created_at DESC LIMIT ?3`,
    )
    .bind(agencyId, referrerId, limit)
    .all<ClaimRow>();
  return results.map(toClaim);
}

/** Usernames of the agency's players by id (the back-office report's referrer column). */
export async function playerNames(db: D1Database, agencyId: string, playerIds: string[]): Promise<Map<string, { username: string; displayName: string }>> {
  const out = new Map<string, { username: string; displayName: string }>();
  if (playerIds.length === 0) return out;
  const { results } = await db
    .prepare(`SELECT id, username, display_name FROM players WHERE agency_id = ?1 AND id IN (SELECT value FROM json_each(?2))`)
    .bind(agencyId, JSON.stringify(playerIds))
    .all<{ id: string; username: string; display_name: string }>();
  for (const r of results) out.set(r.id, { username: r.username, displayName: r.display_name });
  return out;
}
