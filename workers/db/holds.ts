/**
 * Statements over holds (migration 0053, decision 094): `reward_firsts`, one row per agency,
 * reward and link key (the first claim wins), `reward_holds`, the claims held for review, and
 * `hold_rules`, the owner's rules.
 */
import { DEFAULT_HOLD_RULES, type HoldKind, type HoldRules, type HoldStatus, type HoldTraces } from "../core/holds";
import { boundedCount, pageOfRows, type BoundedCount, type ListAsk, type ListPage } from "../core/keyset";
import { boundedCountSql, keysetSql, numberedParams } from "./keyset";
import { readTogether, rowsOf, type Read } from "./reads";

/** What a player left that links (devices, phone, bank accounts and their receive QRs, now and replaced), in one batch. */
export async function holdTraces(db: D1Database, agencyId: string, playerId: string): Promise<HoldTraces> {
  const [devices, phones, accounts] = await readTogether(db, [
    {
      statement: db.prepare(`SELECT fingerprint FROM fingerprints WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId),
      read: (r: D1Result) => rowsOf<{ fingerprint: string }>(r).map((row) => row.fingerprint),
    },
    {
      statement: db.prepare(`SELECT phone FROM players WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, playerId),
      read: (r: D1Result) => rowsOf<{ phone: string | null }>(r)[0]?.phone ?? null,
    },
    {
      // the account now, and those the player replaced (the audit keeps the one before, with its QR's receiver):
      // an account or a receive QR handed from one player to another is the commonest "new" account of a ring
      statement: db
        .prepare(
          `SELECT bank_code, account_number, receive_qr_receiver FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2
           UNION ALL
           SELECT json_extract(before_json, '$.bankCode'), json_extract(before_json, '$.accountNumber'), json_extract(before_json, '$.receiveQrReceiver')
           FROM audit_log WHERE agency_id = ?1 AND action = 'player.bank-replace' AND target = ?2 AND json_extract(before_json, '$.accountNumber') IS NOT NULL`,
        )
        .bind(agencyId, playerId),
      read: (r: D1Result) => rowsOf<{ bank_code: string; account_number: string; receive_qr_receiver: string | null }>(r),
    },
  ] as const);
  return {
    devices,
    phone: phones,
    banks: accounts.map((a) => ({ bankCode: a.bank_code, accountNumber: a.account_number })),
    receivers: accounts.flatMap((a) => (a.receive_qr_receiver ? [a.receive_qr_receiver] : [])),
  };
}

export type HoldRow = {
  id: string;
  playerId: string;
  username: string;
  kind: HoldKind;
  rewardKey: string;
  ref: string;
  amount: string | null;
  claim: Record<string, unknown> | null;
  links: { playerId: string; username: string; key: string }[];
  status: HoldStatus;
  decisionReason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  createdAt: string;
};

type StoredHold = {
  id: string;
  player_id: string;
  username: string;
  kind: HoldKind;
  reward_key: string;
  ref: string;
  amount: string | null;
  claim_json: string | null;
  links_json: string;
  status: HoldStatus;
  decision_reason: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
};

const toHold = (r: StoredHold): HoldRow => ({
  id: r.id,
  playerId: r.player_id,
  username: r.username,
  kind: r.kind,
  rewardKey: r.reward_key,
  ref: r.ref,
  amount: r.amount,
  claim: r.claim_json ? (JSON.parse(r.claim_json) as Record<string, unknown>) : null,
  links: JSON.parse(r.links_json) as HoldRow["links"],
  status: r.status,
  decisionReason: r.decision_reason,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at,
  createdAt: r.created_at,
});

const HOLD_COLUMNS = `h.*, p.username`;

export type FirstClaim = {
  agencyId: string;
  playerId: string;
  rewardKey: string;
  /** The claim's own id (a promotion usage, a reward code). */
  ref: string;
  keys: readonly string[];
  hold: { id: string; kind: HoldKind; amount: string | null; claim: Record<string, unknown> | null };
};

/**
 * "The first claim wins", in ONE batch (one D1 transaction, so twenty claims at once are put in
 * a line): a row per key of the claimant, written unless the key has one already; a hold when a
 * key's row is another player's who was not unlinked from this one (decision 093), naming them
 * and the keys, with `afterNewHold` (an audit row written only when the hold is new); then this
 * player's hold of this reward, if any (new or from an earlier claim).
 */
