/**
 * Statements over the notification forwarder's tables (migration 0019): forwarders (one per
 * own-account channel), the owner's reading patterns per bank, verified deliveries (replay
 * record) and credits above the cap waiting for staff.
 */

export type Forwarder = {
  channelCode: string;
  channelName: string;
  bankCode: string;
  tokenHint: string;
  autoCap: string;
  silenceMinutes: number;
  lastMessageAt: number | null;
  createdBy: string;
  createdAt: number;
};

type ForwarderRow = {
  channel_code: string;
  display_name: string;
  bank_code: string;
  token_hint: string;
  auto_cap: string;
  silence_minutes: number;
  last_message_at: number | null;
  created_by: string;
  created_at: number;
};

const toForwarder = (row: ForwarderRow): Forwarder => ({
  channelCode: row.channel_code,
  channelName: row.display_name,
  bankCode: row.bank_code,
  tokenHint: row.token_hint,
  autoCap: row.auto_cap,
  silenceMinutes: row.silence_minutes,
  lastMessageAt: row.last_message_at,
  createdBy: row.created_by,
  createdAt: row.created_at,
});

const FORWARDER_SELECT = `SELECT f.channel_code, c.display_name, c.bank_code, f.token_hint, f.auto_cap, f.silence_minutes, f.last_message_at, f.created_by, f.created_at
  FROM forwarders f JOIN payment_channels c ON c.agency_id = f.agency_id AND c.code = f.channel_code`;

export async function listForwarders(db: D1Database, agencyId: string): Promise<Forwarder[]> {
  const { results } = await db.prepare(`${FORWARDER_SELECT} WHERE f.agency_id = ?1 ORDER BY f.channel_code`).bind(agencyId).all<ForwarderRow>();
  return results.map(toForwarder);
}

export type OwnAccountChannel = { code: string; displayName: string; bankCode: string };

/** The agency's own-account channels (payment_channels.gateway = 'own_account'), active or not. */
export async function listOwnAccountChannels(db: D1Database, agencyId: string): Promise<OwnAccountChannel[]> {
  const { results } = await db
    .prepare(`SELECT code, display_name, bank_code FROM payment_channels WHERE agency_id = ?1 AND gateway = 'own_account' ORDER BY code`)
    .bind(agencyId)
    .all<{ code: string; display_name: string; bank_code: string }>();
  return results.map((r) => ({ code: r.code, displayName: r.display_name, bankCode: r.bank_code }));
}

/** What the forwarder endpoint needs, by the SHA-256 of the URL token. */
export type ForwarderKey = { agencyId: string; channelCode: string; bankCode: string; secretSealed: string; autoCap: string };

export async function findForwarderByToken(db: D1Database, tokenHash: string): Promise<ForwarderKey | null> {
  const row = await db
    .prepare(
      `SELECT f.agency_id, f.channel_code, c.bank_code, f.secret_sealed, f.auto_cap
         FROM forwarders f JOIN payment_channels c ON c.agency_id = f.agency_id AND c.code = f.channel_code
        WHERE f.token_hash = ?1`,
    )
    .bind(tokenHash)
    .first<{ agency_id: string; channel_code: string; bank_code: string; secret_sealed: string; auto_cap: string }>();
  return row
    ? { agencyId: row.agency_id, channelCode: row.channel_code, bankCode: row.bank_code, secretSealed: row.secret_sealed, autoCap: row.auto_cap }
    : null;
}

