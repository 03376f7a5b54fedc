import type { Provider } from "../../core/providers";
import { weekOfDay, weekOfKey } from "../../core/reward-period";
import { claimWalletReward, listWalletRewards, withTurnoverProgress, type RewardWithProgress } from "./rewards";

/**
 * The referral share credited through the player's wallet: the reward path shared with
 * cashback (decision 029: credit at the chosen provider, ledger entries, a turnover
 * requirement like a promotion's, unique per kind and period in the wallet itself).
 * The period is the ISO week key of the week's Monday ("2026-W47"), as cashback's.
 */
type RewardStatus = "PENDING" | "SUCCESS" | "FAILED";
/** PAUSED: the player is on a break or at a limit (decision 091); HELD or REFUSED: held for review (decision 094). The wallet wrote nothing. */
export type RewardOutcome = { created: boolean; status: RewardStatus | "PAUSED" | "HELD" | "REFUSED" };

export async function creditReferralReward(
  env: Env,
  who: { agencyId: string; playerId: string; username: string },
  reward: { weekStart: string; provider: Provider; amountMinor: bigint; turnoverMultiplier: number; basis: Record<string, string> },
): Promise<RewardOutcome> {
  const result = await claimWalletReward(env, who, {
    kind: "REFERRAL",
    period: weekOfDay(reward.weekStart).key,
    // once per week whatever the provider: the share is one amount, credited where the player chose
    perProvider: false,
    provider: reward.provider,
    amountMinor: reward.amountMinor.toString(),
    turnoverMultiple: String(reward.turnoverMultiplier),
    basis: reward.basis,
  });
  if (result.kind === "paused") return { created: false, status: "PAUSED" };
  if (result.kind === "held") return { created: false, status: result.status };
  return { created: result.kind === "created", status: result.reward.status };
}

/** The wallet's referral rewards by week (Monday 'YYYY-MM-DD') and their status. */
export async function referralRewardStatuses(env: Env, agencyId: string, playerId: string): Promise<Map<string, RewardStatus>> {
  const { items } = await listWalletRewards(env, agencyId, playerId, "REFERRAL", 1, 100);
  const out = new Map<string, RewardStatus>();
  for (const r of items) {
    const week = weekOfKey(r.period);
    // a week may hold a FAILED reward and the one claimed (or retried) after it: the live one wins
    if (week && (out.get(week.from) ?? "FAILED") === "FAILED") out.set(week.from, r.status);
  }
  return out;
}

/** The credited referral rewards by week (Monday 'YYYY-MM-DD') with their turnover progress, for the history. */
export async function referralRewardProgress(
  env: Env,
  who: { agencyId: string; playerId: string; username: string },
): Promise<Map<string, RewardWithProgress>> {
  const { items } = await listWalletRewards(env, who.agencyId, who.playerId, "REFERRAL", 1, 100);
  const out = new Map<string, RewardWithProgress>();
  for (const r of await withTurnoverProgress(
    env,
    who,
    items.filter((r) => r.status === "SUCCESS"),
  )) {
    const week = weekOfKey(r.period);
    if (week) out.set(week.from, r);
  }
  return out;
}
