import { CSV_BOM, csvField } from "../../core/csv";
import {
  bankDayBounds,
  LOOK_AROUND_MS,
  matchDebits,
  pageOfLines,
  reconcileDay,
  type DayInput,
  type Line,
  type LinePage,
  type LineView,
  type ReconciledDay,
} from "../../core/reconciliation";
import { vientianeDate } from "../../core/report-range";
import { parseTypedDay, vientianeDateTime } from "../../core/vientiane";
import { auditStatement, recordAudit, type AuditActor } from "../../db/audit";
import { creditsOfTransfer, findBankCredit, findWitness, settleBankCreditStatement } from "../../db/bank-transactions";
import { deriveAround } from "./bank-transactions";
import {
  loadCredits,
  loadCreditTexts,
  loadDebits,
  loadFutureReports,
  loadPayouts,
  loadReconciliationNotes,
  loadReportedDeposits,
  loadStatementImports,
  loadWitnessWindows,
  saveReconciliationNoteStatement,
  type Span,
} from "../../db/reconciliation";

/**
 * The reconciliation page (decision 047): one bank day (Vientiane, by the
 * bank's time) of the agency's own accounts against the portal's deposits, withdrawals marked
 * paid and credit per provider; the lines come from workers/core/reconciliation.ts. Owners
 * write a note on each difference (audited); cashiers read. The withdrawal page shows the bank
 * debits matched to a withdrawal by the same rule.
 *
 * A large day (decision 074): the day's rows are read without their raw texts, every line is
 * counted for the summary, and one page of lines (differences first) is shown with its texts;
 * the CSV streams every line, reading the texts a chunk of lines at a time.
 */

export type ReconciliationPage = Omit<ReconciledDay, "lines"> & {
  /** the lines of the page asked for (at most LINES_PER_PAGE), with their texts */
  lines: Line[];
  paging: Omit<LinePage, "lines">;
  previousDay: string;
  nextDay: string | null;
  today: string;
};

const DAY_MS = 24 * 3600_000;
const NOTE_MAX = 500;

/** Debits and withdrawals marked paid pair across midnight: they are read from LOOK_AROUND before the day to LOOK_AROUND after it. */
const spanAround = (day: string): Span => {
  const bounds = bankDayBounds(day)!;
  return { from: bounds.start - LOOK_AROUND_MS, to: bounds.end + LOOK_AROUND_MS };
};

/**
 * The rows the rules need for a day: its credits (a credit's line is on its own bank day, and
 * the derivation already said which reports are one transfer and what it credited) with the
 * transfers of the deposits the reports count on the day; debits, withdrawals marked paid,
 * late reports and imports of the days around it.
 */
async function dayInput(db: D1Database, agencyId: string, day: string): Promise<DayInput> {
  const bounds = bankDayBounds(day)!;
  const span = spanAround(day);
  const reported = { fromIso: new Date(bounds.start).toISOString(), toIso: new Date(bounds.end).toISOString() };
  const [credits, debits, payouts, reportedDeposits, imports, windows, notes, future] = await Promise.all([
    loadCredits(db, agencyId, { from: bounds.start, to: bounds.end }, reported),
    loadDebits(db, agencyId, span),
    loadPayouts(db, agencyId, span),
    loadReportedDeposits(db, agencyId, reported),
    loadStatementImports(db, agencyId, span),
    loadWitnessWindows(db, agencyId),
    loadReconciliationNotes(db, agencyId, day),
    loadFutureReports(db, agencyId, span),
  ]);
  return {
    day,
    credits,
    debits,
    payouts,
    future,
    reportedDeposits,
    imports,
    windows,
    notes,
  };
}

/**
 * The day asked for, typed DD/MM/YYYY or a link's 'YYYY-MM-DD' (decision 088; none: yesterday,
 * the last whole bank day), as 'YYYY-MM-DD', or null when it is no day or in the future.
 */
export function parseBankDay(value: string | null | undefined, now = new Date()): string | null {
  const today = vientianeDate(now);
  const day = value?.trim() ? parseTypedDay(value) : vientianeDate(now.getTime() - DAY_MS);
  if (day === null) return null;
  return bankDayBounds(day) && day <= today ? day : null;
}

