import { formatAmount, parseAmount } from "../../core/money";
import type { Provider } from "../../core/providers";
import type { RewardKind } from "../../core/reward";
import { providerUsername } from "../../ports/provider";
import { weekOfKey } from "../../core/reward-period";
import { auditStatement, type AuditActor } from "../../db/audit";
import { settleClaim } from "../../db/referrals";
import { findRewardClaim, type RewardClaimRow } from "../../db/rewards";
import type { ClaimRewardResult, Reward, RewardClaimInput, StaffRewardRetryResult } from "../../wallet/player-wallet";
import { providerPortFor } from "../../wallet/provider-port";
import { holdIfLinked, takeBackClaim } from "../holds";
import { walletOf } from "../wallets";

/**
 * The reward path shared by cashback and the referral share (decision 029): the
 * player's wallet credits the reward at the provider the player chose and holds
 * withdrawals from that provider until its turnover requirement is met.
 */

export type RewardHoldError = "REWARD_PENDING" | "REWARD_TURNOVER_NOT_MET";

/** A new reward code (also the provider reference of its credit): `K` + yymmdd + 5 characters. */
function newRewardCode(now: number): string {
  const stamp = new Date(now).toISOString().slice(2, 10).replace(/-/g, "");
  const bytes = new Uint8Array(5);
  crypto.getRandomValues(bytes);
  return `K${stamp}${[...bytes].map((b) => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[b % 32]).join("")}`;
}

/** A reward held for review (decision 094): HELD, it waits for staff; REFUSED, staff said no. Nothing was written in the wallet. */
export type HeldReward = { kind: "held"; status: "HELD" | "REFUSED" };

/**
 * Claims a reward in the player's wallet (identified first, for the alarm's later attempts): the
 * one door of every reward kind. The first claim of the reward among linked accounts wins; a
 * later one is held, nothing written in the wallet (its release credits it under the same code).
 */
export async function claimWalletReward(
  env: Env,
  who: { agencyId: string; playerId: string; username: string },
  input: Omit<RewardClaimInput, "code" | "now">,
  now = Date.now(),
): Promise<ClaimRewardResult | HeldReward> {
  const code = newRewardCode(now);
  const wallet = walletOf(env, who.agencyId, who.playerId);
  const [, hold] = await Promise.all([
    wallet.identify(who.agencyId, who.playerId, who.username),
    holdIfLinked(env, who, { kind: input.kind, subject: input.period, ref: code, amount: formatAmount(BigInt(input.amountMinor), "THB"), claim: input }),
  ]);
  if (hold) return { kind: "held", status: hold.status === "REFUSED" ? "REFUSED" : "HELD" };
  const result = await wallet.claimReward({ ...input, code, now });
  // a claim the wallet did not make under this code (paused, or a repeat that found the first) gives back what it wrote
  if (result.kind !== "created") await takeBackClaim(env, who.agencyId, code);
  return result;
}

export async function listWalletRewards(
  env: Env,
  agencyId: string,
  playerId: string,
  kind: RewardKind | null,
  page = 1,
  pageSize = 20,
): Promise<{ items: Reward[]; total: number }> {
  return walletOf(env, agencyId, playerId).listRewards(kind, page, pageSize);
}

/**
 * Before a withdrawal from `provider`: each reward there that is credited with turnover to
 * play is measured at the provider (bets since its credit, from the counter read before it);
 * met ones stop holding. A reward not credited yet, or not met, refuses the withdrawal.
 */
export async function rewardHoldForWithdraw(
  env: Env,
  agencyId: string,
  username: string,
  playerId: string,
  provider: Provider,
): Promise<RewardHoldError | null> {
  const wallet = walletOf(env, agencyId, playerId);
  const holding = await wallet.rewardsHoldingWithdraw(provider);
  if (holding.length === 0) return null;
  if (holding.some((r) => r.status === "PENDING")) return "REWARD_PENDING";
  const port = providerPortFor(env, agencyId, provider);
  let held = false;
  for (const reward of holding) {
    const done = await measureReward(wallet, port, providerUsername(agencyId, username), reward);
    if (done === null) return "REWARD_TURNOVER_NOT_MET"; // cannot tell: the requirement still holds
    if (!done.met) held = true;
  }
  return held ? "REWARD_TURNOVER_NOT_MET" : null;
}

