import { newSessionTimes, PLAYER_SESSION, sessionState, shouldTouch, storedUserAgent, systemClock, type Client, type Clock } from "../../core/session";
import type { CurrentPlayer } from "../../core/session";
import { randomToken, sha256Hex } from "../../core/tokens";
import {
  deleteExpiredPlayerSession,
  deleteOtherPlayerSessionsStatement,
  deletePlayerSessionsStatement,
  findActivePlayerSession,
  findPlayer,
  insertPlayerStatement,
  insertPlayerSessionStatement,
  isUsernameTaken,
  listPlayerSessions,
  markPlayerLoggedInStatement,
  playerByUsernameRead,
  setForcedPasswordStatement,
  setPlayerPasswordStatement,
  touchPlayerSession,
  updatePlayerPasswordHashStatement,
} from "../../db/players";
import { endPlayerSession, endPlayerSessionStatements } from "../../db/play-spans";
import { writeAfterAnswer } from "../../db/metered";
import { readTogether } from "../../db/reads";
import {
  checkThrottle,
  clearThrottleStatements,
  dummyPasswordHash,
  hashPassword,
  lockedUntilRead,
  loginFailed,
  loginGateOf,
  loginGateReads,
  needsRehash,
  recordFailure,
  succeededKeys,
  throttleCheck,
  verifyPassword,
  type ThrottleCount,
  type ThrottleKey,
} from "../login";
import { addressKey, strangerKeys } from "../../core/throttle";
import { registrationBursts, registrationDeviceAllowance } from "../../core/holds";
import { deviceKey } from "../../core/referral";
import { auditStatement, type AuditActor } from "../../db/audit";
import { holdRulesRead } from "../../db/holds";
import { listBankAccounts } from "./bank";
import { cleanName } from "../../core/names";
import { tieReferral, type TieOutcome } from "../promotions";
import { registrationKeys as blocklistKeysOf } from "../../core/blocklist";
import { flagStatements, screenBlocklist } from "./blocklist";
import { recordFingerprint } from "./fingerprint";

/**
 * Player accounts of one agency: registration, login with throttling, server-side sessions
 * and password change. Every query is scoped by agency_id: a username, a session or a
 * player id of agency A means nothing at agency B.
 */

export type AuthFailure =
  | { ok: false; code: "INVALID_CREDENTIALS" }
  | { ok: false; code: "ACCOUNT_LOCKED" }
  | { ok: false; code: "USERNAME_EXISTS" }
  | { ok: false; code: "PASSWORD_INCORRECT" }
  | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterSeconds: number };

/** `ref`: a referral code (decision 030); `fingerprint`: the device fingerprint the form carried (docs/product.md §3). */
export type NewPlayer = { username: string; password: string; displayName?: string; phone: string; ref?: string | null; fingerprint?: string | null };

/** `replacesSessionId`: the session cookie the browser brought; a successful login ends it (never upgrades it: no session fixation). */
export type LoginInput = { username: string; password: string; replacesSessionId?: string | null };

const registrationKeys = (agencyId: string, client: Client): ThrottleKey[] => [{ kind: "reg", id: `${agencyId}:${client.ip}` }];

/**
 * A registration's throttle keys and whether one is locked, in one round trip with the owner's
 * hold rules: the address's hourly allowance (`reg`), and the device's daily one (`reg-device`,
 * the owner's registrations per device) when the form or the API brought a fingerprint and
 * the owner set a limit. Without either, only the address counts.
 */
async function registrationGate(db: D1Database, agencyId: string, fingerprint: string | null | undefined, client: Client, t: number) {
  const address = registrationKeys(agencyId, client);
  const device = deviceKey(fingerprint);
  const deviceKeys: ThrottleKey[] = device ? [{ kind: "reg-device", id: `${agencyId}:${device}` }] : [];
  const [addressLock, deviceLock, rules] = await readTogether(db, [
    lockedUntilRead(db, address),
    lockedUntilRead(db, deviceKeys),
    holdRulesRead(db, agencyId),
  ] as const);
  const free = registrationDeviceAllowance(rules);
  const counted = free === null ? [] : deviceKeys.map((key) => ({ ...key, free }));
  return { keys: [...address, ...counted], check: throttleCheck(Math.max(addressLock, counted.length > 0 ? deviceLock : 0), t) };
}

/**
 * A registration flagged for staff (`player.registration-burst`, raised as a staff alert by the
 * security sweep): its device's third account of the day or more, or the one that used up its
 * address's hour, from the counts its own registration wrote (address first, then the device).
 */
