import { orderCodeCandidates } from "../../core/bank-witness";
import { bankDayBounds, LOOK_AROUND_MS, matchDebits, reconcileDay, type DayInput, type Line, type ReconciledDay } from "../../core/reconciliation";
import { vientianeDate } from "../../core/report-range";
import { vientianeDateTime } from "../../core/vientiane";
import { auditStatement, recordAudit, type AuditActor } from "../../db/audit";
import { creditsOfTransfer, findBankCredit, findWitness, settleBankCreditStatement } from "../../db/bank-transactions";
import { deriveAround } from "./bank-transactions";
import {
  loadCredits,
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
 * debits matched to a withdrawal by the same rule (item 3).
 */

export type ReconciliationPage = ReconciledDay & { previousDay: string; nextDay: string | null; today: string };

const DAY_MS = 24 * 3600_000;
const NOTE_MAX = 500;

/** The rows the rules need for a day: transfers, payouts and imports from LOOK_AROUND before to LOOK_AROUND after it. */
async function dayInput(db: D1Database, agencyId: string, day: string): Promise<DayInput> {
  const bounds = bankDayBounds(day)!;
  const span: Span = { from: bounds.start - LOOK_AROUND_MS, to: bounds.end + LOOK_AROUND_MS };
  const reported = { fromIso: new Date(bounds.start).toISOString(), toIso: new Date(bounds.end).toISOString() };
  const [credits, debits, payouts, reportedDeposits, imports, windows, notes, future] = await Promise.all([
    loadCredits(db, agencyId, span, reported),
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
    credits: credits.map(({ reference, ...c }) => ({ ...c, namedOrders: orderCodeCandidates(reference, c.raw) })),
    debits,
    payouts,
    future,
    reportedDeposits,
    imports,
    windows,
    notes,
  };
}

/** The day asked for ('YYYY-MM-DD'; none: yesterday, the last whole bank day), or null when it is no day or in the future. */
export function parseBankDay(value: string | null | undefined, now = new Date()): string | null {
  const today = vientianeDate(now);
  const day = value?.trim() || vientianeDate(now.getTime() - DAY_MS);
  return bankDayBounds(day) && day <= today ? day : null;
}

/** One bank day's lines, totals and whether it is closed. */
export async function reconciliationPage(db: D1Database, agencyId: string, day: string, now = new Date()): Promise<ReconciliationPage> {
  const reconciled = reconcileDay(await dayInput(db, agencyId, day));
  const bounds = bankDayBounds(day)!;
  const today = vientianeDate(now);
  const next = vientianeDate(bounds.end);
  return { ...reconciled, previousDay: vientianeDate(bounds.start - 1), nextDay: next <= today ? next : null, today };
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

/** The day's lines for the CSV export (audited as `reconciliation.export` before the file is sent). */
export async function reconciliationExport(db: D1Database, actor: AuditActor, day: string): Promise<ReconciliationPage> {
  const page = await reconciliationPage(db, actor.agencyId, day);
  await recordAudit(db, actor, { action: "reconciliation.export", target: day, after: { rows: page.lines.length, closed: page.closed } });
  return page;
}

export type MatchedDebit = { channelCode: string; transferId: string; bankTime: number; sources: Line["sources"]; raw: string | null; amount: string };

/**
 * The bank debits matched to a withdrawal (item 3): the pairs of the reconciliation of the day
 * it was marked paid, so the withdrawal page and the reconciliation page never disagree.
 */
export async function debitsOfWithdrawal(db: D1Database, agencyId: string, code: string, markedPaidAt: number | null): Promise<MatchedDebit[]> {
  if (markedPaidAt === null) return [];
  const data = await dayInput(db, agencyId, vientianeDate(markedPaidAt));
  const pairs = matchDebits(data.debits, data.payouts, data.windows);
  return data.debits
    .filter((d) => pairs.get(`${d.channelCode}:${d.transferId}`) === code)
    .map((d) => ({ channelCode: d.channelCode, transferId: d.transferId, bankTime: d.bankTime, sources: d.sources, raw: d.raw, amount: d.amount }));
}

/**
 * The CSV of a day (the same lines as the page): `label` names a column or a value in the staff
 * member's language (keys under reconciliation.), times are Vientiane's.
 */
export function reconciliationCsvRows(page: ReconciliationPage, label: (key: string) => string): (string | null)[][] {
  const time = (ms: number | null) => (ms === null ? null : vientianeDateTime(ms).replace("T", " "));
  const columns = [
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
  ];
  return [
    columns.map((c) => label(`csv.${c}`)),
    ...page.lines.map((l) => [
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
    ]),
  ];
}
