import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { parseLaoQr } from "../../workers/core/emvco";
import { decodeQrImage, MAX_QR_IMAGE_BYTES } from "../../workers/services/agency";
import { addBankAccount, registerPlayer, replaceBankAccount } from "../../workers/services/players";
import { walletOf } from "../../workers/services/wallets";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { fundProvider, postWithdraw } from "../setup/money";
import { seedOwnAccountChannel } from "../setup/own-account";
import { loginViaForm, ORIGIN, PASSWORD, postForm, registerViaForm, sessionFrom, uniqueName } from "../setup/players";
import { createStaff, staffLogin } from "../setup/staff";
import { blankPng, personalLaoQr, qrJpeg, qrPng } from "./fixtures/qr-images";

/**
 * One-scan payouts (decision 086): the player's receive QR given with the bank account, checked
 * and kept (or refused with its message and nothing kept), and shown to the cashier on the
 * withdrawal page, with the amount inserted where the owner's channel setting says so.
 */

beforeAll(seedDemo);

let counter = 0;
const accountNumber = () => `0101${String(Date.now()).slice(-7)}${String(++counter).padStart(2, "0")}`;
const receiver = () => `mch${crypto.randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;

async function newPlayer() {
  counter += 1;
  const username = uniqueName("rqr");
  const ip = `10.61.${counter % 250}.${(counter * 11) % 250}`;
  const reg = await registerPlayer(env.DB, "demo", { username, password: PASSWORD, phone: "02055555555" }, { ip, userAgent: null });
  if (!reg.ok) throw new Error(`register failed: ${reg.code}`);
  return { username, playerId: reg.playerId, ip };
}

const stored = (playerId: string) =>
  env.DB.prepare(`SELECT receive_qr, receive_qr_receiver FROM bank_accounts WHERE agency_id = 'demo' AND player_id = ?1`)
    .bind(playerId)
    .first<{ receive_qr: string | null; receive_qr_receiver: string | null }>();

/** The bank form posted as a browser posts it with a file chosen (multipart). */
function postBankForm(cookie: string, fields: Record<string, string>, picture?: Uint8Array, type = "image/png") {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  body.set("receiveQr", picture ? new File([picture as Uint8Array<ArrayBuffer>], "qr.png", { type }) : new File([], "", { type: "application/octet-stream" }));
  return fetchApp(`${ORIGIN}/player/bank`, { method: "POST", redirect: "manual", headers: { Origin: ORIGIN, Cookie: cookie }, body });
}

describe("the receive QR with a new account (service)", () => {
  it("a personal QR of the chosen bank with the typed name is kept with its receiver; none is kept without a picture", async () => {
    const p = await newPlayer();
    const text = personalLaoQr({ receiver: receiver() });
    const added = await addBankAccount(env.DB, "demo", p.playerId, {
      bankCode: "BCEL",
      accountNumber: accountNumber(),
      accountName: "Somsak Phommavong",
      receiveQr: qrJpeg(text),
    });
    expect(added).toMatchObject({ ok: true, account: { receiveQr: text } });
    const row = await stored(p.playerId);
    expect(row!.receive_qr).toBe(text);
    expect(row!.receive_qr_receiver).toMatch(/^27710418:mch/);

    const q = await newPlayer();
    expect(await addBankAccount(env.DB, "demo", q.playerId, { bankCode: "BCEL", accountNumber: accountNumber(), accountName: "Someone" })).toMatchObject({
      ok: true,
      account: { receiveQr: null },
    });
  });

  it("each hostile picture is refused with its code and nothing is stored, not even the account", async () => {
    const holder = await newPlayer();
    const held = personalLaoQr({ receiver: receiver() });
    expect(
      (
        await addBankAccount(env.DB, "demo", holder.playerId, {
          bankCode: "BCEL",
          accountNumber: accountNumber(),
          accountName: "Somsak Phommavong",
          receiveQr: qrPng(held),
        })
      ).ok,
    ).toBe(true);

    const good = personalLaoQr({ receiver: receiver() });
    const broken = `${good.slice(0, -4)}${good.endsWith("0000") ? "0001" : "0000"}`;
    const cases: [Uint8Array, string][] = [
      [qrPng(personalLaoQr({ iin: "70030418", receiver: receiver() })), "RECEIVE_QR_OTHER_BANK"],
      [qrPng(personalLaoQr({ type: "002", receiver: receiver() })), "RECEIVE_QR_MERCHANT"],
      [qrPng(broken), "RECEIVE_QR_CRC"],
      [qrPng(held), "RECEIVE_QR_IN_USED"],
      [qrPng(personalLaoQr({ name: "KHAMLA SISOUPHAN", receiver: receiver() })), "RECEIVE_QR_NAME"],
      [new Uint8Array(MAX_QR_IMAGE_BYTES + 1), "RECEIVE_QR_TOO_LARGE"],
      [new TextEncoder().encode("%PDF-1.7 not a picture"), "RECEIVE_QR_NOT_IMAGE"],
      [blankPng(), "RECEIVE_QR_NOT_FOUND"],
    ];
    for (const [picture, code] of cases) {
      const p = await newPlayer();
      const outcome = await addBankAccount(env.DB, "demo", p.playerId, {
        bankCode: "BCEL",
        accountNumber: accountNumber(),
        accountName: "Somsak Phommavong",
        receiveQr: picture,
      });
      expect(outcome, code).toEqual({ ok: false, code });
      expect(await stored(p.playerId), code).toBeNull();
    }
  });

  it("two players adding one QR at once: one keeps it, the other is told it is in use", async () => {
    const text = personalLaoQr({ receiver: receiver() });
    const players = await Promise.all([newPlayer(), newPlayer(), newPlayer(), newPlayer()]);
    const outcomes = await Promise.all(
      players.map((p) =>
        addBankAccount(env.DB, "demo", p.playerId, {
          bankCode: "BCEL",
          accountNumber: accountNumber(),
          accountName: "Somsak Phommavong",
          receiveQr: qrPng(text),
        }),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => !o.ok && o.code)).toEqual(["RECEIVE_QR_IN_USED", "RECEIVE_QR_IN_USED", "RECEIVE_QR_IN_USED"]);
    const n = await env.DB.prepare(`SELECT COUNT(*) AS n FROM bank_accounts WHERE receive_qr = ?1`).bind(text).first<{ n: number }>();
    expect(n!.n).toBe(1);
  });

  it("a replacement keeps the new account's QR, or none: the old account's QR never stays with the new account", async () => {
    const p = await newPlayer();
    const first = personalLaoQr({ receiver: receiver() });
    await addBankAccount(env.DB, "demo", p.playerId, {
      bankCode: "BCEL",
      accountNumber: accountNumber(),
      accountName: "Somsak Phommavong",
      receiveQr: qrPng(first),
    });
    const actor = { agencyId: "demo", staffId: null, staffUsername: `player:${p.username}`, ip: null, userAgent: null };
    const ldb = personalLaoQr({ iin: "70030418", receiver: `LDB${crypto.randomUUID().replace(/-/g, "").slice(0, 22)}` });
    const refused = await replaceBankAccount(
      env,
      actor,
      p.playerId,
      { bankCode: "JDB", accountNumber: accountNumber(), accountName: "Somsak Phommavong", receiveQr: qrPng(ldb) },
      { allowPaid: false },
    );
    expect(refused).toEqual({ ok: false, code: "RECEIVE_QR_OTHER_BANK" });
    expect((await stored(p.playerId))!.receive_qr).toBe(first);

    const replaced = await replaceBankAccount(
      env,
      actor,
      p.playerId,
      { bankCode: "LDB", accountNumber: accountNumber(), accountName: "Somsak Phommavong", receiveQr: qrPng(ldb) },
      { allowPaid: false },
    );
    expect(replaced).toMatchObject({ ok: true, account: { bankCode: "LDB", receiveQr: ldb } });
    const audit = await env.DB.prepare(`SELECT after_json FROM audit_log WHERE action = 'player.bank-replace' AND target = ?1 ORDER BY id DESC LIMIT 1`)
      .bind(p.playerId)
      .first<{ after_json: string }>();
    expect(JSON.parse(audit!.after_json)).toMatchObject({ bankCode: "LDB", receiveQr: true });

    const without = await replaceBankAccount(
      env,
      actor,
      p.playerId,
      { bankCode: "BCEL", accountNumber: accountNumber(), accountName: "Somsak Phommavong" },
      { allowPaid: false },
    );
    expect(without.ok).toBe(true);
    expect(await stored(p.playerId)).toEqual({ receive_qr: null, receive_qr_receiver: null });
    // the first QR is free again: another player may keep it
    const q = await newPlayer();
    expect(
      (
        await addBankAccount(env.DB, "demo", q.playerId, {
          bankCode: "BCEL",
          accountNumber: accountNumber(),
          accountName: "Somsak Phommavong",
          receiveQr: qrPng(first),
        })
      ).ok,
    ).toBe(true);
  });
});

describe("the bank page with a picture (multipart, as without JavaScript)", () => {
  async function playerSession() {
    const name = uniqueName("rqp");
    await registerViaForm(name);
    return sessionFrom(await loginViaForm(name, PASSWORD, { ip: `10.62.${++counter % 250}.1` }))!;
  }
  const fields = (number: string) => ({ bankCode: "BCEL", accountNumber: number, accountName: "Somsak Phommavong", currency: "LAK", owner: "SELF" });

  it("refusals say why in the player's language beside the picture, keep the typed fields, and store nothing; a good QR is kept", async () => {
    const cookie = await playerSession();
    const number = accountNumber();
    const merchant = await postBankForm(cookie, fields(number), qrPng(personalLaoQr({ type: "002", receiver: receiver() })));
    expect(merchant.status).toBe(400);
    const html = await shownOf(merchant);
    expect(html).toContain("QR ນີ້ເປັນ QR ຮ້ານຄ້າ");
    expect(html).toMatch(/id="bank-receive-qr"[^>]*aria-invalid="true"/);
    expect(html).toContain(`value="${number}"`);

    const notImage = await postBankForm(cookie, fields(number), new TextEncoder().encode("hello"), "image/png");
    expect(await shownOf(notImage)).toContain("ໄຟລ໌ນີ້ບໍ່ແມ່ນຮູບ PNG ຫຼື JPEG");
    const tooLarge = await postBankForm(cookie, fields(number), new Uint8Array(MAX_QR_IMAGE_BYTES + 10));
    expect(tooLarge.status).toBe(400);
    expect(await shownOf(tooLarge)).toContain("ຮູບໃຫຍ່ເກີນ 2 MB");
    const page = await shownOf(await fetchApp(`${ORIGIN}/player/bank`, { headers: { Cookie: cookie } }));
    expect(page).toContain('data-testid="bank-form"'); // still no account

    // the same refusals in Chinese and Vietnamese
    const cn = await postBankForm(
      `${cookie}; lng=${encodeURIComponent(btoa('"cn"'))}`,
      fields(number),
      qrPng(personalLaoQr({ iin: "32170418", receiver: receiver() })),
    );
    expect(await shownOf(cn)).toContain("该二维码属于其他银行");
    const vn = await postBankForm(
      `${cookie}; lng=${encodeURIComponent(btoa('"vn"'))}`,
      fields(number),
      qrPng(personalLaoQr({ name: "KHAMLA SISOUPHAN", receiver: receiver() })),
    );
    expect(await shownOf(vn)).toContain("Tên trong mã QR không khớp");

    const ok = await postBankForm(cookie, fields(number), qrPng(personalLaoQr({ receiver: receiver() })));
    expect(ok.status).toBe(302);
    const saved = await shownOf(await fetchApp(`${ORIGIN}/player/bank`, { headers: { Cookie: cookie } }));
    expect(saved).toMatch(/data-testid="receive-qr-state" data-kept="yes"/);
  });

  it("a body far over the limit is not read: 413 with the picture's message", async () => {
    const cookie = await playerSession();
    const res = await postBankForm(cookie, fields(accountNumber()), new Uint8Array(MAX_QR_IMAGE_BYTES * 4 + 128 * 1024));
    expect(res.status).toBe(413);
    expect(await shownOf(res)).toContain("ຮູບໃຫຍ່ເກີນ 2 MB");
  });

  it("the url-encoded form without a picture still adds the account, paid as before", async () => {
    const cookie = await playerSession();
    const res = await postForm("/player/bank", fields(accountNumber()), { cookie });
    expect(res.status).toBe(302);
    const page = await shownOf(await fetchApp(`${ORIGIN}/player/bank`, { headers: { Cookie: cookie } }));
    expect(page).toMatch(/data-testid="receive-qr-state" data-kept="no"/);
  });
});

describe("the cashier's withdrawal page and its payout QR", () => {
  /** A player with a receive QR (or none) and a withdrawal above the automatic threshold, waiting for staff. */
  async function waitingWithdrawal(qr: string | null, bankCode = "BCEL") {
    const p = await newPlayer();
    const added = await addBankAccount(env.DB, "demo", p.playerId, {
      bankCode,
      accountNumber: accountNumber(),
      accountName: "Somsak Phommavong",
      receiveQr: qr ? qrPng(qr) : undefined,
    });
    if (!added.ok) throw new Error(added.code);
    const cookie = sessionFrom(await loginViaForm(p.username, PASSWORD, { ip: p.ip }))!;
    await fundProvider("askmebet", p.username, "9000.00");
    expect((await postWithdraw(cookie, { provider: "askmebet", amount: "6000" })).status).toBe(302);
    const wallet = walletOf(env, "demo", p.playerId);
    const [order] = await wallet.openWithdraws();
    return { ...p, code: order.code, receivedLak: order.receivedLak };
  }

  let cashier = "";
  let owner = "";
  beforeAll(async () => {
    const cashierName = `cq${crypto.randomUUID().slice(0, 6)}`;
    const c = await createStaff(env, { agencyId: "demo", username: cashierName, password: "cashier-password-123", role: "cashier" });
    cashier = await staffLogin(env, { username: cashierName, password: "cashier-password-123", totpSecret: c.totpSecret });
    const ownerName = `oq${crypto.randomUUID().slice(0, 6)}`;
    const o = await createStaff(env, { agencyId: "demo", username: ownerName, password: "owner-password-123", role: "owner" });
    owner = await staffLogin(env, { username: ownerName, password: "owner-password-123", totpSecret: o.totpSecret });
  });

  const picture = (code: string, cookie = cashier) =>
    fetchApp(`${ORIGIN}/admin/withdrawals/${code}/payout-qr.png`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

  it("by default the static QR: the picture decodes to the player's own QR, the amount beside it; copy buttons carry number, name and amount", async () => {
    const text = personalLaoQr({ receiver: receiver() });
    const w = await waitingWithdrawal(text);
    const page = await fetchApp(`${ORIGIN}/admin/withdrawals/${w.code}`, { headers: { Cookie: cashier } });
    const html = await shownOf(page);
    expect(html).toMatch(/data-testid="payout-qr" data-mode="static"/);
    expect(html).toContain(`/admin/withdrawals/${w.code}/payout-qr.png`);
    expect(html).toMatch(/data-copy="\d{13}"/);
    expect(html).toContain('data-copy="Somsak Phommavong"');
    expect(html).toContain(`data-copy="${w.receivedLak.replace(/\.0+$/, "")}"`);

    const res = await picture(w.code);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("image/png");
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const decoded = await decodeQrImage(new Uint8Array(await res.arrayBuffer()));
    expect(decoded).toEqual({ ok: true, text });
  });

  it("where an active channel's bank app takes a derived QR for the player's bank: the amount inserted, the channel named; other banks keep the static QR", async () => {
    await seedOwnAccountChannel("demo", "OWN-PAYQR");
    const set = await postForm("/admin/settings/channels", { intent: "payoutQr", code: "OWN-PAYQR", banks: "BCEL" }, { cookie: owner });
    expect(set.status).toBe(302);
    const audit = await env.DB.prepare(
      `SELECT before_json, after_json FROM audit_log WHERE action = 'settings.ownAccount.payoutQr' AND target = 'OWN-PAYQR' ORDER BY id DESC LIMIT 1`,
    ).first<{
      before_json: string;
      after_json: string;
    }>();
    expect(JSON.parse(audit!.before_json)).toEqual({ banks: [] });
    expect(JSON.parse(audit!.after_json)).toEqual({ banks: ["BCEL"] });
    // a cashier cannot change it
    expect((await postForm("/admin/settings/channels", { intent: "payoutQr", code: "OWN-PAYQR", banks: "LDB" }, { cookie: cashier })).status).toBe(403);

    const text = personalLaoQr({ receiver: receiver() });
    const w = await waitingWithdrawal(text);
    const html = await shownOf(await fetchApp(`${ORIGIN}/admin/withdrawals/${w.code}`, { headers: { Cookie: cashier } }));
    expect(html).toMatch(/data-testid="payout-qr" data-mode="derived"/);
    expect(html).toContain("BCEL (own account)");
    const decoded = await decodeQrImage(new Uint8Array(await (await picture(w.code)).arrayBuffer()));
    expect(decoded.ok).toBe(true);
    const derived = decoded.ok ? parseLaoQr(decoded.text) : null;
    const own = parseLaoQr(text);
    expect(own.ok && derived?.ok).toBe(true);
    if (own.ok && derived?.ok) expect(derived.qr).toEqual({ ...own.qr, dynamic: true, amount: w.receivedLak.replace(/\.0+$/, "") });

    const ldb = await waitingWithdrawal(personalLaoQr({ iin: "70030418", receiver: `LDB${crypto.randomUUID().replace(/-/g, "").slice(0, 22)}` }), "LDB");
    expect(await shownOf(await fetchApp(`${ORIGIN}/admin/withdrawals/${ldb.code}`, { headers: { Cookie: cashier } }))).toMatch(/data-mode="static"/);

    // the channel switched off: no channel takes it, the static QR again
    await postForm("/admin/settings/channels", { intent: "active", code: "OWN-PAYQR", active: "0" }, { cookie: owner });
    expect(await shownOf(await fetchApp(`${ORIGIN}/admin/withdrawals/${w.code}`, { headers: { Cookie: cashier } }))).toMatch(/data-mode="static"/);
    // cleared with no box ticked
    await postForm("/admin/settings/channels", { intent: "payoutQr", code: "OWN-PAYQR" }, { cookie: owner });
    expect(await env.DB.prepare(`SELECT payout_qr_banks FROM payment_channels WHERE agency_id = 'demo' AND code = 'OWN-PAYQR'`).first("payout_qr_banks")).toBe(
      "",
    );
  });

  it("no QR: paid as before; no picture for a player without one, for a decided order, or for someone without a staff session", async () => {
    const none = await waitingWithdrawal(null);
    const html = await shownOf(await fetchApp(`${ORIGIN}/admin/withdrawals/${none.code}`, { headers: { Cookie: cashier } }));
    expect(html).toContain('data-testid="payout-qr-none"');
    expect(html).not.toContain("payout-qr.png");
    expect((await picture(none.code)).status).toBe(404);

    const w = await waitingWithdrawal(personalLaoQr({ receiver: receiver() }));
    const stranger = await picture(w.code, "");
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get("Location")).toMatch(/^\/admin\/login/);
    const reject = await postForm(`/admin/withdrawals/${w.code}`, { intent: "reject", reason: "test over" }, { cookie: cashier });
    expect(reject.status).toBe(302);
    const res = await picture(w.code);
    expect(res.status).toBe(404);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await shownOf(await fetchApp(`${ORIGIN}/admin/withdrawals/${w.code}`, { headers: { Cookie: cashier } }))).not.toContain("payout-qr.png");
  });
});
