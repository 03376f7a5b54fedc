import { readCsv } from "../../core/csv";
import { sha256Hex } from "../../core/tokens";
import { auditStatement, recordAudit, type AuditActor } from "../../db/audit";
import {
  findStatementMapping,
  findStatementUpload,
  insertStatementUpload,
  listOwnAccountChannels,
  saveStatementMappingStatement,
  saveStatementUploadResult,
  type StatementChannel,
} from "../../db/statement-mappings";
import {
  checkMapping,
  decodeStatement,
  guessHeaderRow,
  guessMapping,
  checkTable,
  headerNames,
  readStatement,
  type FileProblem,
  type MappingProblem,
  type RowProblem,
  type StatementMapping,
  type StatementRow,
} from "../../core/statement";
import { matchBankTransaction, recordBankReports, type BankTransactionInput } from "./bank-transactions";
import { insertStatementImportStatement } from "../../db/bank-transactions";

/**
 * Statement import (decision 016), back office (cashier and owner). Staff upload the CSV
 * statement export of an own-account channel's internet banking; the file is kept (24 h) so
 * the next steps never send it again: map its columns (first import of a channel, or when
 * staff change the mapping), review what each credit row matches (the matcher's preview,
 * nothing written), then confirm: every credit row goes through applyBankTransaction
 * (source "statement"), which applies it at most once and queues what matches nothing.
 * Parsing: core/csv.ts readCsv (quoted fields, ; , tab or | separators guessed) over the decoded text;
 * the rules in workers/core/statement.ts.
 */

const UPLOAD_KEEP_MS = 24 * 3600_000;
const PREVIEW_ROWS = 12;

/** The bank transaction id of a credit row: the bank's id column, else the SHA-256 of its key (date, amount, description, occurrence). */
async function bankTransactionIdOf(row: Extract<StatementRow, { kind: "credit" }>): Promise<string> {
  return row.transactionId ?? (await sha256Hex(row.key));
}

async function inputOf(channelCode: string, row: Extract<StatementRow, { kind: "credit" }>): Promise<BankTransactionInput> {
  return {
    channelCode,
    bankTransactionId: await bankTransactionIdOf(row),
    amount: row.amount,
    bankTime: row.bankTime,
    reference: row.reference,
    source: "statement",
    raw: row.raw,
  };
}

/** Step 1: the upload form. */
export async function statementUploadPage(db: D1Database, agencyId: string): Promise<{ channels: StatementChannel[] }> {
  return { channels: await listOwnAccountChannels(db, agencyId) };
}

export type UploadOutcome = { ok: true; id: string; mapped: boolean } | { ok: false; problem: FileProblem | "UNKNOWN_CHANNEL" };

/** Keeps an uploaded statement (decoded, checked to have columns) for the next steps. */
export async function uploadStatement(
  db: D1Database,
  actor: AuditActor,
  input: { channelCode: string; fileName: string; bytes: Uint8Array },
  now = Date.now(),
): Promise<UploadOutcome> {
  const channels = await listOwnAccountChannels(db, actor.agencyId);
  if (!channels.some((c) => c.code === input.channelCode)) return { ok: false, problem: "UNKNOWN_CHANNEL" };
  const decoded = decodeStatement(input.bytes);
  if (!decoded.ok) return decoded;
  const rows = readCsv(decoded.text);
  const problem = checkTable(rows);
  if (problem) return { ok: false, problem };
  const id = crypto.randomUUID();
  const fileName = input.fileName.slice(0, 200) || "statement.csv";
  await insertStatementUpload(
    db,
    actor.agencyId,
    { id, channelCode: input.channelCode, fileName, content: decoded.text, uploadedBy: actor.staffUsername, createdAt: now },
    now - UPLOAD_KEEP_MS,
  );
  const mapping = await findStatementMapping(db, actor.agencyId, input.channelCode);
  return { ok: true, id, mapped: mapping !== null && readStatement(rows, mapping).ok };
}

type Upload = { id: string; channelCode: string; fileName: string };

export type MappingFields = Partial<Record<keyof StatementMapping, string | null>>;

export type MapStep = {
  step: "map";
  upload: Upload;
  /** The first rows of the file as they are, for staff to see which column is which. */
  rows: string[][];
  headerRow: number;
  header: string[];
  fields: MappingFields;
  saved: boolean;
  /** The saved mapping's columns this file lacks (it did not read with it), if any. */
  missing: string[];
};

