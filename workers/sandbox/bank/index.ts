/**
 * Sandbox bank / payment gateway (LAO QR). Local development and tests only; never deployed.
 *
 *   /api/*        merchant API, HTTP Basic MERCHANT_ID:MERCHANT_SECRET: QR codes, payment
 *                 status, payouts
 *   /pay          the tester's "banking app" page (HTML, works without JavaScript)
 *   /payouts      the tester's payout desk: recent payouts, Pay / Reject the processing ones
 *   /sandbox/*    test controls without auth: pay by JSON, complete payouts, faults,
 *                 payout processing time, pull-mode webhook pump
 *
 * QRs, payments and their webhooks live in QR_SHARDS Durable Objects chosen by reference;
 * payouts, faults and faulted webhooks in the main one (bank.ts, decision 024); the tester's
 * lists and the pull-mode pump read across them. docs/sandbox-bank.md describes the API.
 */
import { findBank, isValidAccountNumber } from "../../core/banks";
import { parseLaoQr } from "../../core/emvco";
import { MINOR_DIGITS, parseAmount } from "../../core/money";
import {
  deliveryMode,
  MAIN_BANK,
  QR_SHARDS,
  qrAmount,
  qrShardName,
  shardOfDelivery,
  type BankEnv,
  type CreatePayoutInput,
  type CreateQrInput,
  type Delivery,
  type DeliveryFilter,
  type Outcome,
  type PayoutOutcome,
  type RecentQr,
  type SandboxBank,
} from "./bank";
import { shardOf } from "../shard";
import { parseFaultSpec } from "./faults";
import { PAGE_CSP, paidPage, payoutsPage, payPage, refusedPage, type PayoutNotice } from "./pages";
import { constantTimeEqual } from "./signature";

export { SandboxBank } from "./bank";

const REFERENCE = /^[A-Za-z0-9._-]{1,25}$/;
const PRINTABLE = /^[\x20-\x7e]+$/;
const MAX_PAYLOAD_BYTES = 4096;
const RECENT_ON_PAGE = 10;
const PAYOUTS_ON_PAGE = 25;
/** Payouts are whole kip (workers/core/money.ts: withdrawals round down to whole kip). */
const KIP = 10n ** BigInt(MINOR_DIGITS.LAK);
const MAX_PAYOUT_MINOR = 10n ** 14n;
/** A rejection reason is a code: DECLINED_BY_BANK, ACCOUNT_CLOSED, ... */
const REASON = /^[A-Z][A-Z0-9_]{0,39}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });
}

function error(status: number, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  return json({ error: { code, message, ...extra } }, status);
}

function outcome<T>(result: Outcome<T>): Response {
  return result.ok ? json({ data: result.data }, result.status) : error(result.status, result.code, result.message);
}

function html(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": PAGE_CSP,
      "x-content-type-options": "nosniff",
    },
  });
}

/** The main object: payouts, faults, faulted webhooks. */
function bank(env: BankEnv): DurableObjectStub<SandboxBank> {
  return env.BANK.get(env.BANK.idFromName(MAIN_BANK));
}

function qrShard(env: BankEnv, shard: number): DurableObjectStub<SandboxBank> {
  return env.BANK.get(env.BANK.idFromName(qrShardName(shard)));
}

/** The QR shard a reference lives in. */
function qrBank(env: BankEnv, reference: string): DurableObjectStub<SandboxBank> {
  return qrShard(env, shardOf(reference, QR_SHARDS));
}

function allQrShards(env: BankEnv): DurableObjectStub<SandboxBank>[] {
  return Array.from({ length: QR_SHARDS }, (_, shard) => qrShard(env, shard));
}

/** Pays at the QR shard of the payload's reference (one that cannot be read is refused by any shard, shard 0). */
function payAtShard(env: BankEnv, payload: string) {
  const parsed = parseLaoQr(payload.trim());
  const shard = parsed.ok && parsed.qr.reference ? shardOf(parsed.qr.reference, QR_SHARDS) : 0;
  return qrShard(env, shard).pay(payload, shard);
}

