-- Reports by day from a rollup (decision 078): the figures of each closed Vientiane day of an
-- agency, kept as integer sums and counts that add up exactly, so a report of N days reads N
-- days of small rows instead of every order of the window. A day is rolled up whole, all kinds
-- in one transaction, and marked by its 'sealed' row; a day without that row is read live.
--
-- kind (key, bucket: what the row is of)   n, kip, credit, bonus, deducted
--   deposits (provider, 1 = manual credit) count, SUM(paid_minor), SUM(credit_minor), SUM(bonus_minor), 0
--   withdrawals (provider)                 count, SUM(paid_lak_minor), SUM(credit_minor), 0, SUM(deducted_minor)
--   promotion-bonus (promotion)            count, 0, 0, SUM(bonus_minor), 0
--   promotion-deducted (promotion)         count, 0, 0, 0, SUM(deducted_minor)
--   promotion-claims (promotion)           claims made that day
--   promotion-completed, -cancelled (promotion)  usages that ended that day
--   registrations                          players registered that day
--   first-deposits                         players whose first deposit was that day; histogram: by days
--                                          since their registration (-1 = registered after it, 92 = 92 or more)
--   depositors                             players who deposited that day (manual credits apart); histogram:
--                                          by days since their previous deposit (92 = 92 or more, or none)
--   sealed                                 the day is rolled up
-- The histograms (JSON objects {"days": players}, one row a day) make what is not a sum
-- compose by addition: over a range from `from`, a player deposited on day d for the first time
-- when the previous deposit is more than d - from days before d, and converted when registered
-- at most d - from days before d. Ranges are at most 92 days (report-range's MAX_RANGE_DAYS).
CREATE TABLE report_days (
  agency_id TEXT NOT NULL,
  day TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL DEFAULT '',
  bucket INTEGER NOT NULL DEFAULT 0,
  n INTEGER NOT NULL DEFAULT 0,
  kip INTEGER NOT NULL DEFAULT 0,
  credit INTEGER NOT NULL DEFAULT 0,
  bonus INTEGER NOT NULL DEFAULT 0,
  deducted INTEGER NOT NULL DEFAULT 0,
  histogram TEXT,
  PRIMARY KEY (agency_id, day, kind, key, bucket)
) WITHOUT ROWID;

-- A player's previous deposit before a day (the depositors histogram), one seek per player.
CREATE INDEX deposit_orders_view_player_paid ON deposit_orders_view(player_id, paid_at) WHERE status = 'SUCCESS' AND channel_code IS NOT 'MANUAL';

-- Whatever writes a read-model row of a rolled-up day (a wallet's late projection, the
-- backfill of old rows, a staff retry, a hand edit) drops that day's rollup in the same
-- transaction, so the next report reads the day live and rolls it up again. A deposit also
-- drops the day of the same player's next deposit, whose depositors bucket counted from it.
-- The WHEN clauses keep the projection's rewrites of unchanged rows from dropping anything.
CREATE TRIGGER report_days_deposit_inserted AFTER INSERT ON deposit_orders_view
WHEN NEW.status = 'SUCCESS'
BEGIN
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day IN (date(NEW.paid_at, '+7 hours'),
    (SELECT date(MIN(paid_at), '+7 hours') FROM deposit_orders_view WHERE player_id = NEW.player_id AND status = 'SUCCESS' AND channel_code IS NOT 'MANUAL'
        AND paid_at >= strftime('%Y-%m-%dT17:00:00.000Z', NEW.paid_at, '+7 hours')));
END;

CREATE TRIGGER report_days_deposit_updated AFTER UPDATE OF agency_id, player_id, provider, status, channel_code, paid_minor, credit_minor, bonus_minor, promotion_id, paid_at ON deposit_orders_view
WHEN (OLD.status = 'SUCCESS' OR NEW.status = 'SUCCESS')
  AND (OLD.status IS NOT NEW.status OR OLD.paid_at IS NOT NEW.paid_at OR OLD.agency_id IS NOT NEW.agency_id OR OLD.player_id IS NOT NEW.player_id
    OR OLD.provider IS NOT NEW.provider OR OLD.channel_code IS NOT NEW.channel_code OR OLD.paid_minor IS NOT NEW.paid_minor
    OR OLD.credit_minor IS NOT NEW.credit_minor OR OLD.bonus_minor IS NOT NEW.bonus_minor OR OLD.promotion_id IS NOT NEW.promotion_id)
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day IN (date(OLD.paid_at, '+7 hours'),
    (SELECT date(MIN(paid_at), '+7 hours') FROM deposit_orders_view WHERE player_id = OLD.player_id AND status = 'SUCCESS' AND channel_code IS NOT 'MANUAL'
        AND paid_at >= strftime('%Y-%m-%dT17:00:00.000Z', OLD.paid_at, '+7 hours')));
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day IN (date(NEW.paid_at, '+7 hours'),
    (SELECT date(MIN(paid_at), '+7 hours') FROM deposit_orders_view WHERE player_id = NEW.player_id AND status = 'SUCCESS' AND channel_code IS NOT 'MANUAL'
        AND paid_at >= strftime('%Y-%m-%dT17:00:00.000Z', NEW.paid_at, '+7 hours')));
END;

CREATE TRIGGER report_days_deposit_deleted AFTER DELETE ON deposit_orders_view
WHEN OLD.status = 'SUCCESS'
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day IN (date(OLD.paid_at, '+7 hours'),
    (SELECT date(MIN(paid_at), '+7 hours') FROM deposit_orders_view WHERE player_id = OLD.player_id AND status = 'SUCCESS' AND channel_code IS NOT 'MANUAL'
        AND paid_at >= strftime('%Y-%m-%dT17:00:00.000Z', OLD.paid_at, '+7 hours')));
END;

CREATE TRIGGER report_days_withdraw_inserted AFTER INSERT ON withdraw_orders_view
WHEN NEW.status = 'SUCCESS'
BEGIN
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day = date(NEW.paid_at, '+7 hours');
END;

CREATE TRIGGER report_days_withdraw_updated AFTER UPDATE OF agency_id, provider, status, credit_minor, paid_lak_minor, deducted_minor, promotion_id, paid_at ON withdraw_orders_view
WHEN (OLD.status = 'SUCCESS' OR NEW.status = 'SUCCESS')
  AND (OLD.status IS NOT NEW.status OR OLD.paid_at IS NOT NEW.paid_at OR OLD.agency_id IS NOT NEW.agency_id OR OLD.provider IS NOT NEW.provider
    OR OLD.credit_minor IS NOT NEW.credit_minor OR OLD.paid_lak_minor IS NOT NEW.paid_lak_minor OR OLD.deducted_minor IS NOT NEW.deducted_minor
    OR OLD.promotion_id IS NOT NEW.promotion_id)
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day = date(OLD.paid_at, '+7 hours');
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day = date(NEW.paid_at, '+7 hours');
END;

CREATE TRIGGER report_days_withdraw_deleted AFTER DELETE ON withdraw_orders_view
WHEN OLD.status = 'SUCCESS'
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day = date(OLD.paid_at, '+7 hours');
END;

CREATE TRIGGER report_days_usage_inserted AFTER INSERT ON promotion_usages_view
BEGIN
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day IN (date(NEW.claimed_at, '+7 hours'), date(NEW.ended_at, '+7 hours'));
END;

CREATE TRIGGER report_days_usage_updated AFTER UPDATE OF agency_id, promotion_id, status, claimed_at, ended_at ON promotion_usages_view
WHEN OLD.agency_id IS NOT NEW.agency_id OR OLD.promotion_id IS NOT NEW.promotion_id OR OLD.status IS NOT NEW.status
  OR OLD.claimed_at IS NOT NEW.claimed_at OR OLD.ended_at IS NOT NEW.ended_at
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day IN (date(OLD.claimed_at, '+7 hours'), date(OLD.ended_at, '+7 hours'));
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day IN (date(NEW.claimed_at, '+7 hours'), date(NEW.ended_at, '+7 hours'));
END;

CREATE TRIGGER report_days_usage_deleted AFTER DELETE ON promotion_usages_view
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day IN (date(OLD.claimed_at, '+7 hours'), date(OLD.ended_at, '+7 hours'));
END;

CREATE TRIGGER report_days_player_inserted AFTER INSERT ON players
BEGIN
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day IN (date(NEW.created_at, '+7 hours'), date(NEW.first_deposit_at, '+7 hours'));
END;

CREATE TRIGGER report_days_player_updated AFTER UPDATE OF agency_id, created_at, first_deposit_at ON players
WHEN OLD.agency_id IS NOT NEW.agency_id OR OLD.created_at IS NOT NEW.created_at OR OLD.first_deposit_at IS NOT NEW.first_deposit_at
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day IN (date(OLD.created_at, '+7 hours'), date(OLD.first_deposit_at, '+7 hours'));
  DELETE FROM report_days WHERE agency_id = NEW.agency_id AND day IN (date(NEW.created_at, '+7 hours'), date(NEW.first_deposit_at, '+7 hours'));
END;

CREATE TRIGGER report_days_player_deleted AFTER DELETE ON players
BEGIN
  DELETE FROM report_days WHERE agency_id = OLD.agency_id AND day IN (date(OLD.created_at, '+7 hours'), date(OLD.first_deposit_at, '+7 hours'));
END;
