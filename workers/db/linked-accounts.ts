/**
 * The traces linked accounts are derived from (decision 093): what one player left (devices,
 * phone, bank accounts now and before, session addresses, referral ties, unlinks), then the
 * other players who left the same, each read through an index (migration 0052 and before).
 * The links themselves are decided in workers/core/linked-accounts.ts.
 */
import { pairOf, phoneSpellings, type ReferralTie, type Trace, type Unlink } from "../core/linked-accounts";
import { holderKey, normalizePhone } from "../core/referral";
import { readTogether, rowsOf, type Read } from "./reads";

const iso = (ms: number) => new Date(ms).toISOString();
/** Players sharing one address read at most: a cafe's address would otherwise bring hundreds. */
const IP_ROWS_MAX = 200;

export type OwnTraces = {
  traces: Trace[];
  referrals: ReferralTie[];
  unlinks: Unlink[];
  /** What to look the others up by. */
  devices: string[];
  phone: string | null;
  holders: string[];
  banks: { bankCode: string; accountNumber: string }[];
  ips: { ip: string; from: number; to: number }[];
};

function read<T>(statement: D1PreparedStatement, map: (rows: T[]) => Trace[]): Read<Trace[]> {
  return { statement, read: (result) => map(rowsOf<T>(result)) };
}

/** One batch: everything the player left, and the pairs staff unlinked. */
export async function ownTraces(db: D1Database, agencyId: string, playerId: string): Promise<OwnTraces> {
  type Account = { bank_code: string; account_number: string; account_name: string; receive_qr_receiver: string | null; created_at: string };
  const [devices, phone, accounts, former, sessions, referrals, unlinks] = await readTogether(db, [
    read<{ fingerprint: string; last_seen_at: string }>(
      db.prepare(`SELECT fingerprint, last_seen_at FROM fingerprints WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId),
      (rows) => rows.map((r) => ({ playerId, reason: "device", value: r.fingerprint, at: r.last_seen_at })),
    ),
    read<{ phone: string; created_at: string }>(
      db.prepare(`SELECT phone, created_at FROM players WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, playerId),
      (rows) => rows.map((r) => ({ playerId, reason: "phone", value: r.phone, at: r.created_at })),
    ),
    read<Account>(
      db
        .prepare(`SELECT bank_code, account_number, account_name, receive_qr_receiver, created_at FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2`)
        .bind(agencyId, playerId),
      (rows) => rows.flatMap(accountTraces(playerId)),
    ),
    // Accounts the player replaced (decision 013 audits each with the account before): the
    // account that left one player for another is the commonest "new" account of a ring.
    read<Account>(
      db
        .prepare(
          `SELECT json_extract(before_json, '$.bankCode') AS bank_code, json_extract(before_json, '$.accountNumber') AS account_number,
             json_extract(before_json, '$.accountName') AS account_name, NULL AS receive_qr_receiver, created_at
           FROM audit_log WHERE agency_id = ?1 AND action = 'player.bank-replace' AND target = ?2 AND before_json IS NOT NULL`,
        )
        .bind(agencyId, playerId),
      (rows) => rows.filter((r) => r.bank_code && r.account_number).flatMap(accountTraces(playerId)),
    ),
    read<{ ip: string; created_at: number; last_seen_at: number }>(
      db.prepare(`SELECT ip, created_at, last_seen_at FROM sessions WHERE agency_id = ?1 AND player_id = ?2 AND ip IS NOT NULL`).bind(agencyId, playerId),
      (rows) => rows.map((r) => ({ playerId, reason: "ip", value: r.ip, at: iso(r.created_at), until: iso(r.last_seen_at) })),
    ),
    {
      statement: db
        .prepare(
          `SELECT referrer_player_id, referred_player_id, created_at FROM referrals WHERE agency_id = ?1 AND referred_player_id = ?2
           UNION ALL SELECT referrer_player_id, referred_player_id, created_at FROM referrals WHERE agency_id = ?1 AND referrer_player_id = ?2`,
        )
        .bind(agencyId, playerId),
      read: (result: D1Result): ReferralTie[] =>
        rowsOf<{ referrer_player_id: string; referred_player_id: string; created_at: string }>(result).map((r) => ({
          referrerId: r.referrer_player_id,
          referredId: r.referred_player_id,
          at: r.created_at,
        })),
    },
    {
      statement: db
        .prepare(
          `SELECT player_b AS other, reason, staff_username, created_at FROM player_unlinks WHERE agency_id = ?1 AND player_a = ?2
           UNION ALL SELECT player_a AS other, reason, staff_username, created_at FROM player_unlinks WHERE agency_id = ?1 AND player_b = ?2`,
        )
        .bind(agencyId, playerId),
      read: (result: D1Result): Unlink[] =>
        rowsOf<{ other: string; reason: string; staff_username: string; created_at: string }>(result).map((r) => ({
          playerId: r.other,
          reason: r.reason,
          by: r.staff_username,
          at: r.created_at,
        })),
    },
  ] as const);
  const own = [...devices, ...phone, ...accounts, ...former, ...sessions];
  const banks = [...accounts, ...former]
    .filter((t) => t.reason === "bank")
    .map((t) => {
      const [bankCode, accountNumber] = t.value.split(":") as [string, string];
      return { bankCode, accountNumber };
    });
  const ipSpans = new Map<string, { ip: string; from: number; to: number }>();
  for (const s of sessions) {
    const span = ipSpans.get(s.value) ?? { ip: s.value, from: Date.parse(s.at), to: Date.parse(s.until ?? s.at) };
    ipSpans.set(s.value, { ip: s.value, from: Math.min(span.from, Date.parse(s.at)), to: Math.max(span.to, Date.parse(s.until ?? s.at)) });
  }
  return {
    traces: own,
    referrals,
    unlinks,
    devices: devices.map((t) => t.value),
    phone: phone[0] ? normalizePhone(phone[0].value) : null,
    holders: [...new Set(own.filter((t) => t.reason === "holder").map((t) => holderKey(t.value)))].filter((k) => k.length > 0),
    banks,
    ips: [...ipSpans.values()],
  };
}