/** The most recent QRs across the shards. */
async function recentQrs(env: BankEnv, limit: number): Promise<RecentQr[]> {
  const lists = await Promise.all(allQrShards(env).map((stub) => stub.recentQrs(limit)));
  return lists
    .flat()
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, limit);
}

/** Where deliveries may be: the main object, and the QR shard of the reference (or every shard). */
function deliveryHolders(env: BankEnv, filter: DeliveryFilter): DurableObjectStub<SandboxBank>[] {
  if (filter.kind === "payout") return [bank(env)];
  return [bank(env), ...(filter.reference !== undefined ? [qrBank(env, filter.reference)] : allQrShards(env))];
}

/** Pull mode: the oldest due delivery across the objects, taken from the one that holds it. */
async function pullNext(env: BankEnv, filter: DeliveryFilter, now: number) {
  const holders = deliveryHolders(env, filter);
  for (let round = 0; round < 5; round++) {
    const due = await Promise.all(holders.map((stub) => stub.peekDue(filter, now)));
    let best = -1;
    due.forEach((d, i) => {
      const b = best >= 0 ? due[best]! : null;
      if (d && (!b || d.at < b.at || (d.at === b.at && d.createdAt < b.createdAt))) best = i;
    });
    if (best < 0) return { ok: true as const, status: 200, data: null };
    const pulled = await holders[best]!.pullNext(filter, now);
    // taken meanwhile by another pump: look again
    if (!pulled.ok || pulled.data !== null) return pulled;
  }
  return { ok: true as const, status: 200, data: null };
}

/** Deliveries across the objects, newest first (at most 500, as one object listed them). */
async function listDeliveries(env: BankEnv, filter: DeliveryFilter): Promise<Delivery[]> {
  const lists = await Promise.all(deliveryHolders(env, filter).map((stub) => stub.listDeliveries(filter)));
  return lists
    .flat()
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id)
    .slice(0, 500);
}

function deliveryHolder(env: BankEnv, id: number): DurableObjectStub<SandboxBank> {
  const shard = shardOfDelivery(id);
  return shard === null ? bank(env) : qrShard(env, shard);
}

async function authorized(request: Request, env: BankEnv): Promise<boolean> {
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  let decoded = "";
  if (match) {
    try {
      decoded = atob(match[1]!);
    } catch {
      decoded = "";
    }
  }
  const colon = decoded.indexOf(":");
  const id = colon >= 0 ? decoded.slice(0, colon) : "";
  const secret = colon >= 0 ? decoded.slice(colon + 1) : "";
  // Both comparisons always run, so the time taken does not tell which part was wrong.
  const [idOk, secretOk] = await Promise.all([constantTimeEqual(id, env.MERCHANT_ID), constantTimeEqual(secret, env.MERCHANT_SECRET)]);
  return idOk && secretOk && colon >= 0;
}

async function readJson(request: Request): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  try {
    return { ok: true, body: await request.json() };
  } catch {
    return { ok: false, response: error(400, "INVALID_JSON", "the body must be JSON") };
  }
}

type Parsed<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

function invalid(field: string, message: string): { ok: false; field: string; message: string } {
  return { ok: false, field, message };
}

