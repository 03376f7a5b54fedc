import { upsertFingerprint } from "../../db/players";

/** Device fingerprints per player: first and last seen, and how often. */
export async function recordFingerprint(db: D1Database, agencyId: string, playerId: string, fingerprint: string, payload: unknown): Promise<void> {
  await upsertFingerprint(db, agencyId, playerId, fingerprint, JSON.stringify(payload));
}