/** A new forwarder for the channel, or new token + secret for an existing one (the old ones stop working). */
export function upsertForwarderStatement(
  db: D1Database,
  f: { agencyId: string; channelCode: string; tokenHash: string; tokenHint: string; secretSealed: string; createdBy: string; createdAt: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO forwarders (agency_id, channel_code, token_hash, token_hint, secret_sealed, created_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
       ON CONFLICT (agency_id, channel_code) DO UPDATE SET token_hash = excluded.token_hash, token_hint = excluded.token_hint,
         secret_sealed = excluded.secret_sealed, created_by = excluded.created_by, created_at = excluded.created_at`,
    )
    .bind(f.agencyId, f.channelCode, f.tokenHash, f.tokenHint, f.secretSealed, f.createdBy, f.createdAt);
}

export function updateForwarderLimitsStatement(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  autoCap: string,
  silenceMinutes: number,
): D1PreparedStatement {
  return db
    .prepare(`UPDATE forwarders SET auto_cap = ?3, silence_minutes = ?4 WHERE agency_id = ?1 AND channel_code = ?2`)
    .bind(agencyId, channelCode, autoCap, silenceMinutes);
}

export function deleteForwarderStatement(db: D1Database, agencyId: string, channelCode: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM forwarders WHERE agency_id = ?1 AND channel_code = ?2`).bind(agencyId, channelCode);
}

export async function touchForwarder(db: D1Database, agencyId: string, channelCode: string, at: number): Promise<void> {
  await db
    .prepare(`UPDATE forwarders SET last_message_at = MAX(COALESCE(last_message_at, 0), ?3) WHERE agency_id = ?1 AND channel_code = ?2`)
    .bind(agencyId, channelCode, at)
    .run();
}

// ---- patterns per bank

export async function readPatternsJson(db: D1Database, agencyId: string, bankCode: string): Promise<string | null> {
  const row = await db
    .prepare(`SELECT patterns_json FROM forwarder_patterns WHERE agency_id = ?1 AND bank_code = ?2`)
    .bind(agencyId, bankCode)
    .first<{ patterns_json: string }>();
  return row?.patterns_json ?? null;
}

export function upsertPatternsStatement(db: D1Database, p: { agencyId: string; bankCode: string; json: string; by: string; at: number }): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO forwarder_patterns (agency_id, bank_code, patterns_json, updated_by, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (agency_id, bank_code) DO UPDATE SET patterns_json = excluded.patterns_json, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .bind(p.agencyId, p.bankCode, p.json, p.by, p.at);
}

// ---- deliveries (replay record)

type DeliveryKey = { agencyId: string; channelCode: string; sentAt: number; signature: string };

/** True when this post is new; false when its timestamp + signature were recorded before. */
export async function recordDelivery(db: D1Database, key: DeliveryKey, messageSha256: string, receivedAt: number): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO forwarder_deliveries (agency_id, channel_code, sent_at, signature, message_sha256, received_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
    )
    .bind(key.agencyId, key.channelCode, key.sentAt, key.signature, messageSha256, receivedAt)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

export async function findDelivery(db: D1Database, key: DeliveryKey): Promise<{ messageSha256: string; outcome: string | null } | null> {
  const row = await db
    .prepare(`SELECT message_sha256, outcome FROM forwarder_deliveries WHERE agency_id = ?1 AND channel_code = ?2 AND sent_at = ?3 AND signature = ?4`)
    .bind(key.agencyId, key.channelCode, key.sentAt, key.signature)
    .first<{ message_sha256: string; outcome: string | null }>();
  return row ? { messageSha256: row.message_sha256, outcome: row.outcome } : null;
}

export async function saveDeliveryOutcome(db: D1Database, key: DeliveryKey, outcome: string): Promise<void> {
  await db
    .prepare(`UPDATE forwarder_deliveries SET outcome = ?5 WHERE agency_id = ?1 AND channel_code = ?2 AND sent_at = ?3 AND signature = ?4`)
    .bind(key.agencyId, key.channelCode, key.sentAt, key.signature, outcome)
    .run();
}

// ---- holds: credits above the cap, waiting for staff

export type ForwarderHold = {
  id: string;
  channelCode: string;
  bankTransactionId: string;
  amount: string;
  bankTime: number;
  reference: string | null;
  sender: string;
  raw: string;
  receivedAt: number;
  status: "WAITING" | "CONFIRMED" | "REJECTED";
  decidedBy: string | null;
  outcome: string | null;
};

type HoldRow = {
  id: string;
  channel_code: string;
  bank_transaction_id: string;
  amount: string;
  bank_time: number;
  reference: string | null;
  sender: string;
  raw: string;
  received_at: number;
  status: ForwarderHold["status"];
  decided_by: string | null;
  outcome: string | null;
};

const toHold = (r: HoldRow): ForwarderHold => ({
  id: r.id,
  channelCode: r.channel_code,
  bankTransactionId: r.bank_transaction_id,
  amount: r.amount,
  bankTime: r.bank_time,
  reference: r.reference,
  sender: r.sender,
  raw: r.raw,
  receivedAt: r.received_at,
  status: r.status,
  decidedBy: r.decided_by,
  outcome: r.outcome,
});

/** Kept once per bank transaction of the channel: false when it was held before. */
export async function insertHold(db: D1Database, agencyId: string, h: Omit<ForwarderHold, "status" | "decidedBy" | "outcome">): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO forwarder_holds (id, agency_id, channel_code, bank_transaction_id, amount, bank_time, reference, sender, raw, received_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
    .bind(h.id, agencyId, h.channelCode, h.bankTransactionId, h.amount, h.bankTime, h.reference, h.sender, h.raw, h.receivedAt)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

export async function listWaitingHolds(db: D1Database, agencyId: string): Promise<ForwarderHold[]> {
  const { results } = await db
    .prepare(`SELECT * FROM forwarder_holds WHERE agency_id = ?1 AND status = 'WAITING' ORDER BY received_at LIMIT 200`)
    .bind(agencyId)
    .all<HoldRow>();
  return results.map(toHold);
}

/** How many held credits wait for staff (the back office menu's badge). */
export function countWaitingHoldsStatement(db: D1Database, agencyId: string): D1PreparedStatement {
  return db.prepare(`SELECT COUNT(*) AS n FROM forwarder_holds WHERE agency_id = ?1 AND status = 'WAITING'`).bind(agencyId);
}

export async function findHold(db: D1Database, agencyId: string, id: string): Promise<ForwarderHold | null> {
  const row = await db.prepare(`SELECT * FROM forwarder_holds WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id).first<HoldRow>();
  return row ? toHold(row) : null;
}

/** The staff decision, taken once: only a WAITING hold changes (the first of two staff wins). */
export function decideHoldStatement(
  db: D1Database,
  agencyId: string,
  id: string,
  status: "CONFIRMED" | "REJECTED",
  by: string,
  at: number,
): D1PreparedStatement {
  return db
    .prepare(`UPDATE forwarder_holds SET status = ?3, decided_by = ?4, decided_at = ?5 WHERE agency_id = ?1 AND id = ?2 AND status = 'WAITING'`)
    .bind(agencyId, id, status, by, at);
}

export async function saveHoldOutcome(db: D1Database, agencyId: string, id: string, outcome: string): Promise<void> {
  await db.prepare(`UPDATE forwarder_holds SET outcome = ?3 WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id, outcome).run();
}

/** A confirmation whose matcher call failed: back in the queue for another try. */
export async function reopenHold(db: D1Database, agencyId: string, id: string): Promise<void> {
  await db
    .prepare(`UPDATE forwarder_holds SET status = 'WAITING', decided_by = NULL, decided_at = NULL WHERE agency_id = ?1 AND id = ?2 AND status = 'CONFIRMED'`)
    .bind(agencyId, id)
    .run();
}

// ---- silence

/** Forwarders silent for longer than their owner-set time while orders of their channel are open (pay_amount_reservations, migration 0017). */
export async function listSilentForwarders(
  db: D1Database,
  agencyId: string,
  now: number,
): Promise<{ channelCode: string; lastMessageAt: number | null; silenceMinutes: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT f.channel_code, f.last_message_at, f.silence_minutes FROM forwarders f
        WHERE f.agency_id = ?1
          AND COALESCE(f.last_message_at, f.created_at) < ?2 - f.silence_minutes * 60000
          AND EXISTS (SELECT 1 FROM pay_amount_reservations r
                       WHERE r.agency_id = f.agency_id AND r.channel_code = f.channel_code AND r.ended_at IS NULL AND r.created_at <= ?2 AND r.expires_at > ?2)
        ORDER BY f.channel_code`,
    )
    .bind(agencyId, now)
    .all<{ channel_code: string; last_message_at: number | null; silence_minutes: number }>();
  return results.map((r) => ({ channelCode: r.channel_code, lastMessageAt: r.last_message_at, silenceMinutes: r.silence_minutes }));
}
