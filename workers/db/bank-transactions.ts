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
type WitnessLink = "key" | "id" | "window" | "order" | "split";

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
  direction: BankDirection;
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
  direction: BankDirection;
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
    direction: r.direction,
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

/** The order's life of a transfer (reservation created..expires), for the order rule. */
const ORDER_LIFE = `(SELECT r.created_at FROM pay_amount_reservations r WHERE r.agency_id = t.agency_id AND r.order_code = t.order_code) AS order_created_at,
              (SELECT r.expires_at FROM pay_amount_reservations r WHERE r.agency_id = t.agency_id AND r.order_code = t.order_code) AS order_expires_at`;
type LifeRow = { order_created_at: number | null; order_expires_at: number | null };
const lifeOf = (r: LifeRow) =>
  r.order_created_at !== null && r.order_expires_at !== null ? { createdAt: r.order_created_at, expiresAt: r.order_expires_at } : null;

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
    /** when the payment reached the queue: an order given this pay amount around then is its order, whatever bank time was typed */
    receivedAt: number;
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
                             AND (?4 BETWEEN r.created_at - ?5 AND r.expires_at + ?6
                                  OR ?9 BETWEEN r.created_at - ?6 AND MIN(r.expires_at, COALESCE(r.ended_at, r.expires_at)) + ?6)))
          AND t.bank_transaction_id IS NOT ?8
        ORDER BY ABS(t.bank_time - ?4)
        LIMIT 20`,
    )
    .bind(agencyId, q.channelCode, q.amount, q.bankTime, q.window, q.coolDown, JSON.stringify(q.namedOrders), q.exceptTransferId, q.receivedAt)
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

// ---- reports and the derivation of transfers (migration 0037, decision 069) ----

/** A report as it arrived: kept once per source and id, whatever became of it. */
export type ReportInput = {
  channelCode: string;
  source: WitnessSource;
  witnessId: string;
  direction: BankDirection;
  amount: string;
  bankTime: number;
  reference: string | null;
  raw: string | null;
  future: boolean;
  staffUsername: string | null;
  recordedAt: number;
};

/** Keeps a report (a second delivery of the same source and id changes nothing). Its transfer is '' until a derivation places it. */
export function insertReportStatement(db: D1Database, agencyId: string, r: ReportInput): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO bank_witnesses (agency_id, channel_code, source, witness_id, transfer_id, amount, bank_time, reference, raw, link, staff_username, recorded_at, direction, future)
       VALUES (?1, ?2, ?3, ?4, '', ?5, ?6, ?7, ?8, 'key', ?9, ?10, ?11, ?12)`,
    )
    .bind(
      agencyId,
      r.channelCode,
      r.source,
      r.witnessId,
      r.amount,
      r.bankTime,
      r.reference,
      r.raw,
      r.staffUsername,
      r.recordedAt,
      r.direction,
      r.future ? 1 : 0,
    );
}

export type ScopeKey = { channelCode: string; direction: BankDirection; amount: string };
export type ScopeReport = BankWitness & { future: boolean };
export type BankCredit = {
  code: string;
  kind: "order" | "hand";
  channelCode: string;
  source: WitnessSource;
  witnessId: string;
  playerId: string | null;
  amount: string;
  /** the order whose money it was (see migration 0037) */
  forOrder: string | null;
  creditedAt: number;
  settled: "reversed" | "loss" | null;
  settledBy: string | null;
  settledReason: string | null;
  settledAt: number | null;
};
type CreditRow = {
  code: string;
  kind: "order" | "hand";
  channel_code: string;
  source: WitnessSource;
  witness_id: string;
  player_id: string | null;
  amount: string;
  for_order: string | null;
  credited_at: number;
  settled: "reversed" | "loss" | null;
  settled_by: string | null;
  settled_reason: string | null;
  settled_at: number | null;
};
const toCredit = (r: CreditRow): BankCredit => ({
  code: r.code,
  kind: r.kind,
  channelCode: r.channel_code,
  source: r.source,
  witnessId: r.witness_id,
  playerId: r.player_id,
  amount: r.amount,
  forOrder: r.for_order,
  creditedAt: r.credited_at,
  settled: r.settled,
  settledBy: r.settled_by,
  settledReason: r.settled_reason,
  settledAt: r.settled_at,
});
type ScopeTransfer = BankTransactionRecord & { credits: number; queueId: string | null };
export type ScopeOrder = { orderCode: string; playerId: string; createdAt: number; expiresAt: number; endedAt: number | null };
export type Scope = {
  version: number;
  reports: ScopeReport[];
  credits: BankCredit[];
  transfers: ScopeTransfer[];
  orders: ScopeOrder[];
  queue: { id: string; transactionId: string; status: string; kind: string }[];
  /** debits: the withdrawals the scope's reports paid (decision 084) */
  payouts: { withdrawCode: string; source: WitnessSource; witnessId: string }[];
};

