import { limitError, parseAmount, withdrawPayout, type AmountLimits, type Rate } from "./money";

/**
 * Withdraw order (decision 005): the credit is taken from the provider first
 * (transfer-out, reference = order code). PENDING is that transfer in flight (shown to the
 * player as waiting); then OPEN (credit taken, awaiting payout) -> SUCCESS (paid to the
 * bank) | REJECTED (payout refused or staff rejected; the credit goes back to the
 * provider, recorded as credit returned); PENDING -> FAILED when the transfer-out fails.
 */
export const WITHDRAW_STATUSES = ["PENDING", "OPEN", "SUCCESS", "REJECTED", "FAILED"] as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];

const WITHDRAW_TRANSITIONS: Readonly<Record<WithdrawStatus, readonly WithdrawStatus[]>> = {
  PENDING: ["OPEN", "FAILED"],
  OPEN: ["SUCCESS", "REJECTED"],
  SUCCESS: [],
  REJECTED: [],
  FAILED: [],
};

export function canWithdrawTransition(from: WithdrawStatus, to: WithdrawStatus): boolean {
  return WITHDRAW_TRANSITIONS[from].includes(to);
}

/** How the player sees it: a transfer in flight is simply "waiting". */
export function withdrawDisplayStatus(status: WithdrawStatus): "OPEN" | "SUCCESS" | "REJECTED" | "FAILED" {
  return status === "PENDING" ? "OPEN" : status;
}

export type WithdrawCheck =
  | { ok: true; creditMinor: bigint }
  | { ok: false; error: "AMOUNT_INVALID" | "AMOUNT_TOO_LOW" | "AMOUNT_TOO_HIGH" | "CREDIT_NOT_ENOUGH" | "NO_RATE" };

/**
 * docs/product.md §5 withdraw rules that need no I/O: the amount (credit minor units, as the
 * withdraw form's schema read it, or all credit) positive, within the agency's minimum and
 * maximum (in credit), not above the provider credit, and a rate. The schema bounds a typed
 * amount already; all credit is bounded here, once the provider's credit is known.
 */
export function checkWithdrawAmount(input: { amountMinor: bigint | "ALL"; balance: string; limits: AmountLimits; rate: Rate | null }): WithdrawCheck {
  const balance = parseAmount(input.balance, "THB");
  if (balance === null) return { ok: false, error: "CREDIT_NOT_ENOUGH" };
  const all = input.amountMinor === "ALL";
  const creditMinor = input.amountMinor === "ALL" ? balance : input.amountMinor;
  if (creditMinor <= 0n) return { ok: false, error: all ? "CREDIT_NOT_ENOUGH" : "AMOUNT_INVALID" };
  if (creditMinor > balance) return { ok: false, error: "CREDIT_NOT_ENOUGH" };
  const outside = limitError(creditMinor, input.limits, "THB");
  if (outside) return { ok: false, error: outside };
  if (!input.rate || withdrawPayout(creditMinor, input.rate) <= 0n) return { ok: false, error: "NO_RATE" };
  return { ok: true, creditMinor };
}

/** A line deducted from what the player receives (fees, a promotion bonus taken back). */
export type Deduction = { kind: "FEE" | "PROMOTION_BONUS" | "PROMOTION_EXCESS"; creditMinor: bigint };

/**
 * Deductions on a withdrawal. The agency charges no fee today; the promotions issue plugs
 * its rules in here (bonus deducted when conditions are not met, excess above the maximum
 * credit received). Receives the requested credit, returns the itemised deductions.
 */
export type DeductionRule = (creditMinor: bigint) => Deduction[];
const NO_DEDUCTIONS: DeductionRule = () => [];

export type WithdrawQuote = { creditMinor: bigint; deductions: Deduction[]; netCreditMinor: bigint; receivedLakMinor: bigint };

/** WITHDRAW = (credit - deductions) * buy, rounded down to whole kip. */
export function quoteWithdraw(creditMinor: bigint, rate: Rate, rule: DeductionRule = NO_DEDUCTIONS): WithdrawQuote {
  const deductions = rule(creditMinor);
  const deducted = deductions.reduce((sum, d) => sum + d.creditMinor, 0n);
  const netCreditMinor = creditMinor - deducted > 0n ? creditMinor - deducted : 0n;
  return { creditMinor, deductions, netCreditMinor, receivedLakMinor: withdrawPayout(netCreditMinor, rate) };
}