async function flagRegistrationBurst(db: D1Database, actor: AuditActor, playerId: string, username: string, counts: ThrottleCount[], t: number) {
  const [address, device] = counts;
  if (!address) return;
  const bursts = registrationBursts({ device: device?.failures ?? null, address: { count: address.failures, locked: address.lockedUntil > t } });
  if (bursts.length === 0) return;
  await db.batch(
    bursts.map((b) => auditStatement(db, actor, { action: "player.registration-burst", target: playerId, after: { by: b.by, count: b.count, username } })),
  );
}

/** A signed-in player re-typing the password: the stranger keys without the agency budget. */
const loginKeys = (agencyId: string, username: string, client: Client): ThrottleKey[] =>
  strangerKeys({ realm: "player", agencyId, username, ip: client.ip, deviceNonce: null }).filter((k) => k.kind !== "agency");

/**
 * The live "is this name free?" check, throttled per address (IPv6 /64) like login: every
 * check counts, so it cannot be used to list which accounts exist and pick targets.
 */
export async function checkUsernameAvailability(
  db: D1Database,
  agencyId: string,
  username: string,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; available: boolean } | { ok: false; code: "TOO_MANY_ATTEMPTS"; retryAfterSeconds: number }> {
  const keys: ThrottleKey[] = [{ kind: "avail", id: `${agencyId}:${addressKey(client.ip)}` }];
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  await recordFailure(db, keys, now());
  return { ok: true, available: await isUsernameAvailable(db, agencyId, username) };
}

async function isUsernameAvailable(db: D1Database, agencyId: string, username: string): Promise<boolean> {
  return !(await isUsernameTaken(db, agencyId, username));
}

export async function registerPlayer(
  db: D1Database,
  agencyId: string,
  input: NewPlayer,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; playerId: string; referral: TieOutcome } | AuthFailure | { ok: false; code: "NAME_CHARACTERS" | "REGISTRATION_REFUSED" }> {
  // The name rule again here: the form, the JSON API and any other caller pass through.
  const displayName = cleanName(input.displayName ?? "");
  if (!displayName.ok) return { ok: false, code: "NAME_CHARACTERS" };
  const { keys, check: throttle } = await registrationGate(db, agencyId, input.fingerprint, client, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  // The owner's blocklist (decision 090) before anything else is said about the name: a listed
  // phone or device is refused with "contact staff" (counted like a registration, so trying
  // phone after phone is slowed), and nothing of it is stored.
  const screen = await screenBlocklist(db, agencyId, blocklistKeysOf(input));
  if (screen?.action === "refuse") {
    await recordFailure(db, keys, now());
    return { ok: false, code: "REGISTRATION_REFUSED" };
  }
  if (!(await isUsernameAvailable(db, agencyId, input.username))) return { ok: false, code: "USERNAME_EXISTS" };
  const id = crypto.randomUUID();
  const passwordHash = await hashPassword(input.password);
  const actor = { agencyId, staffId: null, staffUsername: `player:${input.username}`, ip: client.ip, userAgent: client.userAgent };
  try {
    // A "flag" entry's rows ride in the account's own batch: the account never exists unflagged.
    await db.batch([
      insertPlayerStatement(db, { id, agencyId, username: input.username, displayName: displayName.value || input.username, phone: input.phone, passwordHash }),
      ...flagStatements(db, actor, id, "registration", screen, input.username),
    ]);
  } catch (error) {
    // Two registrations racing for one name: the unique index decides.
    if (String(error).includes("UNIQUE")) return { ok: false, code: "USERNAME_EXISTS" };
    throw error;
  }
  // Every registration counts against the client's hourly allowance and its device's daily one.
  const t = now();
  await flagRegistrationBurst(db, actor, id, input.username, await recordFailure(db, keys, t), t);
  // The referral tie, once, after the account exists (an invalid code never blocks a registration).
  const referral = await tieReferral(db, agencyId, id, input.ref, { fingerprint: input.fingerprint, phone: input.phone, ip: client.ip });
  // the device the account was made on is one of the player's: six accounts made on one phone are linked from the start (decisions 093, 094)
  const device = deviceKey(input.fingerprint);
  if (device) await recordFingerprint(db, agencyId, id, device, { source: "registration" });
  return { ok: true, playerId: id, referral };
}

/**
 * A login in two round trips to D1 (decision 076): the gate's locks and budget with the account
 * in one batch, then, once the password is checked, every write of a success in another (the
 * device's failures forgotten, a rehash, the login time, the session, the session it replaces).
 */
export async function login(
  db: D1Database,
  agencyId: string,
  credentials: LoginInput,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true; sessionId: string; player: CurrentPlayer } | AuthFailure> {
  const username = credentials.username.trim().toLowerCase();
  const t = now();
  const attempt = { realm: "player", agencyId, username, ip: client.ip } as const;
  const [ownLockedUntil, strangersLockedUntil, budget, account] = await readTogether(db, [
    ...loginGateReads(db, attempt, client.device),
    playerByUsernameRead(db, agencyId, username),
  ]);
  const opened = loginGateOf(attempt, client.device, [ownLockedUntil, strangersLockedUntil, budget], t);
  if (!opened.ok) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: opened.retryAfterSeconds };

  const valid = await verifyPassword(credentials.password, account?.passwordHash ?? (await dummyPasswordHash()));
  if (!account || !valid || account.status !== "ACTIVE") {
    await loginFailed(db, opened.gate, t);
    // Locked by staff: said so only to someone who knows the password (no account probing).
    return { ok: false, code: account && valid ? "ACCOUNT_LOCKED" : "INVALID_CREDENTIALS" };
  }
  const sessionId = randomToken();
  const rehash = needsRehash(account.passwordHash) ? await hashPassword(credentials.password) : null;
  await db.batch([
    // The owner got in: forget this device's / address's failures on this account (not the others).
    ...clearThrottleStatements(db, succeededKeys(opened.gate)),
    ...(rehash ? [updatePlayerPasswordHashStatement(db, account.id, rehash)] : []),
    markPlayerLoggedInStatement(db, account.id, new Date(t).toISOString()),
    await newSessionStatement(db, sessionId, agencyId, account.id, client, t),
    ...(credentials.replacesSessionId
      ? endPlayerSessionStatements(db, agencyId, await sha256Hex(credentials.replacesSessionId), t, PLAYER_SESSION.idleMs)
      : []),
  ]);
  return { ok: true, sessionId, player: { id: account.id, username: account.username, displayName: account.displayName } };
}

