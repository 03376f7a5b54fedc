import { canTransition, DEPOSIT_TRANSITIONS, type OrderStatus } from "../core/orders";
import { canWithdrawTransition, type Deduction, type WithdrawStatus } from "../core/withdraw";
import { canUsageTransition, type PromotionRules, type UsageStatus } from "../core/promotion";
import { formatAmount } from "../core/money";
import type { Provider } from "../core/providers";
import { AttemptStore } from "./attempt-store";
import { RewardStore } from "./reward-store";
import type { DepositOrder, LedgerLine, OpenDepositInput, OpenWithdrawInput, ManualCreditInput, PromotionHold, PromotionUsage, WithdrawOrder } from "./types";

/**
 * The wallet's own SQLite statements (tables in schema.ts). Every method is synchronous:
 * the commands built on them read and write with no `await` in between. Rows come back
 * as stored (snake_case); the `to…` functions below map them for callers.
 */

/**
 * A deposit order as stored, its amounts as bigints: the columns are TEXT (schema.ts) and read
 * into bigint by the row readers below, the one place they change form (see storedMinor).
 */
export type DepositOrderRow = {
  code: string;
  provider: string;
  channel_code: string;
  amount_minor: bigint;
  credit_minor: bigint;
  rate_sell: string;
  status: OrderStatus;
  flag: string | null;
  qr_payload: string | null;
  expires_at: number;
  created_at: number;
  paid_at: number | null;
  settled_at: number | null;
  attempts: number;
  next_attempt_at: number | null;
  gateway_txn: string | null;
  last_poll_at: number | null;
  notified: number;
  usage_id: string | null;
  bonus_minor: bigint | null;
  bonus_state: "PENDING" | "DONE" | "FAILED" | null;
  bonus_attempts: number;
  bonus_next_at: number | null;
  turnover_start_minor: string | null;
  pay_amount_minor: bigint | null;
};

/** The columns of deposit_orders as SQLite hands them back. */
type StoredDepositRow = Omit<DepositOrderRow, "amount_minor" | "credit_minor" | "bonus_minor" | "pay_amount_minor"> & {
  amount_minor: string;
  credit_minor: string;
  bonus_minor: string | null;
  pay_amount_minor: string | null;
};

/**
 * Why the wallet's amounts are TEXT and change form here: the Durable Object's SQLite answers an
 * INTEGER column as a JavaScript number, exact only up to 2^53 (about 9.0e15), and a LAK amount
 * in minor units reaches 17 digits (15 digits of kip, the deposit form's limit, times 100). So
 * amounts are written as their decimal digits (insertOpenDeposit) and read back into bigint
 * (the deposit and withdraw row readers); callers on both sides hold bigints. A withdrawal's
 * deductions are kept as JSON (deductions_json), which has no bigint: their amounts are written
 * as decimal text there too (insertPendingWithdraw) and read back by toWithdrawOrder.
 */
function storedMinor(minor: bigint): string;
function storedMinor(minor: bigint | null | undefined): string | null;
function storedMinor(minor: bigint | null | undefined): string | null {
  return minor == null ? null : minor.toString();
}

function depositRow(stored: StoredDepositRow): DepositOrderRow {
  return {
    ...stored,
    amount_minor: BigInt(stored.amount_minor),
    credit_minor: BigInt(stored.credit_minor),
    bonus_minor: stored.bonus_minor === null ? null : BigInt(stored.bonus_minor),
    pay_amount_minor: stored.pay_amount_minor === null ? null : BigInt(stored.pay_amount_minor),
  };
}

/** A withdraw order as stored, its amounts as bigints, read by the row readers below like a deposit's (see storedMinor). */
export type WithdrawOrderRow = {
  code: string;
  provider: string;
  credit_minor: bigint;
  net_credit_minor: bigint;
  received_lak_minor: bigint;
  rate_buy: bigint;
  bank_code: string;
  account_number: string;
  account_name: string;
  status: WithdrawStatus;
  review: "AUTO" | "MANUAL" | "APPROVED";
  payout_state: "REQUESTED" | "UNKNOWN" | null;
  payout_txn: string | null;
  return_state: "PENDING" | "DONE" | null;
  reason: string | null;
  created_at: number;
  transferred_at: number | null;
  completed_at: number | null;
  attempts: number;
  next_attempt_at: number | null;
  projected: number;
  usage_id: string | null;
  usage_outcome: "SUCCESS" | "CANCELED" | null;
  deductions_json: string;
};

/** The columns of withdraw_orders as SQLite hands them back. */
type StoredWithdrawRow = Omit<WithdrawOrderRow, "credit_minor" | "net_credit_minor" | "received_lak_minor" | "rate_buy"> & {
  credit_minor: string;
  net_credit_minor: string;
  received_lak_minor: string;
  rate_buy: string;
};

