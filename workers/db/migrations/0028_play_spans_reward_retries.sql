-- Issue 18 leftovers. (1) Decision 025, "Play time": the time of a session that ended still counts
-- for its Vientiane day. Every way a player session ends deletes its row (logout, idle or
-- absolute expiry, password change, "end other sessions", staff ending or locking), so the
-- span is kept by a trigger on the DELETE itself rather than in each code path: no path can
-- forget it. started_at = login, ended_at = last activity (logout first moves last_seen_at to
-- the moment of the logout, workers/db/play-spans.ts). Spans more than two days old are of no
-- use (only today counts) and are dropped as the player's next span is written, so the table
-- stays a few rows per player.
CREATE TABLE play_spans (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  agency_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL CHECK (ended_at > started_at)
);
CREATE INDEX play_spans_player ON play_spans(agency_id, player_id, ended_at);

CREATE TRIGGER sessions_keep_play_span AFTER DELETE ON sessions
WHEN OLD.last_seen_at > OLD.created_at
BEGIN
  DELETE FROM play_spans WHERE agency_id = OLD.agency_id AND player_id = OLD.player_id AND ended_at < OLD.last_seen_at - 172800000;
  INSERT INTO play_spans (agency_id, player_id, started_at, ended_at) VALUES (OLD.agency_id, OLD.player_id, OLD.created_at, OLD.last_seen_at);
END;

-- Decision 029, staff retry of a FAILED reward: the claims lists carry the retry count the
-- staff member saw, so a second press of the same retry form does nothing.
ALTER TABLE reward_claims ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
