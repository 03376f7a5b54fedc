/**
 * The traces linked accounts are derived from (decision 093), in ONE batch (one round trip, as
 * the staff player page's reads are: decision 076): what the player left (devices, phone, bank
 * account now and replaced, session addresses, referral ties, unlinks), and the other players
 * who left the same, each found by a subquery on the player's own rows through an index
 * (migration 0052 and before), with their names. The links are decided in
 * workers/core/linked-accounts.ts.
 *
 * Each "others" read names its index (INDEXED BY) and reads the players after it (CROSS JOIN
 * keeps that order): without statistics SQLite may otherwise walk every player of the agency and
 * look each one up. `+x.player_id <> ?2` (a unary plus) keeps "not this player" off the indexes.
 */
import { phoneSpellings, type ReferralTie, type Trace, type Unlink } from "../core/linked-accounts";
import { normalizePhone } from "../core/referral";
import { readTogether, rowsOf, type Read } from "./reads";

const iso = (ms: number) => new Date(ms).toISOString();
/** Rows of other players read per reason at most: a cafe's address or a ring of hundreds stays a page's read. */
const OTHERS_MAX = 100;

export type LinkedPlayerCard = { id: string; username: string; displayName: string; status: string };
export type LinkTraces = { traces: Trace[]; referrals: ReferralTie[]; unlinks: Unlink[]; cards: Map<string, LinkedPlayerCard> };

type Card = { username: string; display_name: string; status: string };
const CARD = `p.username, p.display_name, p.status`;

type Account = {
  player_id: string;
  bank_code: string;
  account_number: string;
  account_name: string | null;
  receive_qr_receiver: string | null;
  created_at: string;
};
const accountTraces = (r: Account): Trace[] => [
  { playerId: r.player_id, reason: "bank", value: `${r.bank_code}:${r.account_number}`, at: r.created_at },
  ...(r.account_name ? [{ playerId: r.player_id, reason: "holder" as const, value: r.account_name, at: r.created_at }] : []),
  ...(r.receive_qr_receiver ? [{ playerId: r.player_id, reason: "receiver" as const, value: r.receive_qr_receiver, at: r.created_at }] : []),
];

