import { afterEach, describe, expect, it } from "vitest";
import { crc16, parseLaoQr } from "../../workers/core/emvco";
import { parseAmount } from "../../workers/core/money";
import { bank, call, clearFaults, fault, MERCHANT, prefix, ref, verify, type Json, type PulledDelivery } from "../setup/sandbox-bank";

// The sandbox bank runs as its own Worker (pool mode: DELIVERY_MODE=pull). Every test uses
// its own reference prefix, and scopes its faults to it, so tests never see each other's data.

const CALLBACK = "http://localhost/api/webhooks/sandbox-bank";
const BCEL = { iin: "27710418", merchantId: "DEMO0001", name: "Demo Agency", city: "Vientiane" };

async function createQr(reference: string, amount = "50000", extra: Json = {}) {
  return call("/api/qr", "POST", { reference, amount, callbackUrl: CALLBACK, receiver: BCEL, ...extra }, true);
}

async function payable(reference: string, amount = "50000", extra: Json = {}): Promise<string> {
  const created = await createQr(reference, amount, extra);
  expect(created.status).toBe(201);
  return created.body.data.payload as string;
}

function status(reference: string) {
  return call(`/api/payments/${encodeURIComponent(reference)}`, "GET", undefined, true);
}

function sandboxPay(payload: string) {
  return call("/sandbox/pay", "POST", { payload });
}

async function next(filter: string, now?: number): Promise<PulledDelivery | null> {
  const query = now === undefined ? filter : `${filter}&now=${now}`;
  const { status: code, body } = await call(`/sandbox/deliveries/next?${query}`);
  expect(code).toBe(200);
  return body.data as PulledDelivery | null;
}

async function result(id: number, statusCode: number, now?: number) {
  return call(`/sandbox/deliveries/${id}/result${now === undefined ? "" : `?now=${now}`}`, "POST", { status: statusCode });
}

afterEach(clearFaults);

