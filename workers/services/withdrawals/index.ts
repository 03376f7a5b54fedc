/**
 * Withdrawals: the player's review and confirmation, the history; and the back office's queue of
 * withdrawals above the automatic payout and staff's decision on each.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export { payoutQrPicture } from "./payout-qr";
export { decideWithdrawal, listManualQueue, withdrawalPage, type StaffDecision } from "./withdraw-review";
export {
  confirmWithdraw,
  listWithdrawSummaries,
  openWithdrawSummaries,
  reviewWithdraw,
  withdrawHistoryPage,
  withdrawPage,
  type WithdrawError,
  type WithdrawInput,
} from "./withdraw";
