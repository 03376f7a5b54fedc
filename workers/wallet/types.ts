import type { RewardKind } from "../core/reward";
import type { OrderStatus } from "../core/orders";
import type { Deduction, WithdrawStatus } from "../core/withdraw";
import type { Provider } from "../core/providers";
import type { ClaimFacts, PromotionError, PromotionRules, UsageStatus } from "../core/promotion";

/**
 * What the wallet's RPC methods take and answer (the services' view of a player's money
 * state). Re-exported by player-wallet.ts, where callers import them from.
 */

export type DepositOrder = {
  code: string;
  provider: Provider;
  channelCode: string;
  amount: string; // LAK, decimal string
  credit: string; // THB, decimal string
  rateSell: string;
  status: OrderStatus;
  flag: string | null;
  qrPayload: string | null;
  expiresAt: number;
  createdAt: number;
  paidAt: number | null;
  settledAt: number | null;
  attempts: number;
  /** The promotion usage this deposit carries, and its bonus (credit). */
  usageId: string | null;
  bonus: string | null;
  bonusState: "PENDING" | "DONE" | "FAILED" | null;
  /** Own-account channels: the unique amount the player must pay (LAK), beside the amount asked. */
  payAmount?: string;
};

export type WithdrawOrder = {
  code: string;
  provider: Provider;
  credit: string;
  netCredit: string;
  receivedLak: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  status: WithdrawStatus;
  review: "AUTO" | "MANUAL" | "APPROVED";
  payoutState: "REQUESTED" | "UNKNOWN" | null;
  returnState: "PENDING" | "DONE" | null;
  reason: string | null;
  createdAt: number;
  completedAt: number | null;
  usageId: string | null;
  /** Itemised deductions (promotion bonus taken back, excess above the maximum received). */
  deductions: { kind: Deduction["kind"]; credit: string }[];
};

/** What a payout decision did: applied, a repeat of the one already taken, or refused (the order as it stands). */
export type WithdrawDecisionResult = {
  kind: "applied" | "duplicate" | "refused" | "not-found";
  before: WithdrawOrder | null;
  order: WithdrawOrder | null;
};

/**
 * A new withdraw order. Amounts in minor units and the rate scaled, as bigints: Workers RPC
 * (structured clone) carries a bigint as it is, so no text crosses the Durable Object's
 * boundary; the wallet's storage writes them as TEXT (queries.ts, insertPendingWithdraw).
 */
export type OpenWithdrawInput = {
  idempotencyKey: string;
  code: string;
  provider: Provider;
  /** Credit minor units (THB satang), as the withdraw form's schema read them (app/lib/schemas/withdraw.ts), or the provider's whole credit. */
  creditMinor: bigint;
  /** The credit after deductions. */
  netCreditMinor: bigint;
  /** LAK minor units paid out (whole kip). */
  receivedLakMinor: bigint;
  /** The buy rate, scaled (core/money.ts parseRate). */
  rateBuy: bigint;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  review: "AUTO" | "MANUAL";
  now: number;
  /** The promotion the quote was computed under (null: none applied), checked again here. */
  promotion: { usageId: string; outcome: "SUCCESS" | "CANCELED"; deductions: { kind: Deduction["kind"]; creditMinor: bigint }[] } | null;
  /** The VIP level's limit on credit withdrawn per day (decision 091), judged here against the day's orders; absent: none. */
  dayLimit?: { limitMinor: bigint; since: number } | null;
};

/**
 * A new deposit order. Amounts in minor units and the rate scaled, as bigints: Workers RPC
 * (structured clone) carries a bigint as it is, so no text crosses the Durable Object's
 * boundary; the wallet's storage writes them as TEXT (queries.ts, insertOpenDeposit).
 */
export type OpenDepositInput = {
  idempotencyKey: string;
  code: string;
  provider: Provider;
  channelCode: string;
  /** LAK minor units, as the deposit form's schema read them (app/lib/schemas/deposit.ts). */
  amountMinor: bigint;
  /** Credit minor units (THB satang). */
  creditMinor: bigint;
  /** The sell rate, scaled (core/money.ts parseRate). */
  rateSell: bigint;
  expiresAt: number;
  now: number;
  /** The player's credit at that provider, when a promotion in use needs it (else null). */
  creditAtProviderMinor: bigint | null;
  /** Own-account channels: the reserved unique amount to pay (LAK minor); absent for a gateway channel. */
  payAmountMinor?: bigint | null;
};

