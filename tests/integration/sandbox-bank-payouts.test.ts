import { afterEach, describe, expect, it } from "vitest";
import { bank, call, clearFaults, fault, MERCHANT, prefix, ref, verify, type Json, type PulledDelivery } from "../setup/sandbox-bank";

// Payouts at the sandbox bank (pool mode: DELIVERY_MODE=pull, so callbacks wait for the test
// pump). Every test uses its own reference prefix and scopes its faults and processing time
// to it, so tests never see each other's payouts.

const CALLBACK = "http://localhost/api/v2/payouts/webhook";
const ACCOUNT = { bankCode: "BCEL", accountNumber: "0101000123456", accountName: "Somchai Phommavong" };

function createPayout(reference: string, amount = "50000", extra: Json = {}) {
  return call("/api/payouts", "POST", { reference, amount, ...ACCOUNT, callbackUrl: CALLBACK, ...extra }, true);
}

function payoutStatus(reference: string) {
  return call(`/api/payouts/${encodeURIComponent(reference)}`, "GET", undefined, true);
}

function complete(reference: string, body: Json) {
  return call(`/sandbox/payouts/${encodeURIComponent(reference)}/complete`, "POST", body);
}

const configPrefixes: string[] = [];
/** Processing time for payouts whose reference starts with p. */
async function processing(p: string, processingMs: number) {
  configPrefixes.push(p);
  const set = await call("/sandbox/payouts/config", "POST", { referencePrefix: p, processingMs });
  expect(set.status).toBe(200);
}

async function next(filter: string): Promise<PulledDelivery | null> {
  const { status, body } = await call(`/sandbox/deliveries/next?kind=payout&${filter}`);
  expect(status).toBe(200);
  return body.data as PulledDelivery | null;
}

async function ack(id: number, status = 200) {
  return call(`/sandbox/deliveries/${id}/result`, "POST", { status });
}