function withdrawRow(stored: StoredWithdrawRow): WithdrawOrderRow {
  return {
    ...stored,
    credit_minor: BigInt(stored.credit_minor),
    net_credit_minor: BigInt(stored.net_credit_minor),
    received_lak_minor: BigInt(stored.received_lak_minor),
    rate_buy: BigInt(stored.rate_buy),
  };
}

export type PromotionUsageRow = {
  id: string;
  promotion_id: string;
  provider: string;
  status: UsageStatus;
  rules_json: string;
  deposit_code: string | null;
  deposit_credit_minor: string | null;
  bonus_minor: string | null;
  turnover_target_minor: string | null;
  turnover_start_minor: string | null;
  withdraw_code: string | null;
  reason: string | null;
  claimed_at: number;
  used_at: number | null;
  ended_at: number | null;
  bonus_credited: number;
  hold: PromotionHold | null;
  projected: number;
};

/** Columns a guarded transition may set along with the status. */
export type ColumnValues = Record<string, string | number | null>;

export class WalletStore {
  constructor(private readonly sql: SqlStorage) {}

  private rewardStore: RewardStore | undefined;
  /** Rewards (cashback, referral share): their own statements, reward-store.ts. */
  get rewards(): RewardStore {
    return (this.rewardStore ??= new RewardStore(this.sql));
  }

  private attemptStore: AttemptStore | undefined;

  /** The provider attempts not yet copied to D1 (decision 049). */
  get attempts(): AttemptStore {
    return (this.attemptStore ??= new AttemptStore(this.sql));
  }

  // ---- meta: who the wallet belongs to, the armed alarm, staff retry counters ----

  readMeta(key: string): string | null {
    const found = this.sql.exec<{ value: string }>(`SELECT value FROM meta WHERE key = ?`, key).toArray()[0];
    return found?.value ?? null;
  }

  writeMeta(key: string, value: string): void {
    this.sql.exec(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value);
  }

  forgetArmedAlarm(): void {
    this.sql.exec(`DELETE FROM meta WHERE key = 'alarmAt'`);
  }

  // ---- deposit orders ----

  depositByCode(code: string): DepositOrderRow | null {
    return this.firstDeposit(`SELECT * FROM deposit_orders WHERE code = ?`, code);
  }

  depositByIdempotencyKey(key: string): DepositOrderRow | null {
    return this.firstDeposit(`SELECT * FROM deposit_orders WHERE idempotency_key = ?`, key);
  }

  /** The one OPEN order (the storage allows one). */
  openDeposit(): DepositOrderRow | null {
    return this.firstDeposit(`SELECT * FROM deposit_orders WHERE status = 'OPEN'`);
  }

  hasUnsettledDeposit(): boolean {
    return this.firstDeposit(`SELECT * FROM deposit_orders WHERE status IN ('OPEN', 'PAID')`) !== null;
  }

  hasPaidDeposit(): boolean {
    return this.firstDeposit(`SELECT * FROM deposit_orders WHERE status IN ('PAID', 'SUCCESS', 'FAILED')`) !== null;
  }

  hasUnsettledDepositCarrying(usageId: string): boolean {
    return this.firstDeposit(`SELECT * FROM deposit_orders WHERE usage_id = ? AND status IN ('OPEN', 'PAID')`, usageId) !== null;
  }

  hasBonusPendingFor(usageId: string): boolean {
    return this.firstDeposit(`SELECT * FROM deposit_orders WHERE usage_id = ? AND bonus_state = 'PENDING'`, usageId) !== null;
  }

  expiredOpenDepositCodes(now: number): string[] {
    return this.sql
      .exec<{ code: string }>(`SELECT code FROM deposit_orders WHERE status = 'OPEN' AND expires_at <= ?`, now)
      .toArray()
      .map((found) => found.code);
  }

  depositsDueForSettlement(now: number): DepositOrderRow[] {
    return this.deposits(`SELECT * FROM deposit_orders WHERE status = 'PAID' AND next_attempt_at <= ? ORDER BY paid_at`, now);
  }

  depositsDueForBonus(now: number): DepositOrderRow[] {
    return this.deposits(`SELECT * FROM deposit_orders WHERE bonus_state = 'PENDING' AND bonus_next_at <= ?`, now);
  }

  /** OPEN orders with a QR whose payment was not looked up since `polledBefore`. */
  openDepositsToReconcile(polledBefore: number): DepositOrderRow[] {
    return this.deposits(
      `SELECT * FROM deposit_orders WHERE status = 'OPEN' AND qr_payload IS NOT NULL AND (last_poll_at IS NULL OR last_poll_at <= ?)`,
      polledBefore,
    );
  }

