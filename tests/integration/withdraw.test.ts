import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo, fetchApp, shownOf } from "../setup/seed";
import { deliver, fundProvider, nextDelivery, playerWithBank, postWithdraw, providerBalance, sandboxBank, sandboxProvider } from "../setup/money";
import { decideWithdrawal, type StaffDecision } from "../../workers/services/withdrawals";
import { operatorToken } from "../setup/staff";
import { addAgency } from "../setup/players";

/** A staff decision through the back office's path (the one every caller takes). */
async function decide(code: string, decision: StaffDecision) {
  return decideWithdrawal(env, "demo", code, decision, {
    via: "back-office",
    agencyId: "demo",
    staffId: null,
    staffUsername: "test-staff",
    ip: "local",
    userAgent: null,
  });
}

beforeAll(seedDemo);

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

async function bankFault(body: object) {
  const res = await sandboxBank("/sandbox/faults", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`bank fault refused: ${res.status} ${await res.text()}`);
}

async function withdrawals(cookie: string) {
  const res = await fetchApp("http://localhost/api/v2/players/withdrawals?pageSize=50", { headers: { Cookie: cookie } });
  return (await res.json()) as {
    total: number;
    items: { code: string; status: string; credit: string; received: string | null; creditReturned: string | null }[];
  };
}

