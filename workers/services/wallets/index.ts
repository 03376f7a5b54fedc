/**
 * A player's wallet as the services reach it: the PlayerWallet Durable Object's stub
 * (workers/wallet), the credit rate, the notices of settled orders, the cron's wake-ups, and the
 * responsible-gaming guards that read the wallet's deposits, the breaks and the time played.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export {
  breakInForce,
  depositGuardReads,
  depositLimitGuard,
  depositsUsed,
  gameLaunchGuard,
  offersPaused,
  playTimeLine,
  settingOf,
  type Limits,
} from "./limits-guard";
export { rearmWallets } from "./wakeups";
export { creditRate, rateOf, takeOrderNotices, walletOf } from "./wallet";
