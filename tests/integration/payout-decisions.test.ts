import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo, fetchApp } from "../setup/seed";
import { deliver, fundProvider, nextDelivery, playerWithBank, postWithdraw, sandboxBank } from "../setup/money";
import { postForm } from "../setup/players";
import { createStaff, operatorToken, staffLogin } from "../setup/staff";

/**
 * Decision 010: one payout per withdrawal on every path. Each race is forced in a
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
  const list = (await (await fetchApp("http://localhost/api/v2/players/withdrawals?pageSize=5", { headers: { Cookie: p.cookie } })).json()) as {
    items: { code: string }[];
  };
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

describe("every caller at once", () => {
  it("back-office paid, API approve, API paid and API reject sent together, 6 times: one decision each time, never two payouts", {
    timeout: 120_000,
  }, async () => {
    await bank("/sandbox/faults", { mode: "payout-hold", count: 1000, referencePrefix: "W" });
    const cookie = await cashierSession();
    for (let round = 0; round < 6; round++) {
      const w = await openWithdrawal("6000");
      const answers = await Promise.all([
        postForm(`/admin/withdrawals/${w.code}`, { intent: "paid", bankReference: `BCEL-R${round}` }, { cookie }),
        operatorApi(w.code, "approve", {}),
        operatorApi(w.code, "paid", { bankReference: `API-R${round}` }),
        operatorApi(w.code, "reject", { reason: "race" }),
      ]);
      const accepted = answers.filter((r) => r.status === 200 || r.status === 302);
      expect(accepted).toHaveLength(1);
      for (const r of answers) expect([200, 302, 409]).toContain(r.status);
      await w.wallet.runDueWork(Date.now() + 60_000);
      const order = (await w.wallet.getWithdraw(w.code))!;
      const payouts = await bankPayouts(w.code);
      if (order.review === "APPROVED") {
        expect(payouts).toHaveLength(1); // the gateway's, and nothing by hand
        expect(order.status).toBe("OPEN");
      } else {
        expect(payouts).toHaveLength(0);
        expect(["SUCCESS", "REJECTED"]).toContain(order.status);
      }
    }
  });
});

describe("operator API tokens", () => {
  it("rotate: the old value stops at once, the new one works; revoke: refused; every use and change audited", async () => {
    const { createApiToken, rotateApiToken, revokeApiToken } = await import("../../workers/services/staff");
    const who = { agencyId: "demo", staffId: null, staffUsername: "boss", ip: "local", userAgent: null };
    const { token: first, apiToken } = await createApiToken(env.DB, who, "ledger-sync");
    const stored = await env.DB.prepare(`SELECT token_hash, hint FROM api_tokens WHERE id = ?1`)
      .bind(apiToken.id)
      .first<{ token_hash: string; hint: string }>();
    expect(stored!.token_hash).not.toContain(first.slice(4)); // only the hash is kept
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.startsWith(stored!.hint)).toBe(true);

    const w = await openWithdrawal("6000");
    const call = (token: string) =>
      fetchApp(`http://localhost/api/staff/withdrawals/${w.code}/approve`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: "{}",
      });
    const rotated = await rotateApiToken(env.DB, who, apiToken.id);
    if (!rotated.ok) throw new Error("rotate failed");
    expect((await call(first)).status).toBe(401);
    expect((await call(rotated.token)).status).toBe(200);
    expect((await call(rotated.token)).status).toBe(200); // a repeat: duplicate, still one decision
    expect(await revokeApiToken(env.DB, who, apiToken.id)).toMatchObject({ ok: true });
    expect((await call(rotated.token)).status).toBe(401);
    expect(await rotateApiToken(env.DB, who, apiToken.id)).toMatchObject({ ok: false, code: "REVOKED" });

    const audit = (
      await env.DB.prepare(`SELECT action, staff_username, after_json FROM audit_log WHERE target IN (?1, ?2) ORDER BY id`)
        .bind(`api-token:${apiToken.id}`, `withdrawal:${w.code}`)
        .all<{ action: string; staff_username: string; after_json: string }>()
    ).results;
    expect(audit.map((r) => r.action)).toEqual([
      "api-token.created",
      "api-token.rotated",
      "api.withdrawal.approve",
      "api.withdrawal.approve",
      "api-token.revoked",
    ]);
    expect(audit.filter((r) => r.action === "api.withdrawal.approve").map((r) => JSON.parse(r.after_json).result)).toEqual(["applied", "duplicate"]);
    expect(audit.find((r) => r.action === "api.withdrawal.approve")!.staff_username).toBe("api-token:ledger-sync");
    // the value never reaches the audit log
    expect(JSON.stringify(audit)).not.toContain(first);
    expect(JSON.stringify(audit)).not.toContain(rotated.token);
  });

  it("the token page is the owner's: a cashier gets 403; the owner creates, sees it once, revokes through a confirm step", async () => {
    const cashier = await cashierSession();
    expect((await fetchApp("http://localhost/admin/api-tokens", { headers: { Cookie: cashier } })).status).toBe(403);
    expect((await postForm("/admin/api-tokens", { intent: "create", name: "x" }, { cookie: cashier })).status).toBe(403);
    const username = `own${crypto.randomUUID().slice(0, 6)}`;
    const owner = await createStaff(env, { agencyId: "demo", username, password: "owner-password-123", role: "owner" });
    const cookie = await staffLogin(env, { username, password: "owner-password-123", totpSecret: owner.totpSecret });
    expect((await postForm("/admin/api-tokens", { intent: "create", name: "" }, { cookie })).status).toBe(400);
    const created = await postForm("/admin/api-tokens", { intent: "create", name: "bank-bot" }, { cookie });
    expect(created.status).toBe(200);
    expect(created.headers.get("Cache-Control")).toBe("private, no-store");
    const token = /data-testid="api-token-value" value="(apt_[^"]+)"|value="(apt_[^"]+)"[^>]*data-testid="api-token-value"/.exec(await created.text());
    const value = token?.[1] ?? token?.[2];
    expect(value).toMatch(/^apt_[A-Za-z0-9_-]{43}$/);
    const list = await (await fetchApp("http://localhost/admin/api-tokens", { headers: { Cookie: cookie } })).text();
    expect(list).toContain("bank-bot");
    expect(list).not.toContain(value!); // shown once
    const id = (await env.DB.prepare(`SELECT id FROM api_tokens WHERE name = 'bank-bot' AND agency_id = 'demo'`).first<{ id: string }>())!.id;
    const confirm = await (await fetchApp(`http://localhost/admin/api-tokens?revoke=${id}`, { headers: { Cookie: cookie } })).text();
    expect(confirm).toContain('data-testid="api-token-confirm"');
    const revoked = await postForm("/admin/api-tokens", { intent: "revoke", tokenId: id }, { cookie });
    expect(revoked.status).toBe(302);
    expect((await env.DB.prepare(`SELECT revoked_by FROM api_tokens WHERE id = ?1`).bind(id).first<{ revoked_by: string }>())!.revoked_by).toBe(username);
  });
});
