import { KIP, parseAmount, parseWholeKip } from "../../core/money";
import {
  checkPatterns,
  defaultPatterns,
  PATTERN_FIELDS,
  readNotification,
  type BankPatterns,
  type NotificationReading,
  type PatternCheck,
} from "../../core/notification-patterns";
import { openSecret, sealSecret } from "../../core/secret-box";
import { verifySmsForwarder } from "../../core/sms-forwarder";
import { randomToken, sha256Hex } from "../../core/tokens";
import { auditIfChanged, auditStatement, type AuditActor } from "../../db/audit";
import {
  decideHoldStatement,
  deleteForwarderStatement,
  findDelivery,
  findForwarderByToken,
  findHold,
  insertHold,
  listForwarders,
  listOwnAccountChannels,
  listWaitingHolds,
  readPatternsJson,
  recordDelivery,
  reopenHold,
  saveDeliveryOutcome,
  saveHoldOutcome,
  touchForwarder,
  updateForwarderLimitsStatement,
  upsertForwarderStatement,
  upsertPatternsStatement,
} from "../../db/forwarder";
import { applyBankTransaction, recordBankDebit, recordUnreadableBankMessage, type BankTransactionInput } from "./bank-transactions";

/**
 * The notification forwarder (decision 016): an Android app on the agency's phone
 * (SmsForwarder, workers/core/sms-forwarder.ts) posts each bank SMS / app notification to
 * POST /api/forwarder/{token}; the text is read by the owner's patterns for the channel's
 * bank (workers/core/notification-patterns.ts) and a credit goes through the one matcher
 * (applyBankTransaction, source "forwarder").
 *
 * - Per own-account channel one forwarder: a URL token (SHA-256 stored) and a signing secret,
 *   both shown once. The secret is stored sealed with CREDENTIALS_KEY (AES-256-GCM), not
 *   hashed: SmsForwarder's HMAC needs the secret itself to verify.
 * - A post with a bad signature, an unknown token or a timestamp outside the tolerance is
 *   401 and stores nothing. A verified post is recorded by timestamp + signature: the same
 *   post again is answered 200 with what was recorded (the app retries until 2xx); the same
 *   signature with another message is refused (409).
 * - The signature covers the timestamp, not the message: one message credits alone only up
 *   to the forwarder's cap; above it the credit waits for staff (confirm / reject, once).
 * - The bank transaction id is the one in the text, else SHA-256 of sender + time + text,
 *   where the time is the bank's time read from the text, else the post's timestamp.
 */

const TOKEN_PREFIX = "fwd_";
const MAX_FROM = 200;
const MAX_CONTENT = 4000;

const secretAad = (agencyId: string, channelCode: string) => `forwarder:${agencyId}:${channelCode}`;

// ---- the owner's page

export type PatternsText = Record<(typeof PATTERN_FIELDS)[number], string>;

const toText = (p: BankPatterns): PatternsText => Object.fromEntries(PATTERN_FIELDS.map((f) => [f, p[f].join("\n")])) as PatternsText;
const fromText = (t: PatternsText): BankPatterns =>
  Object.fromEntries(
    PATTERN_FIELDS.map((f) => [
      f,
      t[f]
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== ""),
    ]),
  ) as BankPatterns;

async function patternsOf(db: D1Database, agencyId: string, bankCode: string): Promise<{ patterns: BankPatterns; stored: boolean }> {
  const json = await readPatternsJson(db, agencyId, bankCode);
  if (json) {
    try {
      return { patterns: JSON.parse(json) as BankPatterns, stored: true };
    } catch {
      // fall through to the defaults
    }
  }
  return { patterns: defaultPatterns(bankCode), stored: false };
}

/** The forwarder page: channels, their forwarders, the held credits, the patterns of one bank. */
export async function forwarderPage(db: D1Database, agencyId: string, bankCode: string | null) {
  const [channels, forwarders, holds] = await Promise.all([listOwnAccountChannels(db, agencyId), listForwarders(db, agencyId), listWaitingHolds(db, agencyId)]);
  const banks = [...new Set(channels.map((c) => c.bankCode))];
  const bank = bankCode && /^[A-Z]{2,10}$/.test(bankCode) ? bankCode : (banks[0] ?? "BCEL");
  const { patterns, stored } = await patternsOf(db, agencyId, bank);
  return { channels, forwarders, holds, banks, bank, patterns: toText(patterns), stored };
}

