"""The storage interface: table logs (group-committed), players, finished games, replays and the daily board."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from ..metrics import Metrics


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
    # in a cluster: whether the node may still write under its leases (``Cluster.writable``), asked when the write is
    # queued and again when its group commit goes to the database
    valid: Callable[[], bool] | None = None

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


class LeaseExpired(RuntimeError):
    """Not written: the node's leases were not renewed in time (Redis does not answer); another node may take over."""


class ClusterUnavailable(RuntimeError):
    """Redis does not answer: the cluster cannot reserve codes or take leases now."""


class StoreUnavailable(RuntimeError):
    """The database cannot be opened: its driver is not installed, or it does not answer."""


class StoreBusy(RuntimeError):
    """The database stopped answering while the server runs (down, locked or full): nothing was stored; try later."""


class TableHalted(RuntimeError):
    """An earlier write of this table failed: nothing more of it is stored until it is restored from the database."""




class Store(ABC):
    """Everything the server keeps: one implementation per database (SQLite by default; PostgreSQL for a cluster)."""

    kind = "?"  # "sqlite" or "postgresql": shown by /healthz

    def describe(self) -> str:
        """Return which database this is, for the start-up line (never a password)."""
        return self.kind

    def measure(self, metrics: Metrics) -> None:
        """Time this store's group commits in the node's ``metrics`` (a store without one times nothing)."""
        return None

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

    async def fenced_table(self, table_id: str, lease: int) -> StoredTable | None:
        """Fence open table ``table_id`` at ``lease``, then return its log; None when it is closed.

        In a cluster, a node that took a table over (``lease``) calls this before it folds the log: every append of an
        older lease is in the log returned, or refused from now on. ``LeaseLost`` when a newer lease holds the fence.
        SQLite has no fence: the log alone.
        """
        return next((t for t in await self.open_tables() if t.table_id == table_id), None)

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
    async def returning(self, name: str, token: str) -> tuple[int, str, str] | None:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or None (nothing stored)."""

    @abstractmethod
    async def prune(self, now: float, days: float, keep: Collection[int] = ()) -> tuple[int, int]:
        """Delete the players who never finished a game and the tables never started, ``days`` days after.

        Return how many players and tables were deleted; ``keep``: players connected to this node.
        """

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
