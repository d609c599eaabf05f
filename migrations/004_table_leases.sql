-- Table leases: in a cluster (PostgreSQL only, see 004_table_leases.pg.sql) the newest lease number
-- that wrote each table's log. SQLite has no cluster: the table stays empty and appends carry no lease.
CREATE TABLE table_leases (
    table_id TEXT PRIMARY KEY,
    lease INTEGER NOT NULL
);