/**
 * Everything one derivation reads, in one round trip: the scope's version, its reports within
 * [from, to], the credits tied to them, the transfers they are in now, the orders given this
 * pay amount on the channel, and the payments-queue items of those reports.
 */
export async function loadScope(db: D1Database, agencyId: string, key: ScopeKey, from: number, to: number): Promise<Scope> {
  const inScope = `SELECT witness_id FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND direction = ?3 AND amount = ?4 AND bank_time BETWEEN ?5 AND ?6`;
  const [version, reports, credits, transfers, orders, queue, payouts] = await db.batch([
    db
      .prepare(`SELECT version FROM bank_derivations WHERE agency_id = ?1 AND channel_code = ?2 AND direction = ?3 AND amount = ?4`)
      .bind(agencyId, key.channelCode, key.direction, key.amount),
    db
      .prepare(`SELECT * FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND direction = ?3 AND amount = ?4 AND bank_time BETWEEN ?5 AND ?6`)
      .bind(agencyId, key.channelCode, key.direction, key.amount, from, to),
    db
      .prepare(`SELECT * FROM bank_credits WHERE agency_id = ?1 AND channel_code = ?2 AND amount = ?4 AND witness_id IN (${inScope})`)
      .bind(agencyId, key.channelCode, key.direction, key.amount, from, to),
    db
      .prepare(
        `SELECT * FROM bank_transactions WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id IN
           (SELECT transfer_id FROM bank_witnesses WHERE agency_id = ?1 AND channel_code = ?2 AND direction = ?3 AND amount = ?4 AND bank_time BETWEEN ?5 AND ?6)`,
      )
      .bind(agencyId, key.channelCode, key.direction, key.amount, from, to),
    db
      .prepare(
        `SELECT order_code, player_id, created_at, expires_at, ended_at FROM pay_amount_reservations WHERE agency_id = ?1 AND channel_code = ?2 AND pay_amount = ?3`,
      )
      .bind(agencyId, key.channelCode, key.direction === "credit" ? key.amount : "-"),
    db
      .prepare(
        `SELECT id, transaction_id, status, kind FROM unmatched_payments WHERE agency_id = ?1 AND transaction_id IN (SELECT ?1 || ':' || ?2 || ':' || witness_id FROM (${inScope}))`,
      )
      .bind(agencyId, key.channelCode, key.direction, key.amount, from, to),
    db
      .prepare(`SELECT withdraw_code, source, witness_id FROM bank_debit_payouts WHERE agency_id = ?1 AND channel_code = ?2 AND witness_id IN (${inScope})`)
      .bind(agencyId, key.channelCode, key.direction, key.amount, from, to),
  ]);
  return {
    version: (version.results[0] as { version: number } | undefined)?.version ?? 0,
    reports: (reports.results as (WitnessRow & { future: number })[]).map((r) => ({ ...toWitness(r), future: r.future === 1 })),
    credits: (credits.results as CreditRow[]).map(toCredit),
    transfers: (transfers.results as (Row & { credits: number; queue_id: string | null })[]).map((r) => ({
      ...toRecord(r),
      credits: r.credits,
      queueId: r.queue_id,
    })),
    orders: (orders.results as { order_code: string; player_id: string; created_at: number; expires_at: number; ended_at: number | null }[]).map((r) => ({
      orderCode: r.order_code,
      playerId: r.player_id,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      endedAt: r.ended_at,
    })),
    queue: (queue.results as { id: string; transaction_id: string; status: string; kind: string }[]).map((r) => ({
      id: r.id,
      transactionId: r.transaction_id,
      status: r.status,
      kind: r.kind,
    })),
    payouts: (payouts.results as { withdraw_code: string; source: WitnessSource; witness_id: string }[]).map((r) => ({
      withdrawCode: r.withdraw_code,
      source: r.source,
      witnessId: r.witness_id,
    })),
  };
}

