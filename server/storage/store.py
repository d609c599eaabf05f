"""The storage interface: table logs (group-committed), players, finished games, replays and the daily board."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("hearts.store")
CLOSE_WAIT = 10.0  # seconds a stop waits for the database to take what is queued (then drops it, as a crash would)
REVIVE_FIRST = 0.5  # seconds before the first probe of a database that stopped answering
REVIVE_MAX = 2.0  # ... and the longest pause between probes


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

    def stored_id(self) -> int:
        """Return the player's id: a new player's once its write is committed."""
        if self.player_id is None:
            raise LookupError("the new player's write is not committed")
        return self.player_id


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
    """The database stopped answering while the server runs (down, locked or full): nothing was stored; try later."""


class TableHalted(RuntimeError):
    """An earlier write of this table failed: nothing more of it is stored until it is restored from the database."""


class GroupCommit:
    """Queue writes and commit every write that arrived meanwhile in one transaction, in arrival order.

    Two rules keep each table's stored log a prefix of what the table logged, in order and without a hole:

    - after a write of a table fails, every later write of that table fails too, unwritten, until the table is
      restored from what was stored (``resume``);
    - while the database does not answer (a write raised ``StoreBusy``), every table write fails at once without
      being tried, and a probe (``probe``, a small real write) runs every little while until one succeeds (or any
      other write commits).
    """

    def __init__(
        self,
        write_batch: Callable[[list[TableWrite | PlayerWrite]], Awaitable[None]],
        probe: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._write_batch = write_batch
        self._probe = probe
        self._queue: list[tuple[TableWrite | PlayerWrite, asyncio.Future]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._reviver: asyncio.Task | None = None
        self._answering: asyncio.Event | None = None  # set while the database answers (made on first use)
        self.batches = 0
        self.writes = 0
        self._writing = False
        self.down: StoreBusy | None = None  # why the database counts as not answering, or None
        self.halted: dict[str, BaseException] = {}  # table id -> the failure after which nothing more is stored

    # ------------------------------------------------------------------ submitting

    def submit(self, write: TableWrite | PlayerWrite) -> asyncio.Future:
        """Queue ``write``; the future resolves once it is committed (or fails with the commit's error).

        While the database does not answer, or after an earlier write of the same table failed, the future
        fails at once and nothing is written.
        """
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        refusal = self._refusal(write)
        if refusal is not None:
            fut.set_exception(refusal)
            return fut
        wake = self._wake
        if wake is None or self._task is None or self._task.done():
            wake = self._wake = asyncio.Event()
            self._task = loop.create_task(self._run(wake))
        self._queue.append((write, fut))
        wake.set()
        return fut

    def _refusal(self, write: TableWrite | PlayerWrite) -> BaseException | None:
        """Return why ``write`` must not be tried now, or None.

        A player's write is always tried (a new player's hello waits for it; one that commits shows the database
        answers again); a table's write while the database does not answer would only wait to fail.
        """
        if type(write) is not TableWrite:
            return None
        if self.down is not None:
            return StoreBusy(str(self.down))
        failed = self.halted.get(write.table_id)
        if failed is not None:
            return TableHalted(f"an earlier write of table {write.code} failed ({failed})")
        return None

    def resume(self, table_id: str) -> None:
        """The table is restored from what was stored: its writes may be stored again."""
        self.halted.pop(table_id, None)

    # ------------------------------------------------------------------ committing

    async def _run(self, wake: asyncio.Event) -> None:
        while True:
            await wake.wait()
            wake.clear()
            batch, self._queue = self._queue, []
            batch = [(w, fut) for w, fut in batch if not self._refused(w, fut)]
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
            except StoreBusy as exc:  # nothing of the batch was stored, and trying again one by one cannot help
                self._went_down(exc)
                for write, fut in batch:
                    self._fail(write, fut, exc)
                continue
            except Exception:
                log.exception("a group commit of %d writes failed; committing them one by one", len(batch))
                await self._one_by_one(batch)  # one bad write must not sink the others (tables, hellos)
                continue
            finally:
                self._writing = False
            self.batches += 1
            self.writes += len(batch)
            self._came_back()
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    def _refused(self, write: TableWrite | PlayerWrite, fut: asyncio.Future) -> bool:
        """Fail ``fut`` and return True when ``write`` must not be tried now (see ``_refusal``)."""
        refusal = self._refusal(write)
        if refusal is None:
            return False
        if not fut.done():
            fut.set_exception(refusal)
        return True

    def _fail(self, write: TableWrite | PlayerWrite, fut: asyncio.Future, exc: BaseException) -> None:
        """A write failed: halt its table (before anyone hears of it), then fail its future."""
        if type(write) is TableWrite:
            self.halted.setdefault(write.table_id, exc)
            for queued, later in self._queue:  # already queued behind it: never stored now
                if type(queued) is TableWrite and queued.table_id == write.table_id and not later.done():
                    later.set_exception(TableHalted(f"an earlier write of table {write.code} failed ({exc})"))
        if not fut.done():
            fut.set_exception(exc)

    async def _one_by_one(self, batch: list[tuple[TableWrite | PlayerWrite, asyncio.Future]]) -> None:
        """After a failed group commit: give each write its own transaction; only the faulty ones fail."""
        self._writing = True
        try:
            for write, fut in batch:
                if self._refused(write, fut):  # its table failed earlier in this batch, or the database went down
                    continue
                try:
                    await self._write_batch([write])
                except asyncio.CancelledError:
                    for _, left in batch:
                        if not left.done():
                            left.cancel()
                    raise
                except StoreBusy as exc:
                    self._went_down(exc)
                    self._fail(write, fut, exc)
                except Exception as exc:
                    self._fail(write, fut, exc)
                else:
                    self.writes += 1
                    self._came_back()
                    if not fut.done():
                        fut.set_result(None)
        finally:
            self._writing = False

    # ------------------------------------------------------------------ the database down and back

    def _went_down(self, exc: StoreBusy) -> None:
        if self.down is None:
            log.warning("the database does not answer: %s; writes fail at once until it does", exc)
        self.down = exc
        if self._answering is not None:
            self._answering.clear()
        if self._probe is not None and (self._reviver is None or self._reviver.done()):
            self._reviver = asyncio.get_running_loop().create_task(self._revive(self._probe))

    async def _revive(self, probe: Callable[[], Awaitable[None]]) -> None:
        """Probe the database now and then until a write works again."""
        delay = REVIVE_FIRST
        while self.down is not None:
            await asyncio.sleep(delay)
            try:
                await probe()
            except StoreBusy as exc:
                self.down = exc
                delay = min(delay * 2, REVIVE_MAX)
                continue
            except Exception as exc:  # anything else: the database answered (the write itself was refused)
                log.warning("the database probe failed: %s", exc)
            self._came_back()

    def _came_back(self) -> None:
        """A write committed: the database answers."""
        if self.down is None:
            return
        log.warning("the database answers again")
        self.down = None
        if self._answering is not None:
            self._answering.set()

    async def answering(self) -> None:
        """Return once the database answers (at once when it does now)."""
        if self.down is None:
            return
        if self._answering is None:
            self._answering = asyncio.Event()
        await self._answering.wait()

    async def close(self, wait: float = CLOSE_WAIT) -> None:
        """Commit what is queued and what is being written, then stop the committer.

        A database that takes no write for ``wait`` seconds does not hold the shutdown: what is still queued is
        dropped (never shown, as after a crash; the tables come back from what was stored) and the stop goes on.
        """
        deadline = asyncio.get_running_loop().time() + wait
        while self._task is not None and not self._task.done() and (self._queue or self._writing):
            if asyncio.get_running_loop().time() > deadline:
                log.warning("the database took no write for %.0f s: %d writes not stored at the stop", wait,
                            len(self._queue) + int(bool(self._writing)))  # fmt: skip
                break
            await asyncio.sleep(0.002)
        for task in (self._task, self._reviver):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self._task = self._reviver = None


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

    @property
    @abstractmethod
    def down(self) -> StoreBusy | None:
        """Why the database counts as not answering now (writes fail at once), or None while it answers."""

    @abstractmethod
    async def answering(self) -> None:
        """Return once the database answers again (at once while it does)."""

    @abstractmethod
    def resume_table(self, table_id: str) -> None:
        """The table is restored from what was stored: its writes may be stored again after a failed one."""

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
    async def new_device_code(self, player_id: int, code: str, expires_at: float) -> None:
        """Keep a one-time code (its hash) that moves ``player_id`` to another device until ``expires_at``."""

    @abstractmethod
    async def use_device_code(self, code: str, label: str, now: float) -> tuple[int, str, str] | None:
        """Use a code once: a new device token for its player; return ``(id, token, name)``, or None if not valid."""

    @abstractmethod
    async def devices(self, player_id: int) -> list[dict[str, Any]]:
        """Return the devices that hold ``player_id``."""

    @abstractmethod
    async def drop_device(self, player_id: int, device: str) -> None:
        """Sign device ``device`` out of ``player_id``."""

    @abstractmethod
    def forget_device(self, player_id: int, device: str) -> None:
        """Forget what this process caches of a device signed out (here or on another node)."""

    @abstractmethod
    def forget_players(self) -> None:
        """Forget every cached player token."""

    @abstractmethod
    async def stats(self, token: str) -> dict[str, Any] | None:
        """Return the stats of the player with ``token`` (None if unknown)."""

    @abstractmethod
    async def ratings_of(self, family: str, players: list[int]) -> dict[int, dict[str, Any]]:
        """Return the shown ratings in ``family`` of those of ``players`` who have one."""

    @abstractmethod
    async def rating_moves(self, game_id: int) -> dict[int, dict[str, int]]:
        """Return each rated person's shown rating ``before`` and ``after`` the rated game ``game_id``."""

    @abstractmethod
    async def leaderboard(self, family: str, period: str, token: str, now: float) -> dict[str, Any]:
        """Return the leaderboard of ``family`` over ``period`` (all, week) and the asker's place."""

    @abstractmethod
    async def save_report(self, report: dict[str, Any]) -> None:
        """Keep one player's report of another for the operator."""

    @abstractmethod
    async def reports(self, limit: int = 100) -> list[dict[str, Any]]:
        """Return the latest reports, newest first."""

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
