import { isCurrency, parseRate, type Rate } from "../core/money";

/** The player's wallet Durable Object (agency + player): the only writer of their money. */
export function walletOf(env: Env, agencyId: string, playerId: string) {
  return env.PLAYER_WALLET.get(env.PLAYER_WALLET.idFromName(`${agencyId}:${playerId}`));
}

/** SPEC §3 exchange rate of the credit currency (THB), or null when none is set. */
export async function creditRate(db: D1Database, agencyId: string, currency = "THB"): Promise<Rate | null> {
  const row = await db.prepare(`SELECT currency, buy, sell FROM exchange_rates WHERE agency_id = ?1 AND currency = ?2`).bind(agencyId, currency).first<{ currency: string; buy: string; sell: string }>();
  if (!row || !isCurrency(row.currency)) return null;
  const buy = parseRate(row.buy);
  const sell = parseRate(row.sell);
  return buy && sell ? { currency: row.currency, buy, sell } : null;
}
