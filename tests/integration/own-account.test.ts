import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { afterRedirect, fetchApp, seedDemo, shownOf } from "../setup/seed";
import { postForm } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { formatMoney } from "../../app/lib/format";
import lo from "../../locales/lo/admin.json";
import { fundProvider, playerWithBank, postDeposit, providerBalance } from "../setup/money";
import { findAgencyByHost } from "../../workers/services/agency";
import { confirmWithdraw, reviewWithdraw } from "../../workers/services/withdrawals";
import {
  applyBankTransaction,
  markOpenDepositPaid,
  matchBankTransaction,
  openDepositsQueue,
  recordUnreadableBankMessage,
  type BankTransactionInput,
} from "../../workers/services/bank-in";
import { ageOrder, seedOwnAccountChannel } from "../setup/own-account";
import { parseLaoQr } from "../../workers/core/emvco";

/**
 * Own-account deposits (decision 016) against real D1 and real wallets in workerd:
 * unique pay amounts under concurrency, and the one matcher every confirmation goes through.
 */

const CHANNEL = "OWN-BCEL";
beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
});

async function openOwnOrder(amount = "100000") {
  const p = await playerWithBank();
  const res = await postDeposit(p.cookie, { channelCode: CHANNEL, amount, provider: "betflix" });
  expect(res.status).toBe(302);
  const order = (await p.wallet.openDepositOrder(Date.now()))!;
  expect(order).toBeTruthy();
  return { ...p, order };
}

let txCounter = 0;
function tx(fields: Partial<BankTransactionInput> & { amount: string }): BankTransactionInput {
  txCounter += 1;
  return {
    channelCode: CHANNEL,
    bankTransactionId: `FT${Date.now()}${txCounter}`,
    bankTime: Date.now(),
    reference: null,
    source: "statement",
    raw: `line ${txCounter}`,
    ...fields,
  };
}

async function unmatchedRow(transactionKeyEnd: string) {
  return env.DB.prepare(`SELECT * FROM unmatched_payments WHERE agency_id = 'demo' AND transaction_id LIKE ?1`)
    .bind(`%:${transactionKeyEnd}`)
    .first<Record<string, unknown>>();
}

