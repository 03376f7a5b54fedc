/**
 * Statements over `payment_channels.payout_qr_banks` (migration 0048, decision 086): per
 * own-account channel, the player banks whose QR with the amount inserted the agency's bank
 * app on that channel accepts. Stored as bank codes separated by spaces, '' for none.
 */

const split = (banks: string) => banks.split(" ").filter(Boolean);

/** Every own-account channel's list, by channel code (the channel screen). */
export async function payoutQrBanksOfChannels(db: D1Database, agencyId: string): Promise<Map<string, string[]>> {
  const { results } = await db
    .prepare(`SELECT code, payout_qr_banks FROM payment_channels WHERE agency_id = ?1 AND gateway = 'own_account'`)
    .bind(agencyId)
    .all<{ code: string; payout_qr_banks: string }>();
  return new Map(results.map((r) => [r.code, split(r.payout_qr_banks)]));
}

/** The active own-account channels whose bank app accepts a derived QR of this player bank: their display names. */
export async function payoutQrChannelsFor(db: D1Database, agencyId: string, bankCode: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT display_name FROM payment_channels
        WHERE agency_id = ?1 AND gateway = 'own_account' AND active = 1 AND instr(' ' || payout_qr_banks || ' ', ' ' || ?2 || ' ') > 0
        ORDER BY code`,
    )
    .bind(agencyId, bankCode)
    .all<{ display_name: string }>();
  return results.map((r) => r.display_name);
}

export function setPayoutQrBanksStatement(db: D1Database, agencyId: string, code: string, banks: readonly string[]): D1PreparedStatement {
  return db
    .prepare(`UPDATE payment_channels SET payout_qr_banks = ?3 WHERE agency_id = ?1 AND code = ?2 AND gateway = 'own_account'`)
    .bind(agencyId, code, [...banks].sort().join(" "));
}
