import { describe, expect, it } from "vitest";
import { gatewayPort, payoutGatewayConfigured } from "../../workers/ports/gateway";

/**
 * The payment gateway port (decision 004) when the bank misbehaves: every answer it cannot use
 * becomes "unavailable" or "unknown" (the check button and the reconciler try again later),
 * never a thrown error and never a payout taken as refused when it may have gone out.
 * The bank here is a fake Fetcher answering what a real gateway can answer.
 */

type Answer = Response | (() => never);
type Seen = { url: string; method: string; authorization: string | null };

function bankAnswering(answer: Answer) {
  const seen: Seen[] = [];
  const fetcher = {
    fetch: async (url: string, init: RequestInit) => {
      seen.push({ url, method: init.method ?? "GET", authorization: new Headers(init.headers).get("Authorization") });
      return typeof answer === "function" ? answer() : answer;
    },
  };
  const env = { SANDBOX_BANK: fetcher, SANDBOX_BANK_MERCHANT: "M1", SANDBOX_BANK_SECRET: "s3cret" } as unknown as Env;
  return { port: gatewayPort(env), seen };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const offline = () => {
  throw new TypeError("network connection lost");
};

const payout = { reference: "W1", amount: "58000.00", bankCode: "BCEL", accountNumber: "0101234567890", accountName: "SOMCHAI", callbackUrl: "https://x/cb" };
const qr = {
  reference: "D1",
  amount: "100000.00",
  callbackUrl: "https://x/cb",
  expiresInSeconds: 900,
  receiver: { iin: "27710418", merchantId: "M1", name: "PLAY", city: "VIENTIANE" },
};

describe("payment QR when the bank cannot answer", () => {
  it("a bank out of reach means no QR now, said as unavailable with the cause", async () => {
    expect(await bankAnswering(offline).port.createQr(qr)).toEqual({ kind: "unavailable", reason: "TypeError: network connection lost" });
  });

  it("an answer without the QR payload or its expiry is not shown to the player", async () => {
    expect(await bankAnswering(json(200, { data: { payload: "000201" } })).port.createQr(qr)).toEqual({ kind: "unavailable", reason: "bad answer" });
  });
});

describe("payouts: refused, unknown or in flight", () => {
  it("the bank's refusal carries its own code, and the request is signed with the merchant's credentials", async () => {
    const { port, seen } = bankAnswering(json(422, { error: { code: "ACCOUNT_CLOSED" } }));
    expect(await port.requestPayout(payout)).toEqual({ kind: "refused", code: "ACCOUNT_CLOSED" });
    expect(seen).toEqual([{ url: "http://sandbox-bank/api/payouts", method: "POST", authorization: `Basic ${btoa("M1:s3cret")}` }]);
  });

  it("a refusal with no readable code is named by its HTTP status", async () => {
    expect(await bankAnswering(new Response("Bad Request", { status: 400 })).port.requestPayout(payout)).toEqual({ kind: "refused", code: "HTTP_400" });
  });

  it("no answer at all is unknown, not refused: the money may have gone out, so the withdrawal must not be refunded", async () => {
    expect(await bankAnswering(offline).port.requestPayout(payout)).toEqual({ kind: "unknown", reason: "TypeError: network connection lost" });
  });

  it("a payout's status: still processing, unknown to the bank, or an answer that cannot be read", async () => {
    const { port, seen } = bankAnswering(json(200, { data: { status: "PROCESSING" } }));
    expect(await port.payoutStatus("W 1/2")).toEqual({ kind: "processing" });
    // the reference is escaped so the bank looks up the right payout
    expect(seen[0].url).toBe("http://sandbox-bank/api/payouts/W%201%2F2");
    expect(await bankAnswering(json(200, { data: { status: "NOT_FOUND" } })).port.payoutStatus("W1")).toEqual({ kind: "not-found" });
    expect(await bankAnswering(json(200, { data: { status: "ON_HOLD" } })).port.payoutStatus("W1")).toEqual({ kind: "unavailable", reason: "bad answer" });
    expect(await bankAnswering(offline).port.payoutStatus("W1")).toEqual({ kind: "unavailable", reason: "TypeError: network connection lost" });
  });
});

describe("a deposit's payment status (the check button and the reconciler)", () => {
  it("expired or not found at the bank are said as such; anything else unreadable is unavailable, to ask again later", async () => {
    expect(await bankAnswering(json(200, { data: { status: "EXPIRED" } })).port.paymentStatus("D1")).toEqual({ kind: "expired" });
    expect(await bankAnswering(json(200, { data: { status: "NOT_FOUND" } })).port.paymentStatus("D1")).toEqual({ kind: "not-found" });
    expect(await bankAnswering(json(200, { data: {} })).port.paymentStatus("D1")).toEqual({ kind: "unavailable", reason: "bad answer" });
    expect(await bankAnswering(offline).port.paymentStatus("D1")).toEqual({ kind: "unavailable", reason: "TypeError: network connection lost" });
  });
});

describe("a deployment with no gateway", () => {
  it("makes no QR, sends no payout (refused, so the withdrawal waits for staff) and knows no status", async () => {
    const env = { SANDBOX_BANK_MERCHANT: "M1", SANDBOX_BANK_SECRET: "s3cret" } as unknown as Env;
    expect(payoutGatewayConfigured(env)).toBe(false);
    const port = gatewayPort(env);
    const none = { kind: "unavailable", reason: "no payment gateway adapter configured" };
    expect(await port.createQr(qr)).toEqual(none);
    expect(await port.requestPayout(payout)).toEqual({ kind: "refused", code: "NOT_CONFIGURED" });
    expect(await port.payoutStatus("W1")).toEqual(none);
    expect(await port.paymentStatus("D1")).toEqual(none);
  });
});