describe("own-account deposits: unique pay amount", () => {
  it("an order keeps its pay amount beside the asked amount, and its QR is the static QR derived with both", async () => {
    const p = await openOwnOrder("100000");
    expect(p.order.amount).toBe("100000.00");
    const pay = Number(p.order.payAmount);
    expect(pay).toBeGreaterThan(100000);
    expect(pay).toBeLessThanOrEqual(100999);
    const qr = parseLaoQr(p.order.qrPayload!);
    expect(qr.ok && qr.qr).toMatchObject({ amount: p.order.payAmount, reference: p.order.code, iin: "27710418" });
  }, 120_000);

  it("many players opening orders of the same amount at once all get distinct pay amounts", async () => {
    const players = [];
    for (let i = 0; i < 12; i++) players.push(await playerWithBank());
    const results = await Promise.all(players.map((p) => postDeposit(p.cookie, { channelCode: CHANNEL, amount: "250000", provider: "betflix" })));
    expect(results.every((r) => r.status === 302)).toBe(true);
    const orders = await Promise.all(players.map((p) => p.wallet.openDepositOrder(Date.now())));
    const amounts = orders.map((o) => o!.payAmount!);
    expect(new Set(amounts).size).toBe(12);
    for (const a of amounts) expect(Number(a)).toBeGreaterThan(250000);
    const held = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM pay_amount_reservations WHERE agency_id = 'demo' AND asked_amount = '250000.00' AND held = 1`,
    ).first<{ n: number }>();
    expect(held!.n).toBe(12);
  }, 240_000);
});

describe("own-account deposits: the matcher", () => {
  it("an exact match is shown by the preview, applied once, credited at the provider; the same transaction again is a duplicate", async () => {
    const p = await openOwnOrder("60000");
    const input = tx({ amount: p.order.payAmount! });
    expect(await matchBankTransaction(env, "demo", input)).toEqual({ kind: "match", orderCode: p.order.code, username: p.username });
    expect(await applyBankTransaction(env, "demo", input, null)).toEqual({ kind: "applied", orderCode: p.order.code });
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", p.username)).toBe("100.00"); // the credit follows the asked amount
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    expect(await applyBankTransaction(env, "demo", input, null)).toEqual({ kind: "duplicate", orderCode: p.order.code });
    expect(await matchBankTransaction(env, "demo", input)).toEqual({ kind: "duplicate", orderCode: p.order.code });
    expect(await providerBalance("betflix", p.username)).toBe("100.00");
    const audit = await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE agency_id = 'demo' AND action = 'bank-transaction.recorded' AND target = ?1`)
      .bind(`${CHANNEL}:${input.bankTransactionId}`)
      .first<{ n: number }>();
    expect(audit!.n).toBe(1);
  });

  it("two concurrent applies of one transaction credit once", async () => {
    const p = await openOwnOrder("60000");
    const input = tx({ amount: p.order.payAmount! });
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => applyBankTransaction(env, "demo", input, null)));
    expect(outcomes.filter((o) => o.kind === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === "duplicate")).toHaveLength(5);
    await p.wallet.runDueWork();
    expect(await providerBalance("betflix", p.username)).toBe("100.00");
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
  });

  it("a reference naming one order and an amount pointing at another is ambiguous, kept with the raw text", async () => {
    const a = await openOwnOrder("70000");
    const b = await openOwnOrder("70000");
    const input = tx({ amount: b.order.payAmount!, reference: a.order.code, raw: "BCEL 70,00x LAK ref " + a.order.code });
    expect(await matchBankTransaction(env, "demo", input)).toEqual({ kind: "none", reason: "AMBIGUOUS" });
    expect(await applyBankTransaction(env, "demo", input, null)).toEqual({ kind: "unmatched", reason: "AMBIGUOUS" });
    const row = await unmatchedRow(input.bankTransactionId);
    expect(row).toMatchObject({ kind: "AMBIGUOUS", amount: b.order.payAmount, raw: input.raw, channel_code: CHANNEL, source: "statement" });
    expect((await a.wallet.getDeposit(a.order.code))!.status).toBe("OPEN");
    expect((await b.wallet.getDeposit(b.order.code))!.status).toBe("OPEN");
  });

  it("an amount no order holds is NO_ORDER", async () => {
    const input = tx({ amount: "123457" });
    expect(await applyBankTransaction(env, "demo", input, null)).toEqual({ kind: "unmatched", reason: "NO_ORDER" });
    expect(await unmatchedRow(input.bankTransactionId)).toMatchObject({ kind: "NO_ORDER", amount: "123457.00" });
  });

  it("paid after the order's life by the bank's time is LATE: kept for staff against the order, nothing credited", async () => {
    const p = await openOwnOrder("80000");
    await ageOrder(p.wallet, "demo", p.order.code, 30 * 60_000); // expired 15 minutes ago
    const input = tx({ amount: p.order.payAmount!, bankTime: Date.now() - 5 * 60_000 });
    expect(await applyBankTransaction(env, "demo", input, null)).toEqual({ kind: "unmatched", reason: "LATE" });
    const order = (await p.wallet.getDeposit(p.order.code))!;
    expect(order).toMatchObject({ status: "CANCELED", flag: "LATE_PAYMENT" });
    expect(await unmatchedRow(input.bankTransactionId)).toMatchObject({ kind: "LATE_PAYMENT", reference: p.order.code, order_player_id: p.playerId });
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0" });
    expect(await providerBalance("betflix", p.username)).toBe("0.00");
  });

  it("paid in time but reported after the wallet expired the order: applied and credited", async () => {
    const p = await openOwnOrder("90000");
    await ageOrder(p.wallet, "demo", p.order.code, 40 * 60_000);
    expect(await p.wallet.openDepositOrder(Date.now())).toBeNull(); // the wallet expired it
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("CANCELED");
    const input = tx({ amount: p.order.payAmount!, bankTime: Date.now() - 35 * 60_000, source: "forwarder" });
    expect(await applyBankTransaction(env, "demo", input, null)).toEqual({ kind: "applied", orderCode: p.order.code });
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", p.username)).toBe("150.00");
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
  });

  it("an unreadable text is kept for staff with its raw text", async () => {
    await recordUnreadableBankMessage(env, "demo", { channelCode: CHANNEL, source: "forwarder", raw: "ທ່ານໄດ້ຮັບເງິນ ??? garbled", receivedAt: Date.now() });
    const row = await env.DB.prepare(`SELECT * FROM unmatched_payments WHERE agency_id = 'demo' AND kind = 'UNREADABLE'`).first<Record<string, unknown>>();
    expect(row).toMatchObject({ kind: "UNREADABLE", raw: "ທ່ານໄດ້ຮັບເງິນ ??? garbled", amount: null, source: "forwarder" });
  });
});

