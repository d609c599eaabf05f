"""The SQLite store (aiosqlite): one connection, one lock; the queries are ``SqlStore``'s."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .migrations import load_migrations, migrations_dir
from .sql import SCHEMA_VERSION
from .sql_store import Query, SqlStore
from .store import SchemaTooNew, token_hash

__all__ = ["SQLiteStore", "load_migrations", "migrations_dir"]

T = TypeVar("T")
APPEND_ROWS_MAX = 3000  # three bound values a row: well under SQLite's limit of 32,766 per statement


def _sha256_hex(text: str | None) -> str | None:
    return token_hash(text) if text is not None else None


@lru_cache(maxsize=64)
def _append_sql(rows: int) -> str:
    """The one INSERT statement that appends ``rows`` table-log entries."""
    return "INSERT INTO table_log (table_id, n, entry) VALUES " + ",".join(["(?, ?, ?)"] * rows)


class SQLiteQuery:
    """``Query`` on one aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def rows(self, query: str, *args: Any) -> list[Sequence[Any]]:
        """Return every row as a plain tuple (a quarter of a million log rows after a busy day)."""
        async with self.conn.execute(query, args) as cur:
            cur.row_factory = None
            return await cur.fetchall()

    async def dicts(self, query: str, *args: Any) -> list[dict[str, Any]]:
        """Return every row as a dict of its columns."""
        async with self.conn.execute(query, args) as cur:
            return [dict(row) for row in await cur.fetchall()]

    async def one(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row, or None (one trip to the database thread: a new player's insert is on the ramp)."""
        rows = await self.conn.execute_fetchall(query, args)
        return rows[0] if rows else None

    async def execute(self, query: str, *args: Any) -> None:
        """Run one statement."""
        await self.conn.execute(query, args)

    async def executemany(self, query: str, rows: list[tuple]) -> None:
        """Run one statement for each row of values."""
        await self.conn.executemany(query, rows)


class SQLiteStore(SqlStore):
    """One aiosqlite connection; every write goes through ``_write`` (one transaction, one lock)."""

    kind = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__()
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._query = SQLiteQuery(conn)

    def describe(self) -> str:
        """Return ``SQLite <file>``."""
        return f"SQLite {self.path}"

    @classmethod
    async def open(cls, path: str, folder: Path | None = None) -> SQLiteStore:
        """Open (or create) the database at ``path`` and apply pending migrations; refuse a newer schema."""
        migrations = load_migrations(folder or migrations_dir(), "sqlite")
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await conn.create_function("sha256_hex", 1, _sha256_hex, deterministic=True)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            db = cls(conn, path)
            await db._migrate(migrations)
        except BaseException:
            await conn.close()
            raise
        return db

    async def _migrate(self, migrations: list[tuple[int, str, str]]) -> None:
        await self.conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
            "applied_at REAL NOT NULL)"
        )
        async with self.conn.execute(SCHEMA_VERSION) as cur:
            current = (await cur.fetchone())[0]
        known = len(migrations)
        if current > known:
            raise SchemaTooNew(
                f"database {self.path} has schema version {current}, newer than this server knows ({known}); "
                "upgrade the server"
            )
        for version, name, sql in migrations[current:]:
            try:
                await self.conn.executescript(
                    f"BEGIN;\n{sql}\n;INSERT INTO schema_migrations (version, name, applied_at) "
                    f"VALUES ({version}, '{name}', {time.time()});\nCOMMIT;"
                )
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise

    async def _close(self) -> None:
        await self.conn.close()

    async def _read(self, body: Callable[[Query], Awaitable[T]]) -> T:
        async with self._lock:  # one connection: never read a half-written game
            return await body(self._query)

    async def _peek(self, query: str, *args: Any) -> Sequence[Any] | None:
        return await self._query.one(query, *args)

    async def _write(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: the only path that changes the database."""
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                result = await body(self._query)
                await self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise
            return result

    async def _append_only(self, rows: list[tuple[str, int, str]]) -> bool:
        if len(rows) > APPEND_ROWS_MAX:
            return False
        # one statement is one transaction, and one trip to the database thread (BEGIN, INSERT, COMMIT would be three)
        async with self._lock:
            await self.conn.execute(_append_sql(len(rows)), [v for row in rows for v in row])
        return True
