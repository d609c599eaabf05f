"""Storage: the store's contract, group commit, SQLite and PostgreSQL, migrations."""