/** A new forwarder for the channel (or a new token and secret for it): the only moment both are shown. */
export async function createForwarder(
  env: Env,
  actor: AuditActor,
  channelCode: string,
  now: number = Date.now(),
): Promise<{ ok: true; token: string; secret: string } | { ok: false; code: "NOT_OWN_ACCOUNT" }> {
  const channels = await listOwnAccountChannels(env.DB, actor.agencyId);
  if (!channels.some((c) => c.code === channelCode)) return { ok: false, code: "NOT_OWN_ACCOUNT" };
  const token = `${TOKEN_PREFIX}${randomToken()}`;
  const secret = randomToken(24);
  const secretSealed = await sealSecret(env.CREDENTIALS_KEY, secret, secretAad(actor.agencyId, channelCode));
  const tokenHint = token.slice(0, TOKEN_PREFIX.length + 6);
  await env.DB.batch([
    upsertForwarderStatement(env.DB, {
      agencyId: actor.agencyId,
      channelCode,
      tokenHash: await sha256Hex(token),
      tokenHint,
      secretSealed,
      createdBy: actor.staffUsername ?? "?",
      createdAt: now,
    }),
    auditStatement(env.DB, actor, { action: "forwarder.created", target: `forwarder:${channelCode}`, after: { channelCode, tokenHint } }),
  ]);
  return { ok: true, token, secret };
}

export type ForwarderLimitsInput = { channelCode: string; autoCap: string; silenceMinutes: number };

/** The owner's cap (LAK a message credits alone) and silence time (minutes). */
export async function setForwarderLimits(
  db: D1Database,
  actor: AuditActor,
  input: ForwarderLimitsInput,
): Promise<{ ok: true } | { ok: false; code: "NOT_FOUND" | "CAP_INVALID" }> {
  // whole kip as typed ("1.000.000"); the old reading dropped every dot and comma, so a cap
  // typed with decimals ("1000000.00") was read a hundred times larger
  const cap = parseWholeKip(input.autoCap);
  if (cap === null) return { ok: false, code: "CAP_INVALID" };
  const autoCap = (cap / KIP).toString();
  const before = (await listForwarders(db, actor.agencyId)).find((f) => f.channelCode === input.channelCode);
  if (!before) return { ok: false, code: "NOT_FOUND" };
  await db.batch([
    updateForwarderLimitsStatement(db, actor.agencyId, input.channelCode, autoCap, input.silenceMinutes),
    auditIfChanged(db, actor, {
      action: "forwarder.limits",
      target: `forwarder:${input.channelCode}`,
      before: { autoCap: before.autoCap, silenceMinutes: before.silenceMinutes },
      after: { autoCap, silenceMinutes: input.silenceMinutes },
    }),
  ]);
  return { ok: true };
}

export async function removeForwarder(db: D1Database, actor: AuditActor, channelCode: string): Promise<{ ok: boolean }> {
  const [deleted] = await db.batch([
    deleteForwarderStatement(db, actor.agencyId, channelCode),
    auditIfChanged(db, actor, { action: "forwarder.removed", target: `forwarder:${channelCode}` }),
  ]);
  return { ok: (deleted?.meta.changes ?? 0) > 0 };
}

export type PatternsInput = PatternsText & { bankCode: string; sampleFrom?: string; sample?: string };
export type PatternsResult = { check: PatternCheck; reading: NotificationReading | null; saved: boolean };

/** The patterns as typed, tried on the pasted sample; nothing stored. */
export function tryPatterns(input: PatternsInput): PatternsResult {
  const patterns = fromText(input);
  const check = checkPatterns(patterns);
  const reading = check.ok && input.sample ? readNotification(patterns, input.sampleFrom ?? "", input.sample) : null;
  return { check, reading, saved: false };
}

