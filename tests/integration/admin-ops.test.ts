import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { fetchApp, seedDemo, shownOf } from "../setup/seed";
import { addAgency, loginViaForm, PASSWORD, postForm, sessionFrom } from "../setup/players";
import { openOrder, payQr, playerWithBank, postDeposit, providerBalance, pumpDeliveries, qrPayloadOf, sandboxProvider, signedWebhook } from "../setup/money";
import type { AuditActor } from "../../workers/db/audit";
import { firstListPage } from "../../workers/core/keyset";
import { getDepositDetail, listDeposits, retryDeposit } from "../../workers/services/deposits";
import { getUnmatched, listUnmatched, previewManualCredit, resolveAsRefunded, resolveWithCredit } from "../../workers/services/bank-in";
import {
  endPlayerSessions,
  getPlayerDetail,
  lockPlayer,
  recordFingerprint,
  resetPlayerPassword,
  searchPlayers,
  sharedFingerprints,
  unlockPlayer,
} from "../../workers/services/players";
import { findAgencyByHost, type Agency } from "../../workers/services/agency";

beforeAll(async () => {
  await seedDemo();
  await addAgency("other", "other.localhost");
});

const staffA: AuditActor = { agencyId: "demo", staffId: "staff-a", staffUsername: "cashier-a", ip: "10.200.0.1", userAgent: "vitest" };
const staffB: AuditActor = { agencyId: "other", staffId: "staff-b", staffUsername: "cashier-b", ip: "10.200.0.2", userAgent: "vitest" };

async function demoAgency(): Promise<Agency> {
  return (await findAgencyByHost(env.DB, "localhost"))!;
}

async function faults(body: object | null) {
  if (body === null) return sandboxProvider("/sandbox/faults", { method: "DELETE" });
  return sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
}

async function auditRows(action: string, target: string) {
  const { results } = await env.DB.prepare(`SELECT * FROM audit_log WHERE action = ?1 AND target = ?2 ORDER BY id`).bind(action, target).all<{
    agency_id: string;
    staff_id: string;
    staff_username: string;
    before_json: string | null;
    after_json: string | null;
    ip: string | null;
    user_agent: string | null;
  }>();
  return results;
}

/** A paid deposit whose settlement the provider refused: FAILED, the kip owed to the player. */
async function failedDeposit(provider: string) {
  const p = await playerWithBank();
  await postDeposit(p.cookie, { amount: "60000", provider });
  const order = (await openOrder(p.cookie))!;
  await payQr(await qrPayloadOf(p.wallet, order.code));
  await faults({ provider, op: "deposit", mode: "refuse", count: 1, username: `demo_${p.username}` });
  try {
    await pumpDeliveries();
    await p.wallet.runDueWork();
  } finally {
    await faults(null);
  }
  expect((await p.wallet.getDeposit(order.code))!.status).toBe("FAILED");
  return { ...p, code: order.code };
}

