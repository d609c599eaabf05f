"""Open the store ``--db`` names: a ``postgresql://`` URL is PostgreSQL, anything else an SQLite file."""

from __future__ import annotations

from .sqlite import SQLiteStore
from .store import Store, StoreUnavailable
from .urls import redacted

CLUSTER_INSTALL = "pip install -e '.[cluster]'"
try:  # what a Redis outage raises (OSError alone where the redis package is not installed)
    from redis.exceptions import RedisError

    REDIS_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError, TimeoutError)
except ImportError:
    REDIS_ERRORS = (OSError, TimeoutError)


def is_postgres_url(db: str) -> bool:
    """True when ``db`` names a PostgreSQL database (``postgresql://`` or ``postgres://``) rather than a file."""
    return db.startswith(("postgresql://", "postgres://"))


async def open_store(db: str) -> Store:
    """Open the database ``db`` and apply its migrations: PostgreSQL for a URL, else the SQLite file ``db``."""
    if not is_postgres_url(db):
        return await SQLiteStore.open(db)
    try:
        from .postgres import PostgresStore
    except ImportError as exc:
        if exc.name != "asyncpg":
            raise
        raise StoreUnavailable(f"--db {redacted(db)} needs the asyncpg package: {CLUSTER_INSTALL}") from None
    return await PostgresStore.open(db)
