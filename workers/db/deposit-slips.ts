/**
 * The players' transfer slips (migration 0049, decision 087): kept beside the bank reports, never
 * among them (bank_witnesses feeds the derivation of transfers; a slip must not). Every statement
 * of the slips lives here; the services decide.
 */

export type SlipRow = {
  id: string;
  orderCode: string;
  playerId: string;
  channelCode: string;
  ticket: string;
  reference: string;
  qrText: string;
  contentType: "image/png" | "image/jpeg";
  bytes: number;
  conflict: boolean;
  receivedAt: number;
  checkedBy: string | null;
  checkedAt: number | null;
};

type Row = {
  id: string;
  order_code: string;
  player_id: string;
  channel_code: string;
  ticket: string;
  reference: string;
  qr_text: string;
  content_type: "image/png" | "image/jpeg";
  bytes: number;
  conflict: number;
  received_at: number;
  checked_by: string | null;
  checked_at: number | null;
};

const toSlip = (r: Row): SlipRow => ({
  id: r.id,
  orderCode: r.order_code,
  playerId: r.player_id,
  channelCode: r.channel_code,
  ticket: r.ticket,
  reference: r.reference,
  qrText: r.qr_text,
  contentType: r.content_type,
  bytes: r.bytes,
  conflict: r.conflict === 1,
  receivedAt: r.received_at,
  checkedBy: r.checked_by,
  checkedAt: r.checked_at,
});

export type NewSlip = Omit<SlipRow, "conflict" | "checkedBy" | "checkedAt">;

/**
 * Keeps a slip (the same order and reference again changes nothing), then flags every slip of
 * that reference when it is on more than one order: both orders show the conflict (decision 087;
 * refusing the second would let anyone who saw a slip block its payer). One batch, one round trip.
 * Answers whether the slip was new, and the other orders holding the same reference.
 */