/** Payouts up to this much credit go out automatically; above it staff review them. */
export function needsManualReview(creditMinor: bigint, autoMax: string): boolean {
  const max = parseAmount(autoMax, "THB");
  return max === null || creditMinor > max;
}

/**
 * Who may decide an OPEN withdrawal's payout (docs/decisions/010-payout-decisions.md).
 * Every caller (back-office page, operator API, the gateway's callback and the wallet's
 * own status queries) goes through this one rule, inside the player's wallet:
 * - staff decide (approve, paid by hand, reject) only while the order waits for review
 *   (review MANUAL) and no payout was ever requested from the gateway; so does the bank's
 *   debit of a payout made by hand (decision 084), which may only mark it paid;
 * - once approved (or automatic), the payout belongs to the gateway: it alone reports paid
 *   or rejected, and a rejection returns the credit. Staff actions are refused.
 * A repeat of the decision already taken is a duplicate (answered as such, applied once).
 */
export type WithdrawDecision =
  | { by: "staff"; action: "approve" }
  | { by: "staff"; action: "paid"; bankReference: string }
  | { by: "staff"; action: "reject"; reason: string }
  /** the bank's debit of the payout (decision 084): `report` the debit report that paid it, `aliases` every report of that transfer */
  | { by: "debit"; action: "paid"; report: string; aliases: readonly string[] }
  | { by: "gateway"; action: "paid"; transactionId: string }
  | { by: "gateway"; action: "reject"; reason: string };

export type PayoutFacts = {
  status: WithdrawStatus;
  review: "AUTO" | "MANUAL" | "APPROVED";
  payoutState: "REQUESTED" | "UNKNOWN" | null;
  payoutTxn: string | null;
  reason: string | null;
};

export type DecisionVerdict = "apply" | "duplicate" | "refuse";

/** The transaction id a payout made by hand is recorded with. */
export function manualPayoutTxn(bankReference: string): string {
  return `MANUAL:${bankReference}`;
}

/** The transaction id a payout closed by the bank's debit is recorded with (the report, `<channel>:<source>:<id>`). */
export function debitPayoutTxn(report: string): string {
  return `DEBIT:${report}`;
}

/** An order staff may still decide: waiting for review, no payout ever requested. */
export function awaitsStaffDecision(order: Pick<PayoutFacts, "status" | "review" | "payoutState">): boolean {
  return order.status === "OPEN" && order.review === "MANUAL" && order.payoutState === null;
}

export function judgeWithdrawDecision(order: PayoutFacts, decision: WithdrawDecision): DecisionVerdict {
  const awaitsStaff = awaitsStaffDecision(order);
  const withGateway = order.status === "OPEN" && order.payoutState !== null;
  // the debit stands where the cashier would: only an order waiting for them; again by a report of the same transfer: a duplicate
  if (decision.by === "debit") {
    if (awaitsStaff) return "apply";
    return order.status === "SUCCESS" && decision.aliases.some((a) => order.payoutTxn === debitPayoutTxn(a)) ? "duplicate" : "refuse";
  }
  if (decision.by === "staff") {
    if (awaitsStaff) return "apply";
    if (decision.action === "approve") return order.status === "OPEN" && order.review === "APPROVED" ? "duplicate" : "refuse";
    if (decision.action === "paid") return order.status === "SUCCESS" && order.payoutTxn === manualPayoutTxn(decision.bankReference) ? "duplicate" : "refuse";
    return order.status === "REJECTED" && order.payoutState === null && order.reason === decision.reason ? "duplicate" : "refuse";
  }
  if (decision.action === "paid") {
    if (order.status === "SUCCESS" && order.payoutTxn === decision.transactionId) return "duplicate";
    return withGateway ? "apply" : "refuse";
  }
  if (order.status === "REJECTED" && order.payoutState !== null) return "duplicate";
  return withGateway ? "apply" : "refuse";
}