  depositCount(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM deposit_orders`).one().n;
  }

  depositPage(page: number, pageSize: number): DepositOrderRow[] {
    return this.deposits(`SELECT * FROM deposit_orders ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, pageSize, (page - 1) * pageSize);
  }

  /** The orders created at or after `from`, whatever their status: what the deposit windows count (decision 025). */
  depositsCreatedSince(from: number): DepositOrderRow[] {
    return this.deposits(`SELECT * FROM deposit_orders WHERE created_at >= ?`, from);
  }

  /** Settled deposits not yet announced to the player, marked announced. */
  takeUnannouncedSettledDeposits(): DepositOrderRow[] {
    const found = this.deposits(`SELECT * FROM deposit_orders WHERE status = 'SUCCESS' AND notified = 0`);
    this.sql.exec(`UPDATE deposit_orders SET notified = 1 WHERE status = 'SUCCESS' AND notified = 0`);
    return found;
  }

  insertOpenDeposit(input: OpenDepositInput, bonus: { usageId: string; bonusMinor: bigint } | null): void {
    this.sql.exec(
      `INSERT INTO deposit_orders (code, idempotency_key, provider, channel_code, amount_minor, credit_minor, rate_sell, status, expires_at, created_at, usage_id, bonus_minor, pay_amount_minor)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'OPEN', ?, ?, ?, ?, ?)`,
      input.code,
      input.idempotencyKey,
      input.provider,
      input.channelCode,
      storedMinor(input.amountMinor),
      storedMinor(input.creditMinor),
      storedMinor(input.rateSell),
      input.expiresAt,
      input.now,
      bonus?.usageId ?? null,
      storedMinor(bonus?.bonusMinor),
      storedMinor(input.payAmountMinor),
    );
  }

  /** A deposit staff credit by hand: PAID from the start, channel and flag MANUAL. */
  insertManualDeposit(input: ManualCreditInput): void {
    this.sql.exec(
      `INSERT INTO deposit_orders (code, idempotency_key, provider, channel_code, amount_minor, credit_minor, rate_sell, status, flag, expires_at, created_at, paid_at, next_attempt_at)
       VALUES (?, ?, ?, 'MANUAL', ?, ?, ?, 'PAID', 'MANUAL', ?, ?, ?, ?)`,
      input.code,
      input.idempotencyKey,
      input.provider,
      input.amountMinor,
      input.creditMinor,
      input.rateSell,
      input.now,
      input.now,
      input.now,
      input.now,
    );
  }

  attachQrPayload(code: string, payload: string): void {
    this.sql.exec(`UPDATE deposit_orders SET qr_payload = ? WHERE code = ? AND status = 'OPEN' AND qr_payload IS NULL`, payload, code);
  }

  /** Guarded transition: applied only from the expected state, and only along an arrow. */
  transitionDeposit(code: string, from: OrderStatus, to: OrderStatus, set: ColumnValues = {}): boolean {
    if (!canTransition(DEPOSIT_TRANSITIONS, from, to)) throw new Error(`refused transition ${from} -> ${to}`);
    const columns = Object.keys(set);
    const assignments = ["status = ?", ...columns.map((c) => `${c} = ?`)].join(", ");
    const cursor = this.sql.exec(`UPDATE deposit_orders SET ${assignments} WHERE code = ? AND status = ?`, to, ...columns.map((c) => set[c]), code, from);
    return cursor.rowsWritten > 0;
  }

  /**
   * Own-account only (decision 016): an order the wallet expired or the player cancelled, paid
   * by the bank's time within its life, becomes PAID after all. Not an arrow of the ordinary
   * machine (core/orders.ts): the storage guard (schema v4) allows it only for an order with a
   * pay amount and no payment recorded yet.
   */
  payCanceledOwnAccountDeposit(code: string, set: { paid_at: number; gateway_txn: string; next_attempt_at: number }): boolean {
    const cursor = this.sql.exec(
      `UPDATE deposit_orders SET status = 'PAID', paid_at = ?, gateway_txn = ?, next_attempt_at = ?, flag = NULL
        WHERE code = ? AND status = 'CANCELED' AND gateway_txn IS NULL AND pay_amount_minor IS NOT NULL`,
      set.paid_at,
      set.gateway_txn,
      set.next_attempt_at,
      code,
    );
    return cursor.rowsWritten > 0;
  }

  flagLatePayment(code: string, transactionId: string): void {
    this.sql.exec(`UPDATE deposit_orders SET flag = 'LATE_PAYMENT', gateway_txn = ? WHERE code = ?`, transactionId, code);
  }

  flagAmountMismatch(code: string): void {
    this.sql.exec(`UPDATE deposit_orders SET flag = 'AMOUNT_MISMATCH' WHERE code = ?`, code);
  }

  flagBonusRefused(code: string): void {
    this.sql.exec(`UPDATE deposit_orders SET flag = 'BONUS_REFUSED' WHERE code = ?`, code);
  }

  recordSettlementAttempt(code: string, attempt: number, nextAttemptAt: number): void {
    this.sql.exec(`UPDATE deposit_orders SET attempts = ?, next_attempt_at = ? WHERE code = ? AND status = 'PAID'`, attempt, nextAttemptAt, code);
  }

  recordTurnoverStart(code: string, turnoverMinor: bigint): void {
    this.sql.exec(`UPDATE deposit_orders SET turnover_start_minor = ? WHERE code = ? AND turnover_start_minor IS NULL`, turnoverMinor.toString(), code);
  }

  recordPaymentLookup(code: string, now: number): void {
    this.sql.exec(`UPDATE deposit_orders SET last_poll_at = ? WHERE code = ?`, now, code);
  }

  scheduleBonus(code: string, at: number): void {
    this.sql.exec(`UPDATE deposit_orders SET bonus_state = 'PENDING', bonus_next_at = ? WHERE code = ?`, at, code);
  }

  recordBonusAttempt(code: string, attempt: number, nextAttemptAt: number): void {
    this.sql.exec(`UPDATE deposit_orders SET bonus_attempts = ?, bonus_next_at = ? WHERE code = ?`, attempt, nextAttemptAt, code);
  }

  finishBonus(code: string, state: "DONE" | "FAILED"): void {
    this.sql.exec(`UPDATE deposit_orders SET bonus_state = ?, bonus_next_at = NULL WHERE code = ?`, state, code);
  }

  markDepositUnprojected(code: string): void {
    this.sql.exec(`UPDATE deposit_orders SET projected = 0 WHERE code = ?`, code);
  }

  unprojectedDeposits(): DepositOrderRow[] {
    return this.deposits(`SELECT * FROM deposit_orders WHERE projected = 0`);
  }

  /** Projected as read (a change since then leaves it to project again). */
  markDepositProjected(row: DepositOrderRow): void {
    // the bonus changes without the status (reports read it): a change in flight stays marked
    this.sql.exec(
      `UPDATE deposit_orders SET projected = 1 WHERE code = ? AND status = ? AND flag IS ? AND bonus_state IS ?`,
      row.code,
      row.status,
      row.flag,
      row.bonus_state,
    );
  }

  /** The paid time of the first successful deposit (manual credits excluded), or null. */
  firstDepositPaidAt(): number | null {
    return this.sql.exec<{ t: number | null }>(`SELECT MIN(paid_at) AS t FROM deposit_orders WHERE status = 'SUCCESS' AND channel_code <> 'MANUAL'`).one().t;
  }

  /**
   * Every order and usage marked for projection again (the reports' backfill re-projects
   * wallets written before the read models had the columns reports read).
   */
  markAllUnprojected(): void {
    this.sql.exec(`UPDATE deposit_orders SET projected = 0`);
    this.sql.exec(`UPDATE withdraw_orders SET projected = 0`);
    this.sql.exec(`UPDATE promotion_usages SET projected = 0`);
    this.rewards.markAllUnprojected();
  }

  // ---- withdraw orders ----

  withdrawByCode(code: string): WithdrawOrderRow | null {
    return this.firstWithdraw(`SELECT * FROM withdraw_orders WHERE code = ?`, code);
  }

  withdrawByIdempotencyKey(key: string): WithdrawOrderRow | null {
    return this.firstWithdraw(`SELECT * FROM withdraw_orders WHERE idempotency_key = ?`, key);
  }

  withdrawCount(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM withdraw_orders`).one().n;
  }

  /** Credit (THB minor units) of the withdrawals asked since `from` that took or may take it: all but FAILED and REJECTED. */
  withdrawnCreditSince(from: number): bigint {
    const rows = this.sql
      .exec<{ credit_minor: string }>(`SELECT credit_minor FROM withdraw_orders WHERE created_at >= ? AND status NOT IN ('FAILED', 'REJECTED')`, from)
      .toArray();
    return rows.reduce((sum, r) => sum + BigInt(r.credit_minor), 0n);
  }

  withdrawPage(page: number, pageSize: number): WithdrawOrderRow[] {
    return this.withdraws(`SELECT * FROM withdraw_orders ORDER BY created_at DESC, code DESC LIMIT ? OFFSET ?`, pageSize, (page - 1) * pageSize);
  }

  /** PENDING or OPEN, newest first. */
  unfinishedWithdraws(): WithdrawOrderRow[] {
    return this.withdraws(`SELECT * FROM withdraw_orders WHERE status IN ('PENDING', 'OPEN') ORDER BY created_at DESC`);
  }

  /** Transfer-outs to resolve, automatic payouts to advance, rejected credit to return. */
  withdrawsDue(now: number): WithdrawOrderRow[] {
    return this.withdraws(
      `SELECT * FROM withdraw_orders WHERE next_attempt_at <= ? AND (status = 'PENDING' OR (status = 'OPEN' AND review != 'MANUAL') OR (status = 'REJECTED' AND return_state = 'PENDING')) ORDER BY created_at`,
      now,
    );
  }

  /** Ended withdrawals (paid out, or rejected with the credit back) not yet announced, marked announced. */
  takeUnannouncedEndedWithdraws(): WithdrawOrderRow[] {
    const found = this.withdraws(
      `SELECT * FROM withdraw_orders WHERE notified = 0 AND (status = 'SUCCESS' OR (status = 'REJECTED' AND return_state = 'DONE'))`,
    );
    for (const withdraw of found) this.sql.exec(`UPDATE withdraw_orders SET notified = 1 WHERE code = ?`, withdraw.code);
    return found;
  }

  insertPendingWithdraw(input: OpenWithdrawInput, nextAttemptAt: number, promotion: NonNullable<OpenWithdrawInput["promotion"]> | null): void {
    this.sql.exec(
      `INSERT INTO withdraw_orders (code, idempotency_key, provider, credit_minor, net_credit_minor, received_lak_minor, rate_buy, bank_code, account_number, account_name, status, review, created_at, next_attempt_at, usage_id, usage_outcome, deductions_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', ?, ?, ?, ?, ?, ?)`,
      input.code,
      input.idempotencyKey,
      input.provider,
      storedMinor(input.creditMinor),
      storedMinor(input.netCreditMinor),
      storedMinor(input.receivedLakMinor),
      storedMinor(input.rateBuy),
      input.bankCode,
      input.accountNumber,
      input.accountName,
      input.review,
      input.now,
      nextAttemptAt,
      promotion?.usageId ?? null,
      promotion ? promotion.outcome : null,
      JSON.stringify(promotion ? promotion.deductions.map((d) => ({ kind: d.kind, creditMinor: storedMinor(d.creditMinor) })) : []),
    );
  }

  /** Guarded transition of a withdrawal, like transitionDeposit. */
  transitionWithdraw(code: string, from: WithdrawStatus, to: WithdrawStatus, set: ColumnValues = {}): boolean {
    if (!canWithdrawTransition(from, to)) throw new Error(`refused withdraw transition ${from} -> ${to}`);
    const columns = Object.keys(set);
    const assignments = ["status = ?", ...columns.map((c) => `${c} = ?`)].join(", ");
    return (
      this.sql.exec(`UPDATE withdraw_orders SET ${assignments} WHERE code = ? AND status = ?`, to, ...columns.map((c) => set[c]), code, from).rowsWritten > 0
    );
  }

  setWithdrawNextAttempt(code: string, at: number): void {
    this.sql.exec(`UPDATE withdraw_orders SET next_attempt_at = ? WHERE code = ?`, at, code);
  }

  recordWithdrawAttempt(code: string, attempt: number, nextAttemptAt: number): void {
    this.sql.exec(`UPDATE withdraw_orders SET attempts = ?, next_attempt_at = ? WHERE code = ?`, attempt, nextAttemptAt, code);
  }

  approveWithdraw(code: string, nextAttemptAt: number): void {
    this.sql.exec(`UPDATE withdraw_orders SET review = 'APPROVED', next_attempt_at = ? WHERE code = ?`, nextAttemptAt, code);
  }

  /** The gateway has the payout request (answered, or seen by a status query). */
  markPayoutRequested(code: string): void {
    this.sql.exec(`UPDATE withdraw_orders SET payout_state = 'REQUESTED' WHERE code = ? AND status = 'OPEN'`, code);
  }

  /**
   * Claims an automatic OPEN order's payout for the gateway before its request leaves:
   * only if staff have not decided meanwhile. False when someone else got there first.
   */
  claimPayoutForGateway(code: string): boolean {
    return (
      this.sql.exec(
        `UPDATE withdraw_orders SET payout_state = 'UNKNOWN' WHERE code = ? AND status = 'OPEN' AND review != 'MANUAL' AND payout_state IS NULL`,
        code,
      ).rowsWritten > 0
    );
  }

  /** The rejected credit is back at the provider; false when it already was. */
  markCreditReturned(code: string): boolean {
    return (
      this.sql.exec(`UPDATE withdraw_orders SET return_state = 'DONE', next_attempt_at = NULL WHERE code = ? AND return_state = 'PENDING'`, code).rowsWritten >
      0
    );
  }

  markWithdrawUnprojected(code: string): void {
    this.sql.exec(`UPDATE withdraw_orders SET projected = 0 WHERE code = ?`, code);
  }

  unprojectedWithdraws(): WithdrawOrderRow[] {
    return this.withdraws(`SELECT * FROM withdraw_orders WHERE projected = 0`);
  }

  markWithdrawProjected(row: WithdrawOrderRow): void {
    this.sql.exec(
      `UPDATE withdraw_orders SET projected = 1 WHERE code = ? AND status = ? AND review = ? AND return_state IS ?`,
      row.code,
      row.status,
      row.review,
      row.return_state,
    );
  }

  // ---- promotion usages ----

  usageById(id: string): PromotionUsageRow | null {
    return this.firstUsage(`SELECT * FROM promotion_usages WHERE id = ?`, id);
  }

  /** The usage claimed or in use (the storage allows one). */
  activeUsage(): PromotionUsageRow | null {
    return this.firstUsage(`SELECT * FROM promotion_usages WHERE status IN ('CLAIMED', 'USED')`);
  }

  /** A promotion counts as used once it carried a deposit or credited a bonus. */
  promotionUsedBefore(promotionId: string): boolean {
    return (
      this.sql
        .exec(
          `SELECT 1 FROM promotion_usages WHERE promotion_id = ? AND (status IN ('USED', 'SUCCESS') OR bonus_credited = 1 OR deposit_code IS NOT NULL)`,
          promotionId,
        )
        .toArray().length > 0
    );
  }

  usageCount(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM promotion_usages`).one().n;
  }

  usagePage(page: number, pageSize: number): PromotionUsageRow[] {
    return this.usages(`SELECT * FROM promotion_usages ORDER BY claimed_at DESC, id DESC LIMIT ? OFFSET ?`, pageSize, (page - 1) * pageSize);
  }

  insertClaimedUsage(input: { usageId: string; promotionId: string; provider: Provider; rules: PromotionRules; held?: boolean; now: number }): void {
    this.sql.exec(
      `INSERT INTO promotion_usages (id, promotion_id, provider, status, rules_json, claimed_at, hold) VALUES (?, ?, ?, 'CLAIMED', ?, ?, ?)`,
      input.usageId,
      input.promotionId,
      input.provider,
      JSON.stringify(input.rules),
      input.now,
      input.held ? "HELD" : null,
    );
  }

  /** A held claim decided by staff: only once (a second decision finds it no longer HELD). */
  decideUsageHold(id: string, to: Exclude<PromotionHold, "HELD">): boolean {
    return this.sql.exec(`UPDATE promotion_usages SET hold = ? WHERE id = ? AND hold = 'HELD'`, to, id).rowsWritten > 0;
  }

  /** CLAIMED -> USED: the deposit carrying it was credited; what the promotion now counts. */
  markUsageUsed(
    id: string,
    use: { now: number; depositCode: string; depositCreditMinor: bigint; bonusMinor: bigint; turnoverTargetMinor: bigint; turnoverStartMinor: string },
  ): void {
    this.sql.exec(
      `UPDATE promotion_usages SET status = 'USED', used_at = ?, deposit_code = ?, deposit_credit_minor = ?, bonus_minor = ?, turnover_target_minor = ?, turnover_start_minor = ? WHERE id = ? AND status = 'CLAIMED'`,
      use.now,
      use.depositCode,
      use.depositCreditMinor.toString(),
      use.bonusMinor.toString(),
      use.turnoverTargetMinor.toString(),
      use.turnoverStartMinor,
      id,
    );
  }

  /** Guarded end of a usage (CLAIMED or USED -> SUCCESS or CANCELED). */
  endUsage(id: string, from: UsageStatus, to: UsageStatus, reason: string, now: number): boolean {
    if (!canUsageTransition(from, to)) throw new Error(`refused usage transition ${from} -> ${to}`);
    return (
      this.sql.exec(`UPDATE promotion_usages SET status = ?, reason = ?, ended_at = ? WHERE id = ? AND status = ?`, to, reason, now, id, from).rowsWritten > 0
    );
  }

  holdUsageForWithdraw(id: string, withdrawCode: string): void {
    this.sql.exec(`UPDATE promotion_usages SET withdraw_code = ? WHERE id = ?`, withdrawCode, id);
  }

  releaseUsageFromWithdraw(withdrawCode: string): void {
    this.sql.exec(`UPDATE promotion_usages SET withdraw_code = NULL WHERE withdraw_code = ?`, withdrawCode);
  }

  markBonusCredited(id: string): void {
    this.sql.exec(`UPDATE promotion_usages SET bonus_credited = 1 WHERE id = ?`, id);
  }

  markUsageUnprojected(id: string): void {
    this.sql.exec(`UPDATE promotion_usages SET projected = 0 WHERE id = ?`, id);
  }

  unprojectedUsages(): PromotionUsageRow[] {
    return this.usages(`SELECT * FROM promotion_usages WHERE projected = 0`);
  }

  markUsageProjected(row: PromotionUsageRow): void {
    this.sql.exec(`UPDATE promotion_usages SET projected = 1 WHERE id = ? AND status = ? AND deposit_code IS ?`, row.id, row.status, row.deposit_code);
  }

  // ---- ledger ----

  /** One line of an entry; a line already written (same order, entry, account, currency) stays as it is. */
  insertLedgerLine(orderCode: string, entry: string, account: string, currency: string, amountMinor: bigint, now: number): void {
    this.sql.exec(
      `INSERT OR IGNORE INTO ledger (order_code, entry, account, currency, amount_minor, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
      orderCode,
      entry,
      account,
      currency,
      amountMinor.toString(),
      now,
    );
  }

  /** The kip a late payment for this order left at the receiving account, if one was booked. */
  latePaymentAmount(code: string): string | null {
    const late = this.sql
      .exec<{ amount_minor: string }>(`SELECT amount_minor FROM ledger WHERE order_code = ? AND entry = 'late-paid' AND account = 'bank:receiving'`, code)
      .toArray()[0];
    return late?.amount_minor ?? null;
  }

  latePaymentReleased(code: string): boolean {
    return (
      this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ledger WHERE order_code = ? AND entry IN ('late-credited', 'late-refunded')`, code).one().n > 0
    );
  }

  ledgerAmounts(): { currency: string; amount_minor: string }[] {
    return this.sql.exec<{ currency: string; amount_minor: string }>(`SELECT currency, amount_minor FROM ledger`).toArray();
  }

  ledgerLines(code: string): LedgerLine[] {
    return this.sql
      .exec<{ entry: string; account: string; currency: string; amount_minor: string }>(
        `SELECT entry, account, currency, amount_minor FROM ledger WHERE order_code = ? ORDER BY id`,
        code,
      )
      .toArray()
      .map((r) => ({ entry: r.entry, account: r.account, currency: r.currency, amountMinor: r.amount_minor }));
  }

  // ---- when work is due (the alarm is armed from these) ----

  /**
   * When each kind of due work is next due, in ONE statement: the alarm is armed from these
   * after every command and every alarm, and each `exec` costs far more than the lookups
   * themselves (one statement instead of nine; profiled under a crowd).
   * - settle: the earliest settlement attempt of a PAID deposit;
   * - open: the OPEN deposit's expiry, or its next look-up at the gateway (`reconcileEveryMs`
   *   after the last, `now` if never), whichever is first;
   * - withdraw: the earliest attempt of a withdrawal still in the saga;
   * - bonus: the earliest attempt of a pending bonus leg; reward: of a pending reward;
   * - unprojected: whether any row still waits to be copied to D1.
   */
  dueWorkTimes(
    now: number,
    reconcileEveryMs: number,
  ): { settle: number | null; open: number | null; withdraw: number | null; bonus: number | null; reward: number | null; unprojected: boolean } {
    const row = this.sql
      .exec<{ settle: number | null; open: number | null; withdraw: number | null; bonus: number | null; reward: number | null; unprojected: number }>(
        `SELECT
           (SELECT MIN(next_attempt_at) FROM deposit_orders WHERE status = 'PAID') AS settle,
           (SELECT MIN(expires_at, COALESCE(last_poll_at, ?) + ?) FROM deposit_orders WHERE status = 'OPEN' LIMIT 1) AS open,
           (SELECT MIN(next_attempt_at) FROM withdraw_orders WHERE status = 'PENDING' OR (status = 'OPEN' AND review != 'MANUAL') OR (status = 'REJECTED' AND return_state = 'PENDING')) AS withdraw,
           (SELECT MIN(bonus_next_at) FROM deposit_orders WHERE bonus_state = 'PENDING') AS bonus,
           (SELECT MIN(next_attempt_at) FROM rewards WHERE status = 'PENDING') AS reward,
           (EXISTS (SELECT 1 FROM deposit_orders WHERE projected = 0)
             OR EXISTS (SELECT 1 FROM withdraw_orders WHERE projected = 0)
             OR EXISTS (SELECT 1 FROM promotion_usages WHERE projected = 0)
             OR EXISTS (SELECT 1 FROM rewards WHERE projected = 0)
             OR EXISTS (SELECT 1 FROM provider_attempts)) AS unprojected`,
        now,
        reconcileEveryMs,
      )
      .one();
    return { ...row, unprojected: row.unprojected === 1 };
  }

  unprojectedCount(): number {
    return (
      this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM deposit_orders WHERE projected = 0`).one().n +
      this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM withdraw_orders WHERE projected = 0`).one().n +
      this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM promotion_usages WHERE projected = 0`).one().n +
      this.rewards.unprojectedCount()
    );
  }

  // ---- row readers ----

  private firstDeposit(query: string, ...params: unknown[]): DepositOrderRow | null {
    const stored = this.sql.exec<StoredDepositRow>(query, ...params).toArray()[0] as StoredDepositRow | undefined;
    return stored ? depositRow(stored) : null;
  }

  private deposits(query: string, ...params: unknown[]): DepositOrderRow[] {
    return (this.sql.exec<StoredDepositRow>(query, ...params).toArray() as StoredDepositRow[]).map(depositRow);
  }

  private firstWithdraw(query: string, ...params: unknown[]): WithdrawOrderRow | null {
    const stored = this.sql.exec<StoredWithdrawRow>(query, ...params).toArray()[0] as StoredWithdrawRow | undefined;
    return stored ? withdrawRow(stored) : null;
  }

  private withdraws(query: string, ...params: unknown[]): WithdrawOrderRow[] {
    return (this.sql.exec<StoredWithdrawRow>(query, ...params).toArray() as StoredWithdrawRow[]).map(withdrawRow);
  }

  private firstUsage(query: string, ...params: unknown[]): PromotionUsageRow | null {
    return (this.sql.exec<PromotionUsageRow>(query, ...params).toArray()[0] as PromotionUsageRow | undefined) ?? null;
  }

  private usages(query: string, ...params: unknown[]): PromotionUsageRow[] {
    return this.sql.exec<PromotionUsageRow>(query, ...params).toArray() as PromotionUsageRow[];
  }
}

