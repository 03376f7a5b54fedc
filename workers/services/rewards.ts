import { parseAmount } from "../core/money";
import type { Provider } from "../core/providers";
import type { RewardKind } from "../core/reward";
import { providerUsername } from "../ports/provider";
import { weekOfKey } from "../core/reward-period";
import { auditStatement, type AuditActor } from "../db/audit";
import { settleClaim } from "../db/referrals";
import { findRewardClaim } from "../db/rewards";
import type { ClaimRewardResult, Reward, RewardClaimInput, StaffRewardRetryResult } from "../wallet/player-wallet";
import { providerPortFor } from "../wallet/provider-port";
import { walletOf } from "./wallet";

/**
 * The reward path shared by cashback and the referral share (issue 18, decision 029): the
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

/** Claims a reward in the player's wallet (identified first, for the alarm's later attempts). */
export async function claimWalletReward(
  env: Env,
  who: { agencyId: string; playerId: string; username: string },
  input: Omit<RewardClaimInput, "code" | "now">,
  now = Date.now(),
): Promise<ClaimRewardResult> {
  const wallet = walletOf(env, who.agencyId, who.playerId);
  await wallet.identify(who.agencyId, who.playerId, who.username);
  return wallet.claimReward({ ...input, code: newRewardCode(now), now });
}

export async function listWalletRewards(env: Env, agencyId: string, playerId: string, kind: RewardKind | null, page = 1, pageSize = 20): Promise<{ items: Reward[]; total: number }> {
  return walletOf(env, agencyId, playerId).listRewards(kind, page, pageSize);
}

/**
 * Before a withdrawal from `provider`: each reward there that is credited with turnover to
 * play is measured at the provider (bets since its credit, from the counter read before it);
 * met ones stop holding. A reward not credited yet, or not met, refuses the withdrawal.
 */
export async function rewardHoldForWithdraw(env: Env, agencyId: string, username: string, playerId: string, provider: Provider): Promise<RewardHoldError | null> {
  const wallet = walletOf(env, agencyId, playerId);
  const holding = await wallet.rewardsHoldingWithdraw(provider);
  if (holding.length === 0) return null;
  if (holding.some((r) => r.status === "PENDING")) return "REWARD_PENDING";
  const port = providerPortFor(env, agencyId, provider);
  let held = false;
  for (const reward of holding) {
    const counter = await port.turnover(providerUsername(agencyId, username), reward.turnoverSince ?? undefined);
    if (counter.kind !== "ok") return "REWARD_TURNOVER_NOT_MET"; // cannot tell: the requirement still holds
    if (turnoverDone(counter.amountMinor, reward) >= (parseAmount(reward.turnoverTarget, "THB") ?? 0n)) await wallet.markRewardTurnoverMet(reward.code, Date.now());
    else held = true;
  }
  return held ? "REWARD_TURNOVER_NOT_MET" : null;
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
export async function retryRewardClaim(env: Env, actor: AuditActor, kind: RewardKind, code: string, expectedRetries: number): Promise<{ kind: RewardRetryOutcome; reward: Reward | null }> {
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