describe("deposits: list, detail, retry of a FAILED settlement", () => {
  it("two presses at once retry once; the provider applied the retry but answered an error: credited exactly once", async () => {
    const p = await failedDeposit("gclub_live");
    // the order code is recorded FAILED at the provider for good: the retry needs a reference of its own
    await faults({ provider: "gclub_live", op: "deposit", mode: "error-after", count: 1, username: `demo_${p.username}` });
    let answers: Awaited<ReturnType<typeof retryDeposit>>[];
    try {
      answers = await Promise.all([retryDeposit(env, staffA, p.code, 0), retryDeposit(env, staffA, p.code, 0)]);
    } finally {
      await faults(null);
    }
    const kinds = answers.map((a) => a.kind).sort();
    expect(kinds.filter((k) => k === "retried")).toHaveLength(1);
    expect(kinds.filter((k) => k === "retried" || k === "already-applied")).toHaveLength(1);
    // applied, but the answer was an error: PAID until the status query says so (or already SUCCESS if the alarm asked)
    expect(["PAID", "SUCCESS"]).toContain((await p.wallet.getDeposit(p.code))!.status);
    // a third press of the same form (it still says 0 retries) does nothing
    expect((await retryDeposit(env, staffA, p.code, 0)).kind).toMatch(/not-failed|stale/);
    await p.wallet.runDueWork(Date.now() + 60_000);
    await p.wallet.runDueWork(Date.now() + 120_000);
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("gclub_live", p.username)).toBe("100.00");
    const ledger = await p.wallet.ledgerFor(p.code);
    expect(ledger.filter((l) => l.entry === "credited" && l.account === "provider:gclub_live")).toHaveLength(1);
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    // every press is in the audit log with who, where and the wallet's before/after
    const audit = await auditRows("deposit.retry", p.code);
    expect(audit).toHaveLength(3);
    expect(audit[0]).toMatchObject({ agency_id: "demo", staff_id: "staff-a", staff_username: "cashier-a", ip: "10.200.0.1", user_agent: "vitest" });
    expect(JSON.parse(audit[0]!.before_json!)).toMatchObject({ status: "FAILED" });
    const outcomes = audit.map((a) => JSON.parse(a.after_json!).outcome);
    expect(outcomes.filter((o: string) => o === "retried")).toHaveLength(1);
    expect(JSON.parse(audit.find((a) => JSON.parse(a.after_json!).outcome === "retried")!.after_json!).reference).toBe(`${p.code}-1`);
  });

  it("a retry the provider refuses again stays FAILED; the next press (count moved on) can retry again, under the next reference", async () => {
    const p = await failedDeposit("alphabet");
    await faults({ provider: "alphabet", op: "deposit", mode: "refuse", count: 1, username: `demo_${p.username}` });
    try {
      expect((await retryDeposit(env, staffA, p.code, 0)).kind).toBe("retried");
    } finally {
      await faults(null);
    }
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("FAILED");
    expect((await getDepositDetail(env, "demo", p.code))!.retries).toBe(1);
    expect((await retryDeposit(env, staffA, p.code, 0)).kind).toBe("stale");
    const second = await retryDeposit(env, staffA, p.code, 1);
    expect(second.kind).toBe("retried");
    expect(second.order!.status).toBe("SUCCESS");
    expect(await providerBalance("alphabet", p.username)).toBe("100.00");
  });

  it("provider unreachable when pressed: nothing changes and the press can be repeated", async () => {
    const p = await failedDeposit("askmebet");
    await faults({ provider: "askmebet", op: "status", mode: "error-before", count: 5, username: `demo_${p.username}` });
    try {
      expect((await retryDeposit(env, staffA, p.code, 0)).kind).toBe("unavailable");
    } finally {
      await faults(null);
    }
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("FAILED");
    expect((await retryDeposit(env, staffA, p.code, 0)).kind).toBe("retried");
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("SUCCESS");
  });

  it("lists and filters the agency's deposits; staff of another agency see nothing of them", async () => {
    const p = await failedDeposit("betflix");
    await p.wallet.runDueWork();
    const byUser = await listDeposits(env.DB, "demo", { username: p.username }, firstListPage(10));
    expect(byUser.items.map((i) => i.code)).toEqual([p.code]);
    expect(byUser.items[0]).toMatchObject({ username: p.username, status: "FAILED", provider: "betflix", amount: "60000.00" });
    expect((await listDeposits(env.DB, "demo", { username: p.username, status: "SUCCESS" }, firstListPage(10))).total.count).toBe(0);
    expect((await listDeposits(env.DB, "demo", { username: p.username, flag: "PROVIDER_*" }, firstListPage(10))).total.count).toBe(1);
    expect((await listDeposits(env.DB, "demo", { code: p.code.slice(0, 9), username: p.username }, firstListPage(10))).total.count).toBe(1);
    const today = new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
    expect((await listDeposits(env.DB, "demo", { username: p.username, from: today, to: today }, firstListPage(10))).total.count).toBe(1);
    expect((await listDeposits(env.DB, "demo", { username: p.username, to: "2020-01-01" }, firstListPage(10))).total.count).toBe(0);
    // agency B: not in its list, no detail, no retry
    expect((await listDeposits(env.DB, "other", {}, firstListPage(50))).items.map((i) => i.code)).not.toContain(p.code);
    expect(await getDepositDetail(env, "other", p.code)).toBeNull();
    expect((await retryDeposit(env, staffB, p.code, 0)).kind).toBe("not-found");
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("FAILED");
  });
});

