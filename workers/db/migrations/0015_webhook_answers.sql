-- A webhook delivery is keyed by its parsed signature (timestamp + v1, not the header text),
-- bound to the body it signed, and remembers the answer it got: the gateway's retry of the
-- same request gets the same answer (2xx when the event was recorded), while the same
-- signature with another body stays refused. Rows written before this step keep the raw
-- header as key; they age out of the 300 s window and never match a parsed key.
ALTER TABLE webhook_signatures ADD COLUMN body_sha256 TEXT;
ALTER TABLE webhook_signatures ADD COLUMN answer_status INTEGER;
ALTER TABLE webhook_signatures ADD COLUMN answer_json TEXT;
