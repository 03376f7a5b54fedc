import type { Provider } from "../core/providers";

/**
 * The referral share credited through the player's wallet: the reward path shared with
 * cashback (credit at the chosen provider, ledger entries, a turnover requirement like a
 * promotion's, once per kind and period). Until helper B's wallet method is merged this
 * throws (the claim stays PENDING and says the provider is unavailable).
 */
export type RewardOutcome = { created: boolean; status: "PENDING" | "SUCCESS" | "FAILED" };

export async function creditReferralReward(
  _env: Env,
  _who: { agencyId: string; playerId: string; username: string },
  _reward: { weekStart: string; provider: Provider; amountMinor: bigint; turnoverMultiplier: number; basis: Record<string, string> },
): Promise<RewardOutcome> {
  throw new Error("reward path not merged yet");
}

/** The wallet's referral rewards by week (Monday 'YYYY-MM-DD') and their status. */
export async function referralRewardStatuses(_env: Env, _agencyId: string, _playerId: string): Promise<Map<string, "PENDING" | "SUCCESS" | "FAILED">> {
  return new Map();
}
