/**
 * Payment gateway port (decision 004): dynamic LAO QR per order, a signed webhook, and a
 * status query by reference (the "check" button and the reconciler), because real
 * gateways differ and some sign nothing.
 */
type QrReceiver = { iin: string; merchantId: string; name: string; city: string };
type PaymentStatus =
  | { kind: "pending" }
  | { kind: "paid"; amount: string; transactionId: string; paidAt: string }
  | { kind: "expired" }
  | { kind: "not-found" }
  | { kind: "unavailable"; reason: string };

type PayoutRequest = { reference: string; amount: string; bankCode: string; accountNumber: string; accountName: string; callbackUrl: string };
type PayoutStatus =
  | { kind: "processing" }
  | { kind: "paid"; transactionId: string }
  | { kind: "rejected"; reason: string }
  | { kind: "not-found" }
  | { kind: "unavailable"; reason: string };

export interface PaymentGatewayPort {
  requestPayout(input: PayoutRequest): Promise<{ kind: "accepted" } | { kind: "refused"; code: string } | { kind: "unknown"; reason: string }>;
  payoutStatus(reference: string): Promise<PayoutStatus>;
  createQr(input: {
    reference: string;
    amount: string;
    callbackUrl: string;
    expiresInSeconds: number;
    receiver: QrReceiver;
  }): Promise<{ kind: "ok"; payload: string; expiresAt: string } | { kind: "unavailable"; reason: string }>;
  paymentStatus(reference: string): Promise<PaymentStatus>;
}

const GATEWAY_TIMEOUT_MS = 8000;

class SandboxBankAdapter implements PaymentGatewayPort {
  constructor(
    private readonly fetcher: Fetcher,
    private readonly credentials: { merchant: string; secret: string },
    private readonly timeoutMs = GATEWAY_TIMEOUT_MS,
  ) {}

