import type { WalletContext } from "./context";
import { markDepositForProjection } from "./projection";

/**
 * OPEN deposit orders past their expiry are cancelled (flag EXPIRED) before anything reads
 * or judges the wallet's orders, so a command never sees an order that lapsed.
 */
export function expireStaleDeposits(w: WalletContext, now: number): void {
  for (const code of w.store.expiredOpenDepositCodes(now)) {
    w.store.transitionDeposit(code, "OPEN", "CANCELED", { flag: "EXPIRED" });
    markDepositForProjection(w, code);
  }
}
