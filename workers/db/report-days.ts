/**
 * The SQL of the reports' days (decision 078): each kind of a day's figures is ONE query over
 * the read models, run as a SELECT over the days read live and as INSERT ... SELECT when a day
 * is rolled up into report_days (migration 0042), so both paths add the same rows the same way.
 * Sums are SUM() over INTEGER minor-unit columns (exact integers in SQLite, never TOTAL()).
 * A day is rolled up whole in one D1 batch, a transaction: a trigger of 0042 that drops a day's
 * rollup because a read-model row of that day changed runs either before it (the roll-up reads
 * the change) or after it (the rollup is dropped), never in between.
 */
import { DAY_KINDS, HISTOGRAM_CAP, type DayKind, type DayRow, type RefundRow } from "../core/report-days";

/** The Vientiane day ('YYYY-MM-DD', UTC+7) of an ISO time column. */
const day = (column: string) => `date(${column}, '+7 hours')`;

/** Days between two 'YYYY-MM-DD' expressions, held within [low, HISTOGRAM_CAP]. */
const daysBetween = (later: string, earlier: string, low: number) =>
  `MAX(${low}, MIN(${HISTOGRAM_CAP}, CAST(julianday(${later}) - julianday(${earlier}) AS INTEGER)))`;

// ?1 agency, ?2 from (ISO, inclusive), ?3 to (ISO, exclusive)
const DEPOSIT_PAID = `agency_id = ?1 AND status = 'SUCCESS' AND paid_at >= ?2 AND paid_at < ?3`;
const WITHDRAW_PAID = `agency_id = ?1 AND status = 'SUCCESS' AND paid_at >= ?2 AND paid_at < ?3`;

/**
 * A histogram kind: one row a day, n = its players, histogram = {"bucket": players} (JSON, so
 * a day is one row whatever the spread). `rows` yields (day, bucket), one per player.
 */
function histogram(kind: DayKind, rows: string): string {
  return `SELECT day, '${kind}' AS kind, '' AS key, 0 AS bucket, SUM(n) AS n, 0 AS kip, 0 AS credit, 0 AS bonus, 0 AS deducted,
                 json_group_object(CAST(bucket AS TEXT), n) AS histogram
            FROM (SELECT day, bucket, COUNT(*) AS n FROM (${rows}) GROUP BY 1, 2) GROUP BY 1`;
}