describe("payouts without a payout gateway", () => {
  it("a small withdrawal goes to the staff queue instead of being refused PAYOUT_NOT_CONFIGURED", async () => {
    const p = await playerWithBank();
    await fundProvider("betflix", p.username, "100.00");
    const agency = (await findAgencyByHost(env.DB, "localhost"))!;
    const player = { id: p.playerId, username: p.username, displayName: p.username };
    const input = { provider: "betflix", amountMinor: 10_000n, idempotencyKey: crypto.randomUUID() }; // 100 credit
    const withGateway = await reviewWithdraw(env, agency, player, input);
    expect(withGateway.ok && withGateway.review.review).toBe("AUTO");
    // a production deploy: no sandbox bank binding, so no payout gateway
    const production = { ...env, SANDBOX_BANK: undefined, SANDBOX_BANK_MERCHANT: undefined, SANDBOX_BANK_SECRET: undefined } as unknown as Env;
    const review = await reviewWithdraw(production, agency, player, input);
    expect(review.ok && review.review.review).toBe("MANUAL");
    const confirmed = await confirmWithdraw(production, agency, player, input, "http://localhost");
    expect(confirmed.ok && confirmed.order).toMatchObject({ review: "MANUAL" });
    await p.wallet.runDueWork();
    const order = await p.wallet.getWithdraw((confirmed as { ok: true; order: { code: string } }).order.code);
    expect(order).toMatchObject({ status: "OPEN", review: "MANUAL", payoutState: null }); // waiting for staff, nothing sent, nothing refused
  });
});

describe("staff: the open-deposits queue", () => {
  const actor = (name: string) => ({ agencyId: "demo", staffId: null, staffUsername: name, ip: "local", userAgent: null });

  it("mark paid needs the bank's transaction id; two staff pressing at once get one outcome; an id used before is refused", async () => {
    const p = await openOwnOrder("60000");
    const queue = await openDepositsQueue(env, "demo");
    expect(queue.items.find((i) => i.code === p.order.code)).toMatchObject({
      payAmount: p.order.payAmount,
      askedAmount: "60000.00",
      username: p.username,
      expired: false,
    });
    expect(await markOpenDepositPaid(env, actor("cashier1"), { orderCode: p.order.code, bankTransactionId: "  ", bankTime: Date.now() })).toEqual({
      ok: false,
      error: "TRANSACTION_ID_REQUIRED",
    });
    const id = `BCEL${Date.now()}`;
    const [a, b] = await Promise.all([
      markOpenDepositPaid(env, actor("cashier1"), { orderCode: p.order.code, bankTransactionId: id, bankTime: Date.now() }),
      markOpenDepositPaid(env, actor("cashier2"), { orderCode: p.order.code, bankTransactionId: `${id}X`, bankTime: Date.now() }),
    ]);
    expect([a, b].filter((r) => r.ok)).toHaveLength(1);
    expect([a, b].filter((r) => !r.ok)).toEqual([{ ok: false, error: "NOT_OPEN" }]);
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("betflix", p.username)).toBe("100.00");
    expect((await openDepositsQueue(env, "demo")).items.find((i) => i.code === p.order.code)).toBeUndefined();
    const unmatched = await env.DB.prepare(`SELECT COUNT(*) AS n FROM unmatched_payments WHERE transaction_id LIKE ?1`).bind(`%${id}%`).first<{ n: number }>();
    expect(unmatched!.n).toBe(0); // the losing press left nothing behind
    // the same bank id for another order: refused, that order stays open
    const q = await openOwnOrder("60000");
    const usedId = a.ok ? id : `${id}X`;
    expect(await markOpenDepositPaid(env, actor("cashier1"), { orderCode: q.order.code, bankTransactionId: usedId, bankTime: Date.now() })).toEqual({
      ok: false,
      error: "ALREADY_USED",
    });
    expect((await openDepositsQueue(env, "demo")).items.find((i) => i.code === q.order.code)).toBeTruthy();
    const audit = await env.DB.prepare(
      `SELECT staff_username FROM audit_log WHERE agency_id = 'demo' AND action = 'bank-transaction.recorded' AND target LIKE ?1`,
    )
      .bind(`%:${usedId}`)
      .all<{ staff_username: string }>();
    expect(audit.results).toHaveLength(1);
  }, 120_000);
});

