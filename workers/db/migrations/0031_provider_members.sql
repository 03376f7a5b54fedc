-- Decision 048 (issue 35 item 1): Betflix puts its agent prefix before the name we register
-- and answers the full name; that name is the member for every later call. It is kept here
-- per player and provider, the first time a member is registered or an existing one adopted.
-- One member belongs to one player (a derived-name collision is refused, never shared).
-- Rows are never updated: a new account at the provider (another base URL or agent) forgets
-- the provider's rows instead (services/provider-setup.ts).
CREATE TABLE provider_members (
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  provider TEXT NOT NULL,
  player_id TEXT NOT NULL REFERENCES players(id),
  -- the name we registered (our provider username, core/provider-username.ts)
  username TEXT NOT NULL,
  -- the name the provider answered (or the existing member adopted)
  member TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (agency_id, provider, player_id),
  UNIQUE (agency_id, provider, member)
);

-- The optional prefix of the owner's Betflix setup: it finds members that have no kept name
-- (registered before names were kept); the name Betflix answers wins.
ALTER TABLE provider_settings ADD COLUMN member_prefix TEXT;