/** Lines of a transfer into the agency carry its raw text, read only for the lines shown (a page, a chunk of the CSV). */
const needsText = (l: Line): l is Line & { channelCode: string; transferId: string } =>
  l.direction === "credit" && l.kind !== "timing" && l.reason !== "FUTURE_DATED" && l.raw === null && l.channelCode !== null && l.transferId !== null;

async function withTexts(db: D1Database, agencyId: string, lines: readonly Line[]): Promise<Line[]> {
  const texts = await loadCreditTexts(db, agencyId, lines.filter(needsText));
  return lines.map((l) => (needsText(l) ? { ...l, raw: texts.get(`${l.channelCode}:${l.transferId}`) ?? null } : l));
}

/** One bank day: its totals, lines counted by kind, whether it is closed, and one page of its lines (differences first). */
export async function reconciliationPage(db: D1Database, agencyId: string, day: string, view: LineView = {}, now = new Date()): Promise<ReconciliationPage> {
  const reconciled = reconcileDay(await dayInput(db, agencyId, day));
  const { lines, ...paging } = pageOfLines(reconciled.lines, view);
  const bounds = bankDayBounds(day)!;
  const today = vientianeDate(now);
  const next = vientianeDate(bounds.end);
  return {
    ...reconciled,
    lines: await withTexts(db, agencyId, lines),
    paging,
    previousDay: vientianeDate(bounds.start - 1),
    nextDay: next <= today ? next : null,
    today,
  };
}

export type NoteOutcome = { ok: true } | { ok: false; error: "NOTE_INVALID" | "NOT_A_DIFFERENCE" };

/** An owner's note on one difference of a day (replacing an earlier one), audited with the note before. */
export async function saveReconciliationNote(
  db: D1Database,
  actor: AuditActor,
  input: { day: string; lineKey: string; note: string },
  now = Date.now(),
): Promise<NoteOutcome> {
  const text = input.note.trim();
  if (text.length < 3 || text.length > NOTE_MAX) return { ok: false, error: "NOTE_INVALID" };
  const data = await dayInput(db, actor.agencyId, input.day);
  const line = reconcileDay(data).lines.find((l) => l.key === input.lineKey && l.kind === "difference");
  if (!line) return { ok: false, error: "NOT_A_DIFFERENCE" };
  await db.batch([
    saveReconciliationNoteStatement(db, actor.agencyId, input.day, input.lineKey, { note: text, staffUsername: actor.staffUsername, notedAt: now }),
    auditStatement(db, actor, {
      action: "reconciliation.note",
      target: `${input.day}:${input.lineKey}`,
      before: data.notes[input.lineKey] ? { note: data.notes[input.lineKey]!.note, by: data.notes[input.lineKey]!.staffUsername } : null,
      after: { note: text, reason: line.reason, amount: line.amount },
    }),
  ]);
  return { ok: true };
}

export type SettleOutcome = { ok: true } | { ok: false; error: "NOT_SETTLEABLE" };

/**
 * The owner settles the surplus credit of a transfer credited twice (decision 069): taken back
 * at the provider (done in the provider's back office; recorded here) or a recorded loss, with
 * the reason, once and audited. The transfer's last unsettled credit cannot be settled (that
 * one is the payment's real credit). The transfers of its amount are derived again, so the
 * day's line goes at once.
 */
export async function settleDoubleCredit(
  env: Env,
  actor: AuditActor,
  input: { code: string; settled: "reversed" | "loss"; reason: string },
  now = Date.now(),
): Promise<SettleOutcome> {
  const credit = await findBankCredit(env.DB, actor.agencyId, input.code);
  if (!credit || credit.settled) return { ok: false, error: "NOT_SETTLEABLE" };
  const report = await findWitness(env.DB, actor.agencyId, credit.channelCode, credit.source, credit.witnessId);
  if (!report) return { ok: false, error: "NOT_SETTLEABLE" };
  const open = (await creditsOfTransfer(env.DB, actor.agencyId, credit.channelCode, report.transferId)).filter((c) => c.settled === null);
  if (open.length < 2 || !open.some((c) => c.code === credit.code)) return { ok: false, error: "NOT_SETTLEABLE" };
  const [settled] = await env.DB.batch([
    settleBankCreditStatement(env.DB, actor.agencyId, {
      code: credit.code,
      settled: input.settled,
      by: actor.staffUsername ?? "?",
      reason: input.reason,
      at: now,
    }),
    auditStatement(env.DB, actor, {
      action: "bank-transaction.settle",
      target: `${credit.channelCode}:${report.transferId}`,
      before: { credits: open.map((c) => c.code) },
      after: { code: credit.code, kind: credit.kind, settled: input.settled, reason: input.reason, amount: credit.amount },
    }),
  ]);
  if ((settled.meta.changes ?? 0) === 0) return { ok: false, error: "NOT_SETTLEABLE" };
  await deriveAround(env, actor.agencyId, report, actor);
  return { ok: true };
}

