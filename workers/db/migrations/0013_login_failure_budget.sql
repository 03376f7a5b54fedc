-- Issue 12 (finding 4): the agency-wide budget of login failures from unknown devices (no
-- device cookie for the account) per 10 minutes; past it, every unknown device waits 1 s
-- doubling to 1 min (docs/decisions/011-login-throttling.md). Players and staff whose
-- browser holds a device cookie are never held back by it. E2E agencies raise it.
ALTER TABLE agency_settings ADD COLUMN login_failure_budget INTEGER NOT NULL DEFAULT 100;