/** The raw id (256 random bits) goes only to the player's cookie; D1 keeps its SHA-256. */
async function newSessionStatement(
  db: D1Database,
  sessionId: string,
  agencyId: string,
  playerId: string,
  client: Client,
  now: number,
): Promise<D1PreparedStatement> {
  const times = newSessionTimes(now, PLAYER_SESSION.absoluteMs);
  return insertPlayerSessionStatement(db, { idHash: await sha256Hex(sessionId), agencyId, playerId, times, userAgent: storedUserAgent(client), ip: client.ip });
}

type SessionOptions = {
  /**
   * Given (a page's `ctx.waitUntil`): the last-seen write, once a minute, is sent after the
   * answer instead of before it (decision 076). Play time stays exact to the minute: a live
   * session counts up to now whatever it last wrote, and an ended one up to its last write.
   */
  waitUntil?: (promise: Promise<unknown>) => void;
};

/** The player behind a session cookie at this agency, or null (unknown, expired, other agency). */
export async function resolveSession(
  db: D1Database,
  agencyId: string,
  sessionId: string,
  options: SessionOptions = {},
  now: Clock = systemClock,
): Promise<(CurrentPlayer & { sessionHash: string }) | null> {
  if (!sessionId || sessionId.length > 100) return null;
  const idHash = await sha256Hex(sessionId);
  const found = await findActivePlayerSession(db, agencyId, idHash);
  if (!found) return null;
  const t = now();
  if (sessionState(found.session, PLAYER_SESSION, t) !== "valid") {
    await deleteExpiredPlayerSession(db, idHash);
    return null;
  }
  if (shouldTouch(found.session, PLAYER_SESSION, t)) await writeAfterAnswer(db, options.waitUntil, (on) => touchPlayerSession(on, idHash, t));
  return {
    id: found.session.playerId,
    username: found.username,
    displayName: found.displayName,
    mustChangePassword: found.mustChangePassword,
    sessionHash: idHash,
  };
}

/** Ends the session; its span still counts toward today's time played (decision 025, migration 0028). */
export async function logout(db: D1Database, agencyId: string, sessionId: string, now: Clock = systemClock): Promise<void> {
  await endPlayerSession(db, agencyId, await sha256Hex(sessionId), now(), PLAYER_SESSION.idleMs);
}

export type SessionSummary = { idHash: string; createdAt: number; lastSeenAt: number; userAgent: string | null; ip: string | null; current: boolean };