describe("payments with no matching order: resolved by hand, once", () => {
  it("an unknown reference is recorded by the webhook; five presses at once credit one player once", async () => {
    const p = await playerWithBank();
    const reference = `ZZ${Date.now()}`;
    const res = await signedWebhook({
      event: "payment.succeeded",
      reference,
      transactionId: `TU${Date.now()}`,
      amount: "120000",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    });
    expect(res.status).toBe(200); // kept for staff: the gateway must not retry it
    const list = await listUnmatched(env.DB, "demo", { ask: firstListPage(50) });
    const payment = list.items.find((i) => i.reference === reference)!;
    expect(payment).toMatchObject({ kind: "UNKNOWN_REFERENCE", amount: "120000.00", status: "OPEN" });
    expect((await listUnmatched(env.DB, "other", { ask: firstListPage(50) })).items.find((i) => i.reference === reference)).toBeUndefined();

    const agency = await demoAgency();
    const preview = await previewManualCredit(env, agency, payment.id, { username: p.username, provider: "askmebet" });
    expect(preview.ok && preview.preview).toMatchObject({ amount: "120000.00", credit: "200.00", manualCode: `U${payment.id}M` });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => resolveWithCredit(env, agency, staffA, payment.id, { username: p.username, provider: "askmebet" })),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok && a.error === "ALREADY_RESOLVED")).toHaveLength(4);
    const done = answers.find((a) => a.ok)!;
    expect(done.ok && done.order).toMatchObject({ code: `U${payment.id}M`, status: "SUCCESS", credit: "200.00", amount: "120000.00" });
    expect(await providerBalance("askmebet", p.username)).toBe("200.00");
    expect(await getUnmatched(env.DB, "demo", payment.id)).toMatchObject({
      status: "CREDITED",
      resolvedUsername: p.username,
      resolvedProvider: "askmebet",
      credit: "200.00",
    });
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
    // later presses, or a refund after the credit, change nothing
    expect(await resolveWithCredit(env, agency, staffA, payment.id, { username: p.username, provider: "askmebet" })).toMatchObject({
      ok: false,
      error: "ALREADY_RESOLVED",
    });
    expect(await resolveAsRefunded(env, staffA, payment.id, "too late")).toMatchObject({ ok: false, error: "ALREADY_RESOLVED" });
    expect(await providerBalance("askmebet", p.username)).toBe("200.00");
    expect(await auditRows("payment.credit", payment.id)).toHaveLength(1);
    expect(await auditRows("payment.credited", payment.id)).toHaveLength(1);
    expect(await auditRows("payment.refunded", payment.id)).toHaveLength(0);
    // staff of agency B cannot touch it
    const other = (await findAgencyByHost(env.DB, "other.localhost"))!;
    expect(await resolveWithCredit(env, other, staffB, payment.id, { username: p.username, provider: "askmebet" })).toMatchObject({
      ok: false,
      error: "NOT_FOUND",
    });
  });

  it("a payment for an expired order is flagged late; refunded outside the system once, the owed kip released", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    await p.wallet.openDepositOrder(Date.now() + 16 * 60_000); // expires
    const late = await signedWebhook({
      event: "payment.succeeded",
      reference: order.code,
      transactionId: `TL${Date.now()}`,
      amount: "60000.00",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    });
    expect(late.status).toBe(200);
    const payment = (await listUnmatched(env.DB, "demo", { ask: firstListPage(50) })).items.find((i) => i.reference === order.code)!;
    expect(payment).toMatchObject({ kind: "LATE_PAYMENT", amount: "60000.00", orderUsername: p.username });
    expect(await resolveAsRefunded(env, staffA, payment.id, "  ")).toMatchObject({ ok: false, error: "NOTE_REQUIRED" });
    const answers = await Promise.all(Array.from({ length: 3 }, () => resolveAsRefunded(env, staffA, payment.id, "returned by BCEL transfer 123")));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(await getUnmatched(env.DB, "demo", payment.id)).toMatchObject({
      status: "REFUNDED",
      note: "returned by BCEL transfer 123",
      resolvedBy: "cashier-a",
    });
    expect((await p.wallet.ledgerFor(order.code)).map((l) => l.entry)).toEqual(["late-paid", "late-paid", "late-refunded", "late-refunded"]);
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0" });
    const audit = await auditRows("payment.refunded", payment.id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({ status: "REFUNDED", note: "returned by BCEL transfer 123" });
  });

  it("a wrong amount is credited by hand to another player at today's sell rate", async () => {
    const owner = await playerWithBank();
    const friend = await playerWithBank();
    await postDeposit(owner.cookie, { amount: "60000" });
    const order = (await openOrder(owner.cookie))!;
    const mismatch = await signedWebhook({
      event: "payment.succeeded",
      reference: order.code,
      transactionId: `TM${Date.now()}`,
      amount: "6000",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    });
    expect(mismatch.status).toBe(200); // kept for staff: the gateway must not retry it
    const payment = (await listUnmatched(env.DB, "demo", { ask: firstListPage(50) })).items.find((i) => i.reference === order.code)!;
    expect(payment).toMatchObject({ kind: "AMOUNT_MISMATCH", amount: "6000.00", status: "OPEN" });
    const agency = await demoAgency();
    expect(await resolveWithCredit(env, agency, staffA, payment.id, { username: "nobody-here", provider: "betflix" })).toMatchObject({
      ok: false,
      error: "PLAYER_NOT_FOUND",
    });
    expect(await resolveWithCredit(env, agency, staffA, payment.id, { username: friend.username, provider: "nope" })).toMatchObject({
      ok: false,
      error: "PROVIDER_REQUIRED",
    });
    const done = await resolveWithCredit(env, agency, staffA, payment.id, { username: friend.username, provider: "betflix" });
    expect(done.ok && done.order).toMatchObject({ code: `${order.code}M`, status: "SUCCESS", credit: "10.00" });
    expect(await providerBalance("betflix", friend.username)).toBe("10.00");
    expect(await providerBalance("betflix", owner.username)).toBe("0.00");
    // the friend's history and the back office's deposit list show the manual order
    await friend.wallet.runDueWork();
    const listed = await listDeposits(env.DB, "demo", { code: `${order.code}M` }, firstListPage(10));
    expect(listed.items[0]).toMatchObject({ username: friend.username, status: "SUCCESS", amount: "6000.00", credit: "10.00" });
    expect((await getDepositDetail(env, "demo", `${order.code}M`))!.order).toMatchObject({ channelCode: "MANUAL", provider: "betflix" });
  });
});