describe("staff: the open-deposits page", () => {
  const PAGE = "/admin/deposits/open";
  let cookie = "";

  beforeAll(async () => {
    const s = await createStaff(env, { agencyId: "demo", username: "open-cashier", password: "open-cashier-pass-1", role: "cashier" });
    cookie = await staffLogin(env, { username: "open-cashier", password: "open-cashier-pass-1", totpSecret: s.totpSecret });
  }, 120_000);

  /** A bank time as staff type it into the form's text field, DD/MM/YYYY HH:mm in Vientiane time (decision 088). */
  const local = (ms: number) => {
    const iso = new Date(ms + 7 * 3600_000).toISOString();
    return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 16)}`;
  };
  const rowOf = (html: string, code: string) => {
    const at = html.indexOf(`data-code="${code}"`);
    return at < 0 ? "" : html.slice(at, html.indexOf("</tr>", at));
  };
  const markPaid = (fields: Record<string, string>) => postForm(PAGE, fields, { cookie });
  const landing = async (res: Response) => (await afterRedirect(res, cookie)).html;

  it("lists each open order with the exact amount to look for; an order past its life is marked expired", async () => {
    const fresh = await openOwnOrder("70000");
    const old = await openOwnOrder("70000");
    // an hour past: expired, still in the queue (listed until the pay amount's two-hour cool-down ends)
    await ageOrder(old.wallet, "demo", old.order.code, 3600_000);
    const html = await shownOf(await fetchApp(`http://localhost${PAGE}`, { headers: { Cookie: cookie } }));
    const row = rowOf(html, fresh.order.code);
    expect(/data-testid="pay-amount">([^<]+)</.exec(row)?.[1]).toBe(formatMoney(fresh.order.payAmount!, "LAK"));
    expect(row).toContain(`href="/admin/players/${fresh.playerId}"`);
    expect(row).not.toContain(lo.openDeposits.expired);
    expect(rowOf(html, old.order.code)).toContain(lo.openDeposits.expired);
  });

  it("mark paid without the bank's transaction id, or with an unreadable or future bank time, is refused on that order's row; it stays open", async () => {
    const p = await openOwnOrder("70000");
    const noId = await markPaid({ orderCode: p.order.code, bankTransactionId: " ", bankTime: local(Date.now()) });
    expect(noId.status).toBe(400);
    const row = rowOf(await shownOf(noId), p.order.code);
    expect(row).toContain('data-testid="mark-paid-error"');
    expect(row).toContain(lo.openDeposits.errors.TRANSACTION_ID_REQUIRED);
    const badTime = await markPaid({ orderCode: p.order.code, bankTransactionId: "FT77001", bankTime: "yesterday" });
    expect(badTime.status).toBe(400);
    const badRow = rowOf(await shownOf(badTime), p.order.code);
    expect(badRow).toContain(lo.openDeposits.errors.BANK_TIME_INVALID);
    // what the cashier typed is kept
    expect(badRow).toContain('value="FT77001"');
    const future = await markPaid({ orderCode: p.order.code, bankTransactionId: "FT77002", bankTime: local(Date.now() + 3600_000) });
    expect(future.status).toBe(409);
    expect(rowOf(await shownOf(future), p.order.code)).toContain(lo.openDeposits.errors.BANK_TIME_INVALID);
    expect((await openDepositsQueue(env, "demo")).items.find((i) => i.code === p.order.code)).toBeTruthy();
  });

  it("marked paid: credited, said so; the same order pressed again says it is no longer open", async () => {
    const p = await openOwnOrder("70000");
    const id = `FTPAGE${Date.now()}`;
    const html = await landing(await markPaid({ orderCode: p.order.code, bankTransactionId: id, bankTime: local(Date.now() - 60_000) }));
    expect(html).toContain(lo.openDeposits.marked.replace("{{code}}", p.order.code));
    expect(rowOf(html, p.order.code)).toBe("");
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("SUCCESS");
    const again = await landing(await markPaid({ orderCode: p.order.code, bankTransactionId: `${id}B`, bankTime: local(Date.now() - 60_000) }));
    expect(again).toContain(lo.openDeposits.errors.NOT_OPEN.replace("{{code}}", p.order.code));

    // the same bank id for another order: refused on its row (409), that order stays open
    const q = await openOwnOrder("70000");
    const used = await markPaid({ orderCode: q.order.code, bankTransactionId: id, bankTime: local(Date.now() - 60_000) });
    expect(used.status).toBe(409);
    expect(rowOf(await shownOf(used), q.order.code)).toContain(lo.openDeposits.errors.ALREADY_USED);
    expect((await openDepositsQueue(env, "demo")).items.find((i) => i.code === q.order.code)).toBeTruthy();
  });

  it("money that came after the order's life, by the bank's time, is not credited: said so first; recorded once the cashier confirms, it goes to the payments queue", async () => {
    const p = await openOwnOrder("70000");
    await ageOrder(p.wallet, "demo", p.order.code, 3600_000);
    const fields = { orderCode: p.order.code, bankTransactionId: `FTLATE${Date.now()}`, bankTime: local(Date.now() - 60_000) };
    const outside = await markPaid(fields);
    expect(outside.status).toBe(409);
    const row = rowOf(await shownOf(outside), p.order.code);
    expect(row).toContain(lo.openDeposits.errors.BANK_TIME_OUTSIDE_ORDER.split("(")[0]!.trim());
    expect(row).toContain(lo.openDeposits.recordOutside);
    expect(await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_witnesses WHERE witness_id = ?1`).bind(fields.bankTransactionId).first("n")).toBe(0);
    const html = await landing(await markPaid({ ...fields, outsideLife: "confirm" }));
    expect(html).toContain(lo.openDeposits.errors.LATE.replace("{{code}}", p.order.code));
    expect((await p.wallet.getDeposit(p.order.code))!.status).not.toBe("SUCCESS");
  });
});
