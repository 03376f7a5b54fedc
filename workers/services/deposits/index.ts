/**
 * Deposits: the player's order, its QR, check and cancel, the history, the transfer slip the
 * player adds (decision 087); and the back office's
 * list, detail and retry of a failed settlement.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export { DEPOSIT_FLAGS, getDepositDetail, listDeposits, retryDeposit } from "./admin-deposits";
export {
  cancelDeposit,
  checkDeposit,
  depositHistoryPage,
  depositPage,
  listDepositSummaries,
  openDepositSummaries,
  startDeposit,
  type DepositError,
} from "./deposit";
export { addDepositSlip, depositSlipPage, type SlipError } from "./deposit-slip";
export { depositQrPicture } from "./qr-picture";