describe("payments: two payments for one order", () => {
  it("a wrong amount, then the same order paid again after it expired: two rows, two manual codes, both creditable", async () => {
    const p = await playerWithBank();
    await postDeposit(p.cookie, { amount: "60000" });
    const order = (await openOrder(p.cookie))!;
    expect(
      (
        await signedWebhook({
          event: "payment.succeeded",
          reference: order.code,
          transactionId: `TW1${Date.now()}`,
          amount: "6000",
          currency: "LAK",
          paidAt: new Date().toISOString(),
        })
      ).status,
    ).toBe(200);
    await p.wallet.openDepositOrder(Date.now() + 16 * 60_000); // expires
    expect(
      (
        await signedWebhook({
          event: "payment.succeeded",
          reference: order.code,
          transactionId: `TW2${Date.now()}`,
          amount: "60000",
          currency: "LAK",
          paidAt: new Date().toISOString(),
        })
      ).status,
    ).toBe(200);
    const rows = (await listUnmatched(env.DB, "demo", { ask: firstListPage(50) })).items.filter((i) => i.reference === order.code);
    expect(rows.map((r) => r.kind).sort()).toEqual(["AMOUNT_MISMATCH", "LATE_PAYMENT"]);
    const agency = await demoAgency();
    const results = [];
    for (const row of rows) results.push(await resolveWithCredit(env, agency, staffA, row.id, { username: p.username, provider: "gclub_live" }));
    const codes = results.map((r) => (r.ok ? r.order.code : r.error));
    expect(new Set(codes).size).toBe(2);
    expect(codes).toContain(`${order.code}M`);
    expect(results.every((r) => r.ok && r.order.status === "SUCCESS")).toBe(true);
    expect(await providerBalance("gclub_live", p.username)).toBe("110.00"); // 10 + 100
    expect(await p.wallet.ledgerTotals()).toEqual({ LAK: "0", THB: "0" });
  });
});