export async function claimFirstOrHold(db: D1Database, claim: FirstClaim, afterNewHold: D1PreparedStatement): Promise<HoldRow | null> {
  const keys = JSON.stringify(claim.keys);
  const results = await db.batch<StoredHold>([
    ...claim.keys.map((key) =>
      db
        .prepare(`INSERT INTO reward_firsts (agency_id, reward_key, link_key, player_id, ref) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING`)
        .bind(claim.agencyId, claim.rewardKey, key, claim.playerId, claim.ref),
    ),
    db
      .prepare(
        `INSERT INTO reward_holds (id, agency_id, player_id, kind, reward_key, ref, amount, claim_json, links_json)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,
           json_group_array(json_object('playerId', f.player_id, 'username', (SELECT username FROM players WHERE id = f.player_id), 'key', f.link_key))
         FROM reward_firsts f
         WHERE f.agency_id = ?2 AND f.reward_key = ?5 AND f.link_key IN (SELECT value FROM json_each(?9)) AND f.player_id <> ?3
           AND NOT EXISTS (SELECT 1 FROM player_unlinks u WHERE u.agency_id = ?2
             AND ((u.player_a = ?3 AND u.player_b = f.player_id) OR (u.player_b = ?3 AND u.player_a = f.player_id)))
         HAVING count(*) > 0
         ON CONFLICT (agency_id, player_id, reward_key) DO NOTHING`,
      )
      .bind(
        claim.hold.id,
        claim.agencyId,
        claim.playerId,
        claim.hold.kind,
        claim.rewardKey,
        claim.ref,
        claim.hold.amount,
        claim.hold.claim ? JSON.stringify(claim.hold.claim) : null,
        keys,
      ),
    // right after the hold's insert: written only when it made a row (auditIfChanged), for the alert
    afterNewHold,
    db
      .prepare(
        `SELECT ${HOLD_COLUMNS} FROM reward_holds h JOIN players p ON p.id = h.player_id WHERE h.agency_id = ?1 AND h.player_id = ?2 AND h.reward_key = ?3`,
      )
      .bind(claim.agencyId, claim.playerId, claim.rewardKey),
  ]);
  const row = results.at(-1)?.results[0];
  return row ? toHold(row) : null;
}

/** A claim the wallet refused or the player cancelled gives back its first rows and its hold still waiting. */
export function takeBackClaimStatements(db: D1Database, agencyId: string, ref: string): D1PreparedStatement[] {
  return [
    db.prepare(`DELETE FROM reward_firsts WHERE agency_id = ?1 AND ref = ?2`).bind(agencyId, ref),
    db.prepare(`DELETE FROM reward_holds WHERE agency_id = ?1 AND ref = ?2 AND status = 'HELD'`).bind(agencyId, ref),
  ];
}

/** A held claim made again (a promotion claimed anew after its first claim ended) is decided by the new claim's id. */
export function rebindHoldStatement(db: D1Database, agencyId: string, id: string, ref: string): D1PreparedStatement {
  return db.prepare(`UPDATE reward_holds SET ref = ?3 WHERE agency_id = ?1 AND id = ?2 AND status = 'HELD'`).bind(agencyId, id, ref);
}

export async function findHold(db: D1Database, agencyId: string, id: string): Promise<HoldRow | null> {
  const row = await db
    .prepare(`SELECT ${HOLD_COLUMNS} FROM reward_holds h JOIN players p ON p.id = h.player_id WHERE h.agency_id = ?1 AND h.id = ?2`)
    .bind(agencyId, id)
    .first<StoredHold>();
  return row ? toHold(row) : null;
}

/** Staff decide a hold, once: the update changes a row only while it is HELD. */
export function decideHoldStatement(
  db: D1Database,
  agencyId: string,
  id: string,
  decision: { to: Exclude<HoldStatus, "HELD">; reason: string; by: string },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE reward_holds SET status = ?3, decision_reason = ?4, decided_by = ?5, decided_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE agency_id = ?1 AND id = ?2 AND status = 'HELD'`,
    )
    .bind(agencyId, id, decision.to, decision.reason, decision.by);
}

/** A release taken back (the player's offers paused before the credit): the hold waits again. */
export function reopenHoldStatement(db: D1Database, agencyId: string, id: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE reward_holds SET status = 'HELD', decision_reason = NULL, decided_by = NULL, decided_at = NULL WHERE agency_id = ?1 AND id = ?2 AND status = 'RELEASED'`,
    )
    .bind(agencyId, id);
}

