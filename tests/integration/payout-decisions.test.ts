import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo, fetchApp } from "../setup/seed";
import { deliver, fundProvider, nextDelivery, playerWithBank, postWithdraw, sandboxBank } from "../setup/money";
import { postForm } from "../setup/players";
import { createStaff, operatorToken, staffLogin } from "../setup/staff";

/**
 * Issue 12 finding 1: one payout per withdrawal on every path. Each race is forced in a
 * fixed order: the sandbox bank holds payouts (payout-hold) so "the gateway is paying it"
 * is a state the test controls, and the wallet's due work is run by hand.
 */

beforeAll(seedDemo);

let TOKEN = "";
beforeAll(async () => {
  TOKEN = await operatorToken(env, "demo");
});

async function operatorApi(code: string, op: string, body: object) {
  return fetchApp(`http://localhost/api/staff/withdrawals/${code}/${op}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(body),
  });
}

async function bank(path: string, body?: object, method = "POST") {
  const res = await sandboxBank(path, { method, headers: { "Content-Type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
  if (!res.ok) throw new Error(`bank ${path}: ${res.status} ${await res.text()}`);
  return res;
}

async function bankPayouts(reference: string) {
  const res = await sandboxBank(`/sandbox/payouts?reference=${reference}`);
  return ((await res.json()) as { data: { reference: string; status: string }[] }).data;
}

/** A confirmed withdrawal (credit taken, OPEN) of `credit` at askmebet; 5,000 is the automatic threshold. */
async function openWithdrawal(credit: string) {
  const p = await playerWithBank();
  await fundProvider("askmebet", p.username, "9000.00");
  const res = await postWithdraw(p.cookie, { provider: "askmebet", amount: credit });
  expect(res.status).toBe(302);
  const list = (await (await fetchApp("http://localhost/api/v2/players/withdrawals?pageSize=5", { headers: { Cookie: p.cookie } })).json()) as { items: { code: string }[] };
  const code = list.items[0].code;
  return { ...p, code };
}

/** The bank pays the held payout; its callback reaches the portal. */
async function bankPays(code: string) {
  await bank(`/sandbox/payouts/${code}/complete`, { outcome: "PAID" });
  for (let d = await nextDelivery({ reference: code }); d; d = await nextDelivery({ reference: code })) await deliver(d);
}

/** A cashier of the demo agency with a full back-office session. */
async function cashierSession() {
  const username = `pay${crypto.randomUUID().slice(0, 6)}`;
  const password = "cashier-password-123";
  const staff = await createStaff(env, { agencyId: "demo", username, password, role: "cashier" });
  return staffLogin(env, { username, password, totpSecret: staff.totpSecret });
}

afterEach(async () => {
  await sandboxBank("/sandbox/faults", { method: "DELETE" });
});

describe("one payout per withdrawal", () => {
  it("automatic withdrawal: operator API 'paid' while the gateway pays it is refused (409 with the order's state); paid once", async () => {
    await bank("/sandbox/faults", { mode: "payout-hold", count: 1000, referencePrefix: "W" });
    const w = await openWithdrawal("100");
    await w.wallet.runDueWork(); // the wallet asks the bank for the payout (held: PROCESSING)
    expect(await bankPayouts(w.code)).toMatchObject([{ status: "PROCESSING" }]);

    const res = await operatorApi(w.code, "paid", { bankReference: "BCEL-HAND-1" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { order: { status: string } }).order).toMatchObject({ status: "OPEN" });

    await bankPays(w.code);
    const order = await w.wallet.getWithdraw(w.code);
    expect(order).toMatchObject({ status: "SUCCESS" });
    expect(await bankPayouts(w.code)).toMatchObject([{ status: "PAID" }]);
    expect(await w.wallet.ledgerTotals()).toEqual({ THB: "0", LAK: "0" });
    // one paid-out entry: the bank's payout, not a manual one beside it
    expect((await w.wallet.ledgerFor(w.code)).filter((l) => l.entry === "paid-out")).toHaveLength(4);
  });

  it("manual withdrawal: API 'approve', the gateway starts paying, then API 'paid' is refused (409); paid once", async () => {
    await bank("/sandbox/faults", { mode: "payout-hold", count: 1000, referencePrefix: "W" });
    const w = await openWithdrawal("6000");
    expect((await operatorApi(w.code, "approve", {})).status).toBe(200);
    await w.wallet.runDueWork(); // approved: the wallet requests the payout
    expect(await bankPayouts(w.code)).toMatchObject([{ status: "PROCESSING" }]);

    const paid = await operatorApi(w.code, "paid", { bankReference: "BCEL-HAND-2" });
    expect(paid.status).toBe(409);
    expect(await w.wallet.getWithdraw(w.code)).toMatchObject({ status: "OPEN" });

    await bankPays(w.code);
    expect(await w.wallet.getWithdraw(w.code)).toMatchObject({ status: "SUCCESS" });
    expect(await bankPayouts(w.code)).toMatchObject([{ status: "PAID" }]);
  });

  it("API 'approve' then 'reject': the reject is refused with 409 and the order's state, never 200", async () => {
    await bank("/sandbox/faults", { mode: "payout-hold", count: 1000, referencePrefix: "W" });
    const w = await openWithdrawal("6000");
    expect((await operatorApi(w.code, "approve", {})).status).toBe(200);
    await w.wallet.runDueWork();
    const res = await operatorApi(w.code, "reject", { reason: "KYC" });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string }; order: { status: string; review: string } };
    expect(body.order).toMatchObject({ status: "OPEN", review: "APPROVED" });
    await bankPays(w.code);
    expect(await w.wallet.getWithdraw(w.code)).toMatchObject({ status: "SUCCESS", reason: null });
  });

  it("back-office 'paid' first, then API 'approve': the approve is refused (409), no payout requested", async () => {
    const cookie = await cashierSession();
    const w = await openWithdrawal("6000");
    const page = await postForm(`/admin/withdrawals/${w.code}`, { intent: "paid", bankReference: "BCEL-PAGE-1" }, { cookie });
    expect(page.status).toBe(302);
    const approve = await operatorApi(w.code, "approve", {});
    expect(approve.status).toBe(409);
    await w.wallet.runDueWork(Date.now() + 60_000);
    expect(await bankPayouts(w.code)).toEqual([]);
    expect(await w.wallet.getWithdraw(w.code)).toMatchObject({ status: "SUCCESS" });
  });

  it("API 'approve' first, then back-office 'paid': the page refuses, the gateway alone pays", async () => {
    await bank("/sandbox/faults", { mode: "payout-hold", count: 1000, referencePrefix: "W" });
    const cookie = await cashierSession();
    const w = await openWithdrawal("6000");
    expect((await operatorApi(w.code, "approve", {})).status).toBe(200);
    const page = await postForm(`/admin/withdrawals/${w.code}`, { intent: "paid", bankReference: "BCEL-PAGE-2" }, { cookie });
    expect(page.status).toBe(409);
    await w.wallet.runDueWork();
    await bankPays(w.code);
    expect(await bankPayouts(w.code)).toMatchObject([{ status: "PAID" }]);
    expect(await w.wallet.getWithdraw(w.code)).toMatchObject({ status: "SUCCESS" });
  });
});