export async function linkTraces(db: D1Database, agencyId: string, playerId: string, phone: string, windowMs: number): Promise<LinkTraces> {
  const cards = new Map<string, LinkedPlayerCard>();
  const card = (id: string, r: Card) => cards.set(id, { id, username: r.username, displayName: r.display_name, status: r.status });
  const traces = <T extends { player_id: string }>(sql: string, binds: unknown[], map: (row: T) => Trace[]): Read<Trace[]> => ({
    statement: db.prepare(sql).bind(agencyId, playerId, ...binds),
    read: (result) =>
      rowsOf<T & Partial<Card>>(result).flatMap((row) => {
        if (row.username !== undefined) card(row.player_id, row as T & Card);
        return map(row);
      }),
  });
  const own = normalizePhone(phone);
  const accountColumns = `a.player_id, a.bank_code, a.account_number, a.account_name, a.receive_qr_receiver, a.created_at`;
  const results = await readTogether(db, [
    // ---- the player's own
    traces<{ player_id: string; fingerprint: string; last_seen_at: string }>(
      `SELECT player_id, fingerprint, last_seen_at FROM fingerprints WHERE agency_id = ?1 AND player_id = ?2`,
      [],
      (r) => [{ playerId: r.player_id, reason: "device", value: r.fingerprint, at: r.last_seen_at }],
    ),
    traces<{ player_id: string; phone: string; created_at: string }>(
      `SELECT id AS player_id, phone, created_at FROM players WHERE agency_id = ?1 AND id = ?2`,
      [],
      (r) => [{ playerId: r.player_id, reason: "phone", value: r.phone, at: r.created_at }],
    ),
    traces<Account>(`SELECT ${accountColumns} FROM bank_accounts a WHERE a.agency_id = ?1 AND a.player_id = ?2`, [], accountTraces),
    // accounts the player replaced (the audit keeps the one before, decision 013): the account
    // that moves from one player to another is the commonest "new" account of a ring
    traces<Account>(
      `SELECT target AS player_id, json_extract(before_json, '$.bankCode') AS bank_code, json_extract(before_json, '$.accountNumber') AS account_number,
         json_extract(before_json, '$.accountName') AS account_name, json_extract(before_json, '$.receiveQrReceiver') AS receive_qr_receiver, created_at
       FROM audit_log WHERE agency_id = ?1 AND action = 'player.bank-replace' AND target = ?2 AND json_extract(before_json, '$.accountNumber') IS NOT NULL`,
      [],
      accountTraces,
    ),
    traces<{ player_id: string; ip: string; created_at: number; last_seen_at: number }>(
      `SELECT player_id, ip, created_at, last_seen_at FROM sessions WHERE agency_id = ?1 AND player_id = ?2 AND ip IS NOT NULL`,
      [],
      (r) => [{ playerId: r.player_id, reason: "ip", value: r.ip, at: iso(r.created_at), until: iso(r.last_seen_at) }],
    ),
    // ---- the others sharing it
    traces<{ player_id: string; fingerprint: string; last_seen_at: string }>(
      `SELECT f.player_id, f.fingerprint, f.last_seen_at, ${CARD}
       FROM (SELECT fingerprint FROM fingerprints WHERE agency_id = ?1 AND player_id = ?2) mine
       CROSS JOIN fingerprints f INDEXED BY fingerprints_by_fingerprint ON f.agency_id = ?1 AND f.fingerprint = mine.fingerprint
       CROSS JOIN players p ON p.agency_id = f.agency_id AND p.id = f.player_id
       WHERE +f.player_id <> ?2 LIMIT ${OTHERS_MAX}`,
      [],
      (r) => [{ playerId: r.player_id, reason: "device", value: r.fingerprint, at: r.last_seen_at }],
    ),
    traces<{ player_id: string; phone: string; created_at: string }>(
      `SELECT p.id AS player_id, p.phone, p.created_at, ${CARD} FROM players p
       WHERE p.agency_id = ?1 AND p.phone IN (SELECT value FROM json_each(?3)) AND +p.id <> ?2 LIMIT ${OTHERS_MAX}`,
      [JSON.stringify(own ? phoneSpellings(own) : [])],
      (r) => [{ playerId: r.player_id, reason: "phone", value: r.phone, at: r.created_at }],
    ),
    traces<Account>(
      `SELECT ${accountColumns}, ${CARD}
       FROM (SELECT holder_key FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2 AND holder_key <> '') mine
       CROSS JOIN bank_accounts a INDEXED BY bank_accounts_holder_key
         ON a.agency_id = ?1 AND a.holder_key = mine.holder_key AND a.holder_key IS NOT NULL AND a.holder_key <> ''
       CROSS JOIN players p ON p.agency_id = a.agency_id AND p.id = a.player_id
       WHERE +a.player_id <> ?2 LIMIT ${OTHERS_MAX}`,
      [],
      accountTraces,
    ),
    traces<Account>(
      `SELECT ${accountColumns}, ${CARD}
       FROM (SELECT json_extract(before_json, '$.bankCode') AS bank_code, json_extract(before_json, '$.accountNumber') AS account_number FROM audit_log
             WHERE agency_id = ?1 AND action = 'player.bank-replace' AND target = ?2) old
       CROSS JOIN bank_accounts a INDEXED BY bank_accounts_number ON a.agency_id = ?1 AND a.bank_code = old.bank_code AND a.account_number = old.account_number
       CROSS JOIN players p ON p.agency_id = a.agency_id AND p.id = a.player_id
       WHERE +a.player_id <> ?2 LIMIT ${OTHERS_MAX}`,
      [],
      accountTraces,
    ),
    // the receive QR of an account the player replaced, now another player's (its receiver is one player's at a time)
    traces<Account>(
      `SELECT ${accountColumns}, ${CARD}
       FROM (SELECT json_extract(before_json, '$.receiveQrReceiver') AS receiver FROM audit_log
             WHERE agency_id = ?1 AND action = 'player.bank-replace' AND target = ?2 AND json_extract(before_json, '$.receiveQrReceiver') IS NOT NULL) old
       CROSS JOIN bank_accounts a INDEXED BY bank_accounts_receive_qr ON a.agency_id = ?1 AND a.receive_qr_receiver = old.receiver AND a.receive_qr_receiver IS NOT NULL
       CROSS JOIN players p ON p.agency_id = a.agency_id AND p.id = a.player_id
       WHERE +a.player_id <> ?2 LIMIT ${OTHERS_MAX}`,
      [],
      accountTraces,
    ),
    // addresses: the others' sessions there within the window of the player's own span there
    traces<{ player_id: string; ip: string; created_at: number; last_seen_at: number }>(
      `SELECT s.player_id, s.ip, s.created_at, s.last_seen_at, ${CARD}
       FROM (SELECT ip, min(created_at) AS since, max(last_seen_at) AS until FROM sessions INDEXED BY sessions_player WHERE agency_id = ?1 AND player_id = ?2 AND ip IS NOT NULL GROUP BY ip) mine
       CROSS JOIN sessions s INDEXED BY sessions_agency_ip ON s.agency_id = ?1 AND s.ip = mine.ip AND s.ip IS NOT NULL AND s.created_at <= mine.until + ?3
       CROSS JOIN players p ON p.agency_id = s.agency_id AND p.id = s.player_id
       WHERE s.last_seen_at >= mine.since - ?3 AND +s.player_id <> ?2 ORDER BY s.created_at DESC LIMIT ${OTHERS_MAX}`,
      [windowMs],
      (r) => [{ playerId: r.player_id, reason: "ip", value: r.ip, at: iso(r.created_at), until: iso(r.last_seen_at) }],
    ),
    {
      statement: db
        .prepare(
          `SELECT r.referrer_player_id, r.referred_player_id, r.created_at, p.id AS player_id, ${CARD} FROM referrals r
             CROSS JOIN players p ON p.agency_id = r.agency_id AND p.id = r.referrer_player_id WHERE r.agency_id = ?1 AND r.referred_player_id = ?2
           UNION ALL
           SELECT * FROM (SELECT r.referrer_player_id, r.referred_player_id, r.created_at, p.id AS player_id, ${CARD} FROM referrals r
             CROSS JOIN players p ON p.agency_id = r.agency_id AND p.id = r.referred_player_id WHERE r.agency_id = ?1 AND r.referrer_player_id = ?2 LIMIT ${OTHERS_MAX})`,
        )
        .bind(agencyId, playerId),
      read: (result: D1Result): ReferralTie[] =>
        rowsOf<{ referrer_player_id: string; referred_player_id: string; created_at: string; player_id: string } & Card>(result).map((r) => {
          card(r.player_id, r);
          return { referrerId: r.referrer_player_id, referredId: r.referred_player_id, at: r.created_at };
        }),
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
  const [referrals, unlinks] = [results[11], results[12]];
  return { traces: results.slice(0, 11).flat() as Trace[], referrals, unlinks, cards };
}

/** The unlink, once per pair (the smaller id first): a second unlink of the pair changes nothing (INSERT OR IGNORE). */
export function insertUnlinkStatement(
  db: D1Database,
  row: { agencyId: string; pair: [string, string]; reason: string; staffId: string | null; staffUsername: string },
): D1PreparedStatement {
  return db
    .prepare(`INSERT OR IGNORE INTO player_unlinks (agency_id, player_a, player_b, reason, staff_id, staff_username) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`)
    .bind(row.agencyId, row.pair[0], row.pair[1], row.reason, row.staffId, row.staffUsername);
}
