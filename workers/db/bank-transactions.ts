import type { WitnessSource } from "../core/bank-witness";

/**
 * Bank transfers seen on own-account channels and their witnesses (migrations 0017, 0030;
 * decisions 016, 046). bank_transactions has one row per TRANSFER, keyed by agency + channel
 * + the first witness's id; bank_witnesses has every report of it (staff "mark paid", a
 * statement row, a forwarded message), so a transfer is applied at most once however often,
 * and under however many ids, it is reported.
 */

export type BankTransactionOutcomeKind = "PENDING" | "APPLIED" | "NO_ORDER" | "AMBIGUOUS" | "LATE" | "DEBIT";
export type BankDirection = "credit" | "debit";
export type WitnessLink = "key" | "id" | "window" | "order" | "split";

export type BankTransactionRecord = {
  channelCode: string;
  bankTransactionId: string;
  direction: BankDirection;
  amount: string;
  bankTime: number;
  reference: string | null;
  source: WitnessSource;
  raw: string | null;
  outcome: BankTransactionOutcomeKind;
  orderCode: string | null;
  playerId: string | null;
  recordedAt: number;
};

/** A transfer with the sources that have reported it (the linker's candidates). */
export type WitnessedTransfer = BankTransactionRecord & { sources: WitnessSource[]; orderLife: { createdAt: number; expiresAt: number } | null };

export type BankWitness = {
  channelCode: string;
  source: WitnessSource;
  witnessId: string;
  transferId: string;
  amount: string;
  bankTime: number;
  reference: string | null;
  raw: string | null;
  link: WitnessLink;
  staffUsername: string | null;
  recordedAt: number;
  splitBy: string | null;
  splitReason: string | null;
  splitAt: number | null;
};

type Row = {
  channel_code: string;
  bank_transaction_id: string;
  direction: BankDirection;
  amount: string;
  bank_time: number;
  reference: string | null;
  source: WitnessSource;
  raw: string | null;
  outcome: BankTransactionOutcomeKind;
  order_code: string | null;
  player_id: string | null;
  recorded_at: number;
};

type WitnessRow = {
  channel_code: string;
  source: WitnessSource;
  witness_id: string;
  transfer_id: string;
  amount: string;
  bank_time: number;
  reference: string | null;
  raw: string | null;
  link: WitnessLink;
  staff_username: string | null;
  recorded_at: number;
  split_by: string | null;
  split_reason: string | null;
  split_at: number | null;
};

function toRecord(r: Row): BankTransactionRecord {
  return {
    channelCode: r.channel_code,
    bankTransactionId: r.bank_transaction_id,
    direction: r.direction,
    amount: r.amount,
    bankTime: r.bank_time,
    reference: r.reference,
    source: r.source,
    raw: r.raw,
    outcome: r.outcome,
    orderCode: r.order_code,
    playerId: r.player_id,
    recordedAt: r.recorded_at,
  };
}

function toWitness(r: WitnessRow): BankWitness {
  return {
    channelCode: r.channel_code,
    source: r.source,
    witnessId: r.witness_id,
    transferId: r.transfer_id,
    amount: r.amount,
    bankTime: r.bank_time,
    reference: r.reference,
    raw: r.raw,
    link: r.link,
    staffUsername: r.staff_username,
    recordedAt: r.recorded_at,
    splitBy: r.split_by,
    splitReason: r.split_reason,
    splitAt: r.split_at,
  };
}

const sourcesOf = (list: string | null): WitnessSource[] => (list ? (list.split(",") as WitnessSource[]) : []);

/** The transfer keyed by this id (the key witness's id). */
export async function findBankTransaction(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  bankTransactionId: string,
): Promise<BankTransactionRecord | null> {
  const row = await db
    .prepare(`SELECT * FROM bank_transactions WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id = ?3`)
    .bind(agencyId, channelCode, bankTransactionId)
    .first<Row>();
  return row ? toRecord(row) : null;
}

/**
 * The id rule: the transfer some witness reported under this id (its key, or an alias learned
 * later), with whether this source's witness is the one that did.
 */
export async function findTransferByWitnessId(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  witnessId: string,
  source: WitnessSource,
): Promise<{ transfer: WitnessedTransfer; sameSource: boolean } | null> {
  const row = await db
    .prepare(
      `SELECT t.*, (SELECT group_concat(x.source) FROM bank_witnesses x WHERE x.agency_id = t.agency_id AND x.channel_code = t.channel_code AND x.transfer_id = t.bank_transaction_id) AS sources,
              ${ORDER_LIFE}, MAX(w.source = ?4) AS same_source
         FROM bank_witnesses w
         JOIN bank_transactions t ON t.agency_id = w.agency_id AND t.channel_code = w.channel_code AND t.bank_transaction_id = w.transfer_id
        WHERE w.agency_id = ?1 AND w.channel_code = ?2 AND w.witness_id = ?3
        GROUP BY t.bank_transaction_id
        ORDER BY same_source DESC
        LIMIT 1`,
    )
    .bind(agencyId, channelCode, witnessId, source)
    .first<Row & LifeRow & { sources: string | null; same_source: number }>();
  return row ? { transfer: { ...toRecord(row), sources: sourcesOf(row.sources), orderLife: lifeOf(row) }, sameSource: row.same_source === 1 } : null;
}

