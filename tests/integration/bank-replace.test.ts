import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { fundProvider, playerWithBank, postWithdraw } from "../setup/money";
import { PASSWORD, postForm } from "../setup/players";
import { decideWithdrawal } from "../../workers/services/withdrawals";

beforeAll(seedDemo);

/** Decision 013: a player replaces a bank account that was never paid to; staff replace older ones. */

let n = 0;
const freshNumber = () => `0101${String(Date.now()).slice(-6)}${String(++n).padStart(3, "0")}`;

const account = (playerId: string) =>
  env.DB.prepare(`SELECT bank_code, account_number, account_name FROM bank_accounts WHERE agency_id = 'demo' AND player_id = ?1`)
    .bind(playerId)
    .first<{ bank_code: string; account_number: string; account_name: string }>();

const audits = (playerId: string) =>
  env.DB.prepare(
    `SELECT staff_id, staff_username, action, before_json, after_json FROM audit_log WHERE agency_id = 'demo' AND target = ?1 AND action = 'player.bank-replace' ORDER BY id`,
  )
    .bind(playerId)
    .all<{ staff_id: string | null; staff_username: string; action: string; before_json: string; after_json: string }>();

function replace(cookie: string, fields: { accountNumber: string; accountName?: string; currentPassword?: string; bankCode?: string }) {
  return postForm(
    "/player/bank",
    {
      intent: "replace",
      bankCode: fields.bankCode ?? "BCEL",
      accountNumber: fields.accountNumber,
      accountName: fields.accountName ?? "New Name",
      currency: "LAK",
      owner: "SELF",
      currentPassword: fields.currentPassword ?? PASSWORD,
    },
    { cookie },
  );
}

async function openManualWithdrawal(p: Awaited<ReturnType<typeof playerWithBank>>) {
  // above the automatic payout threshold (5,000 credit): the order stays OPEN for staff
  await fundProvider("betflix", p.username, "7000.00");
  expect((await postWithdraw(p.cookie, { provider: "betflix", amount: "6000" })).status).toBe(302);
  const [order] = (await p.wallet.openWithdraws()) as { code: string; status: string; review: string; accountNumber: string }[];
  expect(order).toMatchObject({ status: "OPEN", review: "MANUAL" });
  return order;
}

