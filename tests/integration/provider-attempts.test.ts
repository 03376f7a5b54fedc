import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedDemo } from "../setup/seed";
import { openOrder, payQr, playerWithBank, postDeposit, providerBalance, pumpDeliveries, qrPayloadOf, sandboxProvider } from "../setup/money";
import { loadDashboard } from "../../workers/services/reports";

/**
 * Decision 049: a provider that does not answer shows on the dashboard.
 * Every provider call of a wallet's sagas is stored in D1 (provider_attempts) through the
 * wallet's projection; the dashboard reads the deposits waiting for a provider and each
 * provider's timeouts and errors of the last 15 minutes. The sandbox provider's faults
 * (docs/sandbox-provider.md) make the outage: `error-before` answers 500, `slow` answers after
 * the portal's 5 s timeout. Faults are scoped to the test's player, so other files running at
 * the same time are not hit.
 */

beforeAll(seedDemo);

const faults = (body: object) => sandboxProvider("/sandbox/faults", { method: "POST", body: JSON.stringify(body) });
let cleanup: string[] = [];
afterEach(async () => {
  for (const username of cleanup) await sandboxProvider(`/sandbox/faults?username=${encodeURIComponent(username)}`, { method: "DELETE" });
  cleanup = [];
});

type AttemptRow = { provider: string; order_code: string; reference: string; op: string; outcome: string; error_code: string | null; at: string };
const attemptsOf = async (orderCode: string) =>
  (
    await env.DB.prepare(`SELECT provider, order_code, reference, op, outcome, error_code, at FROM provider_attempts WHERE order_code = ?1 ORDER BY at, seq`)
      .bind(orderCode)
      .all<AttemptRow>()
  ).results;

