import { ATTEMPT_RETENTION_MS } from "../../core/provider-attempts";
import { deleteProviderAttemptsBefore } from "../../db/provider-attempts";
import { deleteInBatches } from "../agency";

/**
 * The 5-minute cron keeps provider_attempts bounded (decision 049): rows older than the
 * retention are deleted, every agency at once (an index on `at`), in bounded deletes
 * (decision 075): a backlog of weeks goes over several ticks, never in one long statement.
 */
export async function pruneProviderAttempts(db: D1Database, now: number): Promise<number> {
  const before = new Date(now - ATTEMPT_RETENTION_MS).toISOString();
  return deleteInBatches((limit) => deleteProviderAttemptsBefore(db, before, limit), "provider attempts");
}
