import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { markupOf } from "../setup/lite-script";
import {
  deliver,
  nextDelivery,
  openOrder,
  payQr,
  playerWithBank,
  postDeposit,
  providerBalance,
  pumpDeliveries,
  qrPayloadOf,
  sandboxProvider,
  signedWebhook,
} from "../setup/money";
import { parseLaoQr } from "../../workers/core/emvco";

beforeAll(seedDemo);

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

describe("deposit: LAO QR -> webhook -> credit at the provider", () => {
  it("the happy path: one order, a real QR, paid once, credited once, ledger balanced", async () => {
    const p = await playerWithBank();
    const created = await postDeposit(p.cookie, { amount: "60000", provider: "betflix" });
    expect(created.status).toBe(302);
    const order = await openOrder(p.cookie);
    expect(order).toMatchObject({ amount: "60000.00", credit: "100.00", status: "OPEN" });
    const payload = await qrPayloadOf(p.wallet, order!.code);
    const qr = parseLaoQr(payload);
    expect(qr.ok && qr.qr).toMatchObject({ reference: order!.code, amount: "60000.00", currency: "418", country: "LA", iin: "27710418" });

    const page = await (await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie } })).text();
    expect(page).toContain('data-testid="qr"');
    expect(page).toContain("<svg");

    expect((await payQr(payload)).status).toBe(200);
    expect(await pumpDeliveries()).toBeGreaterThanOrEqual(1);
    // PAID (or already SUCCESS if the wallet's own alarm beat us to it)
    expect(["PAID", "SUCCESS"]).toContain((await p.wallet.getDeposit(order!.code))!.status);
    await p.wallet.runDueWork();
    const done = await p.wallet.getDeposit(order!.code);
    expect(done!.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", p.username)).toBe("100.00");
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    const history = await (await fetchApp("http://localhost/player/deposit/history", { headers: { Cookie: p.cookie } })).text();
    expect(history).toContain(order!.code);
    expect(history).toContain('data-status="SUCCESS"');
  });

  it("the same deposit form posted 20 times concurrently makes one order", async () => {
    const p = await playerWithBank();
    const key = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => postDeposit(p.cookie, { idempotencyKey: key })));
    expect(results.every((r) => r.status === 302)).toBe(true);
    const list = (await (await fetchApp("http://localhost/api/v2/players/deposits", { headers: { Cookie: p.cookie } })).json()) as { total: number };
    expect(list.total).toBe(1);
    // a different key while that order is open shows the open one instead of a second order
    await postDeposit(p.cookie, { idempotencyKey: crypto.randomUUID(), amount: "70000" });
    const again = (await (await fetchApp("http://localhost/api/v2/players/deposits", { headers: { Cookie: p.cookie } })).json()) as { total: number };
    expect(again.total).toBe(1);
  });

  it("the same webhook delivered 100 times concurrently credits once (every copy answered 2xx)", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "120000" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    const delivery = (await nextDelivery())!;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => fetchApp(delivery.url, { method: "POST", headers: delivery.headers, body: delivery.body })),
    );
    const statuses = answers.map((a) => a.status);
    // every copy of a verified delivery answers 2xx (a gateway retries anything else); one applies it
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    const results = await Promise.all(answers.map(async (a) => ((await a.json()) as { result: string }).result));
    // A copy that arrives after the first one's answer was recorded gets that same answer
    // again ("paid": the same signed request, the same answer); one that races the first
    // reaches the wallet and hears "duplicate". How many of each depends on timing; that
    // the payment was applied once does not (the ledger below).
    expect(results.every((r) => r === "paid" || r === "duplicate")).toBe(true);
    expect(results).toContain("paid");
    // the same payment delivered again, signed anew (a gateway retry), is a harmless duplicate
    const again = await signedWebhook(JSON.parse(delivery.body), { timestamp: Math.floor(Date.now() / 1000) + 1 });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { result: string }).result).toBe("duplicate");
    await p.wallet.runDueWork();
    await p.wallet.runDueWork();
    expect(await providerBalance("askmebet", p.username)).toBe("200.00");
    const ledger = await p.wallet.ledgerFor(order.code);
    expect(ledger.filter((l) => l.entry === "paid" && l.account === "bank:receiving")).toHaveLength(1);
    expect(ledger.filter((l) => l.entry === "credited" && l.account === "provider:askmebet")).toHaveLength(1);
  });

  it("provider fails after applying the transfer: the status query settles it once", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000", provider: "gclub" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    await pumpDeliveries();
    await faults({ provider: "gclub", op: "deposit", mode: "error-after", count: 1 });
    try {
      await p.wallet.runDueWork();
      // outcome unknown: still PAID, unless the wallet's own alarm already asked the status
      expect(["PAID", "SUCCESS"]).toContain((await p.wallet.getDeposit(order.code))!.status);
      await p.wallet.runDueWork(Date.now() + 60_000);
      expect((await p.wallet.getDeposit(order.code))!.status).toBe("SUCCESS");
      expect(await providerBalance("gclub", p.username)).toBe("100.00"); // exactly one credit
    } finally {
      await faults(null);
    }
  });

  it("provider down for a while: the order settles after it comes back", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000", provider: "alphabet" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    await pumpDeliveries();
    await faults({ provider: "alphabet", op: "*", mode: "error-before", count: 1000 });
    try {
      let t = Date.now();
      for (let i = 0; i < 4; i++) {
        await p.wallet.runDueWork(t);
        expect((await p.wallet.getDeposit(order.code))!.status).toBe("PAID");
        t += 10 * 60_000;
      }
    } finally {
      await faults(null);
    }
    await p.wallet.runDueWork(Date.now() + 60 * 60_000);
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("alphabet", p.username)).toBe("100.00");
  });

  it("a provider refusal ends FAILED, the kip stays owed to the player and visible to staff", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000", provider: "gclub_live" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    await pumpDeliveries();
    await faults({ provider: "gclub_live", op: "deposit", mode: "refuse", count: 1 });
    try {
      await p.wallet.runDueWork();
    } finally {
      await faults(null);
    }
    const failed = await p.wallet.getDeposit(order.code);
    expect(failed!.status).toBe("FAILED");
    expect(await providerBalance("gclub_live", p.username)).toBe("0.00");
    const ledger = await p.wallet.ledgerFor(order.code);
    expect(ledger.map((l) => l.account)).toEqual(["bank:receiving", "player:deposit-pending"]);
    const view = await env.DB.prepare("SELECT status, flag FROM deposit_orders_view WHERE code = ?1")
      .bind(order.code)
      .first<{ status: string; flag: string }>();
    expect(view).toMatchObject({ status: "FAILED" });
  });

  it("forged, stale and mismatched webhooks are refused and change nothing", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    const event = {
      event: "payment.succeeded",
      reference: order.code,
      transactionId: `T${Date.now()}`,
      amount: "60000",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    };
    expect((await signedWebhook(event, { secret: "not-the-secret" })).status).toBe(401);
    expect((await signedWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    const unsigned = await fetchApp("http://localhost/api/v2/payments/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(401);
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("OPEN");

    const mismatch = await signedWebhook({ ...event, amount: "6000" });
    expect(mismatch.status).toBe(200); // kept for staff (AMOUNT_MISMATCH), so the gateway stops retrying
    const flagged = await p.wallet.getDeposit(order.code);
    expect(flagged).toMatchObject({ status: "OPEN", flag: "AMOUNT_MISMATCH" });
    expect((await signedWebhook({ ...event, reference: "DNOSUCHORDER" })).status).toBe(200); // kept for staff (UNKNOWN_REFERENCE)
  });

  it("check before paying says not paid; cancel ends the order; the check after paying credits it", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    const { postForm } = await import("../setup/players");
    const check = await postForm("/player/deposit", { intent: "check", code: order.code }, { cookie: p.cookie });
    expect(check.status).toBe(200);
    expect(await shownOf(check)).toContain("ລາຍການນີ້ຍັງບໍ່ໄດ້ຊຳລະ, ກະລຸນາສະແກນ QR ເພື່ອຊຳລະ");

    const ask = await postForm("/player/deposit", { intent: "cancel-request", code: order.code }, { cookie: p.cookie });
    expect(await ask.text()).toContain('data-testid="cancel-confirm"');
    const cancel = await postForm("/player/deposit", { intent: "cancel", code: order.code }, { cookie: p.cookie });
    expect(cancel.status).toBe(302);
    expect((await p.wallet.getDeposit(order.code))!.status).toBe("CANCELED");

    // a new order, paid, webhook dropped: the check button finds the payment at the gateway
    await postDeposit(p.cookie, { amount: "60000" });
    const second = (await openOrder(p.cookie))!;
    expect(second.code).not.toBe(order.code);
    await payQr(await qrPayloadOf(p.wallet, second.code));
    const paid = await postForm("/player/deposit", { intent: "check", code: second.code }, { cookie: p.cookie });
    expect(paid.status).toBe(302);
    // PAID, or already SUCCESS if the wallet's alarm settled it in the meantime
    expect(["PAID", "SUCCESS"]).toContain((await p.wallet.getDeposit(second.code))!.status);
    // and the late webhook is a duplicate
    const late = (await nextDelivery())!;
    expect((await deliver(late)).status).toBe(200);
  });

  it("shows every provider's credit without JavaScript, and 'unavailable, retry' for one that is down", async () => {
    const p = await playerWithBank();
    await faults({ provider: "gclub", op: "balance", mode: "error-before", count: 1 });
    try {
      // no `js=1` cookie: the server sends the whole document with every credit resolved
      const html = await (await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie } })).text();
      for (const provider of ["askmebet", "betflix", "gclub_live", "alphabet"]) expect(html).toContain(`data-testid="credit-${provider}"`);
      expect(html).not.toContain('data-testid="credit-gclub"');
      expect(markupOf(html)).toContain("ບໍ່ສາມາດໂຫຼດໄດ້,");
      const api = await fetchApp("http://localhost/api/v2/players/credits/askmebet", { headers: { Cookie: p.cookie } });
      expect(await api.json()).toEqual({ credit: { amount: "0.00", currency: "THB" } });
      expect((await fetchApp("http://localhost/v2/players/credits/nope", { headers: { Cookie: p.cookie } })).status).toBe(404);
      expect((await fetchApp("http://localhost/api/v2/players/credits/askmebet")).status).toBe(401);
    } finally {
      await faults(null);
    }
  });

  it("an unpaid order expires after 15 minutes and becomes CANCELED", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    expect(await p.wallet.openDepositOrder(Date.now() + 14 * 60_000)).not.toBeNull();
    expect(await p.wallet.openDepositOrder(Date.now() + 16 * 60_000)).toBeNull();
    expect(await p.wallet.getDeposit(order.code)).toMatchObject({ status: "CANCELED", flag: "EXPIRED" });
    // a payment arriving after that is flagged for staff, not applied
    const late = await signedWebhook({
      event: "payment.succeeded",
      reference: order.code,
      transactionId: `L${Date.now()}`,
      amount: "60000.00",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    });
    expect(late.status).toBe(200);
    expect(await p.wallet.getDeposit(order.code)).toMatchObject({ status: "CANCELED", flag: "LATE_PAYMENT" });
    expect((await p.wallet.ledgerFor(order.code)).map((l) => l.entry)).toEqual(["late-paid", "late-paid"]);
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0" });
  });

  it("validates the deposit form in the player's language", async () => {
    const p = await playerWithBank();
    const { postForm } = await import("../setup/players");
    const empty = await postForm("/player/deposit", { intent: "create", idempotencyKey: crypto.randomUUID() }, { cookie: p.cookie });
    const html = await shownOf(empty);
    expect(empty.status).toBe(400);
    expect(html).toContain("ກະລຸນາເລືອກຄ່າຍເກມ");
    expect(html).toContain("ກະລຸນາປ້ອນຈຳນວນເງິນເປັນຕົວເລກ (ກີບ)");
    const low = await postDeposit(p.cookie, { amount: "500" });
    expect(await shownOf(low)).toContain("ຈຳນວນເງິນຕ່ຳກວ່າຂັ້ນຕ່ຳ");
  });

  it("reads the typed amount once: digit groups to LAK minor units within the agency's bounds (10,000 to 50,000,000 kip), the codes of docs/product.md §8 with the text kept", async () => {
    const p = await playerWithBank();
    const amountInput = (html: string) => /<input[^>]*name="amount"[^>]*>/.exec(html)?.[0] ?? "";
    // AMOUNT_TOO_LOW and AMOUNT_TOO_HIGH, in the player's language, on the field that still shows what was typed
    const low = await postDeposit(p.cookie, { amount: "9,999" });
    expect(low.status).toBe(400);
    const lowHtml = await shownOf(low);
    expect(lowHtml).toContain("ຈຳນວນເງິນຕ່ຳກວ່າຂັ້ນຕ່ຳ"); // deposit.errors.AMOUNT_TOO_LOW
    expect(amountInput(lowHtml)).toContain('value="9,999"');
    const high = await postDeposit(p.cookie, { amount: "50.000.001" });
    expect(high.status).toBe(400);
    const highHtml = await shownOf(high);
    expect(highHtml).toContain("ຈຳນວນເງິນເກີນຂັ້ນສູງສຸດ"); // deposit.errors.AMOUNT_TOO_HIGH
    expect(amountInput(highHtml)).toContain('value="50.000.001"');
    expect(await openOrder(p.cookie)).toBeNull();
    // the bounds themselves are deposits; "1,000,000" is a million kip all the way to the wallet
    const created = await postDeposit(p.cookie, { amount: "1,000,000" });
    expect(created.status).toBe(302);
    const order = await openOrder(p.cookie);
    expect(order).toMatchObject({ amount: "1000000.00", credit: "1666.66", status: "OPEN" });
    expect((await p.wallet.getDeposit(order!.code))!.amount).toBe("1000000.00");
    // the form's browser check is made with the same bounds (lib/lite/form-validators.ts)
    const page = await shownOf(await fetchApp("http://localhost/player/deposit", { headers: { Cookie: (await playerWithBank()).cookie } }));
    expect(page).toContain('data-schema-args="10000,50000000"');
  });
});