export function parseCreateQr(input: unknown): Parsed<CreateQrInput> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return invalid("", "the body must be a JSON object");
  const body = input as Record<string, unknown>;
  const { reference, amount, callbackUrl } = body;
  if (typeof reference !== "string" || !REFERENCE.test(reference)) {
    return invalid("reference", "reference must be 1-25 characters of A-Z a-z 0-9 . _ - (EMVCo tag 62.05 holds at most 25)");
  }
  if (typeof amount !== "string") return invalid("amount", 'amount must be a decimal string in LAK, e.g. "50000"');
  const minor = parseAmount(amount, "LAK");
  if (minor === null || minor <= 0n) return invalid("amount", "amount must be a positive decimal string with at most 2 decimals");
  if (minor >= 10n ** 14n) return invalid("amount", "amount is too large for a QR code (tag 54 holds 13 characters)");
  if (typeof callbackUrl !== "string") return invalid("callbackUrl", "callbackUrl must be an http(s) URL");
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return invalid("callbackUrl", "callbackUrl must be an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return invalid("callbackUrl", "callbackUrl must be an http(s) URL");
  const expiresInSeconds = body.expiresInSeconds ?? 900;
  if (typeof expiresInSeconds !== "number" || !Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > 86_400) {
    return invalid("expiresInSeconds", "expiresInSeconds must be an integer from 1 to 86400");
  }
  const receiver = body.receiver;
  if (typeof receiver !== "object" || receiver === null) return invalid("receiver", "receiver { iin, merchantId, name, city } is required");
  const { iin, merchantId, name, city, paymentType = "002" } = receiver as Record<string, unknown>;
  if (typeof iin !== "string" || !/^\d{8}$/.test(iin)) return invalid("receiver.iin", "receiver.iin must be the bank's 8-digit LAPNet IIN");
  if (typeof merchantId !== "string" || !PRINTABLE.test(merchantId) || merchantId.length > 25) {
    return invalid("receiver.merchantId", "receiver.merchantId must be 1-25 printable ASCII characters");
  }
  if (typeof name !== "string" || !PRINTABLE.test(name)) return invalid("receiver.name", "receiver.name must be printable ASCII (cut to 25)");
  if (typeof city !== "string" || !PRINTABLE.test(city)) return invalid("receiver.city", "receiver.city must be printable ASCII (cut to 15)");
  if (paymentType !== "001" && paymentType !== "002") return invalid("receiver.paymentType", 'receiver.paymentType must be "001" or "002"');
  return {
    ok: true,
    value: {
      reference,
      amountMinor: minor.toString(),
      amountText: qrAmount(amount.trim(), minor),
      callbackUrl: url.toString(),
      expiresInSeconds,
      receiver: { iin, merchantId, name, city, paymentType },
    },
  };
}

function httpUrl(text: unknown): string | null {
  if (typeof text !== "string") return null;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

export function parseCreatePayout(input: unknown): Parsed<CreatePayoutInput> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return invalid("", "the body must be a JSON object");
  const { reference, amount, bankCode, accountNumber, accountName, callbackUrl } = input as Record<string, unknown>;
  if (typeof reference !== "string" || !REFERENCE.test(reference)) return invalid("reference", "reference must be 1-25 characters of A-Z a-z 0-9 . _ -");
  if (typeof amount !== "string") return invalid("amount", 'amount must be a decimal string in LAK, e.g. "50000" or "50000.00"');
  const minor = parseAmount(amount, "LAK");
  if (minor === null || minor <= 0n) return invalid("amount", "amount must be a positive decimal string");
  if (minor % KIP !== 0n) return invalid("amount", "payouts are in whole kip (no fraction of a kip)");
  if (minor >= MAX_PAYOUT_MINOR) return invalid("amount", "amount is too large");
  if (typeof bankCode !== "string" || !findBank(bankCode)) return invalid("bankCode", "bankCode must be a Lao bank code (BCEL, LDB, APB, JDB, ...)");
  if (typeof accountNumber !== "string" || !isValidAccountNumber(bankCode, accountNumber)) {
    return invalid("accountNumber", `accountNumber must be the digits of a ${bankCode} account (no spaces or dashes)`);
  }
  if (typeof accountName !== "string" || !accountName.trim() || accountName.length > 100 || CONTROL.test(accountName)) {
    return invalid("accountName", "accountName must be the account holder's name, 1-100 characters");
  }
  const url = httpUrl(callbackUrl);
  if (url === null) return invalid("callbackUrl", "callbackUrl must be an http(s) URL");
  return { ok: true, value: { reference, amountMinor: minor.toString(), bankCode, accountNumber, accountName: accountName.trim(), callbackUrl: url } };
}

