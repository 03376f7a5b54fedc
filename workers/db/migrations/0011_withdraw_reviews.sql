-- Back office: one staff decision per withdrawal under review. The row is claimed
-- (INSERT, primary key on the order code) before the wallet is asked, so two staff
-- pressing "paid" / "reject" at the same moment get one outcome; the other is told the
-- order was already handled. A claim whose wallet call never finished (state CLAIMED for
-- more than two minutes) may be taken over.
CREATE TABLE withdraw_reviews (
  code TEXT PRIMARY KEY,
  agency_id TEXT NOT NULL REFERENCES agencies(id),
  decision TEXT NOT NULL CHECK (decision IN ('PAID', 'REJECTED')),
  state TEXT NOT NULL CHECK (state IN ('CLAIMED', 'DONE')),
  staff_id TEXT,
  staff_username TEXT,
  bank_reference TEXT,
  reason TEXT,
  decided_at INTEGER NOT NULL
);
CREATE INDEX withdraw_reviews_agency ON withdraw_reviews(agency_id, decided_at);