/** A credited reward's turnover so far, read at its provider; a met one stops holding. null: the provider did not answer. */
async function measureReward(
  wallet: ReturnType<typeof walletOf>,
  port: ReturnType<typeof providerPortFor>,
  user: string,
  reward: Reward,
): Promise<{ doneMinor: bigint; met: boolean } | null> {
  const counter = await port.turnover(user, reward.turnoverSince ?? undefined);
  if (counter.kind !== "ok") return null;
  const doneMinor = turnoverDone(counter.amountMinor, reward);
  const met = doneMinor >= (parseAmount(reward.turnoverTarget, "THB") ?? 0n);
  if (met) await wallet.markRewardTurnoverMet(reward.code, Date.now());
  return { doneMinor, met };
}

/** A reward as its history line shows it: `turnoverDone` = bets so far while the requirement is open (null: not credited, met, or the provider did not answer). */
export type RewardWithProgress = Reward & { turnoverDone: string | null };

/**
 * The reward history with the turnover progress of each credited reward still to be played
 * through ("turnover X of Y", like a promotion's), measured at its provider as a withdrawal
 * would (a met one stops holding). Only those rewards are asked, at once.
 */
export async function withTurnoverProgress(
  env: Env,
  who: { agencyId: string; playerId: string; username: string },
  rewards: readonly Reward[],
): Promise<RewardWithProgress[]> {
  const wallet = walletOf(env, who.agencyId, who.playerId);
  const user = providerUsername(who.agencyId, who.username);
  return Promise.all(
    rewards.map(async (reward): Promise<RewardWithProgress> => {
      if (reward.status !== "SUCCESS" || reward.turnoverMet) return { ...reward, turnoverDone: null };
      const done = await measureReward(wallet, providerPortFor(env, who.agencyId, reward.provider), user, reward);
      if (!done) return { ...reward, turnoverDone: null };
      return { ...reward, turnoverMet: done.met, turnoverDone: done.met ? null : formatAmount(done.doneMinor, "THB") };
    }),
  );
}

/** Bets since the reward's credit: the counter's growth (a window provider counts from `since`: start 0). */
function turnoverDone(counterMinor: bigint, reward: Reward): bigint {
  const start = BigInt(reward.turnoverStart ?? "0");
  return counterMinor > start ? counterMinor - start : 0n;
}

export type RewardRetryOutcome = StaffRewardRetryResult["kind"];

/**
 * Staff retry of a FAILED reward from a claims list (/admin/cashback, /admin/referrals): the
 * wallet credits the same reward again, once per press (PlayerWallet.retryFailedReward).
 * `kind` is the list's: a code of the other kind (or another agency) is "not found". Audited
 * as `reward.retry` right after the wallet answers, whatever the outcome. A referral share that
 * lands also marks its week's claim credited (as the player's page would on its next load).
 */
export async function retryRewardClaim(
  env: Env,
  actor: AuditActor,
  kind: RewardKind,
  code: string,
  expectedRetries: number,
): Promise<{ kind: RewardRetryOutcome; reward: Reward | null }> {
  const found = await findRewardClaim(env.DB, actor.agencyId, code);
  if (!found || found.kind !== kind) return { kind: "not-found", reward: null };
  const wallet = walletOf(env, actor.agencyId, found.playerId);
  await wallet.identify(actor.agencyId, found.playerId, found.username);
  const before = await wallet.getReward(code);
  if (!before) return { kind: "not-found", reward: null };
  const result = (await wallet.retryFailedReward(code, expectedRetries, Date.now())) as StaffRewardRetryResult;
  const after = "reward" in result ? result.reward : null;
  await auditStatement(env.DB, actor, {
    action: "reward.retry",
    target: code,
    before: { kind, status: before.status, reason: before.reason, retries: expectedRetries },
    after: { outcome: result.kind, status: after?.status ?? null, reason: after?.reason ?? null, reference: "reference" in result ? result.reference : null },
  }).run();
  const week = weekOfKey(found.period);
  if (kind === "REFERRAL" && after?.status === "SUCCESS" && week) await settleClaim(env.DB, actor.agencyId, found.playerId, week.from);
  return { kind: result.kind, reward: after };
}

/**
 * The claims lists with what staff may retry: a FAILED claim, unless the player has since
 * claimed the same period again (at the same provider, for a per-provider reward) and that
 * claim is pending or credited: the wallet would refuse it ("claimed-again") anyway.
 */
export function withRetry(items: readonly RewardClaimRow[], perProvider: boolean): (RewardClaimRow & { retryable: boolean })[] {
  const live = new Set(items.filter((c) => c.status !== "FAILED").map((c) => `${c.playerId}|${c.period}|${perProvider ? c.provider : ""}`));
  return items.map((c) => ({ ...c, retryable: c.status === "FAILED" && !live.has(`${c.playerId}|${c.period}|${perProvider ? c.provider : ""}`) }));
}