describe("withdrawals", () => {
  it("review shows the summary; confirm takes the credit and waits for payout (OPEN)", async () => {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "500.00");
    const review = await postWithdraw(p.cookie, { amount: "200", intent: "review" });
    expect(review.status).toBe(200);
    const html = await review.text();
    expect(html).toContain('data-testid="withdraw-confirm"');
    expect(html).toContain("₭116.000"); // 200 credit * 580 buy
    const confirm = await postWithdraw(p.cookie, { amount: "200" });
    expect(confirm.status).toBe(302);
    expect(confirm.headers.get("Location")).toBe("/player/withdraw/history");
    expect(await providerBalance("askmebet", p.username)).toBe("300.00");
    const list = await withdrawals(p.cookie);
    // OPEN (waiting for payout), or already SUCCESS if the wallet's alarm paid it out
    expect(list.items[0]).toMatchObject({ credit: "200.00" });
    expect(["OPEN", "SUCCESS"]).toContain(list.items[0].status);
  });

  it("refuses what the rules refuse, in the player's language", async () => {
    const p = await playerWithBank();
    await fundProvider("betflix", p.username, "150.00");
    const notEnough = await postWithdraw(p.cookie, { provider: "betflix", amount: "200", intent: "review" });
    expect(await shownOf(notEnough)).toContain("ເຄຣດິດບໍ່ພໍ");
    const low = await postWithdraw(p.cookie, { provider: "betflix", amount: "50", intent: "review" });
    expect(await shownOf(low)).toContain("ຈຳນວນຕ່ຳກວ່າຂັ້ນຕ່ຳ");
    const none = await postWithdraw(p.cookie, { provider: "betflix", intent: "review" });
    expect(await shownOf(none)).toContain("ກະລຸນາປ້ອນຈຳນວນເຄຣດິດ ຫຼື ເລືອກຖອນທັງໝົດ");
    const all = await postWithdraw(p.cookie, { provider: "betflix", all: true, intent: "review" });
    expect(await all.text()).toContain("฿150,00");
  });

  it("reads the typed amount once: digit groups to credit minor units within the agency's bounds (100 to 50,000 credit), the codes of docs/product.md §8 with the text kept", async () => {
    const p = await playerWithBank();
    await fundProvider("betflix", p.username, "60000.00");
    const amountInput = (html: string) => /<input[^>]*name="amount"[^>]*>/.exec(html)?.[0] ?? "";
    // AMOUNT_TOO_LOW and AMOUNT_TOO_HIGH, in the player's language, on the field that still shows what was typed; a confirm makes no order
    const low = await postWithdraw(p.cookie, { provider: "betflix", amount: "99,99" });
    expect(low.status).toBe(400);
    const lowHtml = await shownOf(low);
    expect(lowHtml).toContain("ຈຳນວນຕ່ຳກວ່າຂັ້ນຕ່ຳ"); // withdraw.errors.AMOUNT_TOO_LOW
    expect(amountInput(lowHtml)).toContain('value="99,99"');
    const high = await postWithdraw(p.cookie, { provider: "betflix", amount: "1,000,000" });
    expect(high.status).toBe(400);
    const highHtml = await shownOf(high);
    expect(highHtml).toContain("ຈຳນວນເກີນຂັ້ນສູງສຸດ"); // withdraw.errors.AMOUNT_TOO_HIGH
    expect(amountInput(highHtml)).toContain('value="1,000,000"');
    expect((await withdrawals(p.cookie)).total).toBe(0);
    expect(await providerBalance("betflix", p.username)).toBe("60000.00");
    // "1,000" is a thousand credit all the way to the wallet and the provider's transfer-out
    const review = await postWithdraw(p.cookie, { provider: "betflix", amount: "1,000", intent: "review" });
    expect(review.status).toBe(200);
    const reviewHtml = await review.text();
    expect(reviewHtml).toContain('name="amount" value="1000.00"'); // the confirm step posts back the amount as read
    expect(reviewHtml).toContain("₭580.000"); // 1000 credit * 580 buy
    const confirmed = await postWithdraw(p.cookie, { provider: "betflix", amount: "1,000" });
    expect(confirmed.status).toBe(302);
    const list = await withdrawals(p.cookie);
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ credit: "1000.00" });
    expect((await p.wallet.getWithdraw(list.items[0].code))!.credit).toBe("1000.00");
    expect(await providerBalance("betflix", p.username)).toBe("59000.00");
    // the form's browser check is made with the same bounds (lib/lite/form-validators.ts)
    const page = await shownOf(await fetchApp("http://localhost/player/withdraw", { headers: { Cookie: p.cookie } }));
    expect(page).toContain('data-schema-args="100,50000"');
  });

  it("the same confirm posted 20 times makes one order and takes the credit once", async () => {
    const p = await playerWithBank();
    await fundProvider("gclub", p.username, "1000.00");
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => postWithdraw(p.cookie, { provider: "gclub", amount: "300", idempotencyKey: key })));
    expect(answers.every((a) => a.status === 302)).toBe(true);
    expect((await withdrawals(p.cookie)).total).toBe(1);
    expect(await providerBalance("gclub", p.username)).toBe("700.00");
  });

  it("50 parallel withdrawals against one credit never take more than the credit; every order ends final or waiting", async () => {
    const p = await playerWithBank();
    await fundProvider("alphabet", p.username, "1000.00");
    const answers = await Promise.all(Array.from({ length: 50 }, () => postWithdraw(p.cookie, { provider: "alphabet", amount: "150" })));
    expect(answers.every((a) => a.status === 302)).toBe(true);
    const list = await withdrawals(p.cookie);
    // requests that saw too little credit at review made no order ("credit is not enough");
    // the others reached the provider, which let exactly 6 x 150 = 900 of 1000 go
    expect(list.total).toBeLessThanOrEqual(50);
    const taken = list.items.filter((o) => o.status === "OPEN" || o.status === "SUCCESS");
    const failed = list.items.filter((o) => o.status === "FAILED");
    expect(taken).toHaveLength(6);
    expect(failed).toHaveLength(list.total - 6);
    expect(await providerBalance("alphabet", p.username)).toBe("100.00");
    const totals = await p.wallet.ledgerTotals();
    expect(totals.THB).toBe("0");
    expect(totals.LAK ?? "0").toBe("0");
  });

  it("provider times out after applying the transfer-out: one order, credit taken once", async () => {
    const p = await playerWithBank();
    await fundProvider("gclub_live", p.username, "400.00");
    await faults({ provider: "gclub_live", op: "withdraw", mode: "error-after", count: 1 });
    try {
      const res = await postWithdraw(p.cookie, { provider: "gclub_live", amount: "250" });
      expect(res.status).toBe(302);
    } finally {
      await faults(null);
    }
    const [order] = (await withdrawals(p.cookie)).items;
    expect(order.status).toBe("OPEN"); // shown as waiting while the wallet asks the provider
    expect(await providerBalance("gclub_live", p.username)).toBe("150.00");
    await p.wallet.runDueWork(Date.now() + 60_000);
    const after = await p.wallet.getWithdraw(order.code);
    expect(["OPEN", "SUCCESS"]).toContain(after!.status); // the credit was taken: never FAILED
    expect(await providerBalance("gclub_live", p.username)).toBe("150.00");
    expect((await p.wallet.ledgerFor(order.code)).filter((l) => l.entry === "taken")).toHaveLength(2);
  });

  it("a refused transfer-out ends FAILED and takes nothing", async () => {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "400.00");
    await faults({ provider: "askmebet", op: "withdraw", mode: "refuse", count: 1 });
    try {
      const res = await postWithdraw(p.cookie, { amount: "250" });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/player/withdraw");
    } finally {
      await faults(null);
    }
    expect((await withdrawals(p.cookie)).items[0].status).toBe("FAILED");
    expect(await providerBalance("askmebet", p.username)).toBe("400.00");
  });

  it("above the automatic threshold it waits for staff; rejected, the credit is returned (retried until it is back)", async () => {
    const p = await playerWithBank();
    await fundProvider("betflix", p.username, "9000.00");
    await postWithdraw(p.cookie, { provider: "betflix", amount: "6000" });
    const [order] = (await withdrawals(p.cookie)).items;
    expect(order.status).toBe("OPEN");
    expect((await p.wallet.getWithdraw(order.code))!.review).toBe("MANUAL");
    await p.wallet.runDueWork(Date.now() + 60_000);
    expect((await p.wallet.getWithdraw(order.code))!.status).toBe("OPEN"); // no payout without review
    expect(await providerBalance("betflix", p.username)).toBe("3000.00");

    await faults({ provider: "betflix", op: "deposit", mode: "error-before", count: 2 });
    try {
      const rejected = await decide(order.code, { action: "reject", reason: "KYC_MISMATCH" });
      expect(rejected).toMatchObject({ ok: true, order: { status: "REJECTED", returnState: "PENDING", reason: "KYC_MISMATCH" } });
      let t = Date.now();
      for (let i = 0; i < 2; i++) {
        await p.wallet.runDueWork(t);
        t += 10 * 60_000;
      }
    } finally {
      await faults(null);
    }
    await p.wallet.runDueWork(Date.now() + 60 * 60_000);
    expect((await p.wallet.getWithdraw(order.code))!.returnState).toBe("DONE");
    expect(await providerBalance("betflix", p.username)).toBe("9000.00");
    const list = await withdrawals(p.cookie);
    expect(list.items[0]).toMatchObject({ status: "REJECTED", creditReturned: "6000.00" });
    expect(await p.wallet.ledgerTotals()).toEqual({ THB: "0" });
    const history = await (await fetchApp("http://localhost/player/withdraw/history", { headers: { Cookie: p.cookie } })).text();
    expect(history).toContain(order.code);
    expect(history).toContain("฿6.000,00");
  });

  it("staff mark paid by hand: SUCCESS once, ledger balanced in both currencies; nothing after it", async () => {
    const p = await playerWithBank();
    await fundProvider("gclub", p.username, "8000.00");
    await postWithdraw(p.cookie, { provider: "gclub", amount: "7000" });
    const [order] = (await withdrawals(p.cookie)).items;
    const paid = await decide(order.code, { action: "paid", bankReference: "BCEL-123" });
    expect(paid).toMatchObject({ ok: true, order: { status: "SUCCESS", receivedLak: "4060000.00" } });
    // pressed again, rejected after, approved after: refused with the order as it stands
    for (const again of [{ action: "paid", bankReference: "BCEL-123" }, { action: "reject", reason: "late" }, { action: "approve" }] as StaffDecision[]) {
      expect(await decide(order.code, again)).toMatchObject({ ok: false, code: "CONFLICT", order: { status: "SUCCESS" } });
    }
    expect(await p.wallet.ledgerTotals()).toEqual({ THB: "0", LAK: "0" });
  });

  it("automatic payout: the bank pays, its callback (even duplicated or late) makes it SUCCESS once", async () => {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "300.00");
    // this file's bank holds payouts until we complete them (other wallets' alarms keep
    // requesting theirs meanwhile, so a count would be raced away)
    await bankFault({ mode: "payout-hold", count: 1000, referencePrefix: "W" });
    await postWithdraw(p.cookie, { amount: "100" });
    const [order] = (await withdrawals(p.cookie)).items;
    await p.wallet.runDueWork(); // requests the payout (if the wallet's alarm has not already)
    await bankFault({ mode: "duplicate", count: 2, times: 1, referencePrefix: order.code }); // two copies of its callback
    await sandboxBank(`/sandbox/payouts/${order.code}/complete`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ outcome: "PAID" }),
    });
    const answers: number[] = [];
    for (let d = await nextDelivery({ reference: order.code }); d; d = await nextDelivery({ reference: order.code })) {
      answers.push((await deliver(d)).status);
    }
    // the first copy applies; the identical second copy is refused as a replay (409) or,
    // if the bank re-signed it, answered as a duplicate (200): never applied twice
    expect(answers[0]).toBe(200);
    expect(answers.length).toBeGreaterThanOrEqual(2);
    for (const status of answers.slice(1)) expect([200, 409]).toContain(status);
    const done = await p.wallet.getWithdraw(order.code);
    expect(done).toMatchObject({ status: "SUCCESS", receivedLak: "58000.00" });
    const ledger = await p.wallet.ledgerFor(order.code);
    expect(ledger.filter((l) => l.entry === "paid-out")).toHaveLength(4);
    expect(await p.wallet.ledgerTotals()).toEqual({ THB: "0", LAK: "0" });
    const list = await withdrawals(p.cookie);
    expect(list.items[0]).toMatchObject({ status: "SUCCESS", received: "58000.00" });
  });

  it("the bank rejects the payout: REJECTED and the credit is back at the provider", async () => {
    const p = await playerWithBank();
    await fundProvider("gclub", p.username, "300.00");
    await bankFault({ mode: "payout-hold", count: 1000, referencePrefix: "W" });
    await postWithdraw(p.cookie, { provider: "gclub", amount: "120" });
    const [order] = (await withdrawals(p.cookie)).items;
    await p.wallet.runDueWork(); // requests the payout
    const rejected = await sandboxBank(`/sandbox/payouts/${order.code}/complete`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ outcome: "REJECTED", reason: "ACCOUNT_CLOSED" }),
    });
    expect(rejected.status).toBe(200);
    // the callback is lost: the wallet's status query finds the rejection
    await p.wallet.runDueWork(Date.now() + 60_000);
    await p.wallet.runDueWork(Date.now() + 120_000);
    const after = await p.wallet.getWithdraw(order.code);
    expect(after).toMatchObject({ status: "REJECTED", reason: "ACCOUNT_CLOSED", returnState: "DONE" });
    expect(await providerBalance("gclub", p.username)).toBe("300.00");
    expect(await p.wallet.ledgerTotals()).toEqual({ THB: "0" });
  });

  it("the operator API rejects a withdrawal waiting for review (token required, agency scoped)", async () => {
    const p = await playerWithBank();
    await fundProvider("alphabet", p.username, "7000.00");
    await postWithdraw(p.cookie, { provider: "alphabet", amount: "6000" });
    const [order] = (await withdrawals(p.cookie)).items;
    const call = (op: string, body: object, token?: string, host = "localhost") =>
      fetchApp(`http://${host}/api/staff/withdrawals/${order.code}/${op}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const TOKEN = await operatorToken(env, "demo");
    await addAgency("tokother", "tokother.localhost");
    const otherAgency = await operatorToken(env, "tokother");
    expect((await call("reject", { reason: "x" })).status).toBe(401);
    // a token works only at its own agency, both ways
    expect((await call("reject", { reason: "x" }, otherAgency)).status).toBe(401);
    expect((await call("reject", { reason: "x" }, TOKEN, "tokother.localhost")).status).toBe(401);
    expect((await call("reject", { reason: "x" }, "wrong-token-wrong-token-wrong-token")).status).toBe(401);
    expect((await call("reject", {}, TOKEN)).status).toBe(400);
    expect((await call("reject", { reason: "KYC" }, TOKEN, "disabled.localhost")).status).toBe(404);
    const res = await call("reject", { reason: "KYC" }, TOKEN);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { order: { status: string } }).order.status).toBe("REJECTED");
    // a retry of the same call is answered as a duplicate; another decision is a 409
    expect(await (await call("reject", { reason: "KYC" }, TOKEN)).json()).toMatchObject({ result: "duplicate", order: { status: "REJECTED" } });
    const conflict = await call("paid", { bankReference: "BCEL-9" }, TOKEN);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ error: { code: "WITHDRAWAL_STATE_CONFLICT" }, order: { status: "REJECTED" } });
    await p.wallet.runDueWork(Date.now() + 60_000);
    expect(await providerBalance("alphabet", p.username)).toBe("7000.00");
  });
});
