-- The probe row: after the database stopped answering (down, locked or full), the server writes here now and then
-- and counts it as answering again once the write commits.
CREATE TABLE store_probe (
    name TEXT PRIMARY KEY,
    at DOUBLE PRECISION NOT NULL
);