async function until<T>(probe: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A paid deposit of a fresh player whose calls to `provider` fail as `fault` says (set before the payment: the wallet's own alarm settles at once). */
async function paidDepositWithFault(provider: string, fault: Record<string, unknown>) {
  const p = await playerWithBank();
  const user = `demo_${p.username}`;
  cleanup.push(user);
  await faults({ provider, username: user, ...fault });
  await postDeposit(p.cookie, { amount: "60000", provider });
  const order = (await openOrder(p.cookie))!;
  await payQr(await qrPayloadOf(p.wallet, order.code));
  await pumpDeliveries();
  return { ...p, user, code: order.code };
}

describe("provider attempts are stored and the dashboard shows an outage", () => {
  it("a provider answering 500: the deposit stays PAID, each attempt is in D1 as an error, the dashboard shows it waiting and the provider's errors", async () => {
    const p = await paidDepositWithFault("alphabet", { op: "*", mode: "error-before" });
    let t = Date.now();
    for (let i = 0; i < 4; i++) {
      await p.wallet.runDueWork(t);
      t += 10 * 60_000;
    }
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("PAID");
    // each attempt: the status query of the earlier one (the sandbox recorded nothing: NOT_FOUND, an
    // answer, so "ok"), then the transfer again (500: an error); every one stored once
    const rows = await attemptsOf(p.code);
    const transfers = rows.filter((r) => r.op === "transfer_in");
    expect(transfers.length).toBe((await p.wallet.getDeposit(p.code))!.attempts);
    expect(transfers.length).toBeGreaterThanOrEqual(4);
    for (const r of transfers)
      expect(r).toMatchObject({ provider: "alphabet", order_code: p.code, reference: p.code, outcome: "error", error_code: "HTTP_500" });
    expect(rows.filter((r) => r.op === "status").every((r) => r.outcome === "ok")).toBe(true);

    const dash = await loadDashboard(env.DB, "demo", Date.now() + 60_000);
    expect(dash.waitingDeposits.count).toBeGreaterThanOrEqual(1);
    expect(dash.waitingDeposits.oldestMinutes).toBeGreaterThanOrEqual(1);
    const alphabet = dash.providerFailures.find((f) => f.provider === "alphabet")!;
    expect(alphabet.errors).toBeGreaterThanOrEqual(transfers.length);
    expect(alphabet.lastFailureAt).toBeTruthy();

    // the provider comes back: the order settles and the success is stored too
    await sandboxProvider(`/sandbox/faults?username=${encodeURIComponent(p.user)}`, { method: "DELETE" });
    await p.wallet.runDueWork(t);
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("alphabet", p.username)).toBe("100.00");
    const after = await attemptsOf(p.code);
    expect(after.at(-1)).toMatchObject({ outcome: "ok", error_code: null });
    // failures older than 15 minutes no longer count; the order no longer waits
    const later = await loadDashboard(env.DB, "demo", Date.now() + 16 * 60_000);
    expect(later.providerFailures.find((f) => f.provider === "alphabet")?.errors ?? 0).toBe(0);
  }, 60_000);

  it("a provider too slow to answer: stored as a timeout, then the status query finds the credit applied (once)", async () => {
    const p = await paidDepositWithFault("gclub_live", { op: "deposit", mode: "slow", delayMs: 6000, count: 1 });
    // the wallet's own alarm runs the first attempt when the order is paid: 5 s until the timeout
    // (its status query may run a second later, while the first call still waits: the outcome is
    // then known before the first call gives up)
    const timedOut = await until(async () => (await attemptsOf(p.code)).find((r) => r.op === "transfer_in") ?? null, 20_000);
    expect(timedOut).toMatchObject({ provider: "gclub_live", outcome: "timeout", error_code: "TIMEOUT" });
    const dash = await loadDashboard(env.DB, "demo");
    expect(dash.providerFailures.find((f) => f.provider === "gclub_live")!.timeouts).toBeGreaterThanOrEqual(1);
    await p.wallet.runDueWork(Date.now() + 60_000);
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("SUCCESS");
    expect(await providerBalance("gclub_live", p.username)).toBe("100.00");
    expect((await attemptsOf(p.code)).filter((r) => r.op === "status")).toEqual([expect.objectContaining({ outcome: "ok" })]);
  }, 60_000);

  it("a refusal is stored with the provider's code and is not an outage", async () => {
    const p = await paidDepositWithFault("gclub", { op: "deposit", mode: "refuse", count: 1 });
    await p.wallet.runDueWork();
    expect((await p.wallet.getDeposit(p.code))!.status).toBe("FAILED");
    expect(await attemptsOf(p.code)).toEqual([expect.objectContaining({ op: "transfer_in", outcome: "refused", error_code: "REFUSED" })]);
  }, 60_000);

  it("the cron keeps the table bounded: rows older than the retention are pruned, recent ones kept", async () => {
    const { pruneProviderAttempts } = await import("../../workers/services/providers");
    const old = new Date(Date.now() - 8 * 86400_000).toISOString();
    const recent = new Date().toISOString();
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO provider_attempts (agency_id, player_id, seq, provider, order_code, reference, op, outcome, at) VALUES ('demo', 'prune-p', 1, 'askmebet', 'DOLD', 'DOLD', 'transfer_in', 'error', ?1)`,
      ).bind(old),
      env.DB.prepare(
        `INSERT INTO provider_attempts (agency_id, player_id, seq, provider, order_code, reference, op, outcome, at) VALUES ('demo', 'prune-p', 2, 'askmebet', 'DNEW', 'DNEW', 'transfer_in', 'error', ?1)`,
      ).bind(recent),
    ]);
    await pruneProviderAttempts(env.DB, Date.now());
    const left = await env.DB.prepare(`SELECT order_code FROM provider_attempts WHERE player_id = 'prune-p'`).all<{ order_code: string }>();
    expect(left.results.map((r) => r.order_code)).toEqual(["DNEW"]);
  });
});

describe("many attempts at once", () => {
  it("10 players' deposits during an outage: every attempt stored once (no duplicate on a re-sent copy), each order still PAID then settled", async () => {
    // made one after another (the test helper's account numbers are drawn per call), run at once
    const players = [];
    for (let i = 0; i < 10; i++) players.push(await paidDepositWithFault("betflix", { op: "*", mode: "error-before" }));
    await Promise.all(players.map((p) => p.wallet.runDueWork(Date.now() + 60_000)));
    for (const p of players) {
      expect((await p.wallet.getDeposit(p.code))!.status).toBe("PAID");
      // every settlement attempt sent one transfer (the status query finds nothing recorded): stored once each
      const rows = await attemptsOf(p.code);
      const transfers = rows.filter((r) => r.op === "transfer_in");
      expect(transfers.length).toBe((await p.wallet.getDeposit(p.code))!.attempts);
      expect(transfers.every((r) => r.outcome === "error" && r.error_code === "HTTP_500")).toBe(true);
    }
    for (const p of players) await sandboxProvider(`/sandbox/faults?username=${encodeURIComponent(p.user)}`, { method: "DELETE" });
    await Promise.all(players.map((p) => p.wallet.runDueWork(Date.now() + 30 * 60_000)));
    for (const p of players) expect((await p.wallet.getDeposit(p.code))!.status).toBe("SUCCESS");
  }, 120_000);
});