/** Each kind's query: columns day, kind, key, bucket, n, kip, credit, bonus, deducted, histogram. */
const KIND_SQL: Record<DayKind, string> = {
  deposits: `SELECT ${day("paid_at")} AS day, 'deposits' AS kind, provider AS key, (channel_code IS 'MANUAL') AS bucket, COUNT(*) AS n,
                    COALESCE(SUM(paid_minor), 0) AS kip, COALESCE(SUM(credit_minor), 0) AS credit, COALESCE(SUM(bonus_minor), 0) AS bonus, 0 AS deducted, NULL AS histogram
               FROM deposit_orders_view WHERE ${DEPOSIT_PAID} GROUP BY 1, 3, 4`,
  withdrawals: `SELECT ${day("paid_at")} AS day, 'withdrawals' AS kind, provider AS key, 0 AS bucket, COUNT(*) AS n,
                       COALESCE(SUM(paid_lak_minor), 0) AS kip, COALESCE(SUM(credit_minor), 0) AS credit, 0 AS bonus, COALESCE(SUM(deducted_minor), 0) AS deducted, NULL AS histogram
                  FROM withdraw_orders_view WHERE ${WITHDRAW_PAID} GROUP BY 1, 3`,
  "promotion-bonus": `SELECT ${day("paid_at")} AS day, 'promotion-bonus' AS kind, promotion_id AS key, 0 AS bucket, COUNT(*) AS n,
                             0 AS kip, 0 AS credit, COALESCE(SUM(bonus_minor), 0) AS bonus, 0 AS deducted, NULL AS histogram
                        FROM deposit_orders_view WHERE ${DEPOSIT_PAID} AND promotion_id IS NOT NULL GROUP BY 1, 3`,
  "promotion-deducted": `SELECT ${day("paid_at")} AS day, 'promotion-deducted' AS kind, promotion_id AS key, 0 AS bucket, COUNT(*) AS n,
                                0 AS kip, 0 AS credit, 0 AS bonus, COALESCE(SUM(deducted_minor), 0) AS deducted, NULL AS histogram
                           FROM withdraw_orders_view WHERE ${WITHDRAW_PAID} AND promotion_id IS NOT NULL GROUP BY 1, 3`,
  "promotion-claims": `SELECT ${day("claimed_at")} AS day, 'promotion-claims' AS kind, promotion_id AS key, 0 AS bucket, COUNT(*) AS n,
                              0 AS kip, 0 AS credit, 0 AS bonus, 0 AS deducted, NULL AS histogram
                         FROM promotion_usages_view WHERE agency_id = ?1 AND claimed_at >= ?2 AND claimed_at < ?3 GROUP BY 1, 3`,
  "promotion-completed": `SELECT ${day("ended_at")} AS day, 'promotion-completed' AS kind, promotion_id AS key, 0 AS bucket, COUNT(*) AS n,
                                 0 AS kip, 0 AS credit, 0 AS bonus, 0 AS deducted, NULL AS histogram
                            FROM promotion_usages_view WHERE agency_id = ?1 AND ended_at >= ?2 AND ended_at < ?3 AND status = 'SUCCESS' GROUP BY 1, 3`,
  "promotion-cancelled": `SELECT ${day("ended_at")} AS day, 'promotion-cancelled' AS kind, promotion_id AS key, 0 AS bucket, COUNT(*) AS n,
                                 0 AS kip, 0 AS credit, 0 AS bonus, 0 AS deducted, NULL AS histogram
                            FROM promotion_usages_view WHERE agency_id = ?1 AND ended_at >= ?2 AND ended_at < ?3 AND status = 'CANCELED' GROUP BY 1, 3`,
  registrations: `SELECT ${day("created_at")} AS day, 'registrations' AS kind, '' AS key, 0 AS bucket, COUNT(*) AS n,
                         0 AS kip, 0 AS credit, 0 AS bonus, 0 AS deducted, NULL AS histogram
                    FROM players WHERE agency_id = ?1 AND created_at >= ?2 AND created_at < ?3 GROUP BY 1`,
  // by days from registration to the first deposit (-1 stands for a registration dated after it)
  "first-deposits": histogram(
    "first-deposits",
    `SELECT ${day("first_deposit_at")} AS day, ${daysBetween(day("first_deposit_at"), day("created_at"), -1)} AS bucket
       FROM players WHERE agency_id = ?1 AND first_deposit_at >= ?2 AND first_deposit_at < ?3`,
  ),
  // each player who deposited on a day, once, by the days since their previous deposit (one
  // seek each in deposit_orders_view_player_paid); none before counts as the cap
  depositors: histogram(
    "depositors",
    `WITH firsts AS (
       SELECT ${day("paid_at")} AS day, player_id, MIN(paid_at) AS at FROM deposit_orders_view
        WHERE ${DEPOSIT_PAID} AND channel_code IS NOT 'MANUAL' GROUP BY 1, 2),
     previous AS (
       SELECT day, (SELECT MAX(p.paid_at) FROM deposit_orders_view p
                     WHERE p.player_id = firsts.player_id AND p.status = 'SUCCESS' AND p.channel_code IS NOT 'MANUAL' AND p.paid_at < firsts.at) AS at
         FROM firsts)
     SELECT day, COALESCE(${daysBetween("day", day("previous.at"), 1)}, ${HISTOGRAM_CAP}) AS bucket FROM previous`,
  ),
};

/** The kinds each report reads. */
export const MONEY_KINDS: readonly DayKind[] = ["deposits", "withdrawals"];
export const PLAYERS_KINDS: readonly DayKind[] = ["registrations", "first-deposits", "depositors"];
export const PROMOTION_KINDS: readonly DayKind[] = ["promotion-bonus", "promotion-deducted", "promotion-claims", "promotion-completed", "promotion-cancelled"];

const COLUMNS = "day, kind, key, bucket, n, kip, credit, bonus, deducted, histogram";

/** A day's span as the ISO bounds the read models store. */
export type DaySpan = { fromIso: string; toIsoExclusive: string };

/** {"3": 10, "92": 2} -> [[3, 10], [92, 2]] */
function histogramOf(json: string): [bucket: number, n: number][] {
  return Object.entries(JSON.parse(json) as Record<string, number>).map(([bucket, n]) => [Number(bucket), Number(n)]);
}

function toDayRow(r: Record<string, unknown>): DayRow {
  return {
    day: String(r.day),
    kind: r.kind as DayKind,
    key: String(r.key ?? ""),
    bucket: Number(r.bucket),
    n: Number(r.n),
    kip: Number(r.kip),
    credit: Number(r.credit),
    bonus: Number(r.bonus),
    deducted: Number(r.deducted),
    histogram: r.histogram == null ? null : histogramOf(String(r.histogram)),
  };
}

