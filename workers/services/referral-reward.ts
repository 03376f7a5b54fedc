import type { Provider } from "../core/providers";

/**
 * The referral share credited through the player's wallet: the reward path (credit at the
 * chosen provider, ledger entries, a turnover requirement like a promotion's, idempotent per
 * kind and period). Until helper B's wallet method is merged this answers "not available".
 */
export type RewardOutcome = { ok: true; duplicate: boolean } | { ok: false; code: string };

export async function creditReferralReward(
  _env: Env,
  _agencyId: string,
  _playerId: string,
  _reward: { period: string; provider: Provider; amountMinor: bigint; turnoverMultiplier: number },
): Promise<RewardOutcome> {
  return { ok: false, code: "REWARD_PATH_MISSING" };
}