describe("sandbox bank: merchant API", () => {
  it("refuses /api/* without the merchant's HTTP Basic credentials", async () => {
    const body = JSON.stringify({ reference: "x", amount: "1", callbackUrl: CALLBACK, receiver: BCEL });
    const attempts: (string | null)[] = [
      null,
      "Basic " + btoa("DEMO0001:wrong"),
      "Basic " + btoa("OTHER:sandbox-bank-secret-demo-0001"),
      "Basic " + btoa("DEMO0001sandbox-bank-secret-demo-0001"),
      "Basic !!!",
      "Bearer sandbox-bank-secret-demo-0001",
    ];
    for (const authorization of attempts) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (authorization) headers.authorization = authorization;
      const response = await bank("/api/qr", { method: "POST", headers, body });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Basic");
      expect(((await response.json()) as Json).error.code).toBe("UNAUTHORIZED");
    }
    expect((await bank("/api/payments/x")).status).toBe(401);
    expect((await call("/api/payments/x", "GET", undefined, true)).status).toBe(200);
  });

  it("creates a dynamic LAO QR that parseLaoQr reads back with our reference, amount, 418, LA and IIN", async () => {
    const reference = ref(prefix("Q"));
    const before = Date.now();
    const created = await createQr(reference, "125000");
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data).toMatchObject({ reference, amount: "125000.00" });
    const expiresAt = Date.parse(data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 900_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 900_000 + 1000);

    const payload = data.payload as string;
    expect(crc16(payload.slice(0, -4))).toBe(payload.slice(-4));
    const parsed = parseLaoQr(payload);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.qr).toMatchObject({
      dynamic: true,
      reference,
      currency: "418",
      country: "LA",
      iin: "27710418",
      merchantId: "DEMO0001",
      merchantName: "Demo Agency",
      merchantCity: "Vientiane",
    });
    expect(parsed.qr.amount).toBe("125000"); // tag 54 as the merchant wrote it
    expect(parseAmount(parsed.qr.amount!, "LAK")).toBe(12_500_000n);
    const decimals = await createQr(ref(prefix("Q")), "60000.00");
    const withDecimals = parseLaoQr(decimals.body.data.payload);
    expect(withDecimals.ok && withDecimals.qr.amount).toBe("60000.00");
    const odd = await createQr(ref(prefix("Q")), "60000.500");
    const normalised = parseLaoQr(odd.body.data.payload);
    expect(normalised.ok && normalised.qr.amount).toBe("60000.50");
  });

  it("is idempotent by reference: same amount -> same payload, another amount -> 409 REF_CONFLICT", async () => {
    const reference = ref(prefix("I"));
    const first = await createQr(reference, "75000");
    const again = await createQr(reference, "75000.00", { expiresInSeconds: 60 });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const conflict = await createQr(reference, "75001");
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("REF_CONFLICT");
    // the original QR is untouched
    expect((await status(reference)).body.data).toMatchObject({ status: "PENDING", amount: "75000.00" });
  });

  it("validates the request: reference, amount as a decimal string, IIN, callback URL, expiry", async () => {
    const p = prefix("V");
    const cases: [Json, string][] = [
      [{ reference: "", amount: "1" }, "reference"],
      [{ reference: "x".repeat(26), amount: "1" }, "reference"],
      [{ reference: "bad ref", amount: "1" }, "reference"],
      [{ reference: ref(p), amount: 50000 }, "amount"],
      [{ reference: ref(p), amount: "-5" }, "amount"],
      [{ reference: ref(p), amount: "0" }, "amount"],
      [{ reference: ref(p), amount: "1e5" }, "amount"],
      [{ reference: ref(p), amount: "10.005" }, "amount"],
      [{ reference: ref(p), amount: "1", receiver: { ...BCEL, iin: "2771041" } }, "receiver.iin"],
      [{ reference: ref(p), amount: "1", receiver: { ...BCEL, name: "ຮ້ານ" } }, "receiver.name"],
      [{ reference: ref(p), amount: "1", callbackUrl: "ftp://x" }, "callbackUrl"],
      [{ reference: ref(p), amount: "1", expiresInSeconds: 0 }, "expiresInSeconds"],
    ];
    for (const [patch, field] of cases) {
      const response = await call("/api/qr", "POST", { callbackUrl: CALLBACK, receiver: BCEL, ...patch }, true);
      expect(response.status, JSON.stringify(patch)).toBe(400);
      expect(response.body.error).toMatchObject({ code: "INVALID_REQUEST", field });
    }
    expect((await bank("/api/qr", { method: "POST", headers: { authorization: MERCHANT }, body: "{" })).status).toBe(400);
  });

  it("answers NOT_FOUND for an unknown reference; an empty payout request is invalid", async () => {
    const unknown = await status(ref(prefix("N")));
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toMatchObject({ status: "NOT_FOUND", amount: null });
    const payout = await call("/api/payouts", "POST", {}, true);
    expect(payout.status).toBe(400);
    expect(payout.body.error).toMatchObject({ code: "INVALID_REQUEST", field: "reference" });
  });
});

