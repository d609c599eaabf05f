"""The PostgreSQL store (asyncpg): a connection pool, the same migrations and queries as SQLite (``SqlStore``)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from .migrations import load_migrations, migrations_dir
from .sql import PROBE, RECORD_MIGRATION, SCHEMA_VERSION, numbered
from .sql_query import Query
from .sql_store import SqlStore
from .store import LeaseLost, SchemaTooNew, StoreBusy, StoreUnavailable
from .urls import redacted, scrubbed

T = TypeVar("T")
MIGRATION_LOCK = 0x4845_4152_5453  # "HEARTS": one node migrates at a time, the others wait and find it done
# a batch of pure appends is one statement: one multi-row INSERT of three arrays, one implicit transaction
APPEND_MANY = (
    "INSERT INTO table_log (table_id, n, entry, lease) "
    "SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::bigint[])"
)
STALE_LEASE = "HL409"  # the SQLSTATE migration 004's trigger raises for an append from an older lease
CONNECT_TIMEOUT = 10.0
MIGRATION_WAIT = 600.0  # seconds a migration (or the wait for another node's) may take
PROBE_LOGS_LOCK = "LOCK TABLE table_log IN ROW EXCLUSIVE MODE NOWAIT"  # the lock an append takes, or fail at once
QUERY_TIMEOUT = 10.0  # a database that takes longer to answer counts as down (server_busy), not as a hung server
# the database does not answer now (down or unreachable, shutting down, out of connections or disk, a lock held
# past the query timeout): nothing was stored, try again later
GONE = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.QueryCanceledError,
    asyncpg.exceptions.LockNotAvailableError,
    # a pooled connection left mid-operation by a connection that broke (PostgreSQL killed while a query ran): asyncpg
    # refuses the next operation on it ("another operation is in progress") before sending anything
    asyncpg.exceptions.InternalClientError,
)


class PgQuery:
    """``Query`` on one asyncpg connection: ``?`` placeholders become ``$1, $2, ...``."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def rows(self, query: str, *args: Any) -> list[Sequence[Any]]:
        """Return every row (records, indexable by position)."""
        return await self.conn.fetch(numbered(query), *args)

    async def dicts(self, query: str, *args: Any) -> list[dict[str, Any]]:
        """Return every row as a dict of its columns."""
        return [dict(row) for row in await self.conn.fetch(numbered(query), *args)]

    async def one(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row, or None."""
        return await self.conn.fetchrow(numbered(query), *args)

    async def execute(self, query: str, *args: Any) -> None:
        """Run one statement."""
        await self.conn.execute(numbered(query), *args)

    async def executemany(self, query: str, rows: list[tuple]) -> None:
        """Run one statement for each row of values (pipelined: one round trip)."""
        await self.conn.executemany(numbered(query), rows)


class PostgresStore(SqlStore):
    """A pool of asyncpg connections; writes are transactions, reads see one snapshot."""

    kind = "postgresql"
    leases = True

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        super().__init__()
        self.pool = pool
        self.url = url

    def describe(self) -> str:
        """Return ``PostgreSQL <url without password>``."""
        return f"PostgreSQL {redacted(self.url)}"

    @classmethod
    async def open(cls, url: str, folder: Path | None = None, min_size: int = 1, max_size: int = 8) -> PostgresStore:
        """Connect to ``url``, apply pending migrations (``.pg.sql`` where dialects differ); refuse a newer schema."""
        migrations = load_migrations(folder or migrations_dir(), "postgresql")
        try:
            pool = await asyncpg.create_pool(
                url, min_size=min_size, max_size=max_size, timeout=CONNECT_TIMEOUT, command_timeout=QUERY_TIMEOUT
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreUnavailable(
                f"cannot connect to PostgreSQL at {redacted(url)}: {scrubbed(str(exc), url)}"
            ) from exc
        try:
            db = cls(pool, url)
            await db._migrate(migrations)
            await db.rerate()
        except BaseException:
            await pool.close()
            raise
        return db

    async def _migrate(self, migrations: list[tuple[int, str, str]]) -> None:
        async with self.pool.acquire() as conn:
            # another node may be migrating: wait for it as long as it takes (migrations take no time in play)
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_WAIT)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at DOUBLE PRECISION NOT NULL)"
                )
                current = await conn.fetchval(SCHEMA_VERSION)
                known = len(migrations)
                if current > known:
                    raise SchemaTooNew(
                        f"database {redacted(self.url)} has schema version {current}, newer than this server knows "
                        f"({known}); upgrade the server"
                    )
                for version, name, sql in migrations[current:]:
                    async with conn.transaction():  # PostgreSQL's DDL is transactional: a migration applies whole
                        await conn.execute(sql, timeout=MIGRATION_WAIT)
                        await conn.execute(numbered(RECORD_MIGRATION), version, name, time.time())
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def _close(self) -> None:
        await self.pool.close()

    async def probe(self) -> None:
        """One small real write where the table logs are written; ``StoreBusy`` while the database does not take it.

        The probe row sits beside the logs, so the probe first takes the lock every append takes on them: a lock
        held on the logs alone (a long migration, an operator's lock) counts as the database not answering.
        """
        try:
            async with self._conn() as conn, conn.transaction():
                await conn.execute(PROBE_LOGS_LOCK, timeout=QUERY_TIMEOUT)
                await conn.execute(numbered(PROBE), self.kind, time.time(), timeout=QUERY_TIMEOUT)
        except GONE as exc:
            raise _busy(exc) from exc

    async def _read(self, body: Callable[[Query], Awaitable[T]]) -> T:
        try:
            async with self._conn() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
                return await body(PgQuery(conn))
        except GONE as exc:
            raise _busy(exc) from exc

    async def _peek(self, query: str, *args: Any) -> Sequence[Any] | None:
        try:
            return await self.pool.fetchrow(numbered(query), *args, timeout=QUERY_TIMEOUT)
        except GONE as exc:
            raise _busy(exc) from exc

    async def _write(self, body: Callable[[Query], Awaitable[T]]) -> T:
        try:
            async with self._conn() as conn, conn.transaction():
                return await body(PgQuery(conn))
        except GONE as exc:
            raise _busy(exc) from exc
        except asyncpg.PostgresError as exc:
            raise _fenced(exc) from exc

    async def _append_only(self, rows: list[tuple]) -> bool:
        table_ids, ns, entries, leases = zip(*rows, strict=True)
        try:
            await self.pool.execute(
                APPEND_MANY, list(table_ids), list(ns), list(entries), list(leases), timeout=QUERY_TIMEOUT
            )
        except GONE as exc:
            raise _busy(exc) from exc
        except asyncpg.PostgresError as exc:
            raise _fenced(exc) from exc
        return True

    def _conn(self) -> Any:
        """A pooled connection; waiting for one counts against the query timeout."""
        return self.pool.acquire(timeout=QUERY_TIMEOUT)


def _busy(exc: BaseException) -> StoreBusy:
    return StoreBusy(f"PostgreSQL does not answer: {type(exc).__name__}: {exc}")


def _fenced(exc: asyncpg.PostgresError) -> Exception:
    """Return ``LeaseLost`` for the fencing trigger's refusal, else ``exc`` itself."""
    return LeaseLost(exc.args[0] if exc.args else str(exc)) if exc.sqlstate == STALE_LEASE else exc