/** The guard of a derivation's write: the scope's version moves on only from the version read (else the CHECK fails the batch). */
export function bumpScopeStatement(db: D1Database, agencyId: string, key: ScopeKey, expected: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO bank_derivations (agency_id, channel_code, direction, amount, version) VALUES (?1, ?2, ?3, ?4, CASE WHEN ?5 = 0 THEN 1 ELSE 0 END)
       ON CONFLICT (agency_id, channel_code, direction, amount) DO UPDATE SET version = CASE WHEN version = ?5 THEN version + 1 ELSE -1 END`,
    )
    .bind(agencyId, key.channelCode, key.direction, key.amount, expected);
}

/** Places a report in its derived transfer. */
export function placeReportStatement(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  source: WitnessSource,
  witnessId: string,
  transferId: string,
  link: string,
) {
  return db
    .prepare(`UPDATE bank_witnesses SET transfer_id = ?5, link = ?6 WHERE agency_id = ?1 AND channel_code = ?2 AND source = ?3 AND witness_id = ?4`)
    .bind(agencyId, channelCode, source, witnessId, transferId, link);
}

export function deleteTransferStatement(db: D1Database, agencyId: string, channelCode: string, transferId: string): D1PreparedStatement {
  return db
    .prepare(`DELETE FROM bank_transactions WHERE agency_id = ?1 AND channel_code = ?2 AND bank_transaction_id = ?3`)
    .bind(agencyId, channelCode, transferId);
}

export type TransferRow = Omit<BankTransactionRecord, "recordedAt"> & {
  staffUsername: string | null;
  recordedAt: number;
  credits: number;
  queueId: string | null;
};

/** Writes a derived transfer (its key report's facts, what became of it). */
export function upsertTransferStatement(db: D1Database, agencyId: string, t: TransferRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO bank_transactions (agency_id, channel_code, bank_transaction_id, direction, amount, bank_time, reference, source, raw, outcome, order_code, player_id, staff_username, recorded_at, credits, queue_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
       ON CONFLICT (agency_id, channel_code, bank_transaction_id) DO UPDATE SET direction = ?4, amount = ?5, bank_time = ?6, reference = ?7, source = ?8, raw = ?9,
         outcome = ?10, order_code = ?11, player_id = ?12, staff_username = ?13, credits = ?15, queue_id = ?16`,
    )
    .bind(
      agencyId,
      t.channelCode,
      t.bankTransactionId,
      t.direction,
      t.amount,
      t.bankTime,
      t.reference,
      t.source,
      t.raw,
      t.outcome,
      t.orderCode,
      t.playerId,
      t.staffUsername,
      t.recordedAt,
      t.credits,
      t.queueId,
    );
}

/** Records a credit a report's transfer caused (false: that order or manual order already has its credit). */
export async function insertBankCredit(
  db: D1Database,
  agencyId: string,
  c: Omit<BankCredit, "settled" | "settledBy" | "settledReason" | "settledAt">,
): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO bank_credits (agency_id, code, kind, channel_code, source, witness_id, player_id, amount, for_order, credited_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
    .bind(agencyId, c.code, c.kind, c.channelCode, c.source, c.witnessId, c.playerId, c.amount, c.forOrder, c.creditedAt)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** The credits of a transfer's reports (the order page, the owner's settlement). */
export async function creditsOfTransfer(db: D1Database, agencyId: string, channelCode: string, transferId: string): Promise<BankCredit[]> {
  const { results } = await db
    .prepare(
      `SELECT c.* FROM bank_credits c JOIN bank_witnesses w ON w.agency_id = c.agency_id AND w.channel_code = c.channel_code AND w.source = c.source AND w.witness_id = c.witness_id
        WHERE c.agency_id = ?1 AND c.channel_code = ?2 AND w.transfer_id = ?3 ORDER BY c.credited_at, c.code`,
    )
    .bind(agencyId, channelCode, transferId)
    .all<CreditRow>();
  return results.map(toCredit);
}

export async function findBankCredit(db: D1Database, agencyId: string, code: string): Promise<BankCredit | null> {
  const row = await db.prepare(`SELECT * FROM bank_credits WHERE agency_id = ?1 AND code = ?2`).bind(agencyId, code).first<CreditRow>();
  return row ? toCredit(row) : null;
}

/** The owner settles a surplus credit once: reversed at the provider, or a recorded loss. */
export function settleBankCreditStatement(
  db: D1Database,
  agencyId: string,
  s: { code: string; settled: "reversed" | "loss"; by: string; reason: string; at: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bank_credits SET settled = ?3, settled_by = ?4, settled_reason = ?5, settled_at = ?6 WHERE agency_id = ?1 AND code = ?2 AND settled IS NULL`,
    )
    .bind(agencyId, s.code, s.settled, s.by, s.reason, s.at);
}

/** Marks a report split off by the owner: from now on it is tied to others by its id only. */
export function splitReportStatement(
  db: D1Database,
  agencyId: string,
  w: { channelCode: string; source: WitnessSource; witnessId: string; by: string; reason: string; at: number },
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE bank_witnesses SET split_by = ?5, split_reason = ?6, split_at = ?7
        WHERE agency_id = ?1 AND channel_code = ?2 AND source = ?3 AND witness_id = ?4 AND split_at IS NULL`,
    )
    .bind(agencyId, w.channelCode, w.source, w.witnessId, w.by, w.reason.slice(0, 500), w.at);
}

/** Reports kept but never placed in a transfer (their request died before the derivation): the cron derives them. */
export async function unplacedReports(db: D1Database, limit: number): Promise<(ScopeKey & { agencyId: string; bankTime: number })[]> {
  const { results } = await db
    .prepare(`SELECT agency_id, channel_code, direction, amount, bank_time FROM bank_witnesses WHERE transfer_id = '' AND recorded_at < ?1 LIMIT ?2`)
    .bind(Date.now() - 60_000, limit)
    .all<{ agency_id: string; channel_code: string; direction: BankDirection; amount: string; bank_time: number }>();
  return results.map((r) => ({ agencyId: r.agency_id, channelCode: r.channel_code, direction: r.direction, amount: r.amount, bankTime: r.bank_time }));
}