export function parseCompletion(input: unknown): Parsed<{ outcome: PayoutOutcome; reason: string | null }> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return invalid("", "the body must be a JSON object");
  const { outcome, reason = null } = input as Record<string, unknown>;
  if (outcome !== "PAID" && outcome !== "REJECTED") return invalid("outcome", 'outcome must be "PAID" or "REJECTED"');
  if (reason !== null && (typeof reason !== "string" || !REASON.test(reason))) {
    return invalid("reason", "reason must be a code of A-Z 0-9 _ (at most 40), e.g. ACCOUNT_CLOSED");
  }
  if (reason !== null && outcome === "PAID") return invalid("reason", "only a rejection has a reason");
  return { ok: true, value: { outcome, reason } };
}

/** `?now=<ms>` lets tests move the delivery clock forward (backoff, delay); default: real time. */
function clock(url: URL): number | null {
  const now = url.searchParams.get("now");
  if (now === null) return Date.now();
  return /^\d{1,15}$/.test(now) ? Number(now) : null;
}

function filterOf(url: URL): DeliveryFilter {
  const filter: DeliveryFilter = {};
  const reference = url.searchParams.get("reference");
  const prefix = url.searchParams.get("prefix");
  const kind = url.searchParams.get("kind");
  if (reference !== null) filter.reference = reference;
  if (prefix !== null) filter.prefix = prefix;
  if (kind === "payment" || kind === "payout") filter.kind = kind;
  return filter;
}

async function api(request: Request, env: BankEnv, path: string): Promise<Response> {
  if (!(await authorized(request, env))) {
    return json({ error: { code: "UNAUTHORIZED", message: "HTTP Basic merchant credentials required" } }, 401, {
      "www-authenticate": 'Basic realm="sandbox-bank"',
    });
  }
  if (path === "/api/qr") {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const parsed = parseCreateQr(read.body);
    if (!parsed.ok) return error(400, "INVALID_REQUEST", parsed.message, { field: parsed.field });
    return outcome(await qrBank(env, parsed.value.reference).createQr(parsed.value));
  }
  const payment = /^\/api\/payments\/([^/]+)$/.exec(path);
  if (payment) {
    if (request.method !== "GET") return error(405, "METHOD_NOT_ALLOWED", "GET only");
    const reference = decodeURIComponent(payment[1]!);
    return json({ data: await qrBank(env, reference).paymentStatus(reference) });
  }
  if (path === "/api/payouts") {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const parsed = parseCreatePayout(read.body);
    if (!parsed.ok) return error(400, "INVALID_REQUEST", parsed.message, { field: parsed.field });
    return outcome(await bank(env).createPayout(parsed.value));
  }
  const payout = /^\/api\/payouts\/([^/]+)$/.exec(path);
  if (payout) {
    if (request.method !== "GET") return error(405, "METHOD_NOT_ALLOWED", "GET only");
    return json({ data: await bank(env).payoutStatus(decodeURIComponent(payout[1]!)) });
  }
  return error(404, "NOT_FOUND", "no such endpoint");
}

async function payFromForm(request: Request, env: BankEnv): Promise<Response> {
  let payload = "";
  try {
    const form = await request.formData();
    const file = form.get("file");
    const text = form.get("payload");
    if (file !== null && typeof file !== "string" && file.size > 0) {
      if (file.size > MAX_PAYLOAD_BYTES) {
        return html(refusedPage("FILE_TOO_LARGE", "That file is too large to hold a QR payload.", "", await recentQrs(env, RECENT_ON_PAGE)), 413);
      }
      payload = (await file.text()).trim();
    } else if (typeof text === "string") {
      payload = text.trim();
    }
  } catch {
    return html(refusedPage("BAD_FORM", "The form could not be read.", "", await recentQrs(env, RECENT_ON_PAGE)), 400);
  }
  const result = await payAtShard(env, payload);
  if (result.ok) return html(paidPage(result.data));
  return html(refusedPage(result.code, result.message, payload, await recentQrs(env, RECENT_ON_PAGE)), result.status);
}

