-- Signatures of webhooks already received: the same signed request seen again is a replay
-- and is refused (a gateway's own retry is signed anew). Old rows can be pruned after the
-- 300 s tolerance window; keeping them longer costs nothing but space.
CREATE TABLE webhook_signatures (
  signature TEXT PRIMARY KEY,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
