import { listWalletsWithOpenOrders } from "../../db/orders";
import { walletOf } from "./wallet";

/**
 * Unprojected orders are looked for among references this recent. A wallet projects a new
 * order within seconds of its reference; one that lost its alarm before that gets 12 runs of
 * this cron to be woken. Each reference of the window costs a read on every run, so the window
 * is an hour, not the week it was (decision 075): a large agency's week of references, read
 * every 5 minutes, was most of the job's rows read.
 */
const UNPROJECTED_LOOKBACK_MS = 60 * 60_000;
/** Wallets woken at once by one cron run (each call is one Durable Object request). */
const REARM_CONCURRENCY = 10;

/**
 * The wallets that may have due work, from D1: non-final orders in the read models, plus
 * references whose order was never projected (a wallet that lost its alarm before the
 * first projection is only in deposit_refs / withdraw_refs).
 */
async function walletsWithDueWork(db: D1Database, now: number = Date.now()): Promise<{ agencyId: string; playerId: string }[]> {
  const since = new Date(now - UNPROJECTED_LOOKBACK_MS).toISOString();
  return listWalletsWithOpenOrders(db, since);
}

/**
 * The cron's safety net (decision 012): every wallet with due work arms its alarm again from
 * its own state, so no order depends on one alarm surviving. A wallet with nothing due
 * arms nothing; one failing wallet does not stop the others.
 */
export async function rearmWallets(env: Env, now: number = Date.now()): Promise<{ wallets: number; armed: number; failed: number }> {
  const wallets = await walletsWithDueWork(env.DB, now);
  let armed = 0;
  let failed = 0;
  for (let i = 0; i < wallets.length; i += REARM_CONCURRENCY) {
    const batch = wallets.slice(i, i + REARM_CONCURRENCY);
    const outcomes = await Promise.allSettled(batch.map((w) => walletOf(env, w.agencyId, w.playerId).rearm()));
    for (const o of outcomes) {
      if (o.status === "rejected") failed++;
      else if (o.value !== null) armed++;
    }
  }
  if (failed > 0) console.warn(JSON.stringify({ event: "wallet.rearm", wallets: wallets.length, armed, failed }));
  return { wallets: wallets.length, armed, failed };
}
