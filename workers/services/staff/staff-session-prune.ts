import { deleteExpiredStaffSessions } from "../../db/staff";
import { deleteInBatches } from "../agency";

/** The 5-minute cron deletes staff sessions past their expiry (decision 075): a staff session counts no play time, nothing else reads it. */
export async function pruneExpiredStaffSessions(db: D1Database, now: number): Promise<number> {
  return deleteInBatches((limit) => deleteExpiredStaffSessions(db, now, limit), "expired staff sessions");
}