async function deliveries(reference: string): Promise<Json[]> {
  return (await call(`/sandbox/deliveries?kind=payout&reference=${encodeURIComponent(reference)}`)).body.data as Json[];
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

afterEach(async () => {
  await clearFaults();
  for (const p of configPrefixes.splice(0)) await call(`/sandbox/payouts/config?referencePrefix=${p}`, "DELETE");
});

describe("sandbox bank payouts: API", () => {
  it("refuses /api/payouts without the merchant's HTTP Basic credentials", async () => {
    const body = JSON.stringify({ reference: ref(prefix("A")), amount: "1000", ...ACCOUNT, callbackUrl: CALLBACK });
    for (const authorization of [null, "Basic " + btoa("DEMO0001:wrong"), "Bearer sandbox-bank-secret-demo-0001"]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (authorization) headers.authorization = authorization;
      const response = await bank("/api/payouts", { method: "POST", headers, body });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Basic");
      expect(((await response.json()) as Json).error.code).toBe("UNAUTHORIZED");
    }
    expect((await bank("/api/payouts/x")).status).toBe(401);
    // nothing was recorded by the refused calls
    expect((await payoutStatus(JSON.parse(body).reference)).body.data.status).toBe("NOT_FOUND");
  });

  it("creates a PROCESSING payout; the same reference again answers 200, another amount or account 409 REF_CONFLICT", async () => {
    const p = prefix("C");
    await processing(p, 60_000);
    const reference = ref(p);
    const before = Date.now();
    const created = await createPayout(reference, "250000");
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ reference, status: "PROCESSING", amount: "250000.00", createdAt: expect.any(String) });
    expect(Date.parse(created.body.data.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const again = await createPayout(reference, "250000.00");
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(created.body.data);

    for (const patch of [{ amount: "250001" }, { bankCode: "LDB", accountNumber: "0101000123456" }, { accountNumber: "0101000123457" }]) {
      const conflict = await createPayout(reference, "250000", patch);
      expect(conflict.status, JSON.stringify(patch)).toBe(409);
      expect(conflict.body.error.code).toBe("REF_CONFLICT");
    }
    expect((await payoutStatus(reference)).body.data).toEqual({ reference, status: "PROCESSING", amount: "250000.00", createdAt: created.body.data.createdAt });
    const unknown = await payoutStatus(ref(p));
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual({ reference: unknown.body.data.reference, status: "NOT_FOUND", amount: null });
  });

  it("validates the request: reference, whole-kip amount, bank code, account number, name, callback URL", async () => {
    const p = prefix("V");
    const cases: [Json, string][] = [
      [{ reference: "x".repeat(26) }, "reference"],
      [{ reference: "bad ref" }, "reference"],
      [{ amount: 50000 }, "amount"],
      [{ amount: "0" }, "amount"],
      [{ amount: "-5" }, "amount"],
      [{ amount: "1e5" }, "amount"],
      [{ amount: "50000.50" }, "amount"],
      [{ bankCode: "MMONEY" }, "bankCode"],
      [{ bankCode: undefined }, "bankCode"],
      [{ accountNumber: "0101-000123456" }, "accountNumber"],
      [{ accountNumber: "010100012" }, "accountNumber"],
      [{ bankCode: "LDB", accountNumber: "1".repeat(19) }, "accountNumber"],
      [{ accountName: "  " }, "accountName"],
      [{ accountName: "a\nb" }, "accountName"],
      [{ callbackUrl: "ftp://x" }, "callbackUrl"],
    ];
    for (const [patch, field] of cases) {
      const reference = patch.reference ?? ref(p);
      const response = await call("/api/payouts", "POST", { reference, amount: "50000", ...ACCOUNT, callbackUrl: CALLBACK, ...patch }, true);
      expect(response.status, JSON.stringify(patch)).toBe(400);
      expect(response.body.error).toMatchObject({ code: "INVALID_REQUEST", field });
    }
    expect((await bank("/api/payouts", { method: "POST", headers: { authorization: MERCHANT }, body: "{" })).status).toBe(400);
    // Lao script names and "50000.00" are fine
    expect((await createPayout(ref(p), "50000.00", { accountName: "ສົມໃຈ ພົມມະວົງ" })).status).toBe(201);
    expect((await call(`/sandbox/payouts?prefix=${p}`)).body.data).toHaveLength(1);
  });
});

describe("sandbox bank payouts: processing and callbacks", () => {
  it("the DO alarm pays it after processingMs and queues a signed payout.paid callback", async () => {
    const p = prefix("P");
    await processing(p, 150);
    const reference = ref(p);
    expect((await createPayout(reference, "120000")).status).toBe(201);
    expect((await payoutStatus(reference)).body.data.status).toBe("PROCESSING");

    // /sandbox/deliveries does not settle payouts itself: a callback there comes from the alarm.
    const [queued] = await until(async () => {
      const list = await deliveries(reference);
      return list.length ? list : null;
    });
    expect(queued).toMatchObject({ kind: "payout", reference, url: CALLBACK, state: "pending", attempts: 0 });

    const status = (await payoutStatus(reference)).body.data;
    expect(status).toMatchObject({ reference, status: "PAID", amount: "120000.00" });
    expect(status.transactionId).toMatch(/^SBXP[0-9A-F]{16}$/);
    expect(status.reason).toBeUndefined();
    expect(Date.parse(status.completedAt) - Date.parse(status.createdAt)).toBeGreaterThanOrEqual(150);

    const delivery = await next(`reference=${reference}`);
    expect(delivery).toMatchObject({ kind: "payout", reference, url: CALLBACK, attempt: 1 });
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers["x-sandbox-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const check = await verify(delivery!.headers, delivery!.body);
    expect(check.valid).toBe(true);
    expect(Math.abs(check.ageSeconds)).toBeLessThanOrEqual(5);
    expect((await verify(delivery!.headers, delivery!.body.replace("120000", "120001"))).valid).toBe(false);
    expect(JSON.parse(delivery!.body)).toEqual({
      event: "payout.paid",
      reference,
      transactionId: status.transactionId,
      amount: "120000.00",
      currency: "LAK",
      completedAt: status.completedAt,
    });
    // the same retry/backoff machinery as payment webhooks
    expect((await ack(delivery!.id, 500)).body.data).toMatchObject({ state: "pending", attempts: 1 });
    const retry = await call(`/sandbox/deliveries/next?reference=${reference}&now=${Date.now() + 1000}`);
    expect(retry.body.data).toMatchObject({ id: delivery!.id, attempt: 2, body: delivery!.body });
    expect((await ack(delivery!.id, 204)).body.data).toMatchObject({ state: "delivered", attempts: 2 });
    // the idempotent repeat now answers the current state
    const repeat = await createPayout(reference, "120000");
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toMatchObject({ status: "PAID", transactionId: status.transactionId });
  });

  it("the complete control pays or rejects a PROCESSING payout now, once", async () => {
    const p = prefix("K");
    await processing(p, 60_000);
    const paid = ref(p);
    const rejected = ref(p);
    await createPayout(paid, "10000");
    await createPayout(rejected, "20000");

    const done = await complete(paid, { outcome: "PAID" });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ reference: paid, status: "PAID", amount: "10000.00", transactionId: expect.stringMatching(/^SBXP/) });
    const no = await complete(rejected, { outcome: "REJECTED", reason: "ACCOUNT_NAME_MISMATCH" });
    expect(no.body.data).toMatchObject({ reference: rejected, status: "REJECTED", amount: "20000.00", reason: "ACCOUNT_NAME_MISMATCH" });
    expect(no.body.data.transactionId).toBeUndefined();
    expect((await payoutStatus(rejected)).body.data).toEqual(no.body.data);

    const callback = await next(`reference=${rejected}`);
    expect((await verify(callback!.headers, callback!.body)).valid).toBe(true);
    expect(JSON.parse(callback!.body)).toEqual({
      event: "payout.rejected",
      reference: rejected,
      amount: "20000.00",
      currency: "LAK",
      reason: "ACCOUNT_NAME_MISMATCH",
      completedAt: no.body.data.completedAt,
    });
    await ack(callback!.id);
    expect(JSON.parse((await next(`reference=${paid}`))!.body).event).toBe("payout.paid");

    const twice = await complete(paid, { outcome: "REJECTED" });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("ALREADY_COMPLETED");
    expect((await complete(ref(p), { outcome: "PAID" })).body.error.code).toBe("PAYOUT_UNKNOWN");
    expect((await complete(paid, { outcome: "LOST" })).body.error).toMatchObject({ code: "INVALID_REQUEST", field: "outcome" });
    expect((await complete(paid, { outcome: "REJECTED", reason: "no <b>" })).body.error).toMatchObject({ field: "reason" });
    // a rejection without a reason gets the default one
    const plain = ref(p);
    await createPayout(plain);
    expect((await complete(plain, { outcome: "REJECTED" })).body.data.reason).toBe("DECLINED_BY_BANK");
    // exactly one callback per payout
    expect(await deliveries(paid)).toHaveLength(1);
    expect(await deliveries(rejected)).toHaveLength(1);
  });

  it("configures processingMs per reference prefix and validates it", async () => {
    const p = prefix("G");
    await processing(p, 0);
    const config = (await call("/sandbox/payouts/config")).body.data as Json[];
    expect(config).toContainEqual({ referencePrefix: p, processingMs: 0 });
    expect(config).toContainEqual({ referencePrefix: "", processingMs: expect.any(Number) });
    expect((await call("/sandbox/payouts/config", "POST", { processingMs: -1 })).status).toBe(400);
    expect((await call("/sandbox/payouts/config", "POST", { processingMs: 1.5 })).status).toBe(400);
    const reference = ref(p);
    await createPayout(reference);
    expect((await payoutStatus(reference)).body.data.status).toBe("PAID");
  });
});

