import type { WalletContext } from "./context";
import { expireStaleDeposits } from "./deposit-expiry";
import { reconcileOpenDeposits } from "./deposits";
import { projectChanges } from "./projection";
import { creditDueBonuses, settleDueDeposits } from "./settlement";
import { settleDueRewards } from "./rewards";
import { advanceDueWithdrawals } from "./withdrawals";

/**
 * The alarm's work, in order: lapse expired deposits, settle paid ones, look up open ones'
 * payments, credit bonuses, advance withdrawals, credit rewards, copy changes to D1; then the alarm is
 * armed again for whatever the state says is due next.
 */
export async function runDueWork(w: WalletContext, now: number): Promise<void> {
  expireStaleDeposits(w, now);
  await settleDueDeposits(w, now);
  await reconcileOpenDeposits(w, now);
  await creditDueBonuses(w, now);
  await advanceDueWithdrawals(w, now);
  await settleDueRewards(w, now);
  await projectChanges(w);
  w.alarm.rearmFromState(Date.now());
}
