import { PLAYER_SESSION } from "../../core/session";
import { deleteExpiredPlayerSessions } from "../../db/players";
import { deleteInBatches } from "../agency";

/**
 * The 5-minute cron deletes the players' expired sessions (decision 075); before, a session
 * was deleted only when its cookie came back after it expired. Only sessions expired for
 * longer than the idle time: by then the session's last activity is older than the idle time
 * too, so the play-time clock already counted it as ended at its last activity, and the span
 * the `sessions_keep_play_span` trigger copies to play_spans (login to last activity) is the
 * same span: today's time played does not move (decision 025).
 */
export async function pruneExpiredPlayerSessions(db: D1Database, now: number): Promise<number> {
  return deleteInBatches((limit) => deleteExpiredPlayerSessions(db, now - PLAYER_SESSION.idleMs, limit), "expired player sessions");
}
