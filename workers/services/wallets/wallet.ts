import { isCurrency, parseRate, type Rate } from "../../core/money";
import { findExchangeRate, type ExchangeRate } from "../../db/payments";

/** The player's wallet Durable Object (agency + player): the only writer of their money. */
export function walletOf(env: Env, agencyId: string, playerId: string) {
  return env.PLAYER_WALLET.get(env.PLAYER_WALLET.idFromName(`${agencyId}:${playerId}`));
}

/** docs/product.md §3 exchange rate of the credit currency (THB), or null when none is set. */
export async function creditRate(db: D1Database, agencyId: string, currency = "THB"): Promise<Rate | null> {
  return rateOf(await findExchangeRate(db, agencyId, currency));
}

/** A stored exchange rate as money reads it (read with other statements: exchangeRateRead), or null when none is set. */
export function rateOf(stored: ExchangeRate | null): Rate | null {
  if (!stored || !isCurrency(stored.currency)) return null;
  const buy = parseRate(stored.buy);
  const sell = parseRate(stored.sell);
  return buy && sell ? { currency: stored.currency, buy, sell } : null;
}

/**
 * Deposits settled and withdrawals finished since the player last looked, taken once (the
 * player layout announces them on whatever page comes next, docs/product.md §8).
 */
export async function takeOrderNotices(env: Env, agencyId: string, playerId: string) {
  const wallet = walletOf(env, agencyId, playerId);
  const [settled, withdrawn] = await Promise.all([wallet.takeSettledNotices(), wallet.takeWithdrawNotices()]);
  return {
    notices: settled.map((n) => ({ code: n.code, credit: n.credit, provider: n.provider })),
    withdrawals: withdrawn.map((w) => ({ code: w.code, status: w.status, received: w.receivedLak })),
  };
}