export type CandidateQuery = { channelCode: string; direction: BankDirection; amount: string; from: number; to: number; namedOrders: readonly string[] };

/** The order's life of a transfer (reservation created..expires), for the order rule. */
const ORDER_LIFE = `(SELECT r.created_at FROM pay_amount_reservations r WHERE r.agency_id = t.agency_id AND r.order_code = t.order_code) AS order_created_at,
              (SELECT r.expires_at FROM pay_amount_reservations r WHERE r.agency_id = t.agency_id AND r.order_code = t.order_code) AS order_expires_at`;
type LifeRow = { order_created_at: number | null; order_expires_at: number | null };
const lifeOf = (r: LifeRow) =>
  r.order_created_at !== null && r.order_expires_at !== null ? { createdAt: r.order_created_at, expiresAt: r.order_expires_at } : null;

/**
 * Transfers a report could be a further witness of: same channel, direction and amount, with
 * a bank time in [from, to] or paying one of the orders the report names. At most 50 (a
 * window holds a handful; unique pay amounts make it one).
 */
export async function linkCandidates(db: D1Database, agencyId: string, q: CandidateQuery): Promise<WitnessedTransfer[]> {
  const { results } = await db
    .prepare(
      `SELECT t.*, (SELECT group_concat(w.source) FROM bank_witnesses w WHERE w.agency_id = t.agency_id AND w.channel_code = t.channel_code AND w.transfer_id = t.bank_transaction_id) AS sources,
              ${ORDER_LIFE}
         FROM bank_transactions t
        WHERE t.agency_id = ?1 AND t.channel_code = ?2 AND t.direction = ?3 AND t.amount = ?4
          AND (t.bank_time BETWEEN ?5 AND ?6 OR t.order_code IN (SELECT value FROM json_each(?7)))
        ORDER BY ABS(t.bank_time - (?5 + ?6) / 2)
        LIMIT 50`,
    )
    .bind(agencyId, q.channelCode, q.direction, q.amount, q.from, q.to, JSON.stringify(q.namedOrders))
    .all<Row & LifeRow & { sources: string | null }>();
  return results.map(asCandidate);
}

/** The order rule counts only an order the transfer paid (APPLIED, or PENDING in the wallet), not one it was late for. */
function asCandidate(r: Row & LifeRow & { sources: string | null }): WitnessedTransfer {
  const paid = r.outcome === "APPLIED" || r.outcome === "PENDING";
  return { ...toRecord(r), orderCode: paid ? r.order_code : null, sources: sourcesOf(r.sources), orderLife: paid ? lifeOf(r) : null };
}

/** A witness as recorded (the split fields are written only by a split). */
export type WitnessInput = Omit<BankWitness, "splitBy" | "splitReason" | "splitAt">;

/**
 * Records a further witness of a transfer. false: this transfer already has a witness of this
 * source (the unique index: the loser of two racing witnesses learns it here), or this source
 * reported this id before.
 */
