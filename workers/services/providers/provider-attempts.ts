import { ATTEMPT_RETENTION_MS } from "../../core/provider-attempts";
import { deleteProviderAttemptsBefore } from "../../db/provider-attempts";

/**
 * The 5-minute cron keeps provider_attempts bounded (decision 049): rows older than the
 * retention are deleted, every agency at once (an index on `at`).
 */
export async function pruneProviderAttempts(db: D1Database, now: number): Promise<number> {
  try {
    return await deleteProviderAttemptsBefore(db, new Date(now - ATTEMPT_RETENTION_MS).toISOString());
  } catch (error) {
    // the next tick tries again; nothing depends on a row being gone
    console.error("provider attempts prune failed", error);
    return 0;
  }
}