describe("sandbox bank: paying a QR", () => {
  it("moves PENDING -> PAID via /sandbox/pay, and a second payment is refused", async () => {
    const reference = ref(prefix("P"));
    const payload = await payable(reference, "20000");
    expect((await status(reference)).body.data).toMatchObject({ reference, status: "PENDING", amount: "20000.00" });
    expect((await status(reference)).body.data.transactionId).toBeUndefined();

    const paid = await sandboxPay(payload);
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ reference, status: "PAID" });
    const transactionId = paid.body.data.transactionId as string;
    expect(transactionId).toMatch(/^SBX[0-9A-F]{16}$/);

    const after = (await status(reference)).body.data;
    expect(after).toMatchObject({ reference, status: "PAID", amount: "20000.00", transactionId });
    expect(Date.parse(after.paidAt)).toBeGreaterThan(Date.now() - 60_000);

    const twice = await sandboxPay(payload);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("ALREADY_PAID");
    // ten concurrent payments of a fresh QR: exactly one wins
    const other = ref(prefix("P"));
    const otherPayload = await payable(other);
    const results = await Promise.all(Array.from({ length: 10 }, () => sandboxPay(otherPayload)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.error?.code === "ALREADY_PAID")).toHaveLength(9);
  });

  it("serves a pay page without external assets, and pays from the form (textarea, file, urlencoded)", async () => {
    const page = await bank("/pay");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const text = await page.text();
    expect(text).toContain('<textarea id="payload" name="payload"');
    expect(text).toContain('type="file"');
    expect(text).toContain('enctype="multipart/form-data"');
    expect(text).toMatch(/<button type="submit">Pay<\/button>/);
    expect(text).not.toMatch(/<script|src=|https?:\/\//);

    const p = prefix("H");
    // textarea, multipart
    const a = ref(p);
    const formA = new FormData();
    formA.set("payload", await payable(a, "30000"));
    const paidA = await bank("/pay", { method: "POST", body: formA });
    expect(paidA.status).toBe(200);
    const pageA = await paidA.text();
    expect(pageA).toContain("Payment successful");
    expect(pageA).toContain("30,000 LAK");
    expect(pageA).toContain((await status(a)).body.data.transactionId);
    // a text file, multipart (an empty textarea beside it)
    const b = ref(p);
    const formB = new FormData();
    formB.set("payload", "");
    formB.set("file", new File([(await payable(b)) + "\n"], "qr.txt", { type: "text/plain" }));
    expect((await bank("/pay", { method: "POST", body: formB })).status).toBe(200);
    expect((await status(b)).body.data.status).toBe("PAID");
    // urlencoded
    const c = ref(p);
    const paidC = await bank("/pay", { method: "POST", body: new URLSearchParams({ payload: await payable(c) }) });
    expect(paidC.status).toBe(200);
    expect((await status(c)).body.data.status).toBe("PAID");
    // paying again from the page shows why it is refused
    const again = await bank("/pay", { method: "POST", body: new URLSearchParams({ payload: (await createQr(c)).body.data.payload }) });
    expect(again.status).toBe(409);
    const againText = await again.text();
    expect(againText).toContain("Payment refused");
    expect(againText).toContain("already paid");
    // nothing pasted
    expect((await bank("/pay", { method: "POST", body: new URLSearchParams({ payload: "" }) })).status).toBe(400);
    // the page can be prefilled (links from the portal's deposit page in dev)
    const prefilled = await (await bank(`/pay?payload=${encodeURIComponent("<b>0002</b>")}`)).text();
    expect(prefilled).toContain("&lt;b&gt;0002&lt;/b&gt;");
  });

  it("refuses a tampered payload (CRC), a re-signed one with another amount, and an unknown QR", async () => {
    const reference = ref(prefix("T"));
    const payload = await payable(reference, "50000");
    const tampered = payload.replace("540550000", "540550001");
    expect(tampered).not.toBe(payload);
    const crc = await sandboxPay(tampered);
    expect(crc.status).toBe(400);
    expect(crc.body.error.code).toBe("QR_CRC");
    const page = await bank("/pay", { method: "POST", body: new URLSearchParams({ payload: tampered }) });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("checksum (CRC) does not match");
    // fixing the CRC does not help: the amount is not the merchant's
    const body = tampered.slice(0, -4);
    const resigned = await sandboxPay(body + crc16(body));
    expect(resigned.status).toBe(422);
    expect(resigned.body.error.code).toBe("AMOUNT_MISMATCH");
    expect((await sandboxPay("hello")).body.error.code).toBe("QR_INVALID");
    // a well-formed QR this bank never issued (both 62.01 and 62.05 changed)
    const foreignBody = payload.replaceAll(reference, ref(prefix("T")).slice(0, reference.length)).slice(0, -4);
    const unknown = await sandboxPay(foreignBody + crc16(foreignBody));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("QR_UNKNOWN");
    // our reference, but another field (here the bill number 62.01) changed and re-signed
    const alteredBody = payload.replace(reference, "Z".repeat(reference.length)).slice(0, -4);
    const altered = await sandboxPay(alteredBody + crc16(alteredBody));
    expect(altered.status).toBe(422);
    expect(altered.body.error.code).toBe("QR_MISMATCH");
    expect((await status(reference)).body.data.status).toBe("PENDING");
  });

  it("an unpaid QR past expiresAt reports EXPIRED and cannot be paid", async () => {
    const p = prefix("E");
    const short = ref(p);
    const payload = await payable(short, "10000", { expiresInSeconds: 1 });
    expect((await status(short)).body.data.status).toBe("PENDING");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await status(short)).body.data.status).toBe("EXPIRED");
    const refused = await sandboxPay(payload);
    expect(refused.status).toBe(410);
    expect(refused.body.error.code).toBe("QR_EXPIRED");
    const page = await bank("/pay", { method: "POST", body: new URLSearchParams({ payload }) });
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("expired");
    // the sandbox helper expires a QR at once (for e2e); a paid QR cannot be expired
    const forced = ref(p);
    const forcedPayload = await payable(forced);
    expect((await call(`/sandbox/qr/${forced}/expire`, "POST")).body.data.status).toBe("EXPIRED");
    expect((await sandboxPay(forcedPayload)).body.error.code).toBe("QR_EXPIRED");
    const paidFirst = ref(p);
    await sandboxPay(await payable(paidFirst));
    expect((await call(`/sandbox/qr/${paidFirst}/expire`, "POST")).body.error.code).toBe("ALREADY_PAID");
  });
});