  private call(path: string, init?: { method?: string; body?: unknown }) {
    return this.fetcher.fetch(`http://sandbox-bank/api${path}`, {
      method: init?.method ?? "GET",
      headers: {
        Authorization: `Basic ${btoa(`${this.credentials.merchant}:${this.credentials.secret}`)}`,
        ...(init?.body ? { "Content-Type": "application/json" } : {}),
      },
      body: init?.body ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
  }

  async createQr(input: { reference: string; amount: string; callbackUrl: string; expiresInSeconds: number; receiver: QrReceiver }) {
    try {
      const res = await this.call("/qr", { method: "POST", body: input });
      if (!res.ok) return { kind: "unavailable" as const, reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { payload?: string; expiresAt?: string } };
      if (!body.data?.payload || !body.data.expiresAt) return { kind: "unavailable" as const, reason: "bad answer" };
      return { kind: "ok" as const, payload: body.data.payload, expiresAt: body.data.expiresAt };
    } catch (error) {
      return { kind: "unavailable" as const, reason: String(error) };
    }
  }

  async requestPayout(input: PayoutRequest) {
    try {
      const res = await this.call("/payouts", { method: "POST", body: input });
      if (res.status >= 500) return { kind: "unknown" as const, reason: `HTTP ${res.status}` };
      if (res.ok) return { kind: "accepted" as const };
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
      return { kind: "refused" as const, code: body.error?.code ?? `HTTP_${res.status}` };
    } catch (error) {
      return { kind: "unknown" as const, reason: String(error) };
    }
  }

  async payoutStatus(reference: string): Promise<PayoutStatus> {
    try {
      const res = await this.call(`/payouts/${encodeURIComponent(reference)}`);
      if (!res.ok) return { kind: "unavailable", reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { status?: string; transactionId?: string; reason?: string } };
      switch (body.data?.status) {
        case "PAID":
          return { kind: "paid", transactionId: body.data.transactionId ?? "" };
        case "REJECTED":
          return { kind: "rejected", reason: body.data.reason ?? "REJECTED" };
        case "PROCESSING":
          return { kind: "processing" };
        case "NOT_FOUND":
          return { kind: "not-found" };
        default:
          return { kind: "unavailable", reason: "bad answer" };
      }
    } catch (error) {
      return { kind: "unavailable", reason: String(error) };
    }
  }

  async paymentStatus(reference: string): Promise<PaymentStatus> {
    try {
      const res = await this.call(`/payments/${encodeURIComponent(reference)}`);
      if (res.status === 404) return { kind: "not-found" };
      if (!res.ok) return { kind: "unavailable", reason: `HTTP ${res.status}` };
      const body = (await res.json()) as { data?: { status?: string; amount?: string; transactionId?: string; paidAt?: string } };
      switch (body.data?.status) {
        case "PAID":
          return { kind: "paid", amount: body.data.amount ?? "", transactionId: body.data.transactionId ?? "", paidAt: body.data.paidAt ?? "" };
        case "PENDING":
          return { kind: "pending" };
        case "EXPIRED":
          return { kind: "expired" };
        case "NOT_FOUND":
          return { kind: "not-found" };
        default:
          return { kind: "unavailable", reason: "bad answer" };
      }
    } catch (error) {
      return { kind: "unavailable", reason: String(error) };
    }
  }
}

/**
 * A deployment with no gateway adapter (a production environment has no sandbox binding
 * and, today, no real adapter): no QR can be made, a payout is refused (nothing was sent).
 */
class UnconfiguredGatewayAdapter implements PaymentGatewayPort {
  private readonly reason = "no payment gateway adapter configured";
  async createQr() {
    return { kind: "unavailable" as const, reason: this.reason };
  }
  async requestPayout() {
    return { kind: "refused" as const, code: "NOT_CONFIGURED" };
  }
  async payoutStatus(): Promise<PayoutStatus> {
    return { kind: "unavailable", reason: this.reason };
  }
  async paymentStatus(): Promise<PaymentStatus> {
    return { kind: "unavailable", reason: this.reason };
  }
}

/**
 * Whether payouts can go out through a gateway at all. With none (a production deploy of an
 * agency taking deposits into its own bank account), every withdrawal waits for staff, who pay
 * it from the bank app and mark it paid (decision 016).
 */
export function payoutGatewayConfigured(env: Env): boolean {
  return Boolean(env.SANDBOX_BANK && env.SANDBOX_BANK_MERCHANT && env.SANDBOX_BANK_SECRET);
}

export function gatewayPort(env: Env): PaymentGatewayPort {
  if (!env.SANDBOX_BANK || !env.SANDBOX_BANK_MERCHANT || !env.SANDBOX_BANK_SECRET) return new UnconfiguredGatewayAdapter();
  return new SandboxBankAdapter(env.SANDBOX_BANK, { merchant: env.SANDBOX_BANK_MERCHANT, secret: env.SANDBOX_BANK_SECRET });
}

/** Webhook signature: `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, 300 s tolerance. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

export type WebhookVerdict = { ok: true; timestamp: number; signature: string } | { ok: false; reason: "MISSING" | "MALFORMED" | "STALE" | "BAD_SIGNATURE" };

/**
 * The signature header parsed into what it means: one timestamp and one v1 signature.
 * Field order, spaces, unknown fields and the spelling of the number (`+`, leading zeros,
 * `.0`) do not change the meaning, so the replay check keys on the parsed pair, never on
 * the header text. A field given twice with two values is ambiguous and refused.
 */
function parseSignatureHeader(header: string): { timestamp: number; signature: string } | null {
  const fields = new Map<string, string>();
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key !== "t" && key !== "v1") continue;
    const previous = fields.get(key);
    if (previous !== undefined && previous !== value) return null;
    fields.set(key, value);
  }
  const t = fields.get("t");
  const v1 = fields.get("v1");
  if (!t || !/^\+?\d{1,12}(\.0*)?$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return null;
  return { timestamp: Number(t), signature: v1 };
}

/** The payment gateway's webhook secret: the real gateway's in production, the sandbox's locally. */
export function webhookSecret(env: { GATEWAY_WEBHOOK_SECRET?: string; SANDBOX_WEBHOOK_SECRET?: string }): string | null {
  const secret = env.GATEWAY_WEBHOOK_SECRET || env.SANDBOX_WEBHOOK_SECRET;
  return secret && secret.length > 0 ? secret : null;
}

export async function verifyWebhookSignature(header: string | null, rawBody: string, secret: string, nowSeconds: number): Promise<WebhookVerdict> {
  if (!header) return { ok: false, reason: "MISSING" };
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: "MALFORMED" };
  const { timestamp: t, signature: v1 } = parsed;
  if (Math.abs(nowSeconds - t) > WEBHOOK_TOLERANCE_SECONDS) return { ok: false, reason: "STALE" };
  const expected = await hmacHex(secret, `${t}.${rawBody}`);
  return timingSafeEqualHex(expected, v1) ? { ok: true, timestamp: t, signature: v1 } : { ok: false, reason: "BAD_SIGNATURE" };
}

export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function timingSafeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
