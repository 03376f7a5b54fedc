import { formatAmount, KIP } from "../core/money";
import { PAY_AMOUNT_COOL_DOWN_MS } from "../core/pay-amount";
import { readOne, rowsOf, type Read } from "./reads";

/**
 * Pay amount reservations of own-account channels (migration 0017, decision 016): which
 * amounts are held, holding one (guarded by a partial unique index), ending one, and the
 * reservations a bank transaction may pay (the matcher's index of every player's orders).
 */

export type PayAmountReservation = {
  channelCode: string;
  payAmount: string;
  orderCode: string;
  playerId: string;
  askedAmount: string;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
  held: boolean;
};

type ReservationRow = {
  channel_code: string;
  pay_amount: string;
  order_code: string;
  player_id: string;
  asked_amount: string;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
  held: number | null;
};

function toReservation(r: ReservationRow): PayAmountReservation {
  return {
    channelCode: r.channel_code,
    payAmount: r.pay_amount,
    orderCode: r.order_code,
    playerId: r.player_id,
    askedAmount: r.asked_amount,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    endedAt: r.ended_at,
    held: r.held === 1,
  };
}

/** The amounts (canonical LAK strings) of the channel held at `now`, among those given. */
/**
 * [low, high] as ranges of the stored text ("60001.00"), each of one length: text compares as
 * the amount only between texts as long (a range crosses at most one power of ten: 99,500 ..
 * 100,499 kip is two). Both ranges are given; the second repeats the first when one suffices.
 */
function textRanges(lowMinor: bigint, highMinor: bigint): [string, string, string, string] {
  const low = formatAmount(lowMinor, "LAK");
  const integerDigits = low.indexOf(".");
  // the largest amount written with as many integer digits: 99999.99 for 5
  const lastOfLength = 10n ** BigInt(integerDigits) * KIP - 1n;
  if (highMinor <= lastOfLength) return [low, formatAmount(highMinor, "LAK"), low, formatAmount(highMinor, "LAK")];
  return [low, formatAmount(lastOfLength, "LAK"), formatAmount(lastOfLength + 1n, "LAK"), formatAmount(highMinor, "LAK")];
}

/**
 * The amounts between low and high (LAK minor units) that orders of the channel hold. A range
 * on the held index, not a list of the 999 candidates: a list was read as 999 rows (json_each)
 * at every deposit (decision 076).
 */
export function heldPayAmountsRead(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  range: { lowMinor: bigint; highMinor: bigint },
  now: number,
): Read<string[]> {
  const [from, to, nextFrom, nextTo] = textRanges(range.lowMinor, range.highMinor);
  return {
    statement: db
      .prepare(
        `SELECT pay_amount FROM pay_amount_reservations
          WHERE agency_id = ?1 AND channel_code = ?2 AND held = 1 AND MIN(expires_at, COALESCE(ended_at, expires_at)) + ?3 > ?4
            AND ((length(pay_amount) = length(?5) AND pay_amount BETWEEN ?5 AND ?6) OR (length(pay_amount) = length(?7) AND pay_amount BETWEEN ?7 AND ?8))`,
      )
      .bind(agencyId, channelCode, PAY_AMOUNT_COOL_DOWN_MS, now, from, to, nextFrom, nextTo),
    read: (result) => rowsOf<{ pay_amount: string }>(result).map((r) => r.pay_amount),
  };
}

export function heldPayAmounts(
  db: D1Database,
  agencyId: string,
  channelCode: string,
  range: { lowMinor: bigint; highMinor: bigint },
  now: number,
): Promise<string[]> {
  return readOne(heldPayAmountsRead(db, agencyId, channelCode, range, now));
}

/**
 * Holds `payAmount` for an order, in one batch: a reservation of that amount past its
 * cool-down lets go first (kept as history), then the INSERT, which the unique index refuses
 * when another order holds the amount (false: try another amount). `alsoWritten` (the order's
 * reference) goes in the same transaction: written with the reservation or not at all.
 */