describe("payments: a claim whose request died", () => {
  it("is finished by a later press after a minute, once, without a second credit", async () => {
    const p = await playerWithBank();
    const reference = `XX${Date.now()}`;
    await signedWebhook({
      event: "payment.succeeded",
      reference,
      transactionId: `TX${Date.now()}`,
      amount: "60000",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    });
    const payment = (await listUnmatched(env.DB, "demo", { ask: firstListPage(50) })).items.find((i) => i.reference === reference)!;
    // the claim was written (player, provider, credit, rate) but the wallet was never called
    await env.DB.prepare(
      `UPDATE unmatched_payments SET status = 'RESOLVING', resolved_player_id = ?1, resolved_provider = 'gclub', credit = '100.00', rate_sell = '600.000000', manual_code = ?2, resolved_by = 'cashier-a', claimed_at = ?3 WHERE id = ?4`,
    )
      .bind(p.playerId, `U${payment.id}M`, Date.now() - 5_000, payment.id)
      .run();
    const agency = await demoAgency();
    // too soon: someone may still be at it
    expect(await resolveWithCredit(env, agency, staffA, payment.id, { username: p.username, provider: "gclub" })).toMatchObject({
      ok: false,
      error: "ALREADY_RESOLVED",
    });
    await env.DB.prepare(`UPDATE unmatched_payments SET claimed_at = ?1 WHERE id = ?2`)
      .bind(Date.now() - 120_000, payment.id)
      .run();
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => resolveWithCredit(env, agency, staffA, payment.id, { username: p.username, provider: "gclub" })),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(await providerBalance("gclub", p.username)).toBe("100.00");
    expect(await getUnmatched(env.DB, "demo", payment.id)).toMatchObject({ status: "CREDITED" });
  });
});

