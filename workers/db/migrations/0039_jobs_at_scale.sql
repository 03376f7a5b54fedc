-- The scheduled jobs at the size of a large agency (decision 075): each of their statements
-- reads through an index, never the agency's history of orders, witnesses or sessions.

-- The hourly provider figures: the next players after the cursor who received credit at a
-- provider, one index seek each (was: every order of the agency read for each player).
CREATE INDEX deposit_orders_view_provider_players ON deposit_orders_view (agency_id, provider, player_id) WHERE status = 'SUCCESS';

-- The 5-minute wake-up of wallets with due work: the orders not final (a few), and the
-- references of the last hour (was: both read models and both reference tables read whole).
CREATE INDEX deposit_orders_view_due ON deposit_orders_view (agency_id, player_id) WHERE status IN ('OPEN', 'PAID');
CREATE INDEX withdraw_orders_view_due ON withdraw_orders_view (agency_id, player_id)
  WHERE status IN ('PENDING', 'OPEN') OR (status = 'REJECTED' AND return_state = 'PENDING');
CREATE INDEX deposit_refs_created ON deposit_refs (created_at);
CREATE INDEX withdraw_refs_created ON withdraw_refs (created_at);

-- The 5-minute derivation of bank reports never placed in a transfer (was: every witness read).
CREATE INDEX bank_witnesses_unplaced ON bank_witnesses (recorded_at) WHERE transfer_id = '';

-- The staff alerts' every-minute read of the security audit (was: the agency's whole log when
-- fewer than 100 rows were recent).
CREATE INDEX audit_log_agency_created ON audit_log (agency_id, created_at);

-- Expired sessions pruned in batches, oldest expiry first (they were never deleted).
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX staff_sessions_expires ON staff_sessions (expires_at);
