import { DurableObject } from "cloudflare:workers";
import type { PromotionError } from "../core/promotion";
import type { RewardKind } from "../core/reward";
import type { WithdrawDecision } from "../core/withdraw";
import { WalletAlarm } from "./alarm";
import type { WalletContext } from "./context";
import * as deposits from "./deposits";
import { runDueWork } from "./due-work";
import * as ledger from "./ledger";
import { reprojectAll } from "./projection";
import { recordTransferOut } from "./provider-attempts";
import * as usages from "./promotion-usages";
import { WalletStore } from "./queries";
import { migrateWalletSchema } from "./schema";
import * as rewards from "./rewards";
import { offerPauseOf } from "./offers";
import type { OfferPause } from "../core/responsible-gaming";
import type { ClaimRewardResult } from "./rewards";
import * as staff from "./staff-operations";
import type {
  BankPaymentResult,
  ClaimInput,
  DepositOrder,
  LedgerLine,
  ManualCreditInput,
  MarkPaidResult,
  OpenDepositInput,
  OpenDepositResult,
  OpenWithdrawInput,
  PromotionUsage,
  Reward,
  RewardClaimInput,
  StaffRetryResult,
  StaffRewardRetryResult,
  WithdrawDecisionResult,
  WithdrawOrder,
} from "./types";
import * as withdrawals from "./withdrawals";

export type * from "./types";
export type { ClaimRewardResult } from "./rewards";

/**
 * One Durable Object per player (agency + player id): the only writer of that player's
 * money state. Every command reads and writes with ctx.storage.sql and no `await` in
 * between, so "check, then act" cannot race however many requests arrive at once.
 * Provider and gateway calls happen from the alarm, between commands, after the order is
 * marked PAID; retries and the D1 projection run from the alarm too, so nothing depends
 * on a request staying alive. A staff command also copies its change to D1 before it
 * answers (staff-operations.ts `answered`), so staff read their own writes.
 *
 * This class is the wallet's RPC surface only; each concern lives in its own module:
 * deposits.ts, settlement.ts, withdrawals.ts, promotion-usages.ts, rewards.ts, ledger.ts,
 * projection.ts (D1 read models), staff-operations.ts, alarm.ts and due-work.ts, over the
 * storage in schema.ts and queries.ts.
 */
