import type { BoundedCount, ListAsk, ListPage } from "../../core/keyset";
import { PLAYER_SESSION, sessionState } from "../../core/session";
import { auditIfChanged, auditStatement, type AuditActor } from "../../db/audit";
import { latestPlayerDeposits, latestPlayerPromotionUsages, latestPlayerWithdrawals } from "../../db/orders";
import {
  countPlayerSessions,
  deletePlayerSessionsStatement,
  findPlayerWithAccount,
  fingerprintSharing,
  listPlayerFingerprints,
  listPlayerSessions,
  lockPlayerStatement,
  resetPlayerPasswordStatement,
  searchPlayersWithAccount,
  unlockPlayerStatement,
  type PlayerRecord,
} from "../../db/players";
import { listBankAccounts, type BankAccount } from "./bank";
import { clearThrottle, hashPassword } from "../login";
import { staffLimitsView } from "./responsible-gaming";
import { blocklistFlagsOf, type BlocklistFlag } from "./blocklist";
import { linkedAccounts, type LinkedAccounts } from "./linked-accounts";
import { playerHoldsForStaff, type HoldView } from "../holds";

/**
 * Back office, players (decision 008): search, the whole picture of one player, and the
 * account actions staff take (lock/unlock, end sessions, reset password). Every query is
 * scoped by agency_id: a player id of another agency is "not found". Each action is one D1
 * batch with its audit account; the audit account is written only if the guarded change happened.
 */

export type PlayerSummary = {
  id: string;
  username: string;
  displayName: string;
  phone: string;
  status: "ACTIVE" | "SUSPENDED";
  mustChangePassword: boolean;
  createdAt: string;
  lastLoginAt: string | null;
  bankAccountNumber: string | null;
  /** An owner's "flag" blocklist entry matched the player (decision 090). */
  blocklistFlagged: boolean;
};

const toSummary = (player: PlayerRecord): PlayerSummary => ({
  id: player.id,
  username: player.username,
  displayName: player.displayName,
  phone: player.phone,
  status: player.status,
  mustChangePassword: player.mustChangePassword,
  createdAt: player.createdAt,
  lastLoginAt: player.lastLoginAt,
  bankAccountNumber: player.bankAccountNumber,
  blocklistFlagged: player.blocklistFlagged,
});

/** One box finds a player (workers/db/players.ts says how); empty: the newest players. A keyset page (decision 077). */
export async function searchPlayers(db: D1Database, agencyId: string, query: string, ask: ListAsk): Promise<ListPage<PlayerSummary> & { total: BoundedCount }> {
  const found = await searchPlayersWithAccount(db, agencyId, query, ask);
  return { ...found, items: found.items.map(toSummary) };
}

export type PlayerDetail = {
  player: PlayerSummary & { lockedReason: string | null; passwordChangedAt: string };
  bankAccounts: BankAccount[];
  deposits: { code: string; provider: string; amount: string; credit: string; status: string; flag: string | null; createdAt: string }[];
  withdrawals: { code: string; provider: string; credit: string; received: string; status: string; review: string; reason: string | null; createdAt: string }[];
  promotions: {
    id: string;
    promotionId: string;
    provider: string;
    status: string;
    depositCode: string | null;
    bonus: string | null;
    reason: string | null;
    claimedAt: string;
  }[];
  sessions: { idHash: string; createdAt: number; lastSeenAt: number; userAgent: string | null; ip: string | null }[];
  fingerprints: { fingerprint: string; firstSeenAt: string; lastSeenAt: string; seenCount: number; sharedWith: number }[];
  /** The player's own limits and break (decision 025): shown to staff, never changed by them. */
  limits: Awaited<ReturnType<typeof staffLimitsView>>;
  /** The owner's "flag" entries that matched the player, and where (decision 090). */
  blocklistFlags: BlocklistFlag[];
  /** The players linked to this one, why and when, and the risk score with its parts (decision 093). */
  linked: LinkedAccounts;
  /** The player's claims held because a linked account had the reward first, and what staff decided (decision 094). */
  holds: HoldView[];
};

/** Orders, promotions, sessions and devices of one player (the newest 20 of each list). */
export async function getPlayerDetail(db: D1Database, agencyId: string, playerId: string, now = Date.now()): Promise<PlayerDetail | null> {
  const account = await findPlayerWithAccount(db, agencyId, playerId);
  if (!account) return null;
  const [bankAccounts, deposits, withdrawals, promotions, sessions, fingerprints, sharedWith, limits, blocklistFlags, linked, holds] = await Promise.all([
    listBankAccounts(db, agencyId, playerId),
    latestPlayerDeposits(db, agencyId, playerId, 20),
    latestPlayerWithdrawals(db, agencyId, playerId, 20),
    latestPlayerPromotionUsages(db, agencyId, playerId, 20),
    listPlayerSessions(db, agencyId, playerId),
    listPlayerFingerprints(db, agencyId, playerId),
    fingerprintSharing(db, agencyId, playerId),
    staffLimitsView(db, agencyId, playerId, now),
    blocklistFlagsOf(db, agencyId, playerId),
    linkedAccounts(db, agencyId, playerId, account.phone),
    playerHoldsForStaff({ DB: db }, agencyId, playerId),
  ]);
  return {
    player: { ...toSummary(account), lockedReason: account.lockedReason, passwordChangedAt: account.passwordChangedAt },
    bankAccounts,
    deposits,
    withdrawals,
    promotions,
    sessions: sessions
      .filter((s) => sessionState(s, PLAYER_SESSION, now) === "valid")
      .map((s) => ({ idHash: s.idHash.slice(0, 12), createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, userAgent: s.userAgent, ip: s.ip })),
    fingerprints: fingerprints.map((f) => ({ ...f, sharedWith: sharedWith.get(f.fingerprint) ?? 0 })),
    limits,
    blocklistFlags,
    linked,
    holds,
  };
}

