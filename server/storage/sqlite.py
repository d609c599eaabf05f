"""The SQLite store (aiosqlite): one connection, one lock; the queries are ``SqlStore``'s."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from ..table.tokens import token_hash
from .migrations import load_migrations, migrations_dir
from .sql import PROBE, SCHEMA_VERSION
from .sql_query import Query, one_value
from .sql_store import SqlStore
from .store import SchemaTooNew, StoreBusy, StoreUnavailable

__all__ = ["SQLiteStore", "load_migrations", "migrations_dir", "busy_error"]

T = TypeVar("T")
APPEND_ROWS_MAX = 3000  # three bound values a row: well under SQLite's limit of 32,766 per statement
#: a write that waits longer than this for another process's lock counts as the database not answering (the same
#: ten seconds as PostgreSQL's query timeout: one rule for both stores)
BUSY_TIMEOUT_MS = 10_000
PROBE_BUSY_MS = 200  # the probe that asks whether writes work again waits only this long for a lock
#: SQLite's primary result codes that mean "the database does not answer now" rather than "this write is wrong":
#: busy and locked (another process holds the lock), an I/O error, a full disk, a file that cannot be opened
NOT_ANSWERING = frozenset(
    (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN)
)


def busy_error(exc: BaseException) -> StoreBusy | None:
    """Return ``StoreBusy`` for an SQLite error that means the database does not answer now, else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, sqlite3.Error) and code is not None and code & 0xFF in NOT_ANSWERING:
        return StoreBusy(f"SQLite does not take writes now: {getattr(exc, 'sqlite_errorname', code)}: {exc}")
    return None


def _check_writable(path: str) -> None:
    """Refuse, with a clear message, a database whose folder this process cannot write (a volume owned by root)."""
    if path == ":memory:" or path.startswith("file:"):
        return
    target = Path(path).resolve()
    folder = target.parent
    if not folder.is_dir():
        raise StoreUnavailable(f"the folder of the SQLite database {path} does not exist: {folder}")
    for need in ([target] if target.exists() else []) + [folder]:  # SQLite also writes -wal and -shm beside it
        if not os.access(need, os.W_OK):
            stat = need.stat()
            raise StoreUnavailable(
                f"cannot write {need} for the SQLite database {path}: it belongs to uid {stat.st_uid} "
                f"(mode {stat.st_mode & 0o777:o}) and this server runs as uid {os.getuid()}; give that user write "
                f"access (for a bind-mounted folder: chown {os.getuid()} on the host folder), or choose another --db"
            )


@asynccontextmanager
async def answering() -> AsyncIterator[None]:
    """Turn SQLite's busy, locked, I/O and disk-full errors into ``StoreBusy`` (the others pass unchanged)."""
    try:
        yield
    except sqlite3.Error as exc:
        busy = busy_error(exc)
        if busy is None:
            raise
        raise busy from exc


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
            return cast(list[Sequence[Any]], await cur.fetchall())  # aiosqlite says Iterable: sqlite3 gives a list

    async def dicts(self, query: str, *args: Any) -> list[dict[str, Any]]:
        """Return every row as a dict of its columns."""
        async with self.conn.execute(query, args) as cur:
            return [dict(row) for row in await cur.fetchall()]

    async def one(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row, or None (one trip to the database thread: a new player's insert is on the ramp)."""
        rows = cast(list[Sequence[Any]], await self.conn.execute_fetchall(query, args))  # a list (as ``rows``)
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

    def __init__(self, conn: aiosqlite.Connection, path: str, reader: aiosqlite.Connection | None = None) -> None:
        super().__init__()
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._query = SQLiteQuery(conn)
        # reads go through a connection of their own: in WAL mode they see the last commit and never wait for a
        # write, not even one that waits for another process's lock (a returning player's hello stays instant)
        self.reader = reader or conn
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self._read_query = SQLiteQuery(self.reader)

    def describe(self) -> str:
        """Return ``SQLite <file>``."""
        return f"SQLite {self.path}"

    @classmethod
    async def open(cls, path: str, folder: Path | None = None) -> SQLiteStore:
        """Open (or create) the database at ``path`` and apply pending migrations; refuse a newer schema."""
        migrations = load_migrations(folder or migrations_dir(), "sqlite")
        _check_writable(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.OperationalError as exc:
            raise StoreUnavailable(f"cannot open the SQLite database {path}: {exc}") from exc
        try:
            conn.row_factory = aiosqlite.Row
            await conn.create_function("sha256_hex", 1, _sha256_hex, deterministic=True)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            db = cls(conn, path)
            async with answering():
                await db._migrate(migrations)
            await db.rerate()
            if path != ":memory:":
                db.reader = await cls._open_reader(path)
                db._read_lock, db._read_query = asyncio.Lock(), SQLiteQuery(db.reader)
        except BaseException:
            await conn.close()
            raise
        return db

    @staticmethod
    async def _open_reader(path: str) -> aiosqlite.Connection:
        """Open the read-only connection (after the migrations: it sees the schema they made)."""
        reader = await aiosqlite.connect(path, isolation_level=None)
        try:
            reader.row_factory = aiosqlite.Row
            await reader.execute("PRAGMA query_only=ON")
            await reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except BaseException:
            await reader.close()
            raise
        return reader

    async def _migrate(self, migrations: list[tuple[int, str, str]]) -> None:
        await self.conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
            "applied_at REAL NOT NULL)"
        )
        current = await one_value(self._query, SCHEMA_VERSION)
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
        if self.reader is not self.conn:
            await self.reader.close()
        await self.conn.close()

    async def _read(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` in one read transaction: one snapshot, never a half-written game."""
        async with self._read_lock, answering():
            if self.reader is self.conn:
                return await body(self._read_query)
            await self.reader.execute("BEGIN")
            try:
                return await body(self._read_query)
            finally:
                await self.reader.execute("COMMIT")

    async def _peek(self, query: str, *args: Any) -> Sequence[Any] | None:
        async with answering():
            return await self._read_query.one(query, *args)

    async def _write(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: the only path that changes the database."""
        async with self._lock, answering():
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                result = await body(self._query)
                await self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise
            return result

    async def probe(self) -> None:
        """One small real write that waits only briefly for a lock; ``StoreBusy`` while writes do not work."""
        async with self._lock:
            await self.conn.execute(f"PRAGMA busy_timeout={PROBE_BUSY_MS}")
            try:
                async with answering():
                    await self.conn.execute(PROBE, (self.kind, time.time()))  # one statement: autocommit
            finally:
                await self.conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    async def _append_only(self, rows: list[tuple[str, int, str]]) -> bool:
        if len(rows) > APPEND_ROWS_MAX:
            return False
        # one statement is one transaction, and one trip to the database thread (BEGIN, INSERT, COMMIT would be three)
        async with self._lock, answering():
            await self.conn.execute(_append_sql(len(rows)), [v for row in rows for v in row])
        return True
