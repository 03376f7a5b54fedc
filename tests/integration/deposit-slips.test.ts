import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { CurrentPlayer } from "../../workers/core/session";
import { SANDBOX_TELEGRAM_TOKEN } from "../../workers/ports/alert-channel-factory";
import { saveAlertSettings } from "../../workers/services/alerts";
import { changeOwnAccountChannels } from "../../workers/services/agency";
import { applyBankTransaction, checkDepositSlip, openDepositsQueue, type BankTransactionInput } from "../../workers/services/bank-in";
import { addDepositSlip, getDepositDetail } from "../../workers/services/deposits";
import lo from "../../locales/lo/player.json";
import { oneProofText } from "./fixtures/one-proof";
import { blankPng, qrJpeg, qrPng } from "./fixtures/qr-images";
import { playerWithBank, postDeposit, providerBalance } from "../setup/money";
import { ageOrder, seedOwnAccountChannel } from "../setup/own-account";
import { newSandboxChat } from "../setup/sandbox-telegram";
import { afterRedirect, fetchApp, seedDemo, shownOf } from "../setup/seed";
import { createStaff, staffLogin } from "../setup/staff";
import { postForm } from "../setup/players";

/**
 * The player's transfer slip (decision 087) against real D1, R2 and wallets in workerd: a slip
 * of the publicly described OneProof shape, drawn as a QR picture, is read and kept; it never
 * credits by itself; its reference links by id to the bank's report only where the owner turned
 * the channel's setting on, else it is shown beside the candidates; the same slip on a second
 * order flags both; a refused picture leaves nothing stored.
 */

const CHANNEL = "OWN-BCEL";
const owner = { agencyId: "demo", staffId: null, staffUsername: "slip-owner", ip: "local", userAgent: null };

beforeAll(async () => {
  await seedDemo();
  await seedOwnAccountChannel("demo", CHANNEL, "derived");
  await saveAlertSettings(env, owner, {
    token: SANDBOX_TELEGRAM_TOKEN,
    chatIds: [await newSandboxChat()],
    language: "lo",
    quietStart: null,
    quietEnd: null,
    topics: ["payments"],
    withdrawalReminderMinutes: 15,
    depositWaitMinutes: 10,
    summaryHour: null,
    primaryHost: "localhost",
  });
});

async function openOwnOrder(amount = "80000") {
  const p = await playerWithBank();
  expect((await postDeposit(p.cookie, { channelCode: CHANNEL, amount, provider: "betflix" })).status).toBe(302);
  const order = (await p.wallet.openDepositOrder(Date.now()))!;
  const player: CurrentPlayer = { id: p.playerId, username: p.username, displayName: p.username };
  return { ...p, order, player };
}

let n = 0;
/** A slip of its own: a ticket and an FT-style bank reference no other test uses. */
function slipOf() {
  n += 1;
  const reference = `FT${Date.now()}${n}`;
  return { ticket: `T${Date.now()}${n}`, reference, text: oneProofText({ ticket: `T${Date.now()}${n}`, reference }) };
}

/** The slip posted as the browser sends it: multipart, the file field `slip`. */
function postSlip(cookie: string, code: string, bytes: Uint8Array, type = "image/png") {
  const form = new FormData();
  form.set("slip", new File([new Uint8Array(bytes)], "slip.png", { type }));
  return fetchApp(`http://localhost/player/deposit/${code}/slip`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: "http://localhost", Cookie: cookie },
    body: form,
  });
}

const slipRows = (code: string) =>
  env.DB.prepare(`SELECT id, ticket, reference, conflict, content_type FROM deposit_slips WHERE agency_id = 'demo' AND order_code = ?1`).bind(code).all<{
    id: string;
    ticket: string;
    reference: string;
    conflict: number;
    content_type: string;
  }>();

function statementRow(fields: Partial<BankTransactionInput> & { amount: string; bankTransactionId: string }): BankTransactionInput {
  return { channelCode: CHANNEL, bankTime: Date.now(), reference: null, source: "statement", raw: "transfer in", ...fields };
}

async function setSlipReference(confirmed: boolean) {
  expect(await changeOwnAccountChannels(env.DB, owner, { intent: "slip-reference", code: CHANNEL, confirmed: confirmed ? "1" : "0" })).toEqual({ ok: true });
}