describe("sandbox bank: webhooks (pull mode)", () => {
  it("signs the webhook: t=<unix s>,v1=HMAC-SHA256(secret, t.body), verifiable by the portal", async () => {
    const reference = ref(prefix("W"));
    const payload = await payable(reference, "42000");
    const paid = (await sandboxPay(payload)).body.data;

    const delivery = await next(`reference=${reference}`);
    expect(delivery).not.toBeNull();
    expect(delivery!.url).toBe(CALLBACK);
    expect(delivery!.attempt).toBe(1);
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers["x-sandbox-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const check = await verify(delivery!.headers, delivery!.body);
    expect(check.valid).toBe(true);
    expect(Math.abs(check.ageSeconds)).toBeLessThanOrEqual(5);
    expect((await verify(delivery!.headers, delivery!.body.replace("42000", "42001"))).valid).toBe(false);
    expect(JSON.parse(delivery!.body)).toEqual({
      event: "payment.succeeded",
      reference,
      transactionId: paid.transactionId,
      amount: "42000.00",
      currency: "LAK",
      paidAt: paid.paidAt,
    });

    // in flight: not handed out twice
    expect(await next(`reference=${reference}`)).toBeNull();
    const done = await result(delivery!.id, 204);
    expect(done.body.data).toMatchObject({ state: "delivered", attempts: 1, lastStatus: 204 });
    expect(await next(`reference=${reference}`, Date.now() + 3_600_000)).toBeNull();
    expect((await result(delivery!.id, 200)).body.error.code).toBe("NOT_IN_FLIGHT");
  });

  it("retries a failed delivery with backoff 1 s, 2 s, 4 s, ... and marks it dead after 8 attempts", async () => {
    const reference = ref(prefix("R"));
    await sandboxPay(await payable(reference));
    const filter = `reference=${reference}`;
    let now = Date.now();
    let delivery = await next(filter, now);
    expect(delivery!.attempt).toBe(1);
    const firstBody = delivery!.body;

    for (let attempt = 1; attempt <= 7; attempt++) {
      const failed = await result(delivery!.id, attempt % 2 ? 500 : 0, now); // 0 = network error
      expect(failed.body.data).toMatchObject({ state: "pending", attempts: attempt });
      const wait = 1000 * 2 ** (attempt - 1);
      expect(await next(filter, now + wait - 1)).toBeNull(); // not due yet
      now += wait;
      delivery = await next(filter, now);
      expect(delivery, `attempt ${attempt + 1}`).not.toBeNull();
      expect(delivery!.attempt).toBe(attempt + 1);
      expect(delivery!.body).toBe(firstBody); // same event, freshly signed
      expect((await verify(delivery!.headers, delivery!.body)).valid).toBe(true);
    }
    const dead = await result(delivery!.id, 503, now);
    expect(dead.body.data).toMatchObject({ state: "dead", attempts: 8, lastStatus: 503 });
    expect(await next(filter, now + 86_400_000)).toBeNull();
    // the payment itself stays PAID: the portal finds it by status query
    expect((await status(reference)).body.data.status).toBe("PAID");
  });

  it("a delivery pulled but never answered is handed out again after its lease", async () => {
    const reference = ref(prefix("L"));
    await sandboxPay(await payable(reference));
    const now = Date.now();
    const first = await next(`reference=${reference}`, now);
    expect(await next(`reference=${reference}`, now + 1000)).toBeNull();
    // lease 30 s, then the missed answer counts as a failed attempt (retry 1 s later)
    expect(await next(`reference=${reference}`, now + 30_000)).toBeNull();
    const again = await next(`reference=${reference}`, now + 31_000);
    expect(again).toMatchObject({ id: first!.id, attempt: 2 });
    expect((await result(again!.id, 200, now + 31_000)).body.data).toMatchObject({ state: "delivered", attempts: 2 });
  });
});

describe("sandbox bank: faults", () => {
  it("lists, scopes and clears faults; validates them", async () => {
    const p = prefix("F");
    const created = await fault({ mode: "duplicate", count: 3, referencePrefix: p, times: 5 });
    expect(created).toMatchObject({ mode: "duplicate", count: 3, rate: 1, times: 5, referencePrefix: p, applied: 0 });
    const listed = await call("/sandbox/faults");
    expect(listed.body.data.some((f: Json) => f.id === created.id)).toBe(true);
    expect((await call("/sandbox/faults", "POST", { mode: "explode" })).status).toBe(400);
    expect((await call("/sandbox/faults", "POST", { mode: "duplicate", rate: 2 })).status).toBe(400);
    expect((await call(`/sandbox/faults/${created.id}`, "DELETE")).status).toBe(200);
    expect((await call(`/sandbox/faults/${created.id}`, "DELETE")).status).toBe(404);
    expect((await call("/sandbox/faults")).body.data.some((f: Json) => f.id === created.id)).toBe(false);
  });

  it("duplicate: each webhook is delivered count times, each validly signed", async () => {
    const p = prefix("D");
    await fault({ mode: "duplicate", count: 3, referencePrefix: p });
    const reference = ref(p);
    await sandboxPay(await payable(reference));
    const bodies: string[] = [];
    for (let i = 0; i < 3; i++) {
      const delivery = await next(`prefix=${p}`);
      expect(delivery).not.toBeNull();
      expect((await verify(delivery!.headers, delivery!.body)).valid).toBe(true);
      bodies.push(delivery!.body);
      await result(delivery!.id, 200);
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!).reference).toBe(reference);
    expect(await next(`prefix=${p}`)).toBeNull();
    // another prefix is not affected
    const other = ref(prefix("D"));
    await sandboxPay(await payable(other));
    expect(await next(`reference=${other}`)).not.toBeNull();
    expect(await next(`reference=${other}`)).toBeNull();
  });

  it("out-of-order: deliveries are held and released newest first", async () => {
    const p = prefix("O");
    await fault({ mode: "out-of-order", count: 3, referencePrefix: p });
    const refs = [ref(p), ref(p), ref(p)];
    await sandboxPay(await payable(refs[0]!));
    await sandboxPay(await payable(refs[1]!));
    expect(await next(`prefix=${p}`)).toBeNull(); // held until the batch is full
    await sandboxPay(await payable(refs[2]!));
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      const delivery = await next(`prefix=${p}`);
      order.push(JSON.parse(delivery!.body).reference);
      await result(delivery!.id, 200);
    }
    expect(order).toEqual([...refs].reverse());
    // a batch that never fills is released after holdMs; clearing the fault releases at once
    const q = prefix("O");
    await fault({ mode: "out-of-order", count: 5, holdMs: 2000, referencePrefix: q });
    const lone = ref(q);
    await sandboxPay(await payable(lone));
    expect(await next(`prefix=${q}`)).toBeNull();
    const late = await next(`prefix=${q}`, Date.now() + 2500);
    expect(late && JSON.parse(late.body).reference).toBe(lone);
  });

  it("drop: the webhook never comes, the status query still says PAID", async () => {
    const p = prefix("X");
    await fault({ mode: "drop", referencePrefix: p });
    const reference = ref(p);
    const paid = (await sandboxPay(await payable(reference))).body.data;
    expect(await next(`prefix=${p}`, Date.now() + 86_400_000)).toBeNull();
    expect((await status(reference)).body.data).toMatchObject({ status: "PAID", transactionId: paid.transactionId });
    const deliveries = (await call(`/sandbox/deliveries?reference=${reference}`)).body.data;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ state: "dropped", faults: ["drop"], attempts: 0 });
  });

  it("delay: the first attempt waits delayMs", async () => {
    const p = prefix("Y");
    await fault({ mode: "delay", delayMs: 5000, referencePrefix: p });
    await sandboxPay(await payable(ref(p)));
    const now = Date.now();
    expect(await next(`prefix=${p}`, now)).toBeNull();
    const delivery = await next(`prefix=${p}`, now + 5000);
    expect(delivery).not.toBeNull();
    await result(delivery!.id, 200);
  });

  it("stale-signature: a valid HMAC with a timestamp 10 minutes old", async () => {
    const p = prefix("S");
    await fault({ mode: "stale-signature", referencePrefix: p });
    await sandboxPay(await payable(ref(p)));
    const delivery = await next(`prefix=${p}`);
    const check = await verify(delivery!.headers, delivery!.body);
    expect(check.valid).toBe(true); // correctly signed ...
    expect(check.ageSeconds).toBeGreaterThanOrEqual(600); // ... but outside a 300 s tolerance
    expect(check.ageSeconds).toBeLessThan(610);
    await result(delivery!.id, 400);
  });

  it("bad-signature: signed with the wrong secret", async () => {
    const p = prefix("B");
    await fault({ mode: "bad-signature", referencePrefix: p });
    await sandboxPay(await payable(ref(p)));
    const delivery = await next(`prefix=${p}`);
    const check = await verify(delivery!.headers, delivery!.body);
    expect(check.valid).toBe(false);
    expect(Math.abs(check.ageSeconds)).toBeLessThanOrEqual(5);
    await result(delivery!.id, 401);
  });

  it("rate and times: rate 0 never fires, times 1 fires once and is used up", async () => {
    const p = prefix("Z");
    await fault({ mode: "drop", rate: 0, referencePrefix: p });
    const never = ref(p);
    await sandboxPay(await payable(never));
    expect(await next(`reference=${never}`)).not.toBeNull();

    const q = prefix("Z");
    const once = await fault({ mode: "bad-signature", times: 1, referencePrefix: q });
    const first = ref(q);
    const second = ref(q);
    await sandboxPay(await payable(first));
    await sandboxPay(await payable(second));
    expect((await verify((await next(`reference=${first}`))!.headers, "")).valid).toBe(false);
    const ok = (await next(`reference=${second}`))!;
    expect((await verify(ok.headers, ok.body)).valid).toBe(true);
    expect((await call("/sandbox/faults")).body.data.some((f: Json) => f.id === once.id)).toBe(false);
  });
});