describe("sandbox bank payouts: faults", () => {
  it("payout-reject: the next N payouts end REJECTED (ACCOUNT_CLOSED), then they are paid again", async () => {
    const p = prefix("R");
    await processing(p, 0);
    const spec = await fault({ mode: "payout-reject", count: 2, referencePrefix: p });
    expect(spec).toMatchObject({ mode: "payout-reject", times: 2 });
    const refs = [ref(p), ref(p), ref(p)];
    for (const reference of refs) expect((await createPayout(reference, "30000")).body.data.status).toBe("PROCESSING");
    const states = [];
    for (const reference of refs) states.push((await payoutStatus(reference)).body.data);
    expect(states.map((s) => s.status)).toEqual(["REJECTED", "REJECTED", "PAID"]);
    expect(states[0]).toMatchObject({ reason: "ACCOUNT_CLOSED", amount: "30000.00" });
    expect(states[0].transactionId).toBeUndefined();
    const callback = await next(`reference=${refs[0]}`);
    expect(JSON.parse(callback!.body)).toEqual({
      event: "payout.rejected",
      reference: refs[0],
      amount: "30000.00",
      currency: "LAK",
      reason: "ACCOUNT_CLOSED",
      completedAt: states[0].completedAt,
    });
    expect((await verify(callback!.headers, callback!.body)).valid).toBe(true);
    // used up
    expect((await call("/sandbox/faults")).body.data.some((f: Json) => f.id === spec.id)).toBe(false);
    // for payout faults count is the budget (an alias of times): both given must agree
    expect((await call("/sandbox/faults", "POST", { mode: "payout-reject", count: 1, times: 2 })).status).toBe(400);
  });

  it("payout-hold: the payout stays PROCESSING until completed by hand", async () => {
    const p = prefix("H");
    await processing(p, 0);
    await fault({ mode: "payout-hold", referencePrefix: p });
    const reference = ref(p);
    await createPayout(reference);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await payoutStatus(reference)).body.data.status).toBe("PROCESSING");
    const listed = (await call(`/sandbox/payouts?reference=${reference}`)).body.data[0];
    expect(listed).toMatchObject({ status: "PROCESSING", dueAt: null, faults: ["payout-hold"], accountMasked: "••••••••3456" });
    expect(await deliveries(reference)).toHaveLength(0);
    expect((await complete(reference, { outcome: "PAID" })).body.data.status).toBe("PAID");
    expect(await deliveries(reference)).toHaveLength(1);
  });

  it("payout-error-before: 500 and nothing recorded; the retry creates it", async () => {
    const p = prefix("B");
    await processing(p, 60_000);
    await fault({ mode: "payout-error-before", count: 1, referencePrefix: p });
    const reference = ref(p);
    const failed = await createPayout(reference);
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe("INTERNAL_ERROR");
    expect((await payoutStatus(reference)).body.data).toEqual({ reference, status: "NOT_FOUND", amount: null });
    expect((await call(`/sandbox/payouts?prefix=${p}`)).body.data).toHaveLength(0);
    expect((await createPayout(reference)).status).toBe(201);
  });

  it("payout-error-after: recorded, then 500 (unknown outcome); the status query and the retry show it", async () => {
    const p = prefix("E");
    await processing(p, 60_000);
    await fault({ mode: "payout-error-after", times: 1, referencePrefix: p });
    const reference = ref(p);
    const failed = await createPayout(reference, "70000");
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe("INTERNAL_ERROR");
    const status = (await payoutStatus(reference)).body.data;
    expect(status).toMatchObject({ reference, status: "PROCESSING", amount: "70000.00" });
    const retry = await createPayout(reference, "70000");
    expect(retry.status).toBe(200);
    expect(retry.body.data).toEqual(status);
    await complete(reference, { outcome: "PAID" });
    expect((await payoutStatus(reference)).body.data.status).toBe("PAID");
  });

  it("rate 0 never fires; faults of another prefix do not apply", async () => {
    const p = prefix("Z");
    await processing(p, 60_000);
    await fault({ mode: "payout-error-before", rate: 0, referencePrefix: p });
    await fault({ mode: "payout-error-before", referencePrefix: prefix("Z") });
    expect((await createPayout(ref(p))).status).toBe(201);
  });

  it("the same payout POSTed 50 times concurrently makes one payout and one callback", async () => {
    const p = prefix("M");
    await processing(p, 60_000);
    const reference = ref(p);
    const results = await Promise.all(Array.from({ length: 50 }, () => createPayout(reference, "90000")));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(49);
    expect(new Set(results.map((r) => r.body.data.createdAt)).size).toBe(1);
    expect((await call(`/sandbox/payouts?prefix=${p}`)).body.data).toHaveLength(1);
    await complete(reference, { outcome: "PAID" });
    expect(await deliveries(reference)).toHaveLength(1);
  });

  it("webhook faults apply to payout callbacks: duplicate delivers twice, each validly signed", async () => {
    const p = prefix("D");
    await processing(p, 60_000);
    await fault({ mode: "duplicate", count: 2, referencePrefix: p });
    const reference = ref(p);
    await createPayout(reference);
    await complete(reference, { outcome: "PAID" });
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const delivery = await next(`prefix=${p}`);
      expect(delivery).not.toBeNull();
      expect((await verify(delivery!.headers, delivery!.body)).valid).toBe(true);
      bodies.push(delivery!.body);
      await ack(delivery!.id);
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ event: "payout.paid", reference });
    expect(await next(`prefix=${p}`)).toBeNull();
  });

  it("webhook faults apply to payout callbacks: drop and bad-signature", async () => {
    const p = prefix("X");
    const q = prefix("S");
    await processing(p, 60_000);
    await processing(q, 60_000);
    await fault({ mode: "drop", referencePrefix: p });
    await fault({ mode: "bad-signature", referencePrefix: q });
    const dropped = ref(p);
    const forged = ref(q);
    await createPayout(dropped);
    await createPayout(forged);
    await complete(dropped, { outcome: "REJECTED" });
    await complete(forged, { outcome: "PAID" });
    expect((await deliveries(dropped))[0]).toMatchObject({ state: "dropped", faults: ["drop"] });
    expect((await payoutStatus(dropped)).body.data.status).toBe("REJECTED");
    const delivery = await next(`reference=${forged}`);
    expect((await verify(delivery!.headers, delivery!.body)).valid).toBe(false);
    await ack(delivery!.id, 401);
  });
});

