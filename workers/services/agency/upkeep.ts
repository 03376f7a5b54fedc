import { optimizeQueryPlanner } from "../../db/upkeep";

/**
 * The database's upkeep on the cron (decision 075): the query planner's statistics kept fresh,
 * and the deletes that keep tables bounded (expired sessions, old provider attempts) run in
 * batches a run cannot exceed, so a backlog never becomes one long statement holding D1's one
 * writer while every player's deposit waits on it.
 */

/**
 * Rows one delete may remove, and deletes one run may make: 5,000 rows a run, 1.44 million a
 * day at the 5-minute tick. A delete of 1,000 expired sessions (each copying its play span)
 * took 0.4 s on the scale data in local D1: 500 keep each hold of the writer near 0.2 s.
 */
const ROWS_PER_DELETE = 500;
const DELETES_PER_RUN = 10;

/** `PRAGMA optimize`, hourly and after migrations; a failure is logged (the planner keeps its older statistics). */
export async function optimizeDatabase(db: D1Database): Promise<void> {
  try {
    await optimizeQueryPlanner(db);
  } catch (error) {
    console.error("PRAGMA optimize failed", error);
  }
}

/**
 * Bounded deletes, one after another until one removes less than its batch or the run's
 * share is spent; what is left waits for the next tick. Never throws (nothing depends on a
 * row being gone). Answers how many rows went.
 */
export async function deleteInBatches(deleteSome: (limit: number) => Promise<number>, what: string): Promise<number> {
  let deleted = 0;
  try {
    for (let i = 0; i < DELETES_PER_RUN; i++) {
      const n = await deleteSome(ROWS_PER_DELETE);
      deleted += n;
      if (n < ROWS_PER_DELETE) break;
    }
  } catch (error) {
    console.error(`${what}: prune failed`, error);
  }
  return deleted;
}