export async function insertSlip(db: D1Database, agencyId: string, slip: NewSlip): Promise<{ inserted: boolean; otherOrders: string[] }> {
  const [inserted, , others] = await db.batch([
    db
      .prepare(
        `INSERT OR IGNORE INTO deposit_slips (id, agency_id, order_code, player_id, channel_code, ticket, reference, qr_text, content_type, bytes, received_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
      )
      .bind(
        slip.id,
        agencyId,
        slip.orderCode,
        slip.playerId,
        slip.channelCode,
        slip.ticket,
        slip.reference,
        slip.qrText,
        slip.contentType,
        slip.bytes,
        slip.receivedAt,
      ),
    db
      .prepare(
        `UPDATE deposit_slips SET conflict = 1 WHERE agency_id = ?1 AND reference = ?2 AND conflict = 0
           AND EXISTS (SELECT 1 FROM deposit_slips o WHERE o.agency_id = ?1 AND o.reference = ?2 AND o.order_code <> deposit_slips.order_code)`,
      )
      .bind(agencyId, slip.reference),
    db
      .prepare(`SELECT DISTINCT order_code FROM deposit_slips WHERE agency_id = ?1 AND reference = ?2 AND order_code <> ?3 ORDER BY order_code`)
      .bind(agencyId, slip.reference, slip.orderCode),
  ]);
  return {
    inserted: (inserted.meta.changes ?? 0) > 0,
    otherOrders: (others.results as { order_code: string }[]).map((r) => r.order_code),
  };
}

export async function countSlipsOfOrder(db: D1Database, agencyId: string, orderCode: string): Promise<number> {
  const row = await db
    .prepare(`SELECT COUNT(*) AS n FROM deposit_slips WHERE agency_id = ?1 AND order_code = ?2`)
    .bind(agencyId, orderCode)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** An order's slips, newest first, with the other orders each one's reference is on. */
export async function slipsOfOrder(db: D1Database, agencyId: string, orderCode: string): Promise<(SlipRow & { otherOrders: string[] })[]> {
  const { results } = await db
    .prepare(
      `SELECT s.*, (SELECT group_concat(DISTINCT o.order_code) FROM deposit_slips o WHERE o.agency_id = s.agency_id AND o.reference = s.reference AND o.order_code <> s.order_code) AS others
         FROM deposit_slips s WHERE s.agency_id = ?1 AND s.order_code = ?2 ORDER BY s.received_at DESC, s.id`,
    )
    .bind(agencyId, orderCode)
    .all<Row & { others: string | null }>();
  return results.map((r) => ({ ...toSlip(r), otherOrders: r.others ? r.others.split(",").sort() : [] }));
}

export async function findSlip(db: D1Database, agencyId: string, id: string): Promise<SlipRow | null> {
  const row = await db.prepare(`SELECT * FROM deposit_slips WHERE agency_id = ?1 AND id = ?2`).bind(agencyId, id).first<Row>();
  return row ? toSlip(row) : null;
}

/** A slip waiting for the cashier, with its order as the back office knows it. */
export type WaitingSlip = SlipRow & {
  otherOrders: string[];
  username: string | null;
  orderStatus: string | null;
  orderAmount: string | null;
  payAmount: string | null;
  orderCreatedAt: number | null;
  orderExpiresAt: number | null;
  /** the owner confirmed the channel's bank reports carry the slip's reference (decision 087) */
  referenceConfirmed: boolean;
};

/**
 * The slips not checked yet whose order is not paid (the wallet's projection says so), newest
 * first: the top of the cashier's queue. Through the partial index of waiting slips.
 */
export async function waitingSlips(db: D1Database, agencyId: string, limit: number): Promise<WaitingSlip[]> {
  const { results } = await db
    .prepare(
      `SELECT s.*, p.username, v.status AS order_status, v.amount AS order_amount, r.pay_amount, r.created_at AS order_created_at,
              r.expires_at AS order_expires_at, COALESCE(c.slip_reference_confirmed, 0) AS reference_confirmed,
              (SELECT group_concat(DISTINCT o.order_code) FROM deposit_slips o WHERE o.agency_id = s.agency_id AND o.reference = s.reference AND o.order_code <> s.order_code) AS others
         FROM deposit_slips s
         LEFT JOIN players p ON p.id = s.player_id AND p.agency_id = s.agency_id
         LEFT JOIN deposit_orders_view v ON v.code = s.order_code AND v.agency_id = s.agency_id
         LEFT JOIN pay_amount_reservations r ON r.agency_id = s.agency_id AND r.order_code = s.order_code
         LEFT JOIN payment_channels c ON c.agency_id = s.agency_id AND c.code = s.channel_code
        WHERE s.agency_id = ?1 AND s.checked_at IS NULL AND COALESCE(v.status, 'OPEN') NOT IN ('PAID', 'SUCCESS', 'FAILED')
        ORDER BY s.received_at DESC, s.id LIMIT ?2`,
    )
    .bind(agencyId, limit)
    .all<
      Row & {
        username: string | null;
        order_status: string | null;
        order_amount: string | null;
        pay_amount: string | null;
        order_created_at: number | null;
        order_expires_at: number | null;
        reference_confirmed: number;
        others: string | null;
      }
    >();
  return results.map((r) => ({
    ...toSlip(r),
    otherOrders: r.others ? r.others.split(",").sort() : [],
    username: r.username,
    orderStatus: r.order_status,
    orderAmount: r.order_amount,
    payAmount: r.pay_amount,
    orderCreatedAt: r.order_created_at,
    orderExpiresAt: r.order_expires_at,
    referenceConfirmed: r.reference_confirmed === 1,
  }));
}

/** A bank report a slip is shown beside: linked by the slip's reference, or a candidate of the order's amount and time. */
export type SlipReport = {
  source: string;
  witnessId: string;
  transferId: string;
  amount: string;
  bankTime: number;
  raw: string | null;
  outcome: string | null;
  orderCode: string | null;
  queueId: string | null;
};

type ReportRow = {
  source: string;
  witness_id: string;
  transfer_id: string;
  amount: string;
  bank_time: number;
  raw: string | null;
  outcome: string | null;
  order_code: string | null;
  queue_id: string | null;
};

const REPORT_COLUMNS = `w.source, w.witness_id, w.transfer_id, w.amount, w.bank_time, w.raw, t.outcome, t.order_code, t.queue_id`;
const TRANSFER_JOIN = `LEFT JOIN bank_transactions t ON t.agency_id = w.agency_id AND t.channel_code = w.channel_code AND t.bank_transaction_id = w.transfer_id`;

/**
 * The bank's own reports (statement rows, forwarded SMS) whose id is the slip's reference, on the
 * slip's channel: the link by id (through the id index of bank_witnesses). Staff's "mark paid"
 * is left out: the cashier may have typed the reference from the very slip.
 */
export function reportsByReferenceStatement(db: D1Database, agencyId: string, channelCode: string, reference: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT ${REPORT_COLUMNS} FROM bank_witnesses w ${TRANSFER_JOIN}
        WHERE w.agency_id = ?1 AND w.channel_code = ?2 AND w.witness_id = ?3 AND w.source IN ('statement', 'forwarder') AND w.direction = 'credit'
        ORDER BY w.source`,
    )
    .bind(agencyId, channelCode, reference);
}

/**
 * The credits of the order's pay amount on its channel from its opening to the end of its pay
 * amount's cool-down (through the scope index of bank_witnesses): the candidates a slip is shown
 * beside when its reference does not link.
 */
export function candidateReportsStatement(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  amount: string,
  from: number,
  to: number,
  limit: number,
): D1PreparedStatement {
  return db
    .prepare(
      `SELECT ${REPORT_COLUMNS} FROM bank_witnesses w ${TRANSFER_JOIN}
        WHERE w.agency_id = ?1 AND w.channel_code = ?2 AND w.direction = 'credit' AND w.amount = ?3 AND w.bank_time BETWEEN ?4 AND ?5
        ORDER BY w.bank_time, w.source, w.witness_id LIMIT ?6`,
    )
    .bind(agencyId, channelCode, amount, from, to, limit);
}

export const toSlipReports = (result: D1Result): SlipReport[] =>
  (result.results as ReportRow[]).map((r) => ({
    source: r.source,
    witnessId: r.witness_id,
    transferId: r.transfer_id,
    amount: r.amount,
    bankTime: r.bank_time,
    raw: r.raw,
    outcome: r.outcome,
    orderCode: r.order_code,
    queueId: r.queue_id,
  }));

/** Staff took the slip off the queue (once: a second press changes nothing). */
export function checkSlipStatement(db: D1Database, agencyId: string, id: string, by: string, at: number): D1PreparedStatement {
  return db
    .prepare(`UPDATE deposit_slips SET checked_by = ?3, checked_at = ?4 WHERE agency_id = ?1 AND id = ?2 AND checked_at IS NULL`)
    .bind(agencyId, id, by, at);
}
