import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo } from "../setup/seed";
import { hmacHex } from "../../workers/ports/gateway";
import { nextDelivery, openOrder, payQr, playerWithBank, postDeposit, providerBalance, qrPayloadOf, sandboxBank, SANDBOX_WEBHOOK_SECRET } from "../setup/money";

beforeAll(seedDemo);

// Decision 012: a gateway that retries an event the portal already recorded must get
// 2xx with what was recorded, or it marks the delivery dead. Only an unverifiable delivery
// (signature, timestamp) is refused.

type Delivery = { id: string; url: string; headers: Record<string, string>; body: string };
type Answer = { ok: boolean; result?: string; flag?: string; error?: string };

function post(url: string, headers: Record<string, string>, body: string) {
  return fetchApp(url, { method: "POST", headers, body });
}

async function report(d: Delivery, status: number) {
  await sandboxBank(`/sandbox/deliveries/${d.id}/result`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ status }),
  });
}

async function deliveriesOf(reference: string) {
  const res = await sandboxBank(`/sandbox/deliveries?reference=${encodeURIComponent(reference)}`);
  return ((await res.json()) as { data: { state: string; attempts: number; lastStatus: number | null }[] }).data;
}

/** A signed webhook with a header written as given (for the header-variant cases). */
async function signed(body: object, header: (t: number, v1: string) => string, t = Math.floor(Date.now() / 1000)) {
  const raw = JSON.stringify(body);
  const v1 = await hmacHex(SANDBOX_WEBHOOK_SECRET, `${t}.${raw}`);
  return { raw, t, v1, header: header(t, v1) };
}

function send(raw: string, header: string) {
  return post("http://localhost/api/v2/payments/webhook", { "Content-Type": "application/json", "X-Sandbox-Signature": header }, raw);
}

