import { beforeAll, bench, describe } from "vitest";
import { seedDemo } from "../setup/seed";
import { deliver, fundProvider, nextDelivery, playerWithBank, postWithdraw, sandboxBank } from "../setup/money";

/**
 * Withdrawals inside workerd (local D1, Durable Objects, sandbox provider and bank):
 * confirm -> OPEN (the POST that takes the credit at the provider) and OPEN -> SUCCESS with
 * an automatic payout (payout request, the bank's callback, the wallet applying it; the
 * sandbox bank's own processing time set to 0).
 */
const PLAYERS = 20;
const PER_PLAYER = 5;
const confirmMs: number[] = [];
const payoutMs: number[] = [];
type Player = Awaited<ReturnType<typeof playerWithBank>>;
let players: Player[] = [];

beforeAll(async () => {
  await seedDemo();
  await sandboxBank("/sandbox/payouts/config", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ processingMs: 0 }) });
  players = [];
  for (let i = 0; i < PLAYERS; i++) {
    const p = await playerWithBank();
    await fundProvider("askmebet", p.username, "100000.00");
    players.push(p);
  }
}, 600_000);

function pct(values: number[], q: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function oneWithdrawal(p: Player) {
  const t0 = performance.now();
  const res = await postWithdraw(p.cookie, { amount: "100" });
  if (res.status !== 302) throw new Error(`confirm failed: ${res.status}`);
  confirmMs.push(performance.now() - t0);
  const open = (await p.wallet.openWithdraws())[0];
  if (!open || open.status !== "OPEN") throw new Error(`not OPEN: ${open?.status}`);
  const t1 = performance.now();
  for (let i = 0; i < 50; i++) {
    await p.wallet.runDueWork(Date.now() + 10 * 60_000);
    const d = await nextDelivery({ reference: open.code });
    if (d) await deliver(d);
    if ((await p.wallet.getWithdraw(open.code))?.status === "SUCCESS") break;
  }
  if ((await p.wallet.getWithdraw(open.code))?.status !== "SUCCESS") throw new Error("payout not settled");
  payoutMs.push(performance.now() - t1);
}

describe("withdrawals", () => {
  bench(
    `${PLAYERS} players x ${PER_PLAYER} withdrawals`,
    async () => {
      confirmMs.length = 0; // tinybench may call a task more than once: report each run alone
      payoutMs.length = 0;
      await Promise.all(
        players.map(async (p) => {
          for (let i = 0; i < PER_PLAYER; i++) await oneWithdrawal(p);
        }),
      );
      console.log(`confirm -> OPEN over ${confirmMs.length}: p50 ${pct(confirmMs, 0.5).toFixed(1)} ms, p95 ${pct(confirmMs, 0.95).toFixed(1)} ms`);
      console.log(`OPEN -> SUCCESS (auto payout) over ${payoutMs.length}: p50 ${pct(payoutMs, 0.5).toFixed(1)} ms, p95 ${pct(payoutMs, 0.95).toFixed(1)} ms`);
    },
    { iterations: 1, warmupIterations: 0, warmupTime: 0, time: 0 },
  );
});
