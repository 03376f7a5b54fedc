import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { postForm } from "../setup/players";
import {
  fundProvider,
  openOrder,
  payOutNow,
  payQr,
  playerWithBank,
  postDeposit,
  postWithdraw,
  providerBalance,
  pumpDeliveries,
  qrPayloadOf,
  sandboxProvider,
} from "../setup/money";
import { runInDurableObject } from "cloudflare:test";
import { walletOf } from "../../workers/services/wallets";

beforeAll(seedDemo);

const SET_AMOUNT_PROMO = "deposit-60k-bonus-50"; // deposit exactly 60,000 kip (100 credit), bonus 50, turnover x3, max 1,000, withdraw all
const WELCOME = "welcome-100"; // first order only, 100% up to 500, turnover x5, max 3,000, withdraw all
const DAILY = "daily-10"; // 10% up to 300, askmebet/betflix, threshold 20, no withdraw-all

type Player = Awaited<ReturnType<typeof playerWithBank>>;

function claim(p: Player, promotionId: string, provider = "askmebet") {
  return postForm(`/player/promotion/${promotionId}`, { intent: "claim", provider }, { cookie: p.cookie });
}

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

async function bet(provider: string, username: string, amount: string) {
  const res = await sandboxProvider(`/api/${provider}/bet`, {
    method: "POST",
    body: JSON.stringify({ username: `demo_${username}`, amount, transactionRef: `BET${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}` }),
  });
  if (!res.ok) throw new Error(`bet failed ${res.status}`);
}

/** Claim, deposit the set amount, pay, and let the wallet settle (deposit, then bonus). */
async function depositWithPromotion(p: Player, provider = "askmebet", amount = "60000") {
  const created = await postDeposit(p.cookie, { provider, amount });
  expect(created.status, await created.clone().text()).toBe(302);
  const order = (await openOrder(p.cookie))!;
  await payQr(await qrPayloadOf(p.wallet, order.code));
  await pumpDeliveries();
  await p.wallet.runDueWork();
  await p.wallet.runDueWork(Date.now() + 60_000);
  return order.code;
}

/** Lets the automatic payout run to its end (the sandbox bank pays this one at once). */
async function payOut(p: Player, code: string) {
  await payOutNow(p.wallet, code);
}

async function current(p: Player) {
  const res = await fetchApp("http://localhost/api/v2/promotions/current", { headers: { Cookie: p.cookie } });
  return (
    (await res.json()) as {
      current: null | {
        id: string;
        status: string;
        provider: string;
        bonus: string | null;
        bonusCredited: boolean;
        turnoverTarget: string | null;
        turnoverDone: string | null;
      };
    }
  ).current;
}

