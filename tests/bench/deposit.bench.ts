import { beforeAll, bench, describe } from "vitest";
import { seedDemo } from "../setup/seed";
import { deliver, nextDelivery, payQr, playerWithBank, postDeposit, qrPayloadOf } from "../setup/money";

/**
 * Deposit settlement inside workerd (Cloudflare pool, local D1 + Durable Objects + the
 * sandbox provider and bank): latency from "webhook received" to "credit at the provider",
 * and settled deposits per second with 50 players depositing at once (200 deposits).
 */
const PLAYERS = 50;
const DEPOSITS_PER_PLAYER = 4;
const latencies: number[] = [];
let wallSeconds = 0;

type Player = Awaited<ReturnType<typeof playerWithBank>>;
let players: Player[] = [];

beforeAll(async () => {
  await seedDemo();
  players = [];
  for (let i = 0; i < PLAYERS; i++) players.push(await playerWithBank());
}, 600_000);

async function oneDeposit(p: Player): Promise<void> {
  await postDeposit(p.cookie, { amount: "60000" });
  const open = await p.wallet.openDepositOrder(Date.now());
  if (!open) throw new Error("no open order");
  await payQr(await qrPayloadOf(p.wallet, open.code));
  const delivery = await nextDelivery({ reference: open.code });
  if (!delivery) throw new Error("no webhook");
  const start = performance.now();
  await deliver(delivery);
  await p.wallet.runDueWork();
  const order = await p.wallet.getDeposit(open.code);
  if (order?.status !== "SUCCESS") throw new Error(`not settled: ${order?.status}`);
  latencies.push(performance.now() - start);
}

describe("deposit settlement", () => {
  bench(
    "latency: 200 deposits one after another",
    async () => {
      latencies.length = 0;
      for (let i = 0; i < PLAYERS * DEPOSITS_PER_PLAYER; i++) await oneDeposit(players[i % PLAYERS]);
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
      console.log(
        `webhook -> credit at provider, one deposit at a time, over ${sorted.length}: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`,
      );
    },
    { iterations: 1, warmupIterations: 0, warmupTime: 0, time: 0 },
  );

  bench(
    `throughput: ${PLAYERS} players x ${DEPOSITS_PER_PLAYER} deposits at once`,
    async () => {
      latencies.length = 0;
      const start = performance.now();
      await Promise.all(
        players.map(async (p) => {
          for (let i = 0; i < DEPOSITS_PER_PLAYER; i++) await oneDeposit(p);
        }),
      );
      wallSeconds = (performance.now() - start) / 1000;
      report();
    },
    { iterations: 1, warmupIterations: 0, warmupTime: 0, time: 0 },
  );

  function report() {
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    console.log(
      `webhook -> credit at provider with ${PLAYERS} players at once, over ${sorted.length}: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`,
    );
    console.log(
      `throughput: ${(sorted.length / wallSeconds).toFixed(1)} deposits settled per second (${PLAYERS} concurrent players, whole flow incl. order and QR)`,
    );
  }
});