/** Tried, then saved when every pattern passes the check. */
export async function savePatterns(db: D1Database, actor: AuditActor, input: PatternsInput, now: number = Date.now()): Promise<PatternsResult> {
  const tried = tryPatterns(input);
  if (!tried.check.ok) return tried;
  const patterns = fromText(input);
  const before = await patternsOf(db, actor.agencyId, input.bankCode);
  await db.batch([
    upsertPatternsStatement(db, {
      agencyId: actor.agencyId,
      bankCode: input.bankCode,
      json: JSON.stringify(patterns),
      by: actor.staffUsername ?? "?",
      at: now,
    }),
    auditStatement(db, actor, { action: "forwarder.patterns", target: `bank:${input.bankCode}`, before: before.patterns, after: patterns }),
  ]);
  return { ...tried, saved: true };
}

// ---- the endpoint the app calls

export type ForwardedPost = { token: string; from: string | null; content: string | null; timestamp: string | null; sign: string | null };
export type ForwarderAnswer = { status: number; body: { ok: boolean; result?: string; error?: string } };

/**
 * One post of the forwarding app at the agency whose address it called. 401 for anything
 * unverified (nothing stored); 200 for every verified post, with what was done.
 */
export async function receiveForwardedMessage(env: Env, agencyId: string, post: ForwardedPost, now: number = Date.now()): Promise<ForwarderAnswer> {
  const refused: ForwarderAnswer = { status: 401, body: { ok: false, error: "UNAUTHORIZED" } };
  if (!post.token.startsWith(TOKEN_PREFIX) || post.token.length > 100) return refused;
  const key = await findForwarderByToken(env.DB, await sha256Hex(post.token));
  if (!key || key.agencyId !== agencyId) return refused;
  const secret = await openSecret(env.CREDENTIALS_KEY, key.secretSealed, secretAad(key.agencyId, key.channelCode));
  if (secret === null) return { status: 503, body: { ok: false, error: "NOT_CONFIGURED" } };
  const verdict = await verifySmsForwarder(secret, post.timestamp ?? "", post.sign ?? "", now);
  if (!verdict.ok) return { status: 401, body: { ok: false, error: verdict.reason } };
  const from = (post.from ?? "").slice(0, MAX_FROM);
  const content = (post.content ?? "").slice(0, MAX_CONTENT);
  if (content.trim() === "") return { status: 400, body: { ok: false, error: "MALFORMED" } };

  const delivery = { agencyId, channelCode: key.channelCode, sentAt: verdict.timestamp, signature: verdict.signature };
  const messageHash = await sha256Hex(`${from}\n${content}`);
  if (!(await recordDelivery(env.DB, delivery, messageHash, now))) {
    const seen = await findDelivery(env.DB, delivery);
    if (seen && seen.messageSha256 !== messageHash) return { status: 409, body: { ok: false, error: "REPLAY" } };
    if (seen?.outcome) return { status: 200, body: { ok: true, result: seen.outcome } };
    // The first delivery is still being applied or was cut short: applying again is safe.
  }
  await touchForwarder(env.DB, agencyId, key.channelCode, now);
  const outcome = await applyMessage(env, { ...key, from, content, sentAt: verdict.timestamp, now });
  await saveDeliveryOutcome(env.DB, delivery, outcome);
  return { status: 200, body: { ok: true, result: outcome } };
}

type Message = { agencyId: string; channelCode: string; bankCode: string; autoCap: string; from: string; content: string; sentAt: number; now: number };

async function applyMessage(env: Env, m: Message): Promise<string> {
  const { patterns } = await patternsOf(env.DB, m.agencyId, m.bankCode);
  const reading = readNotification(patterns, m.from, m.content);
  if (reading.kind === "debit") return recordDebitMessage(env, m, reading);
  if (reading.kind === "unreadable") {
    await recordUnreadableBankMessage(env, m.agencyId, { channelCode: m.channelCode, source: "forwarder", raw: rawOf(m), receivedAt: m.now });
    return "unreadable";
  }
  const bankTime = reading.bankTime ?? m.sentAt;
  const input: BankTransactionInput = {
    channelCode: m.channelCode,
    bankTransactionId: reading.transactionId ?? `sha256:${await sha256Hex(`${m.from}\n${bankTime}\n${m.content}`)}`,
    amount: reading.amount,
    bankTime,
    reference: reading.reference,
    source: "forwarder",
    raw: rawOf(m),
  };
  const amount = parseAmount(reading.amount, "LAK") ?? 0n;
  const cap = parseAmount(m.autoCap, "LAK") ?? 0n;
  if (amount > cap) {
    await insertHold(env.DB, m.agencyId, {
      id: crypto.randomUUID(),
      channelCode: m.channelCode,
      bankTransactionId: input.bankTransactionId,
      amount: input.amount,
      bankTime,
      reference: input.reference,
      sender: m.from,
      raw: m.content,
      receivedAt: m.now,
    });
    return "held";
  }
  const outcome = await applyBankTransaction(env, m.agencyId, input, null);
  return outcome.kind === "unmatched" ? `unmatched:${outcome.reason}` : outcome.kind;
}