// ---- rows as callers see them ----

export function toDepositOrder(row: DepositOrderRow): DepositOrder {
  return {
    code: row.code,
    provider: row.provider as Provider,
    channelCode: row.channel_code,
    amount: formatAmount(row.amount_minor, "LAK"),
    credit: formatAmount(row.credit_minor, "THB"),
    rateSell: row.rate_sell,
    status: row.status,
    flag: row.flag,
    qrPayload: row.qr_payload,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    settledAt: row.settled_at,
    attempts: row.attempts,
    usageId: row.usage_id,
    bonus: row.bonus_minor === null ? null : formatAmount(row.bonus_minor, "THB"),
    bonusState: row.bonus_state,
    // only own-account orders have one (absent, not null, elsewhere: older readers see the same order)
    ...(row.pay_amount_minor !== null ? { payAmount: formatAmount(row.pay_amount_minor, "LAK") } : {}),
  };
}

export function toWithdrawOrder(row: WithdrawOrderRow): WithdrawOrder {
  return {
    code: row.code,
    provider: row.provider as Provider,
    credit: formatAmount(row.credit_minor, "THB"),
    netCredit: formatAmount(row.net_credit_minor, "THB"),
    receivedLak: formatAmount(row.received_lak_minor, "LAK"),
    bankCode: row.bank_code,
    accountNumber: row.account_number,
    accountName: row.account_name,
    status: row.status,
    review: row.review,
    payoutState: row.payout_state,
    returnState: row.return_state,
    reason: row.reason,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    usageId: row.usage_id,
    deductions: (JSON.parse(row.deductions_json ?? "[]") as { kind: Deduction["kind"]; creditMinor: string }[]).map((d) => ({
      kind: d.kind,
      credit: formatAmount(BigInt(d.creditMinor), "THB"),
    })),
  };
}

export function toPromotionUsage(row: PromotionUsageRow): PromotionUsage {
  const thb = (minor: string | null) => (minor === null ? null : formatAmount(BigInt(minor), "THB"));
  return {
    id: row.id,
    promotionId: row.promotion_id,
    provider: row.provider as Provider,
    status: row.status,
    rules: JSON.parse(row.rules_json) as PromotionRules,
    depositCode: row.deposit_code,
    depositCredit: thb(row.deposit_credit_minor),
    bonus: thb(row.bonus_minor),
    bonusCredited: row.bonus_credited === 1,
    hold: row.hold ?? null,
    turnoverTarget: thb(row.turnover_target_minor),
    turnoverStart: thb(row.turnover_start_minor),
    withdrawCode: row.withdraw_code,
    reason: row.reason,
    claimedAt: row.claimed_at,
    usedAt: row.used_at,
    endedAt: row.ended_at,
  };
}
