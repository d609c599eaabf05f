"""The storage interface: table logs (group-committed), players, finished games, replays and the daily board."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("hearts.store")


def token_hash(token: str) -> str:
    """Return the SHA-256 (hex) under which a secret token is stored: never the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class TableWrite:
    """What one table appends in one go: log entries, and the rows they imply (opened, closed, a finished game)."""

    table_id: str
    code: str
    entries: list[tuple[int, str]]  # (n, JSON text) in order
    opened_at: float | None = None  # set when the entries start the table
    closed_at: float | None = None  # set when the entries close it
    finished: dict[str, Any] | None = None  # the finished game's record (see Table.record)
    lease: int | None = None  # the writing node's lease number in a cluster (PostgreSQL refuses an older one)

    def only_appends(self) -> bool:
        """True when this write is log entries and nothing else (no table opened or closed, no game recorded)."""
        return self.opened_at is None and self.closed_at is None and self.finished is None


@dataclass
class PlayerWrite:
    """A player's hello: a new player (``new``: ``player_id`` is set once committed) or a returning one's name."""

    token_hash: str
    name: str
    seen_at: float
    player_id: int | None = None
    new: bool = False


@dataclass
class StoredTable:
    """An open table's log as read back on start: ``entries`` are the JSON texts in order."""

    table_id: str
    code: str
    entries: list[str] = field(default_factory=list)
    gaps: bool = False  # the entry numbers are not 1..N


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer server than this one."""


class LeaseLost(RuntimeError):
    """The database refused an append: another node holds a newer lease on the table (fencing)."""


class ClusterUnavailable(RuntimeError):
    """Redis does not answer: the cluster cannot reserve codes or take leases now."""


class StoreUnavailable(RuntimeError):
    """The database cannot be opened: its driver is not installed, or it does not answer."""


class StoreBusy(RuntimeError):
    """The database stopped answering while the server runs: nothing was stored; try again later."""


class GroupCommit:
    """Queue writes and commit every write that arrived meanwhile in one transaction, in arrival order."""

    def __init__(self, write_batch: Callable[[list[TableWrite | PlayerWrite]], Awaitable[None]]) -> None:
        self._write_batch = write_batch
        self._queue: list[tuple[TableWrite | PlayerWrite, asyncio.Future]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self.batches = 0
        self.writes = 0
        self._writing = False

    def submit(self, write: TableWrite | PlayerWrite) -> asyncio.Future:
        """Queue ``write``; the future resolves once it is committed (or fails with the commit's error)."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._run())
        fut = loop.create_future()
        self._queue.append((write, fut))
        self._wake.set()
        return fut

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._queue = self._queue, []
            if not batch:
                continue
            self._writing = True
            try:
                await self._write_batch([w for w, _ in batch])
            except asyncio.CancelledError:
                for _, fut in batch:
                    if not fut.done():
                        fut.cancel()
                raise
            except Exception:
                log.exception("a group commit of %d writes failed; committing them one by one", len(batch))
                await self._one_by_one(batch)  # one bad write must not sink the others (tables, hellos)
                continue
            finally:
                self._writing = False
            self.batches += 1
            self.writes += len(batch)
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    async def _one_by_one(self, batch: list[tuple[TableWrite | PlayerWrite, asyncio.Future]]) -> None:
        """After a failed group commit: give each write its own transaction; only the faulty ones fail."""
        self._writing = True
        try:
            for write, fut in batch:
                try:
                    await self._write_batch([write])
                except asyncio.CancelledError:
                    for _, left in batch:
                        if not left.done():
                            left.cancel()
                    raise
                except Exception as exc:
                    if not fut.done():
                        fut.set_exception(exc)
                else:
                    self.writes += 1
                    if not fut.done():
                        fut.set_result(None)
        finally:
            self._writing = False

    async def close(self) -> None:
        """Commit what is queued and what is being written, then stop the committer."""
        while self._task is not None and not self._task.done() and (self._queue or self._writing):
            await asyncio.sleep(0.002)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None


class Store(ABC):
    """Everything the server keeps: one implementation per database (SQLite by default; PostgreSQL for a cluster)."""

    kind = "?"  # "sqlite" or "postgresql": shown by /healthz

    def describe(self) -> str:
        """Return which database this is, for the start-up line (never a password)."""
        return self.kind

    @abstractmethod
    def submit(self, write: TableWrite) -> asyncio.Future:
        """Queue ``write`` for the next group commit; the future resolves once it is durable, in submission order."""

    async def append(self, write: TableWrite) -> None:
        """Commit ``write`` and wait until it is durable."""
        await self.submit(write)

    @abstractmethod
    async def open_tables(self) -> list[StoredTable]:
        """Return the log of every table that is not closed, oldest table first."""

    async def open_table(self, code: str) -> StoredTable | None:
        """Return the log of the open table with ``code`` (the newest such table), or None."""
        return next((t for t in reversed(await self.open_tables()) if t.code == code), None)

    async def open_table_ids(self) -> list[tuple[str, str]]:
        """Return ``(table_id, code)`` of every table that is not closed."""
        return [(t.table_id, t.code) for t in await self.open_tables()]

    async def newest_lease(self, table_id: str) -> int:
        """Return the newest lease number the database recorded for ``table_id`` (0: none; SQLite has none)."""
        return 0

    @abstractmethod
    async def mark_damaged(self, table_id: str, why: str) -> None:
        """Close a table whose log cannot be replayed, keeping the reason."""

    @abstractmethod
    async def player(self, name: str, token: str | None) -> tuple[int, str, str]:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or of a new player."""

    @abstractmethod
    async def player_id(self, token: str) -> int | None:
        """Return the id of the player with ``token``, or None."""

    @abstractmethod
    async def stats(self, token: str) -> dict[str, Any] | None:
        """Return the stats of the player with ``token`` (None if unknown)."""

    @abstractmethod
    async def games_of(self, token: str, limit: int = 100) -> list[dict[str, Any]] | None:
        """Return the finished games the player with ``token`` sat in, most recent first (None if unknown)."""

    @abstractmethod
    async def game(self, game_id: int, token: str | None = None, share: str | None = None) -> dict[str, Any] | None:
        """Return the stored game ``game_id`` for a player who sat in it, or by its share key; else None."""

    @abstractmethod
    async def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """Return the stored finished game ``game_id`` with its events (for the operator's tools), or None."""

    @abstractmethod
    async def game_and_seat(self, game_id: int, token: str) -> tuple[dict[str, Any], int, int] | None:
        """Return (stored game, the player's seat in it, player id) for the player with ``token``; else None."""

    @abstractmethod
    async def review(self, key: str) -> str | None:
        """Return the cached review (JSON text) stored under ``key``, or None."""

    @abstractmethod
    async def save_review(self, key: str, body: str) -> None:
        """Cache a review under ``key``."""

    @abstractmethod
    async def server_key(self, name: str) -> str:
        """Return the server's secret ``name`` (made once, at random, and kept)."""

    @abstractmethod
    async def daily_played(self, day: str, player_id: int) -> bool:
        """Return True if the player already has a counted daily game on ``day``."""

    @abstractmethod
    async def daily_board(self, day: str, token: str | None, limit: int = 50) -> dict[str, Any]:
        """Return the counted final totals of ``day``'s daily deal, lowest first, and the asker's place."""

    @abstractmethod
    async def close(self) -> None:
        """Commit what is queued and close the database."""