export class PlayerWallet extends DurableObject<Env> {
  private readonly wallet: WalletContext;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const store = new WalletStore(ctx.storage.sql);
    const alarm = new WalletAlarm(ctx.storage, store);
    this.wallet = { env, store, alarm };
    ctx.blockConcurrencyWhile(async () => {
      migrateWalletSchema(ctx.storage);
      await alarm.syncArmed();
    });
  }

  /** Whose wallet this is; remembered for the alarm, which has no request to read it from. */
  identify(agencyId: string, playerId: string, username: string, origin?: string): void {
    const entries: [string, string][] = [
      ["agencyId", agencyId],
      ["playerId", playerId],
      ["username", username],
    ];
    if (origin) entries.push(["origin", origin]);
    for (const [key, value] of entries) this.wallet.store.writeMeta(key, value);
  }

  // ---- deposits ----

  openDeposit(input: OpenDepositInput): OpenDepositResult {
    return deposits.openDeposit(this.wallet, input);
  }

  attachQr(code: string, payload: string): DepositOrder | null {
    return deposits.attachQr(this.wallet, code, payload);
  }

  cancelDeposit(code: string, reason: "PLAYER" | "EXPIRED" | "GATEWAY", now: number): { ok: boolean; order: DepositOrder | null } {
    return deposits.cancelDeposit(this.wallet, code, reason, now);
  }

  markPaid(code: string, payment: { transactionId: string; amount: string }, now: number): MarkPaidResult {
    return deposits.markPaid(this.wallet, code, payment, now);
  }

  applyBankPayment(
    code: string,
    payment: { transactionId: string; amount: string; bankTime: number; aliases?: readonly string[] },
    now: number,
  ): BankPaymentResult {
    return deposits.applyBankPayment(this.wallet, code, payment, now);
  }

  getDeposit(code: string): DepositOrder | null {
    return deposits.getDeposit(this.wallet, code);
  }

  openDepositOrder(now: number): DepositOrder | null {
    return deposits.openDepositOrder(this.wallet, now);
  }

  listDeposits(page: number, pageSize: number): { items: DepositOrder[]; total: number } {
    return deposits.listDeposits(this.wallet, page, pageSize);
  }

  takeSettledNotices(): DepositOrder[] {
    return deposits.takeSettledNotices(this.wallet);
  }

  // ---- withdrawals ----

  openWithdraw(
    input: OpenWithdrawInput,
  ):
    | { kind: "created" | "existing"; order: WithdrawOrder }
    | { kind: "refused"; error: PromotionError | "PROMOTION_CHANGED" | "REWARD_HELD" | "LEVEL_WITHDRAW_LIMIT" } {
    return withdrawals.openWithdraw(this.wallet, input);
  }

  /**
   * The withdraw service's transfer-out answer. `reason`: the provider's code when refused,
   * the port's reason when unknown (stored with the attempt, decision 049; the order keeps a
   * reason only when refused).
   */
  transferOutResult(code: string, outcome: "ok" | "refused" | "unknown", now: number, reason?: string): WithdrawOrder | null {
    const order = this.wallet.store.withdrawByCode(code);
    if (order?.status === "PENDING") recordTransferOut(this.wallet, order.provider, code, outcome, reason);
    return withdrawals.transferOutResult(this.wallet, code, outcome, now, outcome === "refused" ? reason : undefined);
  }

  /** A payout decision; a staff one (back office, operator API) or a bank debit's answers after its D1 copy (staff.answered). */
  async decideWithdraw(code: string, decision: WithdrawDecision, now: number): Promise<WithdrawDecisionResult> {
    const result = withdrawals.decideWithdraw(this.wallet, code, decision, now);
    return decision.by === "gateway" ? result : staff.answered(this.wallet, result);
  }

  /** Credit withdrawn (or being withdrawn) since `from`: what a level's daily limit counts (decision 091). */
  withdrawnCreditSince(from: number): bigint {
    return this.wallet.store.withdrawnCreditSince(from);
  }

  getWithdraw(code: string): WithdrawOrder | null {
    return withdrawals.getWithdraw(this.wallet, code);
  }

  listWithdraws(page: number, pageSize: number): { items: WithdrawOrder[]; total: number } {
    return withdrawals.listWithdraws(this.wallet, page, pageSize);
  }

  withdrawByKey(key: string): WithdrawOrder | null {
    return withdrawals.withdrawByKey(this.wallet, key);
  }

  openWithdraws(): WithdrawOrder[] {
    return withdrawals.openWithdraws(this.wallet);
  }

  takeWithdrawNotices(): WithdrawOrder[] {
    return withdrawals.takeWithdrawNotices(this.wallet);
  }

  // ---- promotion usages ----

  claimPromotion(input: ClaimInput): { ok: true; usage: PromotionUsage } | { ok: false; error: PromotionError } {
    return usages.claimPromotion(this.wallet, input);
  }

  cancelPromotion(usageId: string, now: number): { ok: true; usage: PromotionUsage } | { ok: false; error: PromotionError | "NOT_CANCELABLE" } {
    return usages.cancelPromotion(this.wallet, usageId, now);
  }

  getUsage(id: string): PromotionUsage | null {
    return usages.getUsage(this.wallet, id);
  }

  /** Staff release or refuse a held promotion claim (decision 094), once. */
  decidePromotionHold(usageId: string, to: "RELEASED" | "REFUSED", now: number = Date.now()): usages.HoldDecision {
    return usages.decideHold(this.wallet, usageId, to, now);
  }

  activeUsage(now: number = Date.now()): PromotionUsage | null {
    return usages.activeUsage(this.wallet, now);
  }

  listUsages(page: number, pageSize: number): { items: PromotionUsage[]; total: number } {
    return usages.listUsages(this.wallet, page, pageSize);
  }

  // ---- offers (decision 091) ----

  /** Whether this player may be offered anything now (a promotion, a reward of any kind), and if not, why. */
  offerPause(agencyId: string, playerId: string, now: number): Promise<OfferPause | null> {
    return offerPauseOf(this.wallet, agencyId, playerId, now);
  }

  // ---- rewards (cashback, referral share: decision 029) ----

  /**
   * Claims a reward: credited at `input.provider` by the deposit settlement saga (reference =
   * the reward code), once per (kind, period[, provider]); a repeat gets the same reward back.
   */
  claimReward(input: RewardClaimInput): Promise<ClaimRewardResult> {
    return rewards.claimReward(this.wallet, input);
  }

  getReward(code: string): Reward | null {
    return rewards.getReward(this.wallet, code);
  }

  listRewards(kind: RewardKind | null, page: number, pageSize: number): { items: Reward[]; total: number } {
    return rewards.listRewards(this.wallet, kind, page, pageSize);
  }

  /** Rewards at this provider that hold a withdrawal from it (pending credit, turnover not met). */
  rewardsHoldingWithdraw(provider: string): Reward[] {
    return rewards.rewardsHoldingWithdraw(this.wallet, provider);
  }

  /** Staff retry of a FAILED reward: the same reward again, once per press (rewards.retryFailedReward); answered after its D1 copy. */
  async retryFailedReward(code: string, expectedRetries: number, now: number): Promise<StaffRewardRetryResult> {
    return staff.answered(this.wallet, await rewards.retryFailedReward(this.wallet, code, expectedRetries, now));
  }

  markRewardTurnoverMet(code: string, now: number): void {
    rewards.markRewardTurnoverMet(this.wallet, code, now);
  }

  // ---- ledger ----

  ledgerTotals(): Record<string, string> {
    return ledger.ledgerTotals(this.wallet.store);
  }

  ledgerFor(code: string): LedgerLine[] {
    return ledger.ledgerFor(this.wallet.store, code);
  }

  // ---- staff operations (back office): each answers after the D1 copy of its change (staff.answered) ----

  settlementRetries(code: string): number {
    return staff.settlementRetries(this.wallet, code);
  }

  async retryFailedSettlement(code: string, expectedRetries: number, now: number): Promise<StaffRetryResult> {
    return staff.answered(this.wallet, await staff.retryFailedSettlement(this.wallet, code, expectedRetries, now));
  }

  async creditManualPayment(input: ManualCreditInput): Promise<{ kind: "created" | "existing"; order: DepositOrder }> {
    return staff.answered(this.wallet, await staff.creditManualPayment(this.wallet, input));
  }

  /** A ledger booking only: no row staff lists read changes (nothing to copy). */
  releaseLatePayment(code: string, entry: "late-credited" | "late-refunded", now: number): boolean {
    return staff.releaseLatePayment(this.wallet, code, entry, now);
  }

  // ---- read models ----

  /**
   * Copies every order and usage of this wallet to the D1 read models again, now: the
   * reports' backfill of wallets written before migration 0022 (workers/services/reports/report-backfill.ts).
   * `remaining` > 0: some rows could not be copied; the alarm retries them.
   */
  reproject(): Promise<{ rows: number; remaining: number }> {
    return reprojectAll(this.wallet);
  }

  // ---- the alarm: settlement saga, reconciler, expiry, projection ----

  async alarm(): Promise<void> {
    this.wallet.alarm.fired();
    await runDueWork(this.wallet, Date.now());
  }

  /**
   * The cron's safety net (workers/services/wallets/wakeups.ts): arms the alarm from the wallet's
   * own state, whatever `meta` believes is armed, so due work is woken even if its alarm
   * was lost. Returns the time armed, or null when nothing is due.
   */
  rearm(): number | null {
    this.wallet.alarm.rearmFromState(Date.now());
    return this.wallet.alarm.armedAt();
  }

  /**
   * The alarm's work, callable directly by tests and the bench with a clock of their own
   * (`now` in the future runs retries that are not yet due by the wall clock).
   */
  async runDueWork(now: number = Date.now()): Promise<void> {
    await runDueWork(this.wallet, now);
  }
}