export type PlayerActionResult = { ok: true; changed: boolean; player: PlayerSummary } | { ok: false; error: "NOT_FOUND" };

/** Lock: SUSPENDED with a reason; every session ends; login says "locked, contact staff". */
export async function lockPlayer(db: D1Database, actor: AuditActor, playerId: string, reason: string): Promise<PlayerActionResult> {
  const before = await findPlayerWithAccount(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const text = reason.trim().slice(0, 300);
  const sessions = await countPlayerSessions(db, actor.agencyId, playerId);
  const [update] = await db.batch([
    lockPlayerStatement(db, actor.agencyId, playerId, text),
    auditIfChanged(db, actor, {
      action: "player.lock",
      target: playerId,
      before: { username: before.username, status: "ACTIVE", lockedReason: before.lockedReason, sessions },
      after: { status: "SUSPENDED", lockedReason: text, sessions: 0 },
    }),
    deletePlayerSessionsStatement(db, actor.agencyId, playerId),
  ]);
  return { ok: true, changed: (update.meta.changes ?? 0) > 0, player: toSummary((await findPlayerWithAccount(db, actor.agencyId, playerId))!) };
}

export async function unlockPlayer(db: D1Database, actor: AuditActor, playerId: string): Promise<PlayerActionResult> {
  const before = await findPlayerWithAccount(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const [update] = await db.batch([
    unlockPlayerStatement(db, actor.agencyId, playerId),
    auditIfChanged(db, actor, {
      action: "player.unlock",
      target: playerId,
      before: { username: before.username, status: "SUSPENDED", lockedReason: before.lockedReason },
      after: { status: "ACTIVE", lockedReason: null },
    }),
  ]);
  // Failed logins made while locked should not keep the player out once unlocked.
  if ((update.meta.changes ?? 0) > 0) await clearThrottle(db, [{ kind: "acct", id: `${actor.agencyId}:${before.username}` }]);
  return { ok: true, changed: (update.meta.changes ?? 0) > 0, player: toSummary((await findPlayerWithAccount(db, actor.agencyId, playerId))!) };
}

/** Ends every session of the player (they log in again). */
export async function endPlayerSessions(db: D1Database, actor: AuditActor, playerId: string): Promise<PlayerActionResult & { ended?: number }> {
  const before = await findPlayerWithAccount(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const [, deleted] = await db.batch([
    auditStatement(db, actor, {
      action: "player.end-sessions",
      target: playerId,
      before: { username: before.username, sessions: await countPlayerSessions(db, actor.agencyId, playerId) },
      after: { sessions: 0 },
    }),
    deletePlayerSessionsStatement(db, actor.agencyId, playerId),
  ]);
  const ended = deleted.meta.changes ?? 0;
  return { ok: true, changed: ended > 0, ended, player: toSummary(before) };
}

/** Letters and digits that cannot be mistaken for one another when read out on the phone. */
const TEMP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function temporaryPassword(length = 10): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => TEMP_ALPHABET[b % TEMP_ALPHABET.length]).join("");
}

/**
 * Reset: a one-time temporary password (shown to the staff member once, never stored in
 * clear nor audited), must_change_password = 1, every session ends. At the next login the
 * player is sent to /player/password and must choose their own before anything else.
 */
export async function resetPlayerPassword(
  db: D1Database,
  actor: AuditActor,
  playerId: string,
): Promise<{ ok: true; temporaryPassword: string; player: PlayerSummary } | { ok: false; error: "NOT_FOUND" }> {
  const before = await findPlayerWithAccount(db, actor.agencyId, playerId);
  if (!before) return { ok: false, error: "NOT_FOUND" };
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  const sessions = await countPlayerSessions(db, actor.agencyId, playerId);
  await db.batch([
    resetPlayerPasswordStatement(db, actor.agencyId, playerId, hash, new Date().toISOString()),
    auditStatement(db, actor, {
      action: "player.reset-password",
      target: playerId,
      before: { username: before.username, mustChangePassword: before.mustChangePassword, sessions },
      after: { mustChangePassword: true, sessions: 0 },
    }),
    deletePlayerSessionsStatement(db, actor.agencyId, playerId),
  ]);
  await clearThrottle(db, [{ kind: "acct", id: `${actor.agencyId}:${before.username}` }]);
  return { ok: true, temporaryPassword: password, player: toSummary((await findPlayerWithAccount(db, actor.agencyId, playerId))!) };
}
