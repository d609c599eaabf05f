-- PostgreSQL form of 004_table_leases.sql: fencing. Each log row carries the writing node's lease number
-- (a Redis INCR); table_leases keeps the newest number seen per table, and an append with an older one is
-- refused (SQLSTATE HL409), in the same transaction. A row without a lease (a node outside a cluster) is not fenced.
ALTER TABLE table_log ADD COLUMN lease BIGINT;

CREATE TABLE table_leases (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    lease BIGINT NOT NULL
);

CREATE FUNCTION table_log_fence() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    newest BIGINT;
BEGIN
    IF NEW.lease IS NULL THEN
        RETURN NEW;
    END IF;
    -- the upsert locks the table's row until commit: appends under two leases never interleave
    INSERT INTO table_leases AS t (table_id, lease) VALUES (NEW.table_id, NEW.lease)
        ON CONFLICT (table_id) DO UPDATE SET lease = GREATEST(t.lease, EXCLUDED.lease)
        RETURNING t.lease INTO newest;
    IF newest > NEW.lease THEN
        RAISE EXCEPTION 'stale lease % for table %: lease % owns it now', NEW.lease, NEW.table_id, newest
            USING ERRCODE = 'HL409';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER table_log_fence BEFORE INSERT ON table_log FOR EACH ROW EXECUTE FUNCTION table_log_fence();
