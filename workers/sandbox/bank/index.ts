/**
 * Sandbox bank / payment gateway (LAO QR). Local development and tests only; never deployed.
 *
 *   /api/*        merchant API, HTTP Basic MERCHANT_ID:MERCHANT_SECRET
 *   /pay          the tester's "banking app" page (HTML, works without JavaScript)
 *   /sandbox/*    test controls without auth: pay by JSON, faults, pull-mode webhook pump
 *
 * Everything lives in one Durable Object (bank.ts); docs/sandbox-bank.md describes the API.
 */
import { parseAmount } from "../../core/money";
import { deliveryMode, qrAmount, type BankEnv, type CreateQrInput, type DeliveryFilter, type Outcome, type SandboxBank } from "./bank";
import { parseFaultSpec } from "./faults";
import { PAGE_CSP, paidPage, payPage, refusedPage } from "./pages";
import { constantTimeEqual } from "./signature";

export { SandboxBank } from "./bank";

const REFERENCE = /^[A-Za-z0-9._-]{1,25}$/;
const PRINTABLE = /^[\x20-\x7e]+$/;
const MAX_PAYLOAD_BYTES = 4096;
const RECENT_ON_PAGE = 10;

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
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": PAGE_CSP, "x-content-type-options": "nosniff" },
  });
}

function bank(env: BankEnv): DurableObjectStub<SandboxBank> {
  return env.BANK.get(env.BANK.idFromName("sandbox-bank"));
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
  if (typeof amount !== "string") return invalid("amount", "amount must be a decimal string in LAK, e.g. \"50000\"");
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
    value: { reference, amountMinor: minor.toString(), amountText: qrAmount(amount.trim(), minor), callbackUrl: url.toString(), expiresInSeconds, receiver: { iin, merchantId, name, city, paymentType } },
  };
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
  if (reference !== null) filter.reference = reference;
  if (prefix !== null) filter.prefix = prefix;
  return filter;
}

async function api(request: Request, env: BankEnv, path: string): Promise<Response> {
  if (!(await authorized(request, env))) {
    return json({ error: { code: "UNAUTHORIZED", message: "HTTP Basic merchant credentials required" } }, 401, { "www-authenticate": 'Basic realm="sandbox-bank"' });
  }
  if (path === "/api/qr") {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const parsed = parseCreateQr(read.body);
    if (!parsed.ok) return error(400, "INVALID_REQUEST", parsed.message, { field: parsed.field });
    return outcome(await bank(env).createQr(parsed.value));
  }
  const payment = /^\/api\/payments\/([^/]+)$/.exec(path);
  if (payment) {
    if (request.method !== "GET") return error(405, "METHOD_NOT_ALLOWED", "GET only");
    return json({ data: await bank(env).paymentStatus(decodeURIComponent(payment[1]!)) });
  }
  if (path === "/api/payouts" || path.startsWith("/api/payouts/")) {
    // Payouts (withdrawals) come with the withdrawals issue: POST /api/payouts and
    // GET /api/payouts/{reference}, backed by SandboxBank (see the Payouts section in bank.ts).
    return error(501, "NOT_IMPLEMENTED", "payouts are not available in this sandbox yet");
  }
  return error(404, "NOT_FOUND", "no such endpoint");
}

async function payFromForm(request: Request, env: BankEnv): Promise<Response> {
  const stub = bank(env);
  let payload = "";
  try {
    const form = await request.formData();
    const file = form.get("file");
    const text = form.get("payload");
    if (file !== null && typeof file !== "string" && file.size > 0) {
      if (file.size > MAX_PAYLOAD_BYTES) {
        return html(refusedPage("FILE_TOO_LARGE", "That file is too large to hold a QR payload.", "", await stub.recentQrs(RECENT_ON_PAGE)), 413);
      }
      payload = (await file.text()).trim();
    } else if (typeof text === "string") {
      payload = text.trim();
    }
  } catch {
    return html(refusedPage("BAD_FORM", "The form could not be read.", "", await stub.recentQrs(RECENT_ON_PAGE)), 400);
  }
  const result = await stub.pay(payload);
  if (result.ok) return html(paidPage(result.data));
  return html(refusedPage(result.code, result.message, payload, await stub.recentQrs(RECENT_ON_PAGE)), result.status);
}

async function sandbox(request: Request, env: BankEnv, url: URL, path: string): Promise<Response> {
  const stub = bank(env);
  if (path === "/sandbox/pay") {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    const read = await readJson(request);
    if (!read.ok) return read.response;
    const payload = (read.body as { payload?: unknown } | null)?.payload;
    if (typeof payload !== "string") return error(400, "PAYLOAD_MISSING", "payload (string) is required");
    const result = await stub.pay(payload);
    if (!result.ok) return error(result.status, result.code, result.message);
    const { reference, transactionId, status, amount, paidAt } = result.data;
    return json({ data: { reference, transactionId, status, amount, paidAt } });
  }
  const expire = /^\/sandbox\/qr\/([^/]+)\/expire$/.exec(path);
  if (expire) {
    if (request.method !== "POST") return error(405, "METHOD_NOT_ALLOWED", "POST only");
    return outcome(await stub.expireQr(decodeURIComponent(expire[1]!)));
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
    return json({ data: await stub.listDeliveries(filterOf(url)), mode: deliveryMode(env) });
  }
  if (path === "/sandbox/deliveries/next") {
    if (request.method !== "GET") return error(405, "METHOD_NOT_ALLOWED", "GET only");
    const now = clock(url);
    if (now === null) return error(400, "INVALID_REQUEST", "now must be milliseconds since the epoch");
    return outcome(await stub.pullNext(filterOf(url), now));
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
    return outcome(await stub.reportResult(Number(result[1]), body.status, now, typeof body.error === "string" ? body.error.slice(0, 300) : null));
  }
  return error(404, "NOT_FOUND", "no such endpoint");
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
        return html(payPage(prefill, await bank(env).recentQrs(RECENT_ON_PAGE)));
      }
      if (request.method === "POST") return payFromForm(request, env);
      return new Response("Method not allowed", { status: 405, headers: { allow: "GET, POST" } });
    }
    return error(404, "NOT_FOUND", "no such endpoint");
  },
} satisfies ExportedHandler<BankEnv>;