describe("players: search, view, lock, sessions, reset", () => {
  it("finds a player by username, phone or bank account number, only within the agency", async () => {
    const p = await playerWithBank();
    const detail = await getPlayerDetail(env.DB, "demo", p.playerId);
    const number = detail!.bankAccounts[0]!.accountNumber;
    expect((await searchPlayers(env.DB, "demo", p.username.toUpperCase(), firstListPage(10))).items.map((i) => i.id)).toContain(p.playerId);
    // a number is found whole or by its start, through an index (decision 077), its spaces ignored
    expect((await searchPlayers(env.DB, "demo", number, firstListPage(10))).items.map((i) => i.id)).toEqual([p.playerId]);
    expect((await searchPlayers(env.DB, "demo", `${number.slice(0, 4)} ${number.slice(4)}`, firstListPage(10))).items.map((i) => i.id)).toEqual([p.playerId]);
    expect((await searchPlayers(env.DB, "demo", "%", firstListPage(10))).total.count).toBe(0);
    expect((await searchPlayers(env.DB, "other", p.username, firstListPage(10))).total.count).toBe(0);
    expect(detail!.sessions.length).toBe(1);
    expect(await getPlayerDetail(env.DB, "other", p.playerId)).toBeNull();
  });

  it("lock ends every session and the login says the account is locked; unlock lets them in again", async () => {
    const p = await playerWithBank();
    expect((await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie } })).status).toBe(200);
    // staff of agency B cannot lock a player of agency A
    expect(await lockPlayer(env.DB, staffB, p.playerId, "x")).toEqual({ ok: false, error: "NOT_FOUND" });
    const locked = await Promise.all([lockPlayer(env.DB, staffA, p.playerId, "chargeback"), lockPlayer(env.DB, staffA, p.playerId, "chargeback")]);
    expect(locked.filter((l) => l.ok && l.changed)).toHaveLength(1);
    expect(await auditRows("player.lock", p.playerId)).toHaveLength(1);
    const after = await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie }, redirect: "manual" });
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toContain("/login");
    const login = await loginViaForm(p.username, PASSWORD, { ip: "10.201.0.1" });
    expect(login.status).toBe(401);
    expect(await login.text()).toContain("<li>ບັນຊີນີ້ຖືກລັອກ");
    expect(sessionFrom(login)).toBeNull();
    // a wrong password on a locked account says nothing about the lock
    const wrong = await loginViaForm(p.username, "wrong-password-1", { ip: "10.201.0.2" });
    expect(await wrong.text()).not.toContain("<li>ບັນຊີນີ້ຖືກລັອກ");
    const api = await fetchApp("http://localhost/api/v2/players/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost", "CF-Connecting-IP": "10.201.0.3" },
      body: JSON.stringify({ username: p.username, password: PASSWORD }),
    });
    expect(api.status).toBe(403);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("ACCOUNT_LOCKED");

    const unlocked = await unlockPlayer(env.DB, staffA, p.playerId);
    expect(unlocked.ok && unlocked.changed).toBe(true);
    expect(sessionFrom(await loginViaForm(p.username, PASSWORD, { ip: "10.201.0.4" }))).not.toBeNull();
    const audit = await auditRows("player.unlock", p.playerId);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.before_json!)).toMatchObject({ status: "SUSPENDED", lockedReason: "chargeback" });
  });

  it("end sessions logs the player out everywhere", async () => {
    const p = await playerWithBank();
    const second = sessionFrom(await loginViaForm(p.username, PASSWORD, { ip: "10.202.0.1" }))!;
    const ended = await endPlayerSessions(env.DB, staffA, p.playerId);
    expect(ended.ok && ended.ended).toBe(2);
    for (const cookie of [p.cookie, second]) {
      expect((await fetchApp("http://localhost/player/deposit", { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(302);
    }
    expect(JSON.parse((await auditRows("player.end-sessions", p.playerId))[0]!.before_json!)).toMatchObject({ sessions: 2 });
  });

  it("reset password: sessions end, the temporary password logs in, every player page leads to the new-password form until one is set", async () => {
    const p = await playerWithBank();
    const reset = await resetPlayerPassword(env.DB, staffA, p.playerId);
    expect(reset.ok).toBe(true);
    const temp = reset.ok ? reset.temporaryPassword : "";
    expect(temp).toMatch(/^[a-z2-9]{10}$/);
    expect((await fetchApp("http://localhost/player/deposit", { headers: { Cookie: p.cookie }, redirect: "manual" })).headers.get("Location")).toContain(
      "/login",
    );
    expect(sessionFrom(await loginViaForm(p.username, PASSWORD, { ip: "10.203.0.1" }))).toBeNull(); // the old password is gone
    const cookie = sessionFrom(await loginViaForm(p.username, temp, { ip: "10.203.0.2" }))!;
    expect(cookie).toBeTruthy();
    for (const path of ["/player/deposit", "/player/withdraw", "/player/bank", "/player/sessions"]) {
      const res = await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toBe("/player/password");
    }
    // a client navigation (JavaScript) asks for the .data of the same page: no redirect loop
    const asData = await fetchApp("http://localhost/player/password.data", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(asData.status).toBe(200);
    expect(asData.headers.get("X-Remix-Redirect")).toBeNull();
    const dataOfDeposit = await fetchApp("http://localhost/player/deposit.data", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(dataOfDeposit.headers.get("X-Remix-Redirect") ?? dataOfDeposit.headers.get("Location") ?? (await dataOfDeposit.text())).toContain(
      "/player/password",
    );
    // the JSON API is no way around it: money and data calls refuse until a new password is set
    for (const path of [
      "/api/v2/players/deposits",
      "/api/v2/players/withdrawals",
      "/api/v2/players/credits/askmebet",
      "/api/v2/promotions",
      "/v2/promotions/current",
    ]) {
      const res = await fetchApp(`http://localhost${path}`, { headers: { Cookie: cookie } });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe("PASSWORD_CHANGE_REQUIRED");
    }
    const page = await (await fetchApp("http://localhost/player/password", { headers: { Cookie: cookie } })).text();
    expect(page).toContain('data-testid="forced-password-form"');
    expect(page).not.toContain('name="currentPassword"');
    // the temporary password cannot be kept; mismatched confirmation refused
    const same = await postForm("/player/password", { intent: "forced", newPassword: temp, confirmNewPassword: temp }, { cookie });
    expect(same.status).toBe(400);
    const mismatch = await postForm(
      "/player/password",
      { intent: "forced", newPassword: "brand-new-pass-1", confirmNewPassword: "brand-new-pass-2" },
      { cookie },
    );
    expect(mismatch.status).toBe(400);
    const set = await postForm("/player/password", { intent: "forced", newPassword: "brand-new-pass-1", confirmNewPassword: "brand-new-pass-1" }, { cookie });
    expect(set.status).toBe(302);
    expect(set.headers.get("Location")).toBe("/player/deposit");
    expect((await fetchApp("http://localhost/player/deposit", { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(200);
    expect((await fetchApp("http://localhost/api/v2/players/deposits", { headers: { Cookie: cookie } })).status).toBe(200);
    expect(sessionFrom(await loginViaForm(p.username, "brand-new-pass-1", { ip: "10.203.0.3" }))).not.toBeNull();
    const row = await env.DB.prepare(`SELECT must_change_password FROM players WHERE id = ?1`).bind(p.playerId).first<{ must_change_password: number }>();
    expect(row!.must_change_password).toBe(0);
    // the audit row never holds the password
    const audit = await auditRows("player.reset-password", p.playerId);
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(temp);
    expect(await resetPlayerPassword(env.DB, staffB, p.playerId)).toEqual({ ok: false, error: "NOT_FOUND" });
  });
});

describe("fingerprint report", () => {
  it("lists devices shared by two or more players of the same agency, not across agencies", async () => {
    const a = await playerWithBank();
    const b = await playerWithBank();
    const c = await playerWithBank();
    const shared = `fp-shared-${Date.now()}`;
    await recordFingerprint(env.DB, "demo", a.playerId, shared, {});
    await recordFingerprint(env.DB, "demo", b.playerId, shared, {});
    await recordFingerprint(env.DB, "demo", c.playerId, `fp-alone-${Date.now()}`, {});
    const report = await sharedFingerprints(env.DB, "demo", firstListPage(50));
    const item = report.items.find((i) => i.fingerprint === shared)!;
    expect(item.players).toBe(2);
    expect(item.accounts.map((x) => x.username).sort()).toEqual([a.username, b.username].sort());
    expect(report.items.some((i) => i.fingerprint.startsWith("fp-alone"))).toBe(false);
    expect((await sharedFingerprints(env.DB, "other", firstListPage(50))).items.find((i) => i.fingerprint === shared)).toBeUndefined();
    expect((await getPlayerDetail(env.DB, "demo", a.playerId))!.fingerprints.find((f) => f.fingerprint === shared)!.sharedWith).toBe(1);
  });
});

describe("back-office routes: staff only, scoped to their agency, audited", () => {
  it("a cashier of agency A uses every page; agency B's staff get 404; a player session reaches none", async () => {
    const { createStaff, staffLogin } = await import("../setup/staff");
    const password = "a-long-staff-password-1";
    const a = await createStaff(env, { agencyId: "demo", username: "ops-cashier-a", password, role: "cashier" });
    const b = await createStaff(env, { agencyId: "other", username: "ops-cashier-b", password, role: "cashier" });
    const cookieA = await staffLogin(env, { username: "ops-cashier-a", password, totpSecret: a.totpSecret });
    const cookieB = await staffLogin(env, { host: "other.localhost", username: "ops-cashier-b", password, totpSecret: b.totpSecret });
    const f = await failedDeposit("gclub");
    await f.wallet.runDueWork();
    const get = (path: string, cookie: string, host = "localhost") => fetchApp(`http://${host}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

    for (const path of [
      "/admin/deposits",
      `/admin/deposits/${f.code}`,
      "/admin/payments",
      "/admin/players",
      `/admin/players/${f.playerId}`,
      "/admin/fingerprints",
    ]) {
      const res = await get(path, cookieA);
      expect(res.status, path).toBe(200);
      // a player's session is no staff session
      const asPlayer = await get(path, f.cookie);
      expect(asPlayer.status, path).toBe(302);
      expect(asPlayer.headers.get("Location"), path).toContain("/admin/login");
    }
    const list = await (await get(`/admin/deposits?username=${f.username}`, cookieA)).text();
    expect(list).toContain(f.code);
    const search = await (await get(`/admin/players?q=${f.username}`, cookieA)).text();
    expect(search).toContain(`/admin/players/${f.playerId}`);

    // agency B: the same ids are not found, and its lists do not show them
    expect((await get(`/admin/deposits/${f.code}`, cookieB, "other.localhost")).status).toBe(404);
    expect((await get(`/admin/players/${f.playerId}`, cookieB, "other.localhost")).status).toBe(404);
    expect(await (await get(`/admin/players?q=${f.username}`, cookieB, "other.localhost")).text()).not.toContain(f.playerId);
    const lockB = await postForm(`/admin/players/${f.playerId}`, { intent: "lock", reason: "not yours" }, { cookie: cookieB, host: "other.localhost" });
    expect(lockB.status).toBe(404);
    const retryB = await postForm(`/admin/deposits/${f.code}`, { intent: "retry", retries: "0" }, { cookie: cookieB, host: "other.localhost" });
    expect(retryB.status).toBe(404);
    expect((await f.wallet.getDeposit(f.code))!.status).toBe("FAILED");
    expect(await auditRows("player.lock", f.playerId)).toHaveLength(0);
    // a staff cookie of agency A means nothing at agency B's host
    expect((await get("/admin/players", cookieA, "other.localhost")).status).toBe(302);

    // the confirm step, then the retry through the form, audited with who and where
    const confirm = await (await get(`/admin/deposits/${f.code}?confirm=retry`, cookieA)).text();
    expect(confirm).toContain('data-testid="retry-confirm"');
    const retry = await postForm(`/admin/deposits/${f.code}`, { intent: "retry", retries: "0" }, { cookie: cookieA, ip: "10.210.0.9" });
    expect(retry.status).toBe(302);
    expect((await f.wallet.getDeposit(f.code))!.status).toBe("SUCCESS");
    const audit = await auditRows("deposit.retry", f.code);
    expect(audit.at(-1)).toMatchObject({ staff_username: "ops-cashier-a", ip: "10.210.0.9" });

    // lock and reset through the forms
    const lock = await postForm(`/admin/players/${f.playerId}`, { intent: "lock", reason: "suspicious" }, { cookie: cookieA });
    expect(lock.status).toBe(302);
    expect((await get("/player/deposit", f.cookie)).status).toBe(302);
    const emptyReason = await postForm(`/admin/players/${f.playerId}`, { intent: "unlock" }, { cookie: cookieA });
    expect(emptyReason.status).toBe(302);
    const reset = await postForm(`/admin/players/${f.playerId}`, { intent: "reset-password" }, { cookie: cookieA });
    expect(reset.status).toBe(200);
    const html = await reset.text();
    const temp = /data-testid="temporary-password">([a-z2-9]{10})</.exec(html)?.[1];
    expect(temp).toBeTruthy();
    expect(sessionFrom(await loginViaForm(f.username, temp!, { ip: "10.210.0.10" }))).not.toBeNull();
    expect((await auditRows("player.reset-password", f.playerId))[0]).toMatchObject({ staff_username: "ops-cashier-a" });
  });

  it("the unmatched payment page: review, then confirm, credits once", async () => {
    const { createStaff, staffLogin } = await import("../setup/staff");
    const password = "a-long-staff-password-2";
    const s = await createStaff(env, { agencyId: "demo", username: "ops-cashier-c", password, role: "cashier" });
    const cookie = await staffLogin(env, { username: "ops-cashier-c", password, totpSecret: s.totpSecret });
    const p = await playerWithBank();
    const reference = `YY${Date.now()}`;
    await signedWebhook({
      event: "payment.succeeded",
      reference,
      transactionId: `TY${Date.now()}`,
      amount: "60000",
      currency: "LAK",
      paidAt: new Date().toISOString(),
    });
    const payment = (await listUnmatched(env.DB, "demo", { ask: firstListPage(50) })).items.find((i) => i.reference === reference)!;
    const page = await (await fetchApp(`http://localhost/admin/payments?id=${payment.id}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain('data-testid="credit-form"');
    const unknown = await postForm(
      `/admin/payments?id=${payment.id}`,
      { intent: "credit-review", id: payment.id, username: "nosuchplayer", provider: "alphabet" },
      { cookie },
    );
    expect(unknown.status).toBe(409);
    expect(await shownOf(unknown)).toContain("ບໍ່ພົບຜູ້ຫຼິ້ນນີ້ໃນເອເຈນຊີ");
    const review = await postForm(
      `/admin/payments?id=${payment.id}`,
      { intent: "credit-review", id: payment.id, username: p.username, provider: "alphabet" },
      { cookie },
    );
    expect(review.status).toBe(200);
    expect(await review.text()).toContain('data-testid="credit-confirm"');
    expect(await providerBalance("alphabet", p.username)).toBe("0.00"); // the review changes nothing
    const [one, two] = await Promise.all([
      postForm(`/admin/payments?id=${payment.id}`, { intent: "credit", id: payment.id, username: p.username, provider: "alphabet" }, { cookie }),
      postForm(`/admin/payments?id=${payment.id}`, { intent: "credit", id: payment.id, username: p.username, provider: "alphabet" }, { cookie }),
    ]);
    expect([one.status, two.status]).toEqual([302, 302]);
    expect(await providerBalance("alphabet", p.username)).toBe("100.00");
    expect(await getUnmatched(env.DB, "demo", payment.id)).toMatchObject({ status: "CREDITED", resolvedBy: "ops-cashier-c" });
  });
});