export async function insertWitness(db: D1Database, agencyId: string, w: WitnessInput): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, reference, raw, link, staff_username, recorded_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)`,
    )
    .bind(agencyId, w.channelCode, w.source, w.witnessId, w.transferId, w.amount, w.bankTime, w.reference, w.raw, w.link, w.staffUsername, w.recordedAt)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

export type ClaimInput = Omit<BankTransactionRecord, "recordedAt"> & {
  staffUsername: string | null;
  recordedAt: number;
  guard: { from: number; to: number; namedOrders: readonly string[] };
};

/**
 * Records a NEW transfer (with the order it is meant for, PENDING until the wallet applied
 * it) and its key witness, in one batch, unless a transfer it should be linked to exists by
 * then (the same rule as linkCandidates + the one-per-source rule, checked inside the INSERT,
 * so two witnesses of one transfer arriving at the same moment cannot both become transfers).
 * false: not recorded (a twin recorded this id first, or a transfer to link to appeared).
 */
export async function claimTransfer(db: D1Database, agencyId: string, input: ClaimInput): Promise<boolean> {
  const [claimed] = await db.batch([
    db
      .prepare(
        `INSERT OR IGNORE INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, reference, source, raw, outcome, order_code, player_id, staff_username, recorded_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14
          WHERE NOT EXISTS (SELECT 1 FROM bank_witnesses w WHERE w.agency_id = ?1 AND w.channel_code = ?2 AND w.witness_id = ?3)
            AND NOT EXISTS (
              SELECT 1 FROM bank_transactions t
               WHERE t.agency_id = ?1 AND t.channel_code = ?2 AND t.direction = ?4 AND t.amount = ?5
                 AND (t.bank_time BETWEEN ?15 AND ?16
                      OR (t.order_code IN (SELECT value FROM json_each(?17)) AND t.outcome IN ('APPLIED', 'PENDING')
                          AND EXISTS (SELECT 1 FROM pay_amount_reservations r WHERE r.agency_id = ?1 AND r.order_code = t.order_code
                                         AND ?6 BETWEEN r.created_at - (?16 - ?6) AND r.expires_at + (?16 - ?6)
                                         AND t.bank_time BETWEEN r.created_at - (?16 - ?6) AND r.expires_at + (?16 - ?6))))
                 AND NOT EXISTS (SELECT 1 FROM bank_witnesses w WHERE w.agency_id = ?1 AND w.channel_code = ?2 AND w.transfer_id = t.bank_transaction_id AND w.source = ?8))`,
      )
      .bind(
        agencyId,
        input.channelCode,
        input.bankTransactionId,
        input.direction,
        input.amount,
        input.bankTime,
        input.reference,
        input.source,
        input.raw,
        input.outcome,
        input.orderCode,
        input.playerId,
        input.staffUsername,
        input.recordedAt,
        input.guard.from,
        input.guard.to,
        JSON.stringify(input.guard.namedOrders),
      ),
    // the key witness, only with the transfer this batch recorded
    db
      .prepare(
        `INSERT OR IGNORE INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, reference, raw, link, staff_username, recorded_at)
         SELECT agency_id, channel_code, source, bank_transaction_id, bank_transaction_id, amount, bank_time, reference, raw, 'key', staff_username, recorded_at
           FROM bank_transactions WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id = ?3 AND source = ?4 AND recorded_at = ?5`,
      )
      .bind(agencyId, input.channelCode, input.bankTransactionId, input.source, input.recordedAt),
  ]);
  return (claimed.meta.changes ?? 0) > 0;
}

/** What the wallet made of a PENDING transfer. */
export async function settleBankTransaction(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  bankTransactionId: string,
  outcome: BankTransactionOutcomeKind,
): Promise<void> {
  await db
    .prepare(`UPDATE bank_transactions SET outcome = ?4 WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id = ?3`)
    .bind(agencyId, channelCode, bankTransactionId, outcome)
    .run();
}

/** Every witness of a transfer, the key first. */
export async function witnessesOfTransfer(db: D1Database, agencyId: string, channelCode: string, transferId: string): Promise<BankWitness[]> {
  const { results } = await db
    .prepare(`SELECT * FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND transfer_id = ?3 ORDER BY link <> 'key', recorded_at`)
    .bind(agencyId, channelCode, transferId)
    .all<WitnessRow>();
  return results.map(toWitness);
}

/** The transfers that paid an order, each with its witnesses (the order's page). */
export async function transfersOfOrder(
  db: D1Database,
  agencyId: string,
  orderCode: string,
): Promise<{ transfer: BankTransactionRecord; witnesses: BankWitness[] }[]> {
  const { results } = await db
    .prepare(`SELECT * FROM bank_transactions WHERE agency_id = ?1 AND order_code = ?2 ORDER BY bank_time`)
    .bind(agencyId, orderCode)
    .all<Row>();
  const out = [];
  for (const row of results)
    out.push({ transfer: toRecord(row), witnesses: await witnessesOfTransfer(db, agencyId, row.channel_code, row.bank_transaction_id) });
  return out;
}

/**
 * Credited transfers (applied to an order) that could be the same money as a payment in the
 * queue: same account and amount, and a bank time within the window, or an order the payment
 * names, or an order whose life (to the end of its pay amount's cool-down, when no other order
 * could have been given this amount) holds the payment's bank time. Wider than the linker on
 * purpose: this is what a hand credit is checked against.
 */
export async function appliedTransfersNear(
  db: D1Database,
  agencyId: string,
  q: {
    channelCode: string;
    amount: string;
    bankTime: number;
    window: number;
    coolDown: number;
    namedOrders: readonly string[];
    exceptTransferId: string | null;
  },
): Promise<WitnessedTransfer[]> {
  const { results } = await db
    .prepare(
      `SELECT t.*, (SELECT group_concat(w.source) FROM bank_witnesses w WHERE w.agency_id = t.agency_id AND w.channel_code = t.channel_code AND w.transfer_id = t.bank_transaction_id) AS sources,
              ${ORDER_LIFE}
         FROM bank_transactions t
        WHERE t.agency_id = ?1 AND t.channel_code = ?2 AND t.direction = 'credit' AND t.amount = ?3 AND t.outcome IN ('APPLIED', 'PENDING')
          AND (t.bank_time BETWEEN ?4 - ?5 AND ?4 + ?5
               OR t.order_code IN (SELECT value FROM json_each(?7))
               OR EXISTS (SELECT 1 FROM pay_amount_reservations r WHERE r.agency_id = ?1 AND r.order_code = t.order_code
                             AND ?4 BETWEEN r.created_at - ?5 AND r.expires_at + ?6))
          AND t.bank_transaction_id IS NOT ?8
        ORDER BY ABS(t.bank_time - ?4)
        LIMIT 20`,
    )
    .bind(agencyId, q.channelCode, q.amount, q.bankTime, q.window, q.coolDown, JSON.stringify(q.namedOrders), q.exceptTransferId)
    .all<Row & LifeRow & { sources: string | null }>();
  return results.map((r) => ({ ...toRecord(r), sources: sourcesOf(r.sources), orderLife: lifeOf(r) }));
}

/** The window of the amount + bank time rule of a channel, in minutes (default 10). */
export async function witnessWindowMinutes(db: D1Database, agencyId: string, channelCode: string): Promise<number | null> {
  const row = await db
    .prepare(`SELECT witness_window_minutes AS m FROM payment_channels WHERE agency_id = ?1 AND code = ?2`)
    .bind(agencyId, channelCode)
    .first<{ m: number }>();
  return row?.m ?? null;
}

/**
 * Staff split a witness off its transfer (two transfers really happened): the witness becomes
 * the key of a transfer of its own, recorded with what it says and no order. One guarded
 * batch: a second press finds the witness moved and changes nothing.
 */
export function splitWitnessStatements(
  db: D1Database,
  agencyId: string,
  w: { channelCode: string; source: WitnessSource; witnessId: string; fromTransferId: string; by: string; reason: string; at: number },
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, reference, source, raw, outcome, order_code, player_id, staff_username, recorded_at)
         SELECT w.agency_id, w.channel_code, w.witness_id, t.direction, w.amount, w.bank_time, w.reference, w.source, w.raw, CASE WHEN t.direction = 'debit' THEN 'DEBIT' ELSE 'NO_ORDER' END, NULL, NULL, ?6, ?7
           FROM bank_witnesses w JOIN bank_transactions t ON t.agency_id = w.agency_id AND t.channel_code = w.channel_code AND t.bank_transaction_id = w.transfer_id
          WHERE w.agency_id = ?1 AND w.channel_code = ?2 AND w.source = ?3 AND w.witness_id = ?4 AND w.transfer_id = ?5 AND w.link IN ('window', 'order')`,
      )
      .bind(agencyId, w.channelCode, w.source, w.witnessId, w.fromTransferId, w.by, w.at),
    db
      .prepare(
        `UPDATE bank_witnesses SET transfer_id = witness_id, link = 'split', split_by = ?6, split_reason = ?7, split_at = ?8
          WHERE agency_id = ?1 AND channel_code = ?2 AND source = ?3 AND witness_id = ?4 AND transfer_id = ?5 AND link IN ('window', 'order')`,
      )
      .bind(agencyId, w.channelCode, w.source, w.witnessId, w.fromTransferId, w.by, w.reason.slice(0, 500), w.at),
  ];
}

export async function findWitness(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  source: WitnessSource,
  witnessId: string,
): Promise<BankWitness | null> {
  const row = await db
    .prepare(`SELECT * FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND source = ?3 AND witness_id = ?4`)
    .bind(agencyId, channelCode, source, witnessId)
    .first<WitnessRow>();
  return row ? toWitness(row) : null;
}

/** Each statement import's channel and the bank-time range its rows cover (reconciliation). */
export function insertStatementImportStatement(
  db: D1Database,
  agencyId: string,
  i: {
    id: string;
    channelCode: string;
    fileName: string;
    from: number;
    to: number;
    creditRows: number;
    debitRows: number;
    importedBy: string | null;
    importedAt: number;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR REPLACE INTO statement_imports (id, agency_id, channel_code, file_name, bank_time_from, bank_time_to, credit_rows, debit_rows, imported_by, imported_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
    .bind(i.id, agencyId, i.channelCode, i.fileName, i.from, i.to, i.creditRows, i.debitRows, i.importedBy, i.importedAt);
}