async function sandbox(request: Request, env: BankEnv, url: URL, path: string): Promise<Response> {
  const stub = bank(env);
  if (path === "/sandbox/pay") {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const payload = (read.body as { payload?: unknown } | null)?.payload;
    if (typeof payload !== "string") return error(400, "PAYLOAD_MISSING", "payload (string) is required");
    const result = await payAtShard(env, payload);
    if (!result.ok) return error(result.status, result.code, result.message);
    const { reference, transactionId, status, amount, paidAt } = result.data;
    return json({ data: { reference, transactionId, status, amount, paidAt } });
  }
  const expire = /^\/sandbox\/qr\/([^/]+)\/expire$/.exec(path);
  if (expire) {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const reference = decodeURIComponent(expire[1]!);
    return outcome(await qrBank(env, reference).expireQr(reference));
  }
  if (path === "/sandbox/payouts") {
    if (request.method !== "GET") return error(405, "METHOD_NOT_ALLOWED", "GET only");
    return json({ data: await stub.recentPayouts(500, filterOf(url)) });
  }
  if (path === "/sandbox/payouts/config") {
    if (request.method === "GET") return json({ data: await stub.payoutConfig() });
    if (request.method === "DELETE") return json({ data: await stub.clearPayoutConfig(url.searchParams.get("referencePrefix") ?? "") });
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "GET, POST or DELETE");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const body = (read.body ?? {}) as { processingMs?: unknown; referencePrefix?: unknown };
    const { processingMs, referencePrefix = "" } = body;
    if (typeof processingMs !== "number" || !Number.isInteger(processingMs) || processingMs < 0 || processingMs > 86_400_000) {
      return error(400, "INVALID_REQUEST", "processingMs must be an integer from 0 to 86400000", { field: "processingMs" });
    }
    if (typeof referencePrefix !== "string" || referencePrefix.length > 25) {
      return error(400, "INVALID_REQUEST", "referencePrefix must be a string of at most 25 characters", { field: "referencePrefix" });
    }
    return json({ data: await stub.setPayoutConfig({ referencePrefix, processingMs }) });
  }
  const complete = /^\/sandbox\/payouts\/([^/]+)\/complete$/.exec(path);
  if (complete) {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const parsed = parseCompletion(read.body);
    if (!parsed.ok) return error(400, "INVALID_REQUEST", parsed.message, { field: parsed.field });
    return outcome(await stub.completePayout(decodeURIComponent(complete[1]!), parsed.value.outcome, parsed.value.reason));
  }
  if (path === "/sandbox/faults") {
    if (request.method === "GET") return json({ data: await stub.listFaults() });
    if (request.method === "DELETE") {
      const prefix = url.searchParams.get("referencePrefix");
      return json({ data: await stub.clearFaults(prefix === null ? {} : { referencePrefix: prefix }) });
    }
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "GET, POST or DELETE");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const parsed = parseFaultSpec(read.body);
    if (!parsed.ok) return error(400, "INVALID_REQUEST", parsed.message);
    return json({ data: await stub.addFault(parsed.spec) }, 201);
  }
  const fault = /^\/sandbox\/faults\/(\d+)$/.exec(path);
  if (fault) {
    if (request.method !== "DELETE") return error(405, "METHOD_NOT_ALLOWED", "DELETE only");
    const result = await stub.clearFaults({ id: Number(fault[1]) });
    return result.cleared ? json({ data: result }) : error(404, "FAULT_NOT_FOUND", "no such fault");
  }
  if (path === "/sandbox/deliveries") {
    if (request.method !== "GET") return error(405, "METHOD_NOT_ALLOWED", "GET only");
    return json({ data: await listDeliveries(env, filterOf(url)), mode: deliveryMode(env) });
  }
  if (path === "/sandbox/deliveries/next") {
    if (request.method !== "GET") return error(405, "METHOD_NOT_ALLOWED", "GET only");
    const now = clock(url);
    if (now === null) return error(400, "INVALID_REQUEST", "now must be milliseconds since the epoch");
    return outcome(await pullNext(env, filterOf(url), now));
  }
  const result = /^\/sandbox\/deliveries\/(\d+)\/result$/.exec(path);
  if (result) {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const now = clock(url);
    if (now === null) return error(400, "INVALID_REQUEST", "now must be milliseconds since the epoch");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const body = (read.body ?? {}) as { status?: unknown; error?: unknown };
    if (typeof body.status !== "number" || !Number.isInteger(body.status) || body.status < 0 || body.status > 599) {
      return error(400, "INVALID_REQUEST", "status must be the HTTP status the portal answered (0 = network error)");
    }
    const id = Number(result[1]);
    return outcome(await deliveryHolder(env, id).reportResult(id, body.status, now, typeof body.error === "string" ? body.error.slice(0, 300) : null));
  }
  return error(404, "NOT_FOUND", "no such endpoint");
}