export type ReviewRow =
  | {
      row: number;
      kind: "credit";
      bankTime: number;
      amount: string;
      description: string;
      reference: string | null;
      bankTransactionId: string;
      outcome: RowOutcome;
    }
  | { row: number; kind: "debit"; raw: string; bankTime: number; amount: string | null }
  | { row: number; kind: "error"; problem: RowProblem; value: string; raw: string };

export type RowOutcome =
  | { kind: "match"; orderCode: string; username: string }
  | { kind: "duplicate"; orderCode?: string | null }
  | { kind: "none"; reason: "NO_ORDER" | "AMBIGUOUS" | "LATE" }
  | { kind: "applied"; orderCode: string }
  | { kind: "unmatched"; reason: "NO_ORDER" | "AMBIGUOUS" | "LATE" };

export type ReviewStep = { step: "review"; upload: Upload; mapping: StatementMapping; applied: boolean; rows: ReviewRow[] };

function fieldsOf(mapping: StatementMapping): MappingFields {
  return { ...mapping };
}

/**
 * The page of one upload: the review (what each row matches, or the outcome once applied)
 * when the channel's saved mapping reads the file, else (or when staff ask) the mapping step.
 * null: no such upload (or older than a day).
 */
export async function statementPage(
  env: Env,
  agencyId: string,
  uploadId: string,
  opts: { remap: boolean; headerRow: number | null },
): Promise<MapStep | ReviewStep | null> {
  const stored = await findStatementUpload(env.DB, agencyId, uploadId);
  if (!stored) return null;
  const upload: Upload = { id: stored.id, channelCode: stored.channelCode, fileName: stored.fileName };
  const rows = readCsv(stored.content);
  const mapping = await findStatementMapping(env.DB, agencyId, stored.channelCode);
  const read = mapping ? readStatement(rows, mapping) : null;
  if (mapping && read?.ok && !opts.remap && opts.headerRow === null) {
    const outcomes = Array.isArray(stored.result) ? (stored.result as (RowOutcome | null)[]) : null;
    const review: ReviewRow[] = [];
    for (const [i, row] of read.rows.entries()) {
      if (row.kind !== "credit") {
        review.push(row.kind === "debit" ? { row: row.row, kind: "debit", raw: row.raw, bankTime: row.bankTime, amount: row.amount } : row);
        continue;
      }
      const input = await inputOf(stored.channelCode, row);
      const outcome: RowOutcome = outcomes?.[i] ?? (await matchBankTransaction(env, agencyId, input));
      review.push({
        row: row.row,
        kind: "credit",
        bankTime: row.bankTime,
        amount: row.amount,
        description: row.description,
        reference: row.reference,
        bankTransactionId: input.bankTransactionId,
        outcome,
      });
    }
    return { step: "review", upload, mapping, applied: outcomes !== null, rows: review };
  }
  const headerRow = opts.headerRow !== null && opts.headerRow < rows.length ? opts.headerRow : read?.ok ? read.headerIndex : guessHeaderRow(rows);
  return {
    step: "map",
    upload,
    rows: rows.slice(0, Math.max(PREVIEW_ROWS, headerRow + 6)),
    headerRow,
    header: headerNames(rows[headerRow] ?? []),
    fields: mapping ? fieldsOf(mapping) : guessMapping(headerNames(rows[headerRow] ?? [])),
    saved: mapping !== null,
    missing: read && !read.ok ? (read.missing ?? []) : [],
  };
}

export type MappingTry =
  | { ok: true; mapping: StatementMapping; rows: StatementRow[]; total: number }
  | { ok: false; mappingProblems: MappingProblem[] }
  | { ok: false; fileProblem: FileProblem; missing: string[] }
  | { ok: false; notFound: true };

async function readWithFields(db: D1Database, agencyId: string, uploadId: string, fields: MappingFields, headerRow: number) {
  const stored = await findStatementUpload(db, agencyId, uploadId);
  if (!stored) return { result: { ok: false, notFound: true } as MappingTry, stored: null };
  const rows = readCsv(stored.content);
  const header = headerNames(rows[headerRow] ?? []);
  const checked = checkMapping(fields, header);
  if (!checked.ok) return { result: { ok: false, mappingProblems: checked.problems } as MappingTry, stored };
  const read = readStatement(rows, checked.mapping, headerRow);
  if (!read.ok) return { result: { ok: false, fileProblem: read.problem, missing: read.missing ?? [] } as MappingTry, stored };
  return { result: { ok: true, mapping: checked.mapping, rows: read.rows.slice(0, PREVIEW_ROWS), total: read.rows.length } as MappingTry, stored };
}