describe("sandbox bank: sharded by reference (decision 024)", () => {
  const SPAN = 1_000_000_000; // bank.ts SHARD_ID_SPAN: delivery ids say which object holds them

  it("payments of different references live in different QR shards; the pump and the results reach each", async () => {
    const p = prefix("S");
    const references = Array.from({ length: 12 }, () => ref(p));
    for (const reference of references) expect((await sandboxPay(await payable(reference))).status).toBe(200);
    const shards = new Set<number>();
    for (let i = 0; i < references.length; i++) {
      const delivery = (await next(`prefix=${p}`))!;
      expect(delivery, `delivery ${i}`).not.toBeNull();
      expect(delivery.id).toBeGreaterThanOrEqual(SPAN); // a QR shard's, not the main object's
      shards.add(Math.floor(delivery.id / SPAN));
      expect(delivery.headers["x-sandbox-delivery"]).toBe(String(delivery.id));
      expect((await result(delivery.id, 204)).body.data).toMatchObject({ id: delivery.id, state: "delivered" });
    }
    expect(await next(`prefix=${p}`)).toBeNull();
    // 12 references over 16 shards: never all in one (one object for every QR was the queue)
    expect(shards.size).toBeGreaterThan(1);
    const listed = (await call(`/sandbox/deliveries?prefix=${p}`)).body.data as Json[];
    expect(listed.map((d) => d.reference).sort()).toEqual([...references].sort());
    // the pay page lists the newest QRs across the shards
    const page = await (await bank("/pay")).text();
    expect(page).toContain(references.at(-1));
  });

  it("while a webhook fault is set, a shard hands its payments' webhooks to the main object; once cleared, it keeps them", async () => {
    const p = prefix("H");
    await fault({ mode: "duplicate", count: 2, referencePrefix: p });
    const faulted = ref(p);
    await sandboxPay(await payable(faulted));
    const copies = [(await next(`reference=${faulted}`))!, (await next(`reference=${faulted}`))!];
    expect(copies.map((d) => d.id < SPAN)).toEqual([true, true]); // the main object's, the fault applied
    for (const copy of copies) await result(copy.id, 204);

    await clearFaults();
    const plain = ref(p);
    await sandboxPay(await payable(plain));
    const delivery = (await next(`reference=${plain}`))!;
    expect(delivery.id).toBeGreaterThanOrEqual(SPAN);
    expect(await next(`reference=${plain}`)).toBeNull(); // one copy: no fault any more
    await result(delivery.id, 204);
  });
});
