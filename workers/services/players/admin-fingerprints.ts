import type { BoundedCount, ListAsk, ListPage } from "../../core/keyset";
import { fingerprintAccounts, sharedFingerprintGroups, type FingerprintAccount, type SharedFingerprintGroup } from "../../db/players";

/**
 * Back office, fingerprint report (decision 008): device fingerprints seen on two or more
 * players of the same agency, the multi-account signal. Newest activity first, with the
 * players on each device and when each was first and last seen there.
 */
export type SharedFingerprint = SharedFingerprintGroup & {
  accounts: Omit<FingerprintAccount, "fingerprint">[];
};

export async function sharedFingerprints(db: D1Database, agencyId: string, ask: ListAsk): Promise<ListPage<SharedFingerprint> & { total: BoundedCount }> {
  const { items: groups, total, next, previous } = await sharedFingerprintGroups(db, agencyId, ask);
  if (groups.length === 0) return { items: [], total, next, previous };
  const accounts = await fingerprintAccounts(
    db,
    agencyId,
    groups.map((g) => g.fingerprint),
  );
  return {
    total,
    next,
    previous,
    items: groups.map((group) => ({
      ...group,
      accounts: accounts
        .filter((a) => a.fingerprint === group.fingerprint)
        .map((a) => ({
          playerId: a.playerId,
          username: a.username,
          displayName: a.displayName,
          status: a.status,
          firstSeenAt: a.firstSeenAt,
          lastSeenAt: a.lastSeenAt,
          seenCount: a.seenCount,
        })),
    })),
  };
}
