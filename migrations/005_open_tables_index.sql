-- Open tables by code: a node finds a table to restore on demand (its node died, or the database was down), and
-- cluster nodes list the open tables every few seconds to adopt orphans; both read only the open ones.
CREATE INDEX tables_open_code ON tables(code) WHERE closed_at IS NULL;