/** The rows of a kind's statement (live, or what a roll-up wrote). */
export function readDayRows(result: D1Result<Record<string, unknown>>): DayRow[] {
  return result.results.map(toDayRow);
}

/** The rollup rows and the sealed days of an agency between two days (inclusive). */
export function rolledUpDaysStatement(db: D1Database, agencyId: string, fromDay: string, toDay: string): D1PreparedStatement {
  return db.prepare(`SELECT ${COLUMNS} FROM report_days WHERE agency_id = ?1 AND day >= ?2 AND day <= ?3`).bind(agencyId, fromDay, toDay);
}

export function readRolledUpDays(result: D1Result<Record<string, unknown>>): { rows: DayRow[]; sealed: Set<string> } {
  const sealed = new Set<string>();
  const rows: DayRow[] = [];
  for (const row of result.results) {
    if (row.kind === "sealed") sealed.add(String(row.day));
    else rows.push(toDayRow(row));
  }
  return { rows, sealed };
}

/** The given kinds of every day in the span, live from the read models: one statement a kind. */
export function liveDaysStatements(db: D1Database, agencyId: string, span: DaySpan, kinds: readonly DayKind[]): D1PreparedStatement[] {
  return kinds.map((kind) => db.prepare(KIND_SQL[kind]).bind(agencyId, span.fromIso, span.toIsoExclusive));
}

/**
 * Rolls up one day of an agency: its old rows gone, every kind's rows and the 'sealed' row
 * written, in the one batch the caller sends (a transaction). Each insert returns what it
 * wrote, so a report that rolls a day up reads it in the same round trip (`readRolledUpDay`).
 * (One statement a kind: D1 refuses a compound SELECT of that many terms.)
 */
export function rollUpDayStatements(db: D1Database, agencyId: string, dayName: string, span: DaySpan): D1PreparedStatement[] {
  return [
    db.prepare(`DELETE FROM report_days WHERE agency_id = ?1 AND day = ?2`).bind(agencyId, dayName),
    ...DAY_KINDS.map((kind) =>
      db
        .prepare(`INSERT INTO report_days (${COLUMNS}, agency_id) SELECT ${COLUMNS}, ?1 FROM (${KIND_SQL[kind]}) RETURNING ${COLUMNS}`)
        .bind(agencyId, span.fromIso, span.toIsoExclusive),
    ),
    db.prepare(`INSERT INTO report_days (agency_id, day, kind) VALUES (?1, ?2, 'sealed')`).bind(agencyId, dayName),
  ];
}

/** The rows a roll-up wrote, from the results of rollUpDayStatements (in its order). */
export function readRolledUpDay(results: D1Result<Record<string, unknown>>[]): DayRow[] {
  return results.slice(1, 1 + DAY_KINDS.length).flatMap(readDayRows);
}

/** Refunds are read live, row by row: their amounts are decimal text, added as bigint by the service. */
export function refundsStatement(db: D1Database, agencyId: string, span: DaySpan): D1PreparedStatement {
  return db
    .prepare(
      `SELECT ${day("resolved_at")} AS period, amount FROM unmatched_payments
        WHERE agency_id = ?1 AND status = 'REFUNDED' AND resolved_at >= ?2 AND resolved_at < ?3`,
    )
    .bind(agencyId, span.fromIso, span.toIsoExclusive);
}

export function readRefunds(result: D1Result<Record<string, unknown>>): RefundRow[] {
  return result.results as RefundRow[];
}

/** The agencies whose reports the scheduled roll-up keeps. */
export async function listActiveAgencyIds(db: D1Database): Promise<string[]> {
  const { results } = await db.prepare(`SELECT id FROM agencies WHERE status = 'ACTIVE' ORDER BY id`).all<{ id: string }>();
  return results.map((r) => r.id);
}

/** Which of the given days of an agency are rolled up (one seek per day). */
export async function sealedDays(db: D1Database, agencyId: string, days: readonly string[]): Promise<Set<string>> {
  const { results } = await db
    .prepare(`SELECT day FROM report_days WHERE agency_id = ?1 AND kind = 'sealed' AND day IN (SELECT value FROM json_each(?2))`)
    .bind(agencyId, JSON.stringify(days))
    .all<{ day: string }>();
  return new Set(results.map((r) => r.day));
}