/** A player's holds, newest first (their own page says "being checked"; the staff player page lists them). */
export async function playerHolds(db: D1Database, agencyId: string, playerId: string, limit = 50): Promise<HoldRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${HOLD_COLUMNS} FROM reward_holds h INDEXED BY reward_holds_by_player JOIN players p ON p.id = h.player_id
       WHERE h.agency_id = ?1 AND h.player_id = ?2 ORDER BY h.created_at DESC LIMIT ${limit}`,
    )
    .bind(agencyId, playerId)
    .all<StoredHold>();
  return results.map(toHold);
}

/** The player's holds of these rewards that stand (HELD, or REFUSED: staff said no), by reward key: a page shows them instead of the offer. */
export async function standingHolds(
  db: D1Database,
  agencyId: string,
  playerId: string,
  rewardKeys: readonly string[],
): Promise<Map<string, "HELD" | "REFUSED">> {
  if (rewardKeys.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `SELECT reward_key, status FROM reward_holds WHERE agency_id = ?1 AND player_id = ?2 AND status IN ('HELD', 'REFUSED') AND reward_key IN (SELECT value FROM json_each(?3))`,
    )
    .bind(agencyId, playerId, JSON.stringify(rewardKeys))
    .all<{ reward_key: string; status: "HELD" | "REFUSED" }>();
  return new Map(results.map((r) => [r.reward_key, r.status]));
}

/** Whether the player has a claim still held (their withdrawals wait for staff). */
export async function hasHeldClaim(db: D1Database, agencyId: string, playerId: string): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 AS held FROM reward_holds INDEXED BY reward_holds_by_player WHERE agency_id = ?1 AND player_id = ?2 AND status = 'HELD' LIMIT 1`)
    .bind(agencyId, playerId)
    .first<{ held: number }>();
  return row !== null;
}

/**
 * A keyset page of the agency's holds, newest first (decision 077), one status or all, with the
 * count up to COUNT_BOUND, in one batch through reward_holds_by_status.
 */
export async function holdsPage(
  db: D1Database,
  agencyId: string,
  status: HoldStatus | null,
  ask: ListAsk,
): Promise<ListPage<HoldRow> & { total: BoundedCount }> {
  const { params, param } = numberedParams(agencyId);
  const where = ["h.agency_id = ?1", ...(status ? [`h.status = ${param(status)}`] : [])];
  const countParams = [...params];
  const page = keysetSql({ at: "h.created_at", id: "h.id" }, "DESC", ask, param);
  const [count, rows] = await db.batch<Record<string, unknown>>([
    db.prepare(boundedCountSql(`FROM reward_holds h WHERE ${where.join(" AND ")}`)).bind(...countParams),
    db
      .prepare(
        `SELECT ${HOLD_COLUMNS} FROM reward_holds h JOIN players p ON p.id = h.player_id
         WHERE ${[...where, ...(page.where ? [page.where] : [])].join(" AND ")} ${page.orderBy} LIMIT ${page.limit}`,
      )
      .bind(...params),
  ]);
  const listed = pageOfRows((rows.results as StoredHold[]).map(toHold), ask, (h) => ({ at: h.createdAt, id: h.id }));
  return { ...listed, total: boundedCount(Number((count.results[0] as { n: number } | undefined)?.n ?? 0)) };
}

type StoredRules = { hold_promotions: number; hold_rewards: number; hold_withdrawals: number; registrations_per_device: number };

function toRules(row: StoredRules | null | undefined): HoldRules {
  if (!row) return DEFAULT_HOLD_RULES;
  return {
    promotions: row.hold_promotions === 1,
    rewards: row.hold_rewards === 1,
    withdrawals: row.hold_withdrawals === 1,
    registrationsPerDevice: row.registrations_per_device,
  };
}

/** The owner's rules, the defaults when none were saved. */
export async function readHoldRules(db: D1Database, agencyId: string): Promise<HoldRules> {
  return toRules(await db.prepare(`SELECT * FROM hold_rules WHERE agency_id = ?1`).bind(agencyId).first<StoredRules>());
}

/** The owner's rules as a read to send with others (a registration's throttle locks). */
export function holdRulesRead(db: D1Database, agencyId: string): Read<HoldRules> {
  return {
    statement: db.prepare(`SELECT * FROM hold_rules WHERE agency_id = ?1`).bind(agencyId),
    read: (result) => toRules(rowsOf<StoredRules>(result)[0]),
  };
}

export function saveHoldRulesStatement(db: D1Database, agencyId: string, rules: HoldRules): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO hold_rules (agency_id, hold_promotions, hold_rewards, hold_withdrawals, registrations_per_device) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (agency_id) DO UPDATE SET hold_promotions = excluded.hold_promotions, hold_rewards = excluded.hold_rewards,
         hold_withdrawals = excluded.hold_withdrawals, registrations_per_device = excluded.registrations_per_device,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(agencyId, rules.promotions ? 1 : 0, rules.rewards ? 1 : 0, rules.withdrawals ? 1 : 0, rules.registrationsPerDevice);
}