describe("sandbox bank payouts: tester page", () => {
  it("lists payouts and pays / rejects processing ones from plain forms (relative URLs, no scripts)", async () => {
    const p = prefix("W");
    await processing(p, 60_000);
    const toPay = ref(p);
    const toReject = ref(p);
    await createPayout(toPay, "1500000");
    await createPayout(toReject, "2000", { accountName: "<b>Bee</b>" });

    const page = await bank("/payouts");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const text = await page.text();
    expect(text).not.toMatch(/<script|src=|https?:\/\/|(href|action)="\//);
    expect(text).toContain(toPay);
    expect(text).toContain("1,500,000 LAK");
    expect(text).toContain("&lt;b&gt;Bee&lt;/b&gt;");
    expect(text).toContain(`<input type="hidden" name="reference" value="${toPay}">`);
    expect(text).toMatch(/<form class="inline" method="post" action="payouts">/);
    expect(text).toContain('name="outcome" value="PAID"');
    expect(text).toContain('name="outcome" value="REJECTED"');

    const paid = await bank("/payouts", { method: "POST", body: new URLSearchParams({ reference: toPay, outcome: "PAID" }), redirect: "manual" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`payouts?done=${toPay}`);
    const after = await (await bank(`/${paid.headers.get("location")}`)).text();
    expect(after).toContain("Payout paid");
    expect(after).toContain((await payoutStatus(toPay)).body.data.transactionId);

    const form = new FormData();
    form.set("reference", toReject);
    form.set("outcome", "REJECTED");
    expect((await bank("/payouts", { method: "POST", body: form, redirect: "manual" })).status).toBe(303);
    expect((await payoutStatus(toReject)).body.data).toMatchObject({ status: "REJECTED", reason: "DECLINED_BY_BANK" });
    expect(await deliveries(toReject)).toHaveLength(1);

    const again = await bank("/payouts", { method: "POST", body: new URLSearchParams({ reference: toPay, outcome: "REJECTED" }) });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("ALREADY_COMPLETED");
    // the pay page links here (relative)
    expect(await (await bank("/pay")).text()).toContain('<a href="payouts">');
  });
});