/** The payout desk's Pay / Reject buttons (form posts, so it works without JavaScript). */
async function completeFromForm(request: Request, env: BankEnv): Promise<Response> {
  const stub = bank(env);
  let reference = "";
  let parsed: Parsed<{ outcome: PayoutOutcome; reason: string | null }>;
  try {
    const form = await request.formData();
    reference = String(form.get("reference") ?? "");
    const reason = form.get("reason");
    parsed = parseCompletion({ outcome: form.get("outcome"), reason: typeof reason === "string" && reason !== "" ? reason : null });
  } catch {
    parsed = invalid("", "The form could not be read.");
  }
  if (!parsed.ok) {
    return html(payoutsPage(await stub.recentPayouts(PAYOUTS_ON_PAGE), { kind: "error", reference, code: "INVALID_REQUEST", message: parsed.message }), 400);
  }
  const result = await stub.completePayout(reference, parsed.value.outcome, parsed.value.reason);
  if (!result.ok) {
    return html(
      payoutsPage(await stub.recentPayouts(PAYOUTS_ON_PAGE), { kind: "error", reference, code: result.code, message: result.message }),
      result.status,
    );
  }
  // Post/redirect/get; a relative Location keeps the portal's /sandbox/bank/ prefix.
  return new Response(null, { status: 303, headers: { location: `payouts?done=${encodeURIComponent(reference)}`, "cache-control": "no-store" } });
}

async function payoutsFromQuery(url: URL, env: BankEnv): Promise<Response> {
  const stub = bank(env);
  const recent = await stub.recentPayouts(PAYOUTS_ON_PAGE);
  const done = url.searchParams.get("done");
  let notice: PayoutNotice | null = null;
  if (done !== null && REFERENCE.test(done)) {
    const status = await stub.payoutStatus(done);
    if (status.status !== "NOT_FOUND") notice = { kind: "done", payout: status };
  }
  return html(payoutsPage(recent, notice));
}

export default {
  async fetch(request: Request, env: BankEnv): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path === "/health") return json({ status: await bank(env).health() });
    if (path === "/api" || path.startsWith("/api/")) return api(request, env, path);
    if (path === "/sandbox" || path.startsWith("/sandbox/")) return sandbox(request, env, url, path);
    if (path === "/" && request.method === "GET") return new Response(null, { status: 302, headers: { location: "pay" } });
    if (path === "/pay") {
      if (request.method === "GET") {
        const prefill = (url.searchParams.get("payload") ?? "").slice(0, MAX_PAYLOAD_BYTES);
        return html(payPage(prefill, await recentQrs(env, RECENT_ON_PAGE)));
      }
      if (request.method === "POST") return payFromForm(request, env);
      return new Response("Method not allowed", { status: 405, headers: { allow: "GET, POST" } });
    }
    if (path === "/payouts") {
      if (request.method === "GET") return payoutsFromQuery(url, env);
      if (request.method === "POST") return completeFromForm(request, env);
      return new Response("Method not allowed", { status: 405, headers: { allow: "GET, POST" } });
    }
    return error(404, "NOT_FOUND", "no such endpoint");
  },
} satisfies ExportedHandler<BankEnv>;
