import { parseAmount, withdrawPayout, type Rate } from "./money";

/**
 * Withdraw order (DESIGN.md §5): the credit is taken from the provider first
 * (transfer-out, reference = order code). PENDING is that transfer in flight (shown to the
 * player as waiting); then OPEN (credit taken, awaiting payout) -> SUCCESS (paid to the
 * bank) | REJECTED (payout refused or staff rejected; the credit goes back to the
 * provider, recorded as credit returned); PENDING -> FAILED when the transfer-out fails.
 */
export const WITHDRAW_STATUSES = ["PENDING", "OPEN", "SUCCESS", "REJECTED", "FAILED"] as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];

export const WITHDRAW_TRANSITIONS: Readonly<Record<WithdrawStatus, readonly WithdrawStatus[]>> = {
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

export type WithdrawLimits = { min: string; max: string };

export type WithdrawCheck =
  | { ok: true; creditMinor: bigint }
  | { ok: false; error: "AMOUNT_INVALID" | "AMOUNT_TOO_LOW" | "AMOUNT_TOO_HIGH" | "CREDIT_NOT_ENOUGH" | "NO_RATE" };

/**
 * SPEC §5 withdraw rules that need no I/O: a valid amount (or all credit), within the
 * agency's minimum and maximum (in credit), not above the provider credit, and a rate.
 */
export function checkWithdrawAmount(input: { amount: string | "ALL"; balance: string; limits: WithdrawLimits; rate: Rate | null }): WithdrawCheck {
  const balance = parseAmount(input.balance, "THB");
  if (balance === null) return { ok: false, error: "CREDIT_NOT_ENOUGH" };
  const creditMinor = input.amount === "ALL" ? balance : parseAmount(input.amount, "THB");
  if (creditMinor === null || creditMinor <= 0n) return { ok: false, error: input.amount === "ALL" ? "CREDIT_NOT_ENOUGH" : "AMOUNT_INVALID" };
  const min = parseAmount(input.limits.min, "THB") ?? 0n;
  const max = parseAmount(input.limits.max, "THB");
  if (creditMinor > balance) return { ok: false, error: "CREDIT_NOT_ENOUGH" };
  if (creditMinor < min) return { ok: false, error: "AMOUNT_TOO_LOW" };
  if (max !== null && creditMinor > max) return { ok: false, error: "AMOUNT_TOO_HIGH" };
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
export const NO_DEDUCTIONS: DeductionRule = () => [];

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
