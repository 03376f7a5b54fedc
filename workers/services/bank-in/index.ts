/**
 * Money arriving: the payment gateway's webhook, and the own accounts' bank reports (staff's
 * mark paid, statements, the forwarder) kept and turned into transfers (decision 069) with their
 * witnesses; open deposits, the queue of payments no order claimed, and reconciliation.
 * The folder's only door: code outside it imports from here, and only what is exported here.
 */
export {
  getUnmatched,
  listUnmatched,
  previewManualCredit,
  resolveAsRefunded,
  resolveWithCredit,
  UNMATCHED_STATUSES,
  unmatchedPaymentsPage,
  type ResolveError,
} from "./admin-payments";
export {
  applyBankTransaction,
  deriveAround,
  deriveUnplacedReports,
  matchBankTransaction,
  recordUnreadableBankMessage,
  type BankTransactionInput,
  type BankWitness,
} from "./bank-transactions";
export { debitEvidenceOfWithdrawal } from "./debit-payouts";
export { splitWitness, twinsOfPayment, witnessesOfOrder } from "./bank-witnesses";
export {
  createForwarder,
  decideHold,
  forwarderPage,
  receiveForwardedMessage,
  removeForwarder,
  savePatterns,
  setForwarderLimits,
  tryPatterns,
  type ForwarderLimitsInput,
  type HoldDecision,
  type PatternsInput,
  type PatternsResult,
} from "./forwarder";
export { handlePaymentWebhook } from "./gateway-callbacks";
export { markOpenDepositPaid, openDepositsQueue, type MarkPaidError, type MarkPaidInput } from "./open-deposits";
export {
  CSV_CHUNK_LINES,
  debitsOfWithdrawal,
  parseBankDay,
  reconciliationCsv,
  reconciliationPage,
  saveReconciliationNote,
  settleDoubleCredit,
} from "./reconciliation";
export {
  checkDepositSlip,
  recordDepositSlip,
  slipPicture,
  type QueuedSlip,
} from "./slips";
export {
  applyStatement,
  saveStatementMapping,
  statementPage,
  statementUploadPage,
  tryStatementMapping,
  uploadStatement,
  type MappingFields,
  type MappingTry,
  type ReviewRow,
  type RowOutcome,
} from "./statement-import";