export async function listSessions(
  db: D1Database,
  agencyId: string,
  playerId: string,
  currentHash: string,
  now: Clock = systemClock,
): Promise<SessionSummary[]> {
  const t = now();
  return (await listPlayerSessions(db, agencyId, playerId))
    .filter((session) => sessionState(session, PLAYER_SESSION, t) === "valid")
    .map((session) => ({
      idHash: session.idHash,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      userAgent: session.userAgent,
      ip: session.ip,
      current: session.idHash === currentHash,
    }));
}

/** End every session of this player except the one making the request. */
export async function endOtherSessions(db: D1Database, agencyId: string, playerId: string, currentHash: string): Promise<number> {
  const result = await deleteOtherPlayerSessionsStatement(db, agencyId, playerId, currentHash).run();
  return result.meta.changes ?? 0;
}

/**
 * Change the password after checking the current one. On success every session of the
 * player ends (this one too): they log in again with the new password (docs/product.md §4).
 * Wrong current passwords count against the same throttle as logins.
 */
export async function changePassword(
  db: D1Database,
  agencyId: string,
  player: CurrentPlayer,
  input: { currentPassword: string; newPassword: string },
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true } | AuthFailure> {
  const keys = loginKeys(agencyId, player.username, client);
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  const account = await findPlayer(db, agencyId, player.id);
  if (!account || !(await verifyPassword(input.currentPassword, account.passwordHash))) {
    await recordFailure(db, keys, now());
    return { ok: false, code: "PASSWORD_INCORRECT" };
  }
  const hash = await hashPassword(input.newPassword);
  await db.batch([
    setPlayerPasswordStatement(db, agencyId, player.id, hash, new Date(now()).toISOString()),
    deletePlayerSessionsStatement(db, agencyId, player.id),
  ]);
  return { ok: true };
}

/**
 * The new password after a staff reset (must_change_password = 1): no current password is
 * asked (the player just logged in with the temporary one), it must differ from it, and the
 * flag is cleared in the same guarded UPDATE. This session stays; every other one ends.
 */
export async function setForcedPassword(
  db: D1Database,
  agencyId: string,
  player: CurrentPlayer,
  sessionHash: string,
  newPassword: string,
  now: Clock = systemClock,
): Promise<{ ok: true } | { ok: false; code: "NOT_REQUIRED" | "SAME_PASSWORD" }> {
  const account = await findPlayer(db, agencyId, player.id);
  if (!account?.mustChangePassword) return { ok: false, code: "NOT_REQUIRED" };
  if (await verifyPassword(newPassword, account.passwordHash)) return { ok: false, code: "SAME_PASSWORD" };
  const [update] = await db.batch([
    setForcedPasswordStatement(db, agencyId, player.id, await hashPassword(newPassword), new Date(now()).toISOString()),
    deleteOtherPlayerSessionsStatement(db, agencyId, player.id, sessionHash),
  ]);
  return (update.meta.changes ?? 0) > 0 ? { ok: true } : { ok: false, code: "NOT_REQUIRED" };
}

/** docs/product.md §7 `GET /v2/players/info`: player, credential, bankAccounts. */
export async function getPlayerInfo(db: D1Database, agencyId: string, playerId: string) {
  const account = await findPlayer(db, agencyId, playerId);
  if (!account) return null;
  return {
    player: {
      id: account.id,
      displayName: account.displayName,
      username: account.username,
      phone: account.phone,
      createdAt: account.createdAt,
      lastLoginAt: account.lastLoginAt,
    },
    credential: { username: account.username, passwordChangedAt: account.passwordChangedAt },
    bankAccounts: (await listBankAccounts(db, agencyId, playerId)).map((a) => ({
      id: a.id,
      bankCode: a.bankCode,
      accountNumber: a.maskedNumber,
      accountName: a.accountName,
      currency: a.currency,
      owner: a.owner,
    })),
  };
}

/**
 * The current password asked again before a sensitive change (replacing the bank account).
 * Wrong guesses count like wrong logins, as for a password change.
 */
export async function checkCurrentPassword(
  db: D1Database,
  agencyId: string,
  player: CurrentPlayer,
  password: string,
  client: Client,
  now: Clock = systemClock,
): Promise<{ ok: true } | AuthFailure> {
  const keys = loginKeys(agencyId, player.username, client);
  const throttle = await checkThrottle(db, keys, now());
  if (throttle.locked) return { ok: false, code: "TOO_MANY_ATTEMPTS", retryAfterSeconds: throttle.retryAfterSeconds };
  const account = await findPlayer(db, agencyId, player.id);
  if (!account || !(await verifyPassword(password, account.passwordHash))) {
    await recordFailure(db, keys, now());
    return { ok: false, code: "PASSWORD_INCORRECT" };
  }
  return { ok: true };
}
