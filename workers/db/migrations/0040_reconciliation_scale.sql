-- Reconciliation of a large bank day (decision 074): every statement of the page reads by an index.
--
-- The day's credits, and its debits with the days around it, by direction and bank time: the day's index
-- (agency_id, bank_time) read every transfer of the five days around a day to keep the debits.
CREATE INDEX bank_transactions_direction_day ON bank_transactions(agency_id, direction, bank_time);
-- Reports dated after they arrived, listed on the day they arrived: few, so a partial index of them alone.
CREATE INDEX bank_witnesses_future ON bank_witnesses(agency_id, recorded_at) WHERE future = 1;