describe("promotions", () => {
  it("claim -> deposit the set amount -> deposit and bonus credited (own reference, own ledger entries), usage USED", async () => {
    const p = await playerWithBank();
    const claimed = await claim(p, SET_AMOUNT_PROMO);
    expect(claimed.status).toBe(302);
    expect(claimed.headers.get("Location")).toBe("/player/deposit");
    expect((await current(p))?.status).toBe("CLAIMED");
    const code = await depositWithPromotion(p);
    expect(await providerBalance("askmebet", p.username)).toBe("150.00");
    const usage = (await current(p))!;
    expect(usage).toMatchObject({ status: "USED", provider: "askmebet", bonus: "50.00", bonusCredited: true, turnoverTarget: "450.00" });
    const ledger = await p.wallet.ledgerFor(code);
    expect(ledger.filter((l) => l.entry === "bonus")).toEqual([
      { entry: "bonus", account: "agency:promotion", currency: "THB", amountMinor: "5000" },
      { entry: "bonus", account: "provider:askmebet", currency: "THB", amountMinor: "-5000" },
    ]);
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    const status = await sandboxProvider(`/api/askmebet/transactions/${code}B`);
    expect(((await status.json()) as { data: { status: string } }).data.status).toBe("SUCCESS");
    // the staff read model has it
    const view = await env.DB.prepare(`SELECT status, bonus, deposit_code FROM promotion_usages_view WHERE id = ?1`).bind(usage.id).first();
    expect(view).toEqual({ status: "USED", bonus: "50.00", deposit_code: code });
  });

  it("two claims at once (same or different promotions) -> exactly one", async () => {
    const p = await playerWithBank();
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => claim(p, SET_AMOUNT_PROMO)),
      ...Array.from({ length: 6 }, () => claim(p, DAILY, "betflix")),
    ]);
    expect(answers.filter((r) => r.status === 302)).toHaveLength(1);
    const refused = answers.filter((r) => r.status === 409);
    expect(refused).toHaveLength(11);
    for (const r of refused) expect(await shownOf(r)).toContain("ຮັບໂປຣໂມຊັນໄດ້ເທື່ອລະໜຶ່ງລາຍການເທົ່ານັ້ນ"); // only one at a time
    const { total } = await p.wallet.listUsages(1, 50);
    expect(total).toBe(1);
  });

  it("a deposit with a promotion under provider failure credits the deposit and the bonus exactly once", async () => {
    const p = await playerWithBank();
    await claim(p, SET_AMOUNT_PROMO, "gclub");
    await postDeposit(p.cookie, { provider: "gclub", amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    await payQr(await qrPayloadOf(p.wallet, order.code));
    await pumpDeliveries();
    // every transfer-in is applied by the provider but answered with an error, twice
    await faults({ provider: "gclub", op: "deposit", mode: "error-after", count: 4, username: `demo_${p.username}` });
    try {
      let t = Date.now();
      for (let i = 0; i < 8; i++) {
        await p.wallet.runDueWork(t);
        t += 10 * 60_000;
      }
      expect((await p.wallet.getDeposit(order.code))!).toMatchObject({ status: "SUCCESS", bonusState: "DONE" });
      expect(await providerBalance("gclub", p.username)).toBe("150.00");
      expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    } finally {
      await faults(null);
    }
  });

  it("rules say no in the player's language: inactive, provider, open order, set amount, other provider", async () => {
    const p = await playerWithBank();
    // inactive
    const inactive = await claim(p, "songkran");
    expect(await shownOf(inactive)).toContain("ໂປຣໂມຊັນນີ້ບໍ່ໄດ້ເປີດໃຊ້ງານ");
    // a promotion for other providers
    const wrongProvider = await claim(p, DAILY, "gclub");
    expect(await shownOf(wrongProvider)).toContain("ໂປຣໂມຊັນນີ້ໃຊ້ບໍ່ໄດ້ກັບຄ່າຍເກມນີ້");
    // an open deposit order first
    await postDeposit(p.cookie, { provider: "betflix", amount: "30000" });
    const withOpen = await claim(p, SET_AMOUNT_PROMO);
    expect(await shownOf(withOpen)).toContain("ກະລຸນາປິດລາຍການຝາກທີ່ຄ້າງຢູ່ກ່ອນໃຊ້ໂປຣໂມຊັນ");
    await postForm("/player/deposit", { intent: "cancel", code: (await openOrder(p.cookie))!.code }, { cookie: p.cookie });
    expect((await claim(p, SET_AMOUNT_PROMO)).status).toBe(302);
    // the set amount
    const wrongAmount = await postDeposit(p.cookie, { provider: "askmebet", amount: "50000" });
    expect(wrongAmount.status).toBe(400);
    expect(await shownOf(wrongAmount)).toContain("ໂປຣໂມຊັນນີ້ຕ້ອງຝາກ ₭60.000 ພໍດີ");
    // another provider while the promotion is held for askmebet
    const otherProvider = await postDeposit(p.cookie, { provider: "betflix", amount: "60000" });
    expect(await shownOf(otherProvider)).toContain("ໂປຣໂມຊັນຖືກໃຊ້ແລ້ວກັບຄ່າຍ");
    expect(await openOrder(p.cookie)).toBeNull();
  });

  it("no bank account: cannot claim", async () => {
    const { registerViaForm, loginViaForm, sessionFrom, uniqueName } = await import("../setup/players");
    const username = uniqueName("nb");
    await registerViaForm(username, undefined, "localhost", "10.78.1.1");
    const cookie = sessionFrom(await loginViaForm(username, undefined, { ip: "10.78.1.2" }))!;
    const res = await postForm(`/player/promotion/${SET_AMOUNT_PROMO}`, { intent: "claim", provider: "askmebet" }, { cookie });
    expect(await shownOf(res)).toContain("ກະລຸນາເພີ່ມບັນຊີທະນາຄານກ່ອນຮັບໂປຣໂມຊັນ");
  });

  it("first order only: refused once the player has deposited; already used: refused the second time", async () => {
    const p = await playerWithBank();
    expect((await claim(p, WELCOME, "alphabet")).status).toBe(302);
    await depositWithPromotion(p, "alphabet", "60000");
    expect(await providerBalance("alphabet", p.username)).toBe("200.00"); // 100 + 100% bonus
    // spend it all and withdraw nothing: credit below the threshold ends the promotion at the next deposit
    await bet("alphabet", p.username, "0.01"); // some turnover
    const spent = await sandboxProvider(`/api/alphabet/withdraw`, {
      method: "POST",
      body: JSON.stringify({ username: `demo_${p.username}`, amount: await providerBalance("alphabet", p.username), transactionRef: `SPEND${Date.now()}` }),
    });
    expect(spent.ok).toBe(true);
    const next = await postDeposit(p.cookie, { provider: "alphabet", amount: "30000" });
    expect(next.status).toBe(302); // allowed: credit below threshold, promotion used up
    const { items } = await p.wallet.listUsages(1, 10);
    expect(items[0]).toMatchObject({ status: "SUCCESS", reason: "CREDIT_USED_UP" });
    await postForm("/player/deposit", { intent: "cancel", code: (await openOrder(p.cookie))!.code }, { cookie: p.cookie });
    const again = await claim(p, WELCOME, "alphabet");
    expect(await shownOf(again)).toContain("ໂປຣໂມຊັນນີ້ຖືກໃຊ້ແລ້ວ"); // already used comes before first-order
    const p2 = await playerWithBank();
    await postDeposit(p2.cookie, { provider: "betflix", amount: "30000" });
    const o = (await openOrder(p2.cookie))!;
    await payQr(await qrPayloadOf(p2.wallet, o.code));
    await pumpDeliveries();
    await p2.wallet.runDueWork();
    await bet("betflix", p2.username, await providerBalance("betflix", p2.username)); // lose it (or not) — credit must drop below 10
    const balance = Number(await providerBalance("betflix", p2.username));
    if (balance >= 10)
      await sandboxProvider(`/api/betflix/withdraw`, {
        method: "POST",
        body: JSON.stringify({ username: `demo_${p2.username}`, amount: balance.toFixed(2), transactionRef: `SPEND${Date.now()}` }),
      });
    const firstOnly = await claim(p2, WELCOME, "betflix");
    expect(await shownOf(firstOnly)).toContain("ໂປຣໂມຊັນນີ້ສຳລັບລູກຄ້າໃໝ່ / ການຝາກຄັ້ງທຳອິດເທົ່ານັ້ນ");
  });

  it("credit at the provider must be below the threshold to claim; in use, no new deposit until it is", async () => {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "25.00");
    const tooMuch = await claim(p, DAILY, "askmebet"); // threshold 20
    expect(await shownOf(tooMuch)).toContain("ເຄຣດິດຂອງທ່ານໃນຄ່າຍນີ້ຕ້ອງຕ່ຳກວ່າ ฿20,00");
    const q = await playerWithBank();
    await claim(q, SET_AMOUNT_PROMO, "askmebet");
    await depositWithPromotion(q);
    const again = await postDeposit(q.cookie, { provider: "askmebet", amount: "60000" });
    expect(again.status).toBe(400);
    expect(await shownOf(again)).toContain("ກຳລັງໃຊ້ໂປຣໂມຊັນຢູ່, ຝາກເພີ່ມບໍ່ໄດ້ຈົນກວ່າເຄຣດິດຈະຕ່ຳກວ່າເກນທີ່ກຳນົດ");
  });

  it("withdraw before the turnover: bonus deducted on the confirm summary, paid net, promotion CANCELED, ledger balanced", async () => {
    const p = await playerWithBank();
    await claim(p, SET_AMOUNT_PROMO, "askmebet");
    await depositWithPromotion(p);
    const part = await postWithdraw(p.cookie, { amount: "100", intent: "review" });
    expect(await shownOf(part)).toContain("ໂປຣໂມຊັນນີ້ຕ້ອງຖອນເຄຣດິດທັງໝົດ"); // withdraw-all
    const review = await postWithdraw(p.cookie, { all: true, intent: "review" });
    const html = await review.text();
    expect(html).toContain('data-testid="deduction-PROMOTION_BONUS"');
    expect(html).toMatch(/data-testid="deduction-PROMOTION_BONUS">-(<!-- -->)?฿50,00/);
    expect(html).toContain("₭58.000"); // (150 - 50) x 580
    const confirm = await postWithdraw(p.cookie, { all: true });
    expect(confirm.status).toBe(302);
    const [order] = (await p.wallet.listWithdraws(1, 1)).items;
    expect(order).toMatchObject({ credit: "150.00", netCredit: "100.00", receivedLak: "58000.00", deductions: [{ kind: "PROMOTION_BONUS", credit: "50.00" }] });
    await payOut(p, order.code);
    expect((await p.wallet.getWithdraw(order.code))!.status).toBe("SUCCESS");
    const { items } = await p.wallet.listUsages(1, 1);
    expect(items[0]).toMatchObject({ status: "CANCELED", reason: "BONUS_DEDUCTED" });
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    const ledger = await p.wallet.ledgerFor(order.code);
    expect(ledger).toContainEqual({ entry: "paid-out", account: "agency:promotion", currency: "THB", amountMinor: "-5000" });
    expect(await current(p)).toBeNull();
  });

  it("withdraw after the turnover: no bonus deducted, the excess above the maximum received stays, promotion SUCCESS", async () => {
    const p = await playerWithBank();
    await claim(p, SET_AMOUNT_PROMO, "betflix");
    await depositWithPromotion(p, "betflix");
    const before = await current(p);
    expect(before?.turnoverDone).toBe("0.00");
    // 450 of bets needed: bet in small steps; the sandbox's rounds win or lose
    for (let i = 0; i < 50 && Number((await current(p))?.turnoverDone ?? 0) < 450; i++) {
      const balance = Number(await providerBalance("betflix", p.username));
      if (balance < 10) await fundProvider("betflix", p.username, "100.00");
      await bet("betflix", p.username, "10.00");
    }
    // make the credit exceed the maximum received (1,000)
    await fundProvider("betflix", p.username, "1200.00");
    const balance = await providerBalance("betflix", p.username);
    const review = await postWithdraw(p.cookie, { provider: "betflix", all: true, intent: "review" });
    const html = await review.text();
    expect(html).not.toContain('data-testid="deduction-PROMOTION_BONUS"');
    expect(html).toContain('data-testid="deduction-PROMOTION_EXCESS"');
    expect((await postWithdraw(p.cookie, { provider: "betflix", all: true })).status).toBe(302);
    const [order] = (await p.wallet.listWithdraws(1, 1)).items;
    expect(order.credit).toBe(balance);
    expect(order.netCredit).toBe("1000.00");
    expect(order.receivedLak).toBe("580000.00");
    await payOut(p, order.code);
    expect((await p.wallet.listUsages(1, 1)).items[0]).toMatchObject({ status: "SUCCESS", reason: "WITHDRAWN" });
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
  });

  it("cancel a claim: two steps, then CANCELED; the promotion can be claimed again", async () => {
    const p = await playerWithBank();
    await claim(p, SET_AMOUNT_PROMO);
    const usage = (await current(p))!;
    const ask = await postForm("/player/promotion", { intent: "cancel-request", usageId: usage.id }, { cookie: p.cookie });
    expect(await ask.text()).toContain('data-testid="cancel-promotion-confirm"');
    expect((await current(p))?.status).toBe("CLAIMED");
    const done = await postForm("/player/promotion", { intent: "cancel", usageId: usage.id }, { cookie: p.cookie });
    expect(done.status).toBe(302);
    expect(await current(p)).toBeNull();
    expect((await claim(p, SET_AMOUNT_PROMO)).status).toBe(302);
    // a claim with its deposit waiting to be paid cannot be cancelled
    await postDeposit(p.cookie, { amount: "60000" });
    const usage2 = (await current(p))!;
    await postForm("/player/promotion", { intent: "cancel", usageId: usage2.id }, { cookie: p.cookie });
    expect((await current(p))?.status).toBe("CLAIMED");
  });

  it("another player's usage cannot be cancelled (IDOR)", async () => {
    const a = await playerWithBank();
    const b = await playerWithBank();
    await claim(a, SET_AMOUNT_PROMO);
    const usage = (await current(a))!;
    await postForm("/player/promotion", { intent: "cancel", usageId: usage.id }, { cookie: b.cookie });
    expect((await current(a))?.status).toBe("CLAIMED");
  });

  it("JSON endpoints: list, detail, current, usages, claim and cancel", async () => {
    const p = await playerWithBank();
    const list = await fetchApp("http://localhost/api/v2/promotions", { headers: { Cookie: p.cookie } });
    const { promotions } = (await list.json()) as { promotions: { id: string; title: string; status: string }[] };
    expect(promotions.map((x) => x.id)).toEqual(["welcome-100", "deposit-60k-bonus-50", "daily-10"]);
    const detail = await fetchApp("http://localhost/v2/promotions/songkran", { headers: { Cookie: p.cookie } });
    expect(((await detail.json()) as { promotion: { status: string } }).promotion.status).toBe("INACTIVE");
    expect((await fetchApp("http://localhost/api/v2/promotions/nope", { headers: { Cookie: p.cookie } })).status).toBe(404);
    expect((await fetchApp("http://localhost/api/v2/promotions")).status).toBe(401);
    const { postJson } = await import("../setup/players");
    const claimed = await postJson(`/api/v2/promotions/${DAILY}`, { provider: "betflix" }, { cookie: p.cookie });
    expect(claimed.status).toBe(201);
    const twice = await postJson(`/api/v2/promotions/${SET_AMOUNT_PROMO}`, { provider: "betflix" }, { cookie: p.cookie });
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { error: { code: string } }).error.code).toBe("PROMOTION_ONE_AT_A_TIME");
    const usages = await fetchApp("http://localhost/api/v2/promotions/usages?page=1&pageSize=5", { headers: { Cookie: p.cookie } });
    expect(await usages.json()).toMatchObject({ page: 1, pageSize: 5, total: 1, items: [{ promotionId: DAILY, status: "CLAIMED" }] });
    const cancelled = await postJson("/api/v2/promotions/current", {}, { cookie: p.cookie });
    expect(((await cancelled.json()) as { usage: { status: string } }).usage.status).toBe("CANCELED");
  });

  it("the storage refuses an arrow outside the usage state machine, and a second active usage", async () => {
    const p = await playerWithBank();
    await claim(p, SET_AMOUNT_PROMO);
    const usage = (await current(p))!;
    await runInDurableObject(walletOf(env, "demo", p.playerId), async (_instance, state) => {
      expect(() => state.storage.sql.exec(`UPDATE promotion_usages SET status = 'SUCCESS' WHERE id = ?`, usage.id)).toThrow(
        /refused promotion usage transition/,
      );
      expect(() =>
        state.storage.sql.exec(
          `INSERT INTO promotion_usages (id, promotion_id, provider, status, rules_json, claimed_at) VALUES ('x', 'daily-10', 'askmebet', 'CLAIMED', '{}', 0)`,
        ),
      ).toThrow(/UNIQUE/);
      expect(() => state.storage.sql.exec(`UPDATE deposit_orders SET status = 'SUCCESS' WHERE status = 'OPEN'`)).not.toThrow(); // no open order: nothing to refuse
    });
    expect((await current(p))?.status).toBe("CLAIMED");
  });
});