const accountTraces =
  (playerId: string) =>
  (r: { bank_code: string; account_number: string; account_name: string | null; receive_qr_receiver: string | null; created_at: string }): Trace[] => [
    { playerId, reason: "bank", value: `${r.bank_code}:${r.account_number}`, at: r.created_at },
    ...(r.account_name ? [{ playerId, reason: "holder" as const, value: r.account_name, at: r.created_at }] : []),
    ...(r.receive_qr_receiver ? [{ playerId, reason: "receiver" as const, value: r.receive_qr_receiver, at: r.created_at }] : []),
  ];

/**
 * One batch: the other players' traces that share one of the player's values, each query on
 * an index (fingerprints_by_fingerprint, players_agency_phone, bank_accounts_holder_key,
 * bank_accounts_number, sessions_agency_ip). Addresses only within `windowMs` of the player's
 * own sessions there.
 */
export async function sharedTraces(db: D1Database, agencyId: string, playerId: string, own: OwnTraces, windowMs: number): Promise<Trace[]> {
  type Account = { player_id: string; bank_code: string; account_number: string; account_name: string; receive_qr_receiver: string | null; created_at: string };
  const others = (rows: Account[]) => rows.flatMap((r) => accountTraces(r.player_id)(r));
  const reads: Read<Trace[]>[] = [];
  if (own.devices.length > 0)
    reads.push(
      read<{ player_id: string; fingerprint: string; last_seen_at: string }>(
        db
          .prepare(
            `SELECT player_id, fingerprint, last_seen_at FROM fingerprints
             WHERE agency_id = ?1 AND fingerprint IN (SELECT value FROM json_each(?2)) AND player_id <> ?3`,
          )
          .bind(agencyId, JSON.stringify(own.devices), playerId),
        (rows) => rows.map((r) => ({ playerId: r.player_id, reason: "device", value: r.fingerprint, at: r.last_seen_at })),
      ),
    );
  if (own.phone)
    reads.push(
      read<{ id: string; phone: string; created_at: string }>(
        db
          .prepare(`SELECT id, phone, created_at FROM players WHERE agency_id = ?1 AND phone IN (SELECT value FROM json_each(?2)) AND id <> ?3`)
          .bind(agencyId, JSON.stringify(phoneSpellings(own.phone)), playerId),
        (rows) => rows.map((r) => ({ playerId: r.id, reason: "phone", value: r.phone, at: r.created_at })),
      ),
    );
  if (own.holders.length > 0)
    reads.push(
      read<Account>(
        db
          .prepare(
            `SELECT player_id, bank_code, account_number, account_name, receive_qr_receiver, created_at FROM bank_accounts
             WHERE agency_id = ?1 AND holder_key IN (SELECT value FROM json_each(?2)) AND player_id <> ?3`,
          )
          .bind(agencyId, JSON.stringify(own.holders), playerId),
        others,
      ),
    );
  for (const bank of own.banks)
    reads.push(
      read<Account>(
        db
          .prepare(
            `SELECT player_id, bank_code, account_number, account_name, receive_qr_receiver, created_at FROM bank_accounts
             WHERE agency_id = ?1 AND bank_code = ?2 AND account_number = ?3 AND player_id <> ?4`,
          )
          .bind(agencyId, bank.bankCode, bank.accountNumber, playerId),
        others,
      ),
    );
  for (const span of own.ips)
    reads.push(
      read<{ player_id: string; ip: string; created_at: number; last_seen_at: number }>(
        db
          .prepare(
            `SELECT player_id, ip, created_at, last_seen_at FROM sessions
             WHERE agency_id = ?1 AND ip = ?2 AND created_at <= ?3 AND player_id <> ?4 AND last_seen_at >= ?5
             ORDER BY created_at DESC LIMIT ${IP_ROWS_MAX}`,
          )
          .bind(agencyId, span.ip, span.to + windowMs, playerId, span.from - windowMs),
        (rows) => rows.map((r) => ({ playerId: r.player_id, reason: "ip", value: r.ip, at: iso(r.created_at), until: iso(r.last_seen_at) })),
      ),
    );
  if (reads.length === 0) return [];
  return (await readTogether(db, reads)).flat();
}

