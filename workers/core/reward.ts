/**
 * Rewards (cashback, referral share, check-in, deposit streak) as the wallet credits them: an amount of
 * credit at a provider the player chose, with a turnover requirement like a promotion's
 * (decision 029): the credit must be played through `multiple` times at that provider
 * before a withdrawal from it.
 */

/** Check-in and streak: decision 095. */
export type RewardKind = "CASHBACK" | "REFERRAL" | "CHECKIN" | "STREAK";

/** A multiple with at most 2 decimals ("0", "3", "1.5") -> hundredths; null when it is not one. */
export function parseMultiple(text: string): bigint | null {
  const match = /^(\d{1,4})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
}

/** The turnover to reach before withdrawing: amount x multiple, rounded up to the satang. */
export function rewardTurnoverTarget(amountMinor: bigint, multiple: string): bigint {
  const hundredths = parseMultiple(multiple) ?? 0n;
  return (amountMinor * hundredths + 99n) / 100n;
}

/** The claim a reward is unique per: kind and period, and the provider when claimed per provider. */
export function rewardClaimKey(kind: RewardKind, period: string, provider: string | null): string {
  return provider ? `${kind}:${period}:${provider}` : `${kind}:${period}`;
}