/** Reads the upload with a mapping as filled in, without saving: the first rows as read, with each row's problem. */
export async function tryStatementMapping(db: D1Database, agencyId: string, uploadId: string, fields: MappingFields, headerRow: number): Promise<MappingTry> {
  return (await readWithFields(db, agencyId, uploadId, fields, headerRow)).result;
}

/** Saves the mapping for the upload's channel (audited) once it reads the upload. */
export async function saveStatementMapping(db: D1Database, actor: AuditActor, uploadId: string, fields: MappingFields, headerRow: number): Promise<MappingTry> {
  const { result, stored } = await readWithFields(db, actor.agencyId, uploadId, fields, headerRow);
  if (!result.ok || !stored) return result;
  const before = await findStatementMapping(db, actor.agencyId, stored.channelCode);
  await db.batch([
    saveStatementMappingStatement(db, actor.agencyId, stored.channelCode, result.mapping, actor.staffUsername),
    auditStatement(db, actor, { action: "statement.mapping", target: stored.channelCode, before, after: result.mapping }),
  ]);
  return result;
}

export type ApplySummary = { applied: number; duplicate: number; unmatched: number; debit: number; errors: number };

/**
 * Confirm: every credit row through applyBankTransaction, one after the other (each is
 * idempotent by its bank transaction id, so a second confirm, a second staff member or the
 * same file uploaded again applies nothing twice). Audited with the counts.
 */
export async function applyStatement(
  env: Env,
  actor: AuditActor,
  uploadId: string,
): Promise<{ ok: true; summary: ApplySummary } | { ok: false; problem: "NOT_FOUND" | "NOT_MAPPED" }> {
  const stored = await findStatementUpload(env.DB, actor.agencyId, uploadId);
  if (!stored) return { ok: false, problem: "NOT_FOUND" };
  const mapping = await findStatementMapping(env.DB, actor.agencyId, stored.channelCode);
  const read = mapping ? readStatement(readCsv(stored.content), mapping) : null;
  if (!read?.ok) return { ok: false, problem: "NOT_MAPPED" };
  const summary: ApplySummary = { applied: 0, duplicate: 0, unmatched: 0, debit: 0, errors: 0 };
  // every row kept as a report, and the transfers of each amount derived once for the whole file (decision 069)
  const reports: (BankTransactionInput & { direction: "credit" | "debit" })[] = [];
  const rowOf: number[] = [];
  for (const [i, row] of read.rows.entries()) {
    if (row.kind === "debit" && row.amount) {
      reports.push({
        channelCode: stored.channelCode,
        bankTransactionId: row.transactionId ?? (await sha256Hex(row.key)),
        amount: row.amount,
        bankTime: row.bankTime,
        reference: null,
        source: "statement",
        raw: row.raw,
        direction: "debit",
      });
      rowOf.push(i);
    } else if (row.kind === "credit") {
      reports.push({ ...(await inputOf(stored.channelCode, row)), direction: "credit" });
      rowOf.push(i);
    }
  }
  const answers = await recordBankReports(env, actor.agencyId, reports, actor);
  const outcomes: (RowOutcome | null)[] = read.rows.map(() => null);
  for (const [n, answer] of answers.entries()) {
    if (reports[n]!.direction !== "credit") continue;
    outcomes[rowOf[n]!] = answer;
    summary[answer.kind]++;
  }
  for (const row of read.rows) {
    if (row.kind === "debit") summary.debit++;
    else if (row.kind !== "credit") summary.errors++;
  }
  await saveStatementUploadResult(env.DB, actor.agencyId, uploadId, outcomes);
  // the bank-time range this import covers: a day is reconciled against a statement that covers it
  const times = read.rows.flatMap((row) => (row.kind === "error" ? [] : [row.bankTime]));
  if (times.length > 0) {
    await insertStatementImportStatement(env.DB, actor.agencyId, {
      id: uploadId,
      channelCode: stored.channelCode,
      fileName: stored.fileName,
      from: Math.min(...times),
      to: Math.max(...times),
      creditRows: read.rows.filter((row) => row.kind === "credit").length,
      debitRows: summary.debit,
      importedBy: actor.staffUsername,
      importedAt: Date.now(),
    }).run();
  }
  await recordAudit(env.DB, actor, { action: "statement.import", target: stored.channelCode, after: { file: stored.fileName, upload: uploadId, ...summary } });
  return { ok: true, summary };
}