describe("webhook: a retried event that was already recorded answers 2xx", () => {
  it("the bank's duplicate mode: every copy and a byte-identical resend are delivered (200), the credit lands once", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    const fault = await sandboxBank("/sandbox/faults", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ mode: "duplicate", count: 3, referencePrefix: order.code }),
    });
    expect(fault.status).toBe(201);
    await payQr(await qrPayloadOf(p.wallet, order.code));
    // the bank hands out the three copies (each signed when pulled, so usually in one second)
    const copies: Delivery[] = [];
    for (let d = await nextDelivery({ reference: order.code }); d; d = await nextDelivery({ reference: order.code })) copies.push(d);
    expect(copies).toHaveLength(3);
    const answers: { status: number; body: Answer }[] = [];
    for (const d of copies) {
      const res = await post(d.url, d.headers, d.body);
      await report(d, res.status);
      answers.push({ status: res.status, body: (await res.json()) as Answer });
    }
    // and the first copy's exact bytes once more (a gateway that timed out and resent it)
    const resend = await post(copies[0]!.url, copies[0]!.headers, copies[0]!.body);
    answers.push({ status: resend.status, body: (await resend.json()) as Answer });
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers[0]!.body.result).toBe("paid");
    expect(answers[3]!.body).toMatchObject({ ok: true, result: "paid" }); // the same request: the same answer
    expect((await deliveriesOf(order.code)).map((d) => d.state)).toEqual(["delivered", "delivered", "delivered"]);
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("askmebet", p.username)).toBe("100.00");
    expect((await p.wallet.ledgerFor(order.code)).filter((l) => l.entry === "credited" && l.account === "provider:askmebet")).toHaveLength(1);
  });

  it("events kept for staff (AMOUNT_MISMATCH, UNKNOWN_REFERENCE, LATE_PAYMENT) answer 2xx with that outcome, first time and resent, recorded once", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    const stamp = Date.now();
    const cases = [
      { kind: "AMOUNT_MISMATCH", body: { event: "payment.succeeded", reference: order.code, transactionId: `TRM${stamp}`, amount: "6000", currency: "LAK" } },
      {
        kind: "UNKNOWN_REFERENCE",
        body: { event: "payment.succeeded", reference: `ZRT${stamp}`, transactionId: `TRU${stamp}`, amount: "50000", currency: "LAK" },
      },
    ];
    for (const c of cases) {
      const s = await signed(c.body, (t, v1) => `t=${t},v1=${v1}`);
      for (let i = 0; i < 3; i++) {
        const res = await send(s.raw, s.header);
        expect(res.status, `${c.kind} delivery ${i + 1}`).toBe(200);
        expect(((await res.json()) as Answer).flag).toBe(c.kind);
      }
      // a retry signed anew (another second) answers the same
      const again = await signed(c.body, (t, v1) => `t=${t},v1=${v1}`, s.t + 1);
      const res = await send(again.raw, again.header);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Answer).flag).toBe(c.kind);
      const rows = await env.DB.prepare(`SELECT kind FROM unmatched_payments WHERE transaction_id = ?1`).bind(c.body.transactionId).all<{ kind: string }>();
      expect(rows.results.map((r) => r.kind)).toEqual([c.kind]);
    }
    // the order expires, then its money arrives: LATE_PAYMENT, recorded once, resends 2xx
    await p.wallet.openDepositOrder(Date.now() + 16 * 60_000);
    const late = await signed(
      { event: "payment.succeeded", reference: order.code, transactionId: `TRL${stamp}`, amount: "60000", currency: "LAK" },
      (t, v1) => `t=${t},v1=${v1}`,
    );
    for (let i = 0; i < 3; i++) {
      const res = await send(late.raw, late.header);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Answer).result).toBe("late");
    }
    const lateRows = await env.DB.prepare(`SELECT kind FROM unmatched_payments WHERE transaction_id = ?1`).bind(`TRL${stamp}`).all<{ kind: string }>();
    expect(lateRows.results.map((r) => r.kind)).toEqual(["LATE_PAYMENT"]);
  });

  it("the signature header is parsed before the replay check: written differently it is the same delivery", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    const s = await signed(
      { event: "payment.succeeded", reference: order.code, transactionId: `TRV${Date.now()}`, amount: "60000", currency: "LAK" },
      (t, v1) => `t=${t},v1=${v1}`,
    );
    const first = await send(s.raw, s.header);
    expect(first.status).toBe(200);
    expect(((await first.json()) as Answer).result).toBe("paid");
    const variants = [
      `v1=${s.v1},t=${s.t}`,
      `t=+${s.t},v1=${s.v1}`,
      `t=0${s.t},v1=${s.v1}`,
      `t=${s.t}.0,v1=${s.v1}`,
      `t=${s.t},v1=${s.v1},v0=deadbeef`,
      ` t=${s.t} , v1=${s.v1} `,
    ];
    for (const header of variants) {
      const res = await send(s.raw, header);
      expect(res.status, header).toBe(200);
      // the answer recorded for that delivery, not a second processing of it
      expect(((await res.json()) as Answer).result, header).toBe("paid");
    }
    const keys = await env.DB.prepare(`SELECT COUNT(*) AS n FROM webhook_signatures WHERE instr(signature, ?1) > 0`).bind(s.v1).first<{ n: number }>();
    expect(keys!.n).toBe(1);
  });

  it("only what cannot be verified is refused: another body under a used signature, a forged or stale one, an ambiguous header", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    const body = { event: "payment.succeeded", reference: order.code, transactionId: `TRB${Date.now()}`, amount: "60000", currency: "LAK" };
    const s = await signed(body, (t, v1) => `t=${t},v1=${v1}`);
    expect((await send(s.raw, s.header)).status).toBe(200);
    const otherBody = JSON.stringify({ ...body, amount: "600000" });
    expect((await send(otherBody, s.header)).status).toBe(401);
    expect((await send(otherBody, `v1=${s.v1},t=${s.t}`)).status).toBe(401);
    const forged = await signed(body, (t) => `t=${t},v1=${"ab".repeat(32)}`);
    expect((await send(forged.raw, forged.header)).status).toBe(401);
    const stale = await signed(body, (t, v1) => `t=${t},v1=${v1}`, Math.floor(Date.now() / 1000) - 600);
    expect((await send(stale.raw, stale.header)).status).toBe(401);
    // two different signatures or timestamps in one header: which one was checked? refused
    expect((await send(s.raw, `t=${s.t},v1=${s.v1},v1=${"cd".repeat(32)}`)).status).toBe(401);
    expect((await send(s.raw, `t=${s.t},t=${s.t + 1},v1=${s.v1}`)).status).toBe(401);
    expect((await send(s.raw, `t=${s.t}.5,v1=${s.v1}`)).status).toBe(401);
    expect((await p.wallet.ledgerFor(order.code)).filter((l) => l.entry === "paid")).toHaveLength(2); // two lines, one entry
  });
});