export type MatchedDebit = { channelCode: string; transferId: string; bankTime: number; sources: Line["sources"]; raw: string | null; amount: string };

/**
 * The bank debits matched to a withdrawal: the pairs of the reconciliation of the day
 * it was marked paid, so the withdrawal page and the reconciliation page never disagree.
 */
export async function debitsOfWithdrawal(db: D1Database, agencyId: string, code: string, markedPaidAt: number | null): Promise<MatchedDebit[]> {
  if (markedPaidAt === null) return [];
  const span = spanAround(vientianeDate(markedPaidAt));
  const [debits, payouts, windows] = await Promise.all([loadDebits(db, agencyId, span), loadPayouts(db, agencyId, span), loadWitnessWindows(db, agencyId)]);
  const pairs = matchDebits(debits, payouts, windows);
  return debits
    .filter((d) => pairs.get(`${d.channelCode}:${d.transferId}`) === code)
    .map((d) => ({ channelCode: d.channelCode, transferId: d.transferId, bankTime: d.bankTime, sources: d.sources, raw: d.raw, amount: d.amount }));
}

/** The CSV's columns: a header each (reconciliation.csv.<column>) and the cell of a line. */
const CSV_COLUMNS = [
  "kind",
  "reason",
  "direction",
  "channel",
  "transferId",
  "twinId",
  "amount",
  "bankTime",
  "sources",
  "order",
  "provider",
  "resolution",
  "markedPaidAt",
  "bankDay",
  "reportsDay",
  "note",
  "notedBy",
  "raw",
] as const;

/** A line's cells, in CSV_COLUMNS' order: `label` names a value in the staff member's language, times are Vientiane's. */
function csvCells(l: Line, label: (key: string) => string): (string | null)[] {
  const time = (ms: number | null) => (ms === null ? null : vientianeDateTime(ms).replace("T", " "));
  return [
    label(`kinds.${l.kind}`),
    l.reason ? label(`reasons.${l.reason}`) : null,
    label(`directions.${l.direction}`),
    l.channelCode,
    l.transferId,
    l.twinId,
    l.amount,
    time(l.bankTime),
    l.sources.map((s) => label(`sources.${s}`)).join(" + ") || null,
    l.orderCode,
    l.provider,
    l.resolution ? label(`resolutions.${l.resolution}`) : null,
    time(l.markedPaidAt),
    l.bankDay,
    l.reportsDay,
    l.note?.note ?? null,
    l.note?.staffUsername ?? null,
    l.raw,
  ];
}

const csvRecord = (cells: readonly (string | null)[]) => `${cells.map(csvField).join(",")}\r\n`;

/** How many lines the CSV writes per read of their texts: a chunk's statement and text stay small whatever the day's size. */
export const CSV_CHUNK_LINES = 500;

/**
 * The CSV of a day (the lines of every page, in their order), as a stream: the BOM and the
 * header first, then the lines a chunk at a time, each chunk's raw texts read when the reader
 * asks for it. Audited (`reconciliation.export`) before the first byte. `label` names a column
 * or a value in the staff member's language (keys under reconciliation.).
 */
export async function reconciliationCsv(db: D1Database, actor: AuditActor, day: string, label: (key: string) => string): Promise<ReadableStream<Uint8Array>> {
  const reconciled = reconcileDay(await dayInput(db, actor.agencyId, day));
  await recordAudit(db, actor, { action: "reconciliation.export", target: day, after: { rows: reconciled.lines.length, closed: reconciled.closed } });
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRecord(CSV_COLUMNS.map((c) => label(`csv.${c}`)))));
    },
    async pull(controller) {
      if (next >= reconciled.lines.length) return controller.close();
      const chunk = await withTexts(db, actor.agencyId, reconciled.lines.slice(next, next + CSV_CHUNK_LINES));
      next += chunk.length;
      controller.enqueue(encoder.encode(chunk.map((l) => csvRecord(csvCells(l, label))).join("")));
    },
  });
}