describe("the player's slip", () => {
  it("a OneProof slip drawn as a PNG is read through the player's form post, kept with its picture, shown as being checked, and alerted", async () => {
    const p = await openOwnOrder();
    const slip = slipOf();
    const res = await postSlip(p.cookie, p.order.code, qrPng(slip.text));
    const after = await afterRedirect(res, p.cookie);
    expect(after.location).toBe(`/player/deposit/${p.order.code}/slip`);
    expect(after.html).toContain(lo.depositSlip.received);
    const { results } = await slipRows(p.order.code);
    expect(results).toEqual([
      { id: expect.any(String), ticket: expect.stringMatching(/^T/), reference: slip.reference, conflict: 0, content_type: "image/png" },
    ]);
    const stored = await env.BRAND_ASSETS.get(`slips/demo/${results[0]!.id}`);
    expect(stored?.size).toBe(qrPng(slip.text).byteLength);
    await stored?.body.cancel();
    const alert = await env.DB.prepare(`SELECT kind, facts FROM alert_events WHERE agency_id = 'demo' AND id = ?1`)
      .bind(`deposit.slip:${results[0]!.id}`)
      .first<{ kind: string; facts: string }>();
    expect(alert?.kind).toBe("deposit.slip");
    expect(JSON.parse(alert!.facts)).toMatchObject({ orderCode: p.order.code, reference: slip.reference, amountLak: p.order.payAmount, otherOrders: [] });
    // a JPEG screenshot of a slip is read too
    const jpeg = slipOf();
    expect(await addDepositSlip(env, "demo", p.player, p.order.code, qrJpeg(jpeg.text))).toEqual({ ok: true, conflict: false });
  });

  it("refuses a non-image, a picture over 2 MB and a picture without a OneProof QR, storing nothing", async () => {
    const p = await openOwnOrder();
    const laoQr = p.order.qrPayload!; // a QR, but the deposit's own LAO QR, not a slip
    const refused = [
      [new TextEncoder().encode("%PDF-1.4 not a picture"), "SLIP_NOT_IMAGE"],
      [new Uint8Array(2 * 1024 * 1024 + 1), "SLIP_TOO_LARGE"],
      [blankPng(), "SLIP_NO_ONEPROOF"],
      [qrPng(laoQr), "SLIP_NO_ONEPROOF"],
      [qrPng(`${slipOf().text.slice(0, -4)}0000`), "SLIP_NO_ONEPROOF"], // a CRC that does not hold
    ] as const;
    for (const [bytes, error] of refused) {
      expect(await addDepositSlip(env, "demo", p.player, p.order.code, bytes)).toEqual({ ok: false, error });
    }
    // through the form: the message in the player's language, 400, nothing stored
    const res = await postSlip(p.cookie, p.order.code, blankPng());
    expect(res.status).toBe(400);
    expect(await shownOf(res)).toContain(lo.depositSlip.errors.SLIP_NO_ONEPROOF);
    expect((await slipRows(p.order.code)).results).toEqual([]);
    const listed = await env.BRAND_ASSETS.list({ prefix: "slips/demo/" });
    const before = listed.objects.length;
    await addDepositSlip(env, "demo", p.player, p.order.code, blankPng());
    expect((await env.BRAND_ASSETS.list({ prefix: "slips/demo/" })).objects.length).toBe(before);
  });

  it("an expired order takes a slip; a cancelled one and another player's order do not", async () => {
    const p = await openOwnOrder();
    await ageOrder(p.wallet, "demo", p.order.code, 20 * 60_000);
    await p.wallet.runDueWork();
    expect(await p.wallet.getDeposit(p.order.code)).toMatchObject({ status: "CANCELED", flag: "EXPIRED" });
    expect(await addDepositSlip(env, "demo", p.player, p.order.code, qrPng(slipOf().text))).toEqual({ ok: true, conflict: false });
    const other = await playerWithBank();
    expect(
      await addDepositSlip(env, "demo", { id: other.playerId, username: other.username, displayName: other.username }, p.order.code, qrPng(slipOf().text)),
    ).toEqual({
      ok: false,
      error: "SLIP_ORDER_CLOSED",
    });
    const q = await openOwnOrder();
    // the player cancels their own order: it no longer takes a slip
    await fetchApp("http://localhost/player/deposit", {
      method: "POST",
      redirect: "manual",
      headers: { Origin: "http://localhost", Cookie: q.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "cancel", code: q.order.code }).toString(),
    });
    expect(await addDepositSlip(env, "demo", q.player, q.order.code, qrPng(slipOf().text))).toEqual({ ok: false, error: "SLIP_ORDER_CLOSED" });
  });

  it("a slip never credits by itself: the order stays open, nothing at the provider, no bank report", async () => {
    const p = await openOwnOrder();
    const slip = slipOf();
    expect(await addDepositSlip(env, "demo", p.player, p.order.code, qrPng(slip.text))).toEqual({ ok: true, conflict: false });
    await setSlipReference(true); // even where its reference would link, only the bank's report credits
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("OPEN");
    expect(await providerBalance("betflix", p.username)).toBe("0.00");
    expect(await p.wallet.ledgerTotals()).toEqual({}); // not one ledger line
    const reports = await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_witnesses WHERE agency_id = 'demo' AND witness_id = ?1`)
      .bind(slip.reference)
      .first<{ n: number }>();
    expect(reports!.n).toBe(0);
    const queued = (await openDepositsQueue(env, "demo")).slips.find((s) => s.orderCode === p.order.code)!;
    expect(queued).toMatchObject({ reference: slip.reference, linked: [], conflict: false });
    await setSlipReference(false);
  });

  it("with the owner's setting on, the slip links by id to the statement row of its reference; off, it is shown beside the candidates", async () => {
    const p = await openOwnOrder("90000");
    const slip = slipOf();
    expect(await addDepositSlip(env, "demo", p.player, p.order.code, qrPng(slip.text))).toEqual({ ok: true, conflict: false });
    // the bank's statement row of another amount carries the slip's reference (the player paid the wrong amount): not matched by amount
    const wrongAmount = String(Number(p.order.payAmount) - 7);
    expect((await applyBankTransaction(env, "demo", statementRow({ amount: `${wrongAmount}.00`, bankTransactionId: slip.reference }), null)).kind).toBe(
      "unmatched",
    );
    // and a payment of the order's pay amount, reported minutes before the order opened (so not its money), sits beside it as a candidate
    const candidate = `FT-CAND-${Date.now()}`;
    const before = p.order.createdAt - 5 * 60_000;
    expect(
      (await applyBankTransaction(env, "demo", statementRow({ amount: p.order.payAmount!, bankTransactionId: candidate, bankTime: before }), null)).kind,
    ).toBe("unmatched");

    await setSlipReference(false);
    const off = (await openDepositsQueue(env, "demo")).slips.find((s) => s.orderCode === p.order.code)!;
    expect(off.referenceConfirmed).toBe(false);
    expect(off.linked).toEqual([]);
    expect(off.candidates.map((c) => c.witnessId)).toEqual([candidate]);

    await setSlipReference(true);
    const on = (await openDepositsQueue(env, "demo")).slips.find((s) => s.orderCode === p.order.code)!;
    expect(on.linked).toEqual([expect.objectContaining({ source: "statement", witnessId: slip.reference, transferId: slip.reference, outcome: "NO_ORDER" })]);
    expect(on.linked[0]!.queueId).toEqual(expect.any(String));
    expect(on.candidates).toEqual([]);
    const audit = await env.DB.prepare(
      `SELECT before_json, after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'settings.ownAccount.slipReference' ORDER BY id DESC LIMIT 1`,
    ).first<{
      before_json: string;
      after_json: string;
    }>();
    expect(JSON.parse(audit!.after_json)).toEqual({ slipReferenceConfirmed: true });
    await setSlipReference(false);
    // still nothing credited: the order is open and its slip waits for the cashier
    expect((await p.wallet.getDeposit(p.order.code))!.status).toBe("OPEN");
  });

  it("the same slip on a second order is kept and flags both orders; the same slip again on one order is one slip", async () => {
    const a = await openOwnOrder();
    const b = await openOwnOrder();
    const slip = slipOf();
    expect(await addDepositSlip(env, "demo", a.player, a.order.code, qrPng(slip.text))).toEqual({ ok: true, conflict: false });
    expect(await addDepositSlip(env, "demo", b.player, b.order.code, qrPng(slip.text))).toEqual({ ok: true, conflict: true });
    expect(await addDepositSlip(env, "demo", b.player, b.order.code, qrPng(slip.text))).toEqual({ ok: true, conflict: true });
    expect((await slipRows(a.order.code)).results.map((r) => r.conflict)).toEqual([1]);
    expect((await slipRows(b.order.code)).results.map((r) => r.conflict)).toEqual([1]);
    const queue = (await openDepositsQueue(env, "demo")).slips;
    expect(queue.find((s) => s.orderCode === a.order.code)).toMatchObject({ conflict: true, otherOrders: [b.order.code] });
    expect(queue.find((s) => s.orderCode === b.order.code)).toMatchObject({ conflict: true, otherOrders: [a.order.code] });
    // each order's page in the back office shows the conflict with the other
    for (const [own, other] of [
      [a, b],
      [b, a],
    ] as const) {
      await own.wallet.runDueWork(); // the order's row in the back office's read model
      const detail = await getDepositDetail(env, "demo", own.order.code);
      expect(detail?.slips).toEqual([expect.objectContaining({ reference: slip.reference, conflict: true, otherOrders: [other.order.code] })]);
    }
    // the second order's alert names the first
    const [second] = (await slipRows(b.order.code)).results;
    const alert = await env.DB.prepare(`SELECT facts FROM alert_events WHERE agency_id = 'demo' AND id = ?1`)
      .bind(`deposit.slip:${second!.id}`)
      .first<{ facts: string }>();
    expect(JSON.parse(alert!.facts).otherOrders).toEqual([a.order.code]);
  });

  it("the cashier's queue puts slips first; the picture is staff's only; checked, the slip leaves the queue (audited)", async () => {
    const p = await openOwnOrder();
    const slip = slipOf();
    const png = qrPng(slip.text);
    expect(await addDepositSlip(env, "demo", p.player, p.order.code, png)).toEqual({ ok: true, conflict: false });
    const [row] = (await slipRows(p.order.code)).results;
    await createStaff(env, { agencyId: "demo", username: "slip-cashier", password: "slip-cashier-pass-1", role: "cashier" }).then((s) =>
      staffLogin(env, { username: "slip-cashier", password: "slip-cashier-pass-1", totpSecret: s.totpSecret }).then(async (cookie) => {
        const page = await shownOf(await fetchApp("http://localhost/admin/deposits/open", { headers: { Cookie: cookie } }));
        expect(page.indexOf(`data-slip="${row!.id}"`)).toBeGreaterThan(-1);
        expect(page.indexOf(`data-slip="${row!.id}"`)).toBeLessThan(page.indexOf('data-testid="open-deposits"'));
        expect(page).toContain(slip.reference);
        const picture = await fetchApp(`http://localhost/admin/slips/${row!.id}`, { headers: { Cookie: cookie } });
        expect(picture.status).toBe(200);
        expect(picture.headers.get("Content-Type")).toBe("image/png");
        expect(picture.headers.get("Cache-Control")).toBe("private, no-store");
        expect(new Uint8Array(await picture.arrayBuffer())).toEqual(png);
        // the player (no staff session) cannot read it
        const asPlayer = await fetchApp(`http://localhost/admin/slips/${row!.id}`, { headers: { Cookie: p.cookie }, redirect: "manual" });
        expect(asPlayer.status).not.toBe(200);
        await asPlayer.body?.cancel();
      }),
    );
    const cashier = { agencyId: "demo", staffId: null, staffUsername: "slip-cashier", ip: "local", userAgent: null };
    expect(await checkDepositSlip(env, cashier, row!.id)).toBe(true);
    expect(await checkDepositSlip(env, cashier, row!.id)).toBe(false);
    expect((await openDepositsQueue(env, "demo")).slips.find((s) => s.id === row!.id)).toBeUndefined();
    const audit = await env.DB.prepare(`SELECT COUNT(*) AS n FROM audit_log WHERE agency_id = 'demo' AND action = 'deposit.slip.checked' AND target = ?1`)
      .bind(p.order.code)
      .first<{ n: number }>();
    expect(audit!.n).toBe(1);
  });

  it("the owner turns the channel's slip reference on and off on the channels page (a checkbox, audited); a cashier may not", async () => {
    const o = await createStaff(env, { agencyId: "demo", username: "slip-owner2", password: "slip-owner2-pass-1", role: "owner" });
    const c = await createStaff(env, { agencyId: "demo", username: "slip-cashier2", password: "slip-cashier2-pass-1", role: "cashier" });
    const ownerCookie = await staffLogin(env, { username: "slip-owner2", password: "slip-owner2-pass-1", totpSecret: o.totpSecret });
    const cashierCookie = await staffLogin(env, { username: "slip-cashier2", password: "slip-cashier2-pass-1", totpSecret: c.totpSecret });
    const setting = async () =>
      (await env.DB.prepare(`SELECT slip_reference_confirmed AS v FROM payment_channels WHERE agency_id = 'demo' AND code = ?1`)
        .bind(CHANNEL)
        .first<{ v: number }>())!.v;
    const page = "/admin/settings/channels";
    const page1 = await shownOf(await fetchApp(`http://localhost${page}`, { headers: { Cookie: ownerCookie } }));
    expect(page1).toContain(`id="slip-reference-${CHANNEL}"`);
    expect((await postForm(page, { intent: "slip-reference", code: CHANNEL, confirmed: "1" }, { cookie: ownerCookie })).status).toBe(302);
    expect(await setting()).toBe(1);
    // the box unticked sends no `confirmed`: off
    expect((await postForm(page, { intent: "slip-reference", code: CHANNEL }, { cookie: ownerCookie })).status).toBe(302);
    expect(await setting()).toBe(0);
    const byCashier = await postForm(page, { intent: "slip-reference", code: CHANNEL, confirmed: "1" }, { cookie: cashierCookie });
    expect(byCashier.status).not.toBe(302);
    await byCashier.body?.cancel();
    expect(await setting()).toBe(0);
    const audits = await env.DB.prepare(
      `SELECT after_json FROM audit_log WHERE agency_id = 'demo' AND action = 'settings.ownAccount.slipReference' AND staff_username = 'slip-owner2' ORDER BY id`,
    ).all<{
      after_json: string;
    }>();
    expect(audits.results.map((a) => JSON.parse(a.after_json))).toEqual([{ slipReferenceConfirmed: true }, { slipReferenceConfirmed: false }]);
  });
});