export async function reservePayAmount(
  db: D1Database,
  agencyId: string,
  input: { channelCode: string; payAmount: string; orderCode: string; playerId: string; askedAmount: string; createdAt: number; expiresAt: number },
  alsoWritten: D1PreparedStatement[] = [],
): Promise<boolean> {
  try {
    await db.batch([
      ...alsoWritten,
      db
        .prepare(
          `UPDATE pay_amount_reservations SET held = NULL
            WHERE agency_id = ?1 AND channel_code = ?2 AND pay_amount = ?3 AND held = 1 AND MIN(expires_at, COALESCE(ended_at, expires_at)) + ?4 <= ?5`,
        )
        .bind(agencyId, input.channelCode, input.payAmount, PAY_AMOUNT_COOL_DOWN_MS, input.createdAt),
      db
        .prepare(
          `INSERT INTO pay_amount_reservations (agency_id, channel_code, pay_amount, order_code, player_id, asked_amount, created_at, expires_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
        )
        .bind(agencyId, input.channelCode, input.payAmount, input.orderCode, input.playerId, input.askedAmount, input.createdAt, input.expiresAt),
    ]);
    return true;
  } catch (error) {
    if (/UNIQUE constraint failed/i.test(String(error))) return false;
    throw error;
  }
}

/** An order that was never opened (the wallet had one open already): its amount is free at once. */
export function dropPayAmountReservationStatement(db: D1Database, agencyId: string, orderCode: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM pay_amount_reservations WHERE agency_id = ?1 AND order_code = ?2`).bind(agencyId, orderCode);
}

/**
 * The order ended (paid, cancelled, or staff are marking it paid): the cool-down counts from
 * then (from its expiry if that came first). Guarded: false when it had ended already, so of
 * two staff pressing "mark paid" at once only one goes on.
 */
export async function endPayAmountReservation(db: D1Database, agencyId: string, orderCode: string, endedAt: number): Promise<boolean> {
  const result = await db
    .prepare(`UPDATE pay_amount_reservations SET ended_at = MIN(?3, expires_at) WHERE agency_id = ?1 AND order_code = ?2 AND ended_at IS NULL`)
    .bind(agencyId, orderCode, endedAt)
    .run();
  return (result.meta.changes ?? 0) > 0;
}

/** Staff's "mark paid" did not go through (the bank id was used before): the order is open again. */
export async function reopenPayAmountReservation(db: D1Database, agencyId: string, orderCode: string, endedAt: number): Promise<void> {
  await db
    .prepare(`UPDATE pay_amount_reservations SET ended_at = NULL WHERE agency_id = ?1 AND order_code = ?2 AND ended_at = MIN(?3, expires_at)`)
    .bind(agencyId, orderCode, endedAt)
    .run();
}

export async function findPayAmountReservation(db: D1Database, agencyId: string, orderCode: string): Promise<PayAmountReservation | null> {
  const row = await db
    .prepare(`SELECT * FROM pay_amount_reservations WHERE agency_id = ?1 AND order_code = ?2`)
    .bind(agencyId, orderCode)
    .first<ReservationRow>();
  return row ? toReservation(row) : null;
}

/**
 * How many orders listOpenReservations shows (the back office menu's badge). The channel list
 * lets SQLite walk pay_amount_reservations_open (agency, channel, expires_at) from the cool-down
 * onwards, so the count reads recent rows only, never the agency's whole history.
 */
export function countOpenReservationsStatement(db: D1Database, agencyId: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      `SELECT COUNT(*) AS n FROM pay_amount_reservations
        WHERE agency_id = ?1 AND channel_code IN (SELECT code FROM payment_channels WHERE agency_id = ?1) AND expires_at > ?2 AND ended_at IS NULL`,
    )
    .bind(agencyId, now - PAY_AMOUNT_COOL_DOWN_MS);
}

/** Every reservation of the channel with this pay amount (history included), newest first. */
export async function reservationsWithPayAmount(db: D1Database, agencyId: string, channelCode: string, payAmount: string): Promise<PayAmountReservation[]> {
  const { results } = await db
    .prepare(`SELECT * FROM pay_amount_reservations WHERE agency_id = ?1 AND channel_code = ?2 AND pay_amount = ?3 ORDER BY created_at DESC LIMIT 50`)
    .bind(agencyId, channelCode, payAmount)
    .all<ReservationRow>();
  return results.map(toReservation);
}

/**
 * Own-account orders staff may still mark paid, oldest first: not ended (paid or cancelled),
 * open or expired less than a cool-down ago (a payment made in time may be confirmed late).
 */
export async function listOpenReservations(
  db: D1Database,
  agencyId: string,
  now: number,
  limit: number,
): Promise<(PayAmountReservation & { username: string | null })[]> {
  const { results } = await db
    .prepare(
      `SELECT r.*, p.username FROM pay_amount_reservations r LEFT JOIN players p ON p.id = r.player_id AND p.agency_id = r.agency_id
        WHERE r.agency_id = ?1 AND r.ended_at IS NULL AND r.expires_at + ?4 > ?2 ORDER BY r.created_at LIMIT ?3`,
    )
    .bind(agencyId, now, limit, PAY_AMOUNT_COOL_DOWN_MS)
    .all<ReservationRow & { username: string | null }>();
  return results.map((r) => ({ ...toReservation(r), username: r.username }));
}
