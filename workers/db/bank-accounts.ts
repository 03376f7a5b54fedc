/** Statements over `bank_accounts`: a player's one LAK account (migration 0003). */

/** Whether the player has added their bank account (deposits, promotions and withdrawals need one). */
export async function hasBankAccount(db: D1Database, agencyId: string, playerId: string): Promise<boolean> {
  return (await db.prepare(`SELECT 1 FROM bank_accounts WHERE agency_id = ?1 AND player_id = ?2`).bind(agencyId, playerId).first()) !== null;
}