export type LinkedPlayerCard = { id: string; username: string; displayName: string; status: string };

export async function linkedPlayerCards(db: D1Database, agencyId: string, ids: string[]): Promise<Map<string, LinkedPlayerCard>> {
  if (ids.length === 0) return new Map();
  const { results } = await db
    .prepare(`SELECT id, username, display_name, status FROM players WHERE agency_id = ?1 AND id IN (SELECT value FROM json_each(?2))`)
    .bind(agencyId, JSON.stringify(ids))
    .all<{ id: string; username: string; display_name: string; status: string }>();
  return new Map(results.map((r) => [r.id, { id: r.id, username: r.username, displayName: r.display_name, status: r.status }]));
}

/** The unlink, once per pair: a second unlink of a pair already unlinked changes nothing (INSERT OR IGNORE). */
export function insertUnlinkStatement(
  db: D1Database,
  row: { agencyId: string; playerId: string; otherId: string; reason: string; staffId: string | null; staffUsername: string },
): D1PreparedStatement {
  const [a, b] = pairOf(row.playerId, row.otherId);
  return db
    .prepare(`INSERT OR IGNORE INTO player_unlinks (agency_id, player_a, player_b, reason, staff_id, staff_username) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
    .bind(row.agencyId, a, b, row.reason, row.staffId, row.staffUsername);
}