describe("a player replaces their bank account", () => {
  it("is allowed while no withdrawal was paid to it, with the current password; audited as the player", async () => {
    const p = await playerWithBank();
    const before = (await account(p.playerId))!;
    const page = await (await fetchApp("http://localhost/player/bank", { headers: { Cookie: p.cookie } })).text();
    expect(page).toContain('data-testid="bank-replace-form"');
    const number = freshNumber();
    const res = await replace(p.cookie, { accountNumber: number, accountName: "ສົມ\u200Bໃຈ" });
    expect(res.status).toBe(302);
    expect(await account(p.playerId)).toEqual({ bank_code: "BCEL", account_number: number, account_name: "ສົມໃຈ" });
    const { results } = await audits(p.playerId);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ staff_id: null, staff_username: `player:${p.username}` });
    expect(JSON.parse(results[0].before_json)).toMatchObject({ accountNumber: before.account_number });
    expect(JSON.parse(results[0].after_json)).toMatchObject({ accountNumber: number, paidBefore: false });
  });

  it("is refused with a wrong password (nothing changes, nothing audited)", async () => {
    const p = await playerWithBank();
    const before = await account(p.playerId);
    const res = await replace(p.cookie, { accountNumber: freshNumber(), currentPassword: "not-the-password" });
    expect(res.status).toBe(400);
    expect(await shownOf(res)).toContain("ລະຫັດຜ່ານບໍ່ຖືກຕ້ອງ");
    expect(await account(p.playerId)).toEqual(before);
    expect((await audits(p.playerId)).results).toHaveLength(0);
  });

  it("is refused while a withdrawal is open; the open order keeps the account it was confirmed with", async () => {
    const p = await playerWithBank();
    const before = (await account(p.playerId))!;
    const order = await openManualWithdrawal(p);
    const page = await (await fetchApp("http://localhost/player/bank", { headers: { Cookie: p.cookie } })).text();
    expect(page).toContain('data-reason="withdrawal-open"');
    const res = await replace(p.cookie, { accountNumber: freshNumber() });
    expect(res.status).toBe(409);
    expect(await shownOf(res)).toContain("ມີລາຍການຖອນເງິນທີ່ກຳລັງດຳເນີນການຢູ່");
    expect(await account(p.playerId)).toEqual(before);
    expect(order.accountNumber).toBe(before.account_number);
  });

  it("is refused after a payout to the account (staff only); staff then replace it, audited", async () => {
    const p = await playerWithBank();
    const before = (await account(p.playerId))!;
    const order = await openManualWithdrawal(p);
    // staff pay it by hand (the back office's decision path)
    const who = { via: "back-office" as const, agencyId: "demo", staffId: null, staffUsername: "test-staff", ip: "local", userAgent: null };
    expect(await decideWithdrawal(env, "demo", order.code, { action: "paid", bankReference: "BCEL-REPLACE-1" }, who)).toMatchObject({
      ok: true,
      order: { status: "SUCCESS" },
    });
    const page = await (await fetchApp("http://localhost/player/bank", { headers: { Cookie: p.cookie } })).text();
    expect(page).toContain('data-reason="staff-only"');
    const res = await replace(p.cookie, { accountNumber: freshNumber() });
    expect(res.status).toBe(409);
    expect(await shownOf(res)).toContain("ບັນຊີນີ້ເຄີຍໄດ້ຮັບເງິນຖອນແລ້ວ");
    expect(await account(p.playerId)).toEqual(before);

    // staff (owner) in the back office: review, then confirm
    const { createStaff, staffLogin } = await import("../setup/staff");
    const password = "a-long-staff-password-1";
    const owner = await createStaff(env, { agencyId: "demo", username: `bo${Date.now().toString(36).slice(-6)}`, password, role: "owner" });
    const username = (await env.DB.prepare(`SELECT username FROM staff WHERE id = ?1`).bind(owner.id).first<{ username: string }>())!.username;
    const cookie = await staffLogin(env, { username, password, totpSecret: owner.totpSecret });
    const number = freshNumber();
    const here = `/admin/players/${p.playerId}`;
    const fields = { bankCode: "LDB", accountNumber: number, accountName: "Staff Typed" };
    const review = await postForm(here, { intent: "bank-replace-review", ...fields }, { cookie });
    expect(review.status).toBe(200);
    expect(await review.text()).toContain('data-testid="bank-replace-confirm"');
    expect(await account(p.playerId)).toEqual(before); // nothing until confirmed
    const confirm = await postForm(here, { intent: "bank-replace-confirm", ...fields }, { cookie });
    expect(confirm.status).toBe(302);
    expect(await account(p.playerId)).toEqual({ bank_code: "LDB", account_number: number, account_name: "Staff Typed" });
    const { results } = await audits(p.playerId);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ staff_id: owner.id, staff_username: username });
    expect(JSON.parse(results[0].after_json)).toMatchObject({ paidBefore: true });
  });

  it("keeps ACCOUNT_IN_USED: the new number of another player is refused", async () => {
    const a = await playerWithBank();
    const b = await playerWithBank();
    const before = await account(a.playerId);
    const taken = (await account(b.playerId))!.account_number;
    const res = await replace(a.cookie, { accountNumber: taken });
    expect(res.status).toBe(409);
    expect(await shownOf(res)).toContain("ບັນຊີນີ້ຖືກໃຊ້ໃນລະບົບແລ້ວ");
    expect(await account(a.playerId)).toEqual(before);
  });

  it("applies the name rule to the new account name", async () => {
    const p = await playerWithBank();
    const res = await replace(p.cookie, { accountNumber: freshNumber(), accountName: "ab\u0000cd" });
    expect(res.status).toBe(400);
    expect(await shownOf(res)).toContain("ຕົວອັກສອນຄວບຄຸມ");
  });

  it("a cashier cannot replace an account (owners only)", async () => {
    const p = await playerWithBank();
    const { createStaff, staffLogin } = await import("../setup/staff");
    const password = "a-long-staff-password-1";
    const username = `bc${Date.now().toString(36).slice(-6)}`;
    const cashier = await createStaff(env, { agencyId: "demo", username, password, role: "cashier" });
    const cookie = await staffLogin(env, { username, password, totpSecret: cashier.totpSecret });
    const res = await postForm(
      `/admin/players/${p.playerId}`,
      { intent: "bank-replace-confirm", bankCode: "BCEL", accountNumber: freshNumber(), accountName: "X Y" },
      { cookie },
    );
    expect(res.status).toBe(403);
    expect((await audits(p.playerId)).results).toHaveLength(0);
  });
});