export type OpenDepositResult =
  | { kind: "created"; order: DepositOrder }
  | { kind: "existing"; order: DepositOrder }
  | { kind: "open-exists"; order: DepositOrder }
  | { kind: "refused"; error: PromotionError; provider?: Provider };

export type PromotionHold = "HELD" | "RELEASED" | "REFUSED";

export type PromotionUsage = {
  id: string;
  promotionId: string;
  provider: Provider;
  status: UsageStatus;
  rules: PromotionRules;
  depositCode: string | null;
  depositCredit: string | null;
  bonus: string | null;
  bonusCredited: boolean;
  /** A claim held for review (decision 094): HELD, the bonus waits for staff; RELEASED or REFUSED, what they decided. */
  hold: PromotionHold | null;
  turnoverTarget: string | null;
  turnoverStart: string | null;
  withdrawCode: string | null;
  reason: string | null;
  claimedAt: number;
  usedAt: number | null;
  endedAt: number | null;
};

/** What the service knows from D1 and the provider; the wallet adds what it owns. */
export type ClaimInput = {
  usageId: string;
  promotionId: string;
  provider: Provider;
  rules: PromotionRules;
  facts: Pick<ClaimFacts, "promotionActive" | "enabledProviders" | "hasBankAccount" | "creditAtProviderMinor">;
  /** The first claim of this promotion among the player's linked accounts was another's (decision 094): the bonus waits for staff. */
  held?: boolean;
  now: number;
};

export type MarkPaidResult =
  | { kind: "paid"; order: DepositOrder }
  | { kind: "duplicate"; order: DepositOrder }
  | { kind: "amount-mismatch"; order: DepositOrder }
  | { kind: "late"; order: DepositOrder }
  | { kind: "unknown-order" };

/** What the wallet made of a bank transaction the matcher meant for one of its orders. */
export type BankPaymentResult =
  | { kind: "paid"; order: DepositOrder }
  | { kind: "duplicate"; order: DepositOrder }
  | { kind: "amount-mismatch"; order: DepositOrder }
  | { kind: "late"; order: DepositOrder }
  | { kind: "already-paid"; order: DepositOrder }
  | { kind: "unknown-order" };

export type StaffRetryResult =
  | { kind: "retried"; order: DepositOrder; reference: string }
  | { kind: "already-applied"; order: DepositOrder; reference: string }
  | { kind: "not-failed"; order: DepositOrder | null }
  | { kind: "stale"; order: DepositOrder | null }
  | { kind: "unavailable"; order: DepositOrder }
  | { kind: "not-found" };

export type ManualCreditInput = {
  idempotencyKey: string;
  code: string;
  provider: Provider;
  amountMinor: string;
  creditMinor: string;
  rateSell: string;
  now: number;
};

/** One line of a ledger entry, as `ledgerFor` lists them. */
export type LedgerLine = { entry: string; account: string; currency: string; amountMinor: string };

/** A reward claim (cashback, referral share; decision 029; check-in, deposit streak: decision 095). */
export type RewardClaimInput = {
  /** The reward's code, also the provider reference of its credit (the service makes it). */
  code: string;
  kind: RewardKind;
  /** The period claimed for, e.g. an ISO week "2026-W47" (core/reward-period.ts). */
  period: string;
  /** true: once per (kind, period, provider) — cashback per provider; false: once per (kind, period). */
  perProvider: boolean;
  provider: Provider;
  /** Credit minor units (THB satang), > 0. */
  amountMinor: string;
  /** Turnover requirement: the amount played through this many times ("0": none; 2 decimals at most). */
  turnoverMultiple: string;
  /** What the amount rests on (net loss, percent…), kept for the history screen. */
  basis?: Record<string, string>;
  now: number;
};

export type Reward = {
  code: string;
  kind: RewardKind;
  period: string;
  provider: Provider;
  amount: string; // THB decimal
  status: "PENDING" | "SUCCESS" | "FAILED";
  reason: string | null;
  turnoverMultiple: string;
  turnoverTarget: string; // THB decimal
  /** The provider's turnover counter before the credit (minor units), and from when it counts. */
  turnoverStart: string | null;
  turnoverSince: number | null;
  turnoverMet: boolean;
  basis: Record<string, string>;
  createdAt: number;
  settledAt: number | null;
  /** Staff retries of a FAILED credit (the retry form carries it). */
  retries: number;
};

/** What a staff retry of a FAILED reward did (decision 029). */
export type StaffRewardRetryResult =
  | { kind: "retried" | "already-applied"; reward: Reward; reference: string }
  | { kind: "not-failed" | "stale" | "claimed-again" | "unavailable"; reward: Reward }
  | { kind: "not-found" };