/**
 * Money out, as the phone saw it: kept as a bank debit (with its witnesses, by the same
 * rules as credits) for reconciliation against withdrawals paid; nothing is applied.
 */
async function recordDebitMessage(env: Env, m: Message, reading: Extract<NotificationReading, { kind: "debit" }>): Promise<string> {
  if (!reading.amount) return "ignored-debit"; // no amount to reconcile by: the raw text stays in the delivery log
  const bankTime = reading.bankTime ?? m.sentAt;
  const recorded = await recordBankDebit(
    env,
    m.agencyId,
    {
      channelCode: m.channelCode,
      bankTransactionId: reading.transactionId ?? `sha256:${await sha256Hex(`${m.from}\n${bankTime}\n${m.content}`)}`,
      amount: reading.amount,
      bankTime,
      reference: null,
      source: "forwarder",
      raw: rawOf(m),
    },
    null,
  );
  return recorded === "recorded" ? "debit" : "duplicate-debit";
}

const rawOf = (m: { from: string; content: string }) => (m.from ? `${m.from}\n${m.content}` : m.content);

// ---- staff: credits above the cap

export type HoldDecision = { holdId: string; decision: "confirm" | "reject" };
export type HoldResult =
  | { ok: true; decision: "confirm"; outcome: string }
  | { ok: true; decision: "reject" }
  | { ok: false; code: "NOT_FOUND" | "ALREADY_DECIDED" };

/**
 * A held credit confirmed (through the matcher, with the staff actor) or rejected, once:
 * two staff pressing at once get one outcome (a guarded UPDATE decides who was first).
 */
export async function decideHold(env: Env, actor: AuditActor, input: HoldDecision, now: number = Date.now()): Promise<HoldResult> {
  const hold = await findHold(env.DB, actor.agencyId, input.holdId);
  if (!hold) return { ok: false, code: "NOT_FOUND" };
  const status = input.decision === "confirm" ? "CONFIRMED" : "REJECTED";
  const [decided] = await env.DB.batch([
    decideHoldStatement(env.DB, actor.agencyId, hold.id, status, actor.staffUsername ?? "?", now),
    auditIfChanged(env.DB, actor, {
      action: `forwarder.hold.${input.decision}`,
      target: `forwarder-hold:${hold.id}`,
      after: { amount: hold.amount, bankTransactionId: hold.bankTransactionId },
    }),
  ]);
  if ((decided?.meta.changes ?? 0) === 0) return { ok: false, code: "ALREADY_DECIDED" };
  if (input.decision === "reject") return { ok: true, decision: "reject" };
  let outcome: string;
  try {
    const applied = await applyBankTransaction(
      env,
      actor.agencyId,
      {
        channelCode: hold.channelCode,
        bankTransactionId: hold.bankTransactionId,
        amount: hold.amount,
        bankTime: hold.bankTime,
        reference: hold.reference,
        source: "forwarder",
        raw: rawOf({ from: hold.sender, content: hold.raw }),
      },
      actor,
    );
    outcome = applied.kind === "unmatched" ? `unmatched:${applied.reason}` : applied.kind === "applied" ? `applied:${applied.orderCode}` : "duplicate";
  } catch (error) {
    await reopenHold(env.DB, actor.agencyId, hold.id);
    throw error;
  }
  await saveHoldOutcome(env.DB, actor.agencyId, hold.id, outcome);
  return { ok: true, decision: "confirm", outcome };
}
