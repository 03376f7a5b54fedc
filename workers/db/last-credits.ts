import type { KnownCredit } from "../core/credit-chip";
import { rowsOf, type Read } from "./reads";

/**
 * The last credit the portal knows of a player at each provider (decision 081, migration
 * 0043): what the header shows without asking any provider.
 */

/**
 * Keeps a credit just read from a provider. A read that finished later than a newer one
 * already stored (two tabs, a slow provider) does not overwrite it: the newest wins.
 */
export async function recordLastCredit(db: D1Database, agencyId: string, playerId: string, credit: KnownCredit): Promise<void> {
  await db
    .prepare(
      `INSERT INTO last_credits (agency_id, player_id, provider, amount, currency, seen_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (agency_id, player_id, provider) DO UPDATE SET amount = excluded.amount, currency = excluded.currency, seen_at = excluded.seen_at
       WHERE excluded.seen_at >= last_credits.seen_at`,
    )
    .bind(agencyId, playerId, credit.provider, credit.amount, credit.currency, credit.seenAt)
    .run();
}

/** A player's last known credits, one per provider they were ever read at. */
export function lastCreditsRead(db: D1Database, agencyId: string, playerId: string): Read<KnownCredit[]> {
  return {
    statement: db
      .prepare(`SELECT provider, amount, currency, seen_at AS seenAt FROM last_credits WHERE agency_id = ?1 AND player_id = ?2`)
      .bind(agencyId, playerId),
    read: (result) => rowsOf<KnownCredit>(result),
  };
}
