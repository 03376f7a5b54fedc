import { listWalletsToReproject, markUnownedRows } from "../../db/reports";
import { walletOf } from "../wallets";

/** Wallets re-projected by one run of the scheduled job. */
const WALLETS_PER_RUN = 200;
/** Wallets called at once (each call is one Durable Object request that writes D1). */
const CONCURRENCY = 10;

/**
 * The backfill of the reports' read-model columns (migration 0022, decision 019): every
 * wallet that owns rows written before the migration (projection_version 0) copies all its
 * orders and usages to D1 again (PlayerWallet.reproject), which writes the new columns and
 * version 1. Run by the `scheduled` handler (workers/app.ts) every cron tick until nothing is
 * left; resumable by construction: what is left to do is the rows still at version 0, so an
 * interrupted run loses nothing and a repeat changes nothing. Wallets are picked in random
 * order, so one that keeps failing cannot hold the others back. A wallet whose copy completed
 * leaves no row at version 0 except rows it does not own, which are set to -1.
 */
export async function backfillReadModels(env: Env, limit: number = WALLETS_PER_RUN): Promise<{ wallets: number; done: number; failed: number }> {
  const wallets = await listWalletsToReproject(env.DB, limit);
  let done = 0;
  let failed = 0;
  for (let i = 0; i < wallets.length; i += CONCURRENCY) {
    const batch = wallets.slice(i, i + CONCURRENCY);
    const outcomes = await Promise.allSettled(
      batch.map(async ({ agencyId, playerId }) => {
        const result = await walletOf(env, agencyId, playerId).reproject();
        if (result.remaining > 0) throw new Error(`${result.remaining} rows not copied`);
        await markUnownedRows(env.DB, agencyId, playerId);
      }),
    );
    for (const o of outcomes) {
      if (o.status === "fulfilled") done++;
      else failed++;
    }
  }
  if (wallets.length > 0) console.log(JSON.stringify({ event: "reports.backfill", wallets: wallets.length, done, failed }));
  return { wallets: wallets.length, done, failed };
}
