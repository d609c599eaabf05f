"""What the SQLite and PostgreSQL stores share: every query and write, held as one object per concern.

``SqlStore.logs`` (``sql_logs.TableLogs``) keeps the group-committed table logs, ``players`` (``sql_players``) the
players and their devices, ``games`` (``sql_games``) finished games, ratings and the leaderboard, ``replays``
(``sql_replays``) replays, reviews, reports and the daily board, ``pruning`` (``sql_pruning``) what was never
played. Each runs its SQL over the store itself as ``SqlAccess`` (``sql_query``): the SQLite and PostgreSQL stores
give the transactions and the fast append. The ``Store`` interface's methods hand each call to its concern.
"""

from __future__ import annotations

import asyncio
import time
from abc import abstractmethod
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any, TypeVar

from ..metrics import Metrics
from . import sql
from .group_commit import GroupCommit
from .sql_games import GameRecords
from .sql_logs import TableLogs
from .sql_players import Players
from .sql_pruning import Pruning
from .sql_query import Query, one_value
from .sql_replays import Replays
from .store import Store, StoreBusy, StoredTable, TableWrite

T = TypeVar("T")


class SqlStore(Store):
    """A ``Store`` on an SQL database: the subclass gives transactions and the fast append, the concerns the rest."""

    leases = False  # PostgreSQL: log rows carry the writer's lease number (fencing)

    def __init__(self) -> None:
        self.logs = TableLogs(self)
        self.players = Players(self)
        self.games = GameRecords(self)
        self.replays = Replays(self)
        self.pruning = Pruning(self, self.players)
        self.commits = GroupCommit(self.logs.write_batch, lambda: self.probe())  # looked up at each probe

    # ------------------------------------------------------------------ the database (each subclass gives its own)

    @abstractmethod
    async def _read(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` on a consistent view of the database (never a half-written game)."""

    @abstractmethod
    async def _write(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: committed whole or not at all."""

    @abstractmethod
    async def _peek(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row of one quick read that needs no snapshot (a token lookup)."""

    @abstractmethod
    async def _append_only(self, rows: list[tuple]) -> bool:
        """Append log rows ``(table_id, n, entry[, lease])`` in one statement; False if too big for that."""

    @abstractmethod
    async def _close(self) -> None:
        """Close the connection or pool."""

    async def schema_version(self) -> int:
        """Return the highest applied migration number."""
        return await self._read(lambda q: one_value(q, sql.SCHEMA_VERSION))

    async def probe(self) -> None:
        """Make one small real write (the probe row); raise ``StoreBusy`` while the database does not take it."""
        await self._write(lambda q: q.execute(sql.PROBE, self.kind, time.time()))

    def measure(self, metrics: Metrics) -> None:
        """Time each group commit transaction in the node's ``metrics`` (``hearts_store_commit_seconds``)."""
        self.commits.metrics = metrics

    async def close(self) -> None:
        """Commit what is queued, then close the database."""
        await self.commits.close()
        await self._close()

    # ------------------------------------------------------------------ table logs (``logs``)

    def submit(self, write: TableWrite) -> asyncio.Future:
        """Queue ``write``; it commits with whatever other tables queued meanwhile (group commit)."""
        return self.logs.submit(write)

    @property
    def down(self) -> StoreBusy | None:
        """Why the database counts as not answering now (writes fail at once), or None while it answers."""
        return self.logs.down

    async def answering(self) -> None:
        """Return once the database answers again (at once while it does)."""
        await self.logs.answering()

    def resume_table(self, table_id: str) -> None:
        """The table is restored from what was stored: its writes may be stored again after a failed one."""
        self.logs.resume_table(table_id)

    async def open_tables(self) -> list[StoredTable]:
        """Return every open table's log, oldest table first."""
        return await self.logs.open_tables()

    async def open_table(self, code: str) -> StoredTable | None:
        """Return the log of the open table with ``code`` (the newest such table), or None."""
        return await self.logs.open_table(code)

    async def open_table_ids(self) -> list[tuple[str, str]]:
        """Return ``(table_id, code)`` of every table that is not closed."""
        return await self.logs.open_table_ids()

    async def fenced_table(self, table_id: str, lease: int) -> StoredTable | None:
        """Fence open table ``table_id`` at ``lease``, then return its log (see ``Store.fenced_table``)."""
        return await self.logs.fenced_table(table_id, lease)

    async def newest_lease(self, table_id: str) -> int:
        """Return the newest lease number recorded for ``table_id`` (0: none)."""
        return await self.logs.newest_lease(table_id)

    async def mark_damaged(self, table_id: str, why: str) -> None:
        """Close a table whose log cannot be replayed."""
        await self.logs.mark_damaged(table_id, why)

    # ------------------------------------------------------------------ players and devices (``players``)

    async def player(self, name: str, token: str | None) -> tuple[int, str, str]:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or of a new player."""
        return await self.players.player(name, token)

    async def returning(self, name: str, token: str) -> tuple[int, str, str] | None:
        """Return ``(id, token, name)`` of the player with ``token`` (renamed to ``name``), or None (nothing stored)."""
        return await self.players.returning(name, token)

    async def player_id(self, token: str) -> int | None:
        """Return the id of the player with ``token``, or None."""
        return await self.players.player_id(token)

    async def new_device_code(self, player_id: int, code: str, expires_at: float) -> None:
        """Keep a one-time code (its hash) that moves ``player_id`` to another device until ``expires_at``."""
        await self.players.new_device_code(player_id, code, expires_at)

    async def use_device_code(self, code: str, label: str, now: float) -> tuple[int, str, str] | None:
        """Use a code once: a new device token for its player; return ``(id, token, name)``, or None if not valid."""
        return await self.players.use_device_code(code, label, now)

    async def devices(self, player_id: int) -> list[dict[str, Any]]:
        """Return the devices that hold ``player_id``."""
        return await self.players.devices(player_id)

    async def drop_device(self, player_id: int, device: str) -> None:
        """Sign device ``device`` out of ``player_id``."""
        await self.players.drop_device(player_id, device)

    def forget_device(self, player_id: int, device: str) -> None:
        """Forget what this process caches of a device signed out (here or on another node)."""
        self.players.forget_device(player_id, device)

    def forget_players(self) -> None:
        """Forget every cached player token."""
        self.players.forget_players()

    # ------------------------------------------------------------------ finished games and ratings (``games``)

    async def rerate(self) -> int:
        """Rate every stored rated game again if the stored ratings were made by another model (``GameRecords``)."""
        return await self.games.rerate()

    async def record_game(self, record: dict[str, Any]) -> None:
        """Store one finished game outside a table write (tests and tools)."""
        await self.games.record_game(record)

    async def stats(self, token: str) -> dict[str, Any] | None:
        """Return the stats of the player with ``token`` (None if unknown)."""
        return await self.games.stats(token)

    async def ratings_of(self, family: str, players: list[int]) -> dict[int, dict[str, Any]]:
        """Return the shown ratings in ``family`` of those of ``players`` who have one."""
        return await self.games.ratings_of(family, players)

    async def rating_moves(self, game_id: int) -> dict[int, dict[str, int]]:
        """Return each rated person's shown rating ``before`` and ``after`` the rated game ``game_id``."""
        return await self.games.rating_moves(game_id)

    async def leaderboard(self, family: str, period: str, token: str, now: float) -> dict[str, Any]:
        """Return the leaderboard of ``family`` over ``period`` (all, week) and the asker's place."""
        return await self.games.leaderboard(family, period, token, now)

    # ------------------------------------------------------------------ replays, reviews, reports (``replays``)

    async def save_report(self, report: dict[str, Any]) -> None:
        """Keep one player's report of another for the operator."""
        await self.replays.save_report(report)

    async def reports(self, limit: int = 100) -> list[dict[str, Any]]:
        """Return the latest reports, newest first."""
        return await self.replays.reports(limit)

    async def games_of(self, token: str, limit: int = 100) -> list[dict[str, Any]] | None:
        """Return the finished games the player with ``token`` sat in, most recent first (None if unknown)."""
        return await self.replays.games_of(token, limit)

    async def game(self, game_id: int, token: str | None = None, share: str | None = None) -> dict[str, Any] | None:
        """Return the stored game ``game_id`` for a player who sat in it, or by its share key; else None."""
        return await self.replays.game(game_id, token, share)

    async def finished_game(self, game_id: int) -> dict[str, Any] | None:
        """Return the stored finished game ``game_id`` with its events (for the operator's tools), or None."""
        return await self.replays.finished_game(game_id)

    async def game_and_seat(self, game_id: int, token: str) -> tuple[dict[str, Any], int, int] | None:
        """Return (stored game, the player's seat in it, player id) for the player with ``token``; else None."""
        return await self.replays.game_and_seat(game_id, token)

    async def review(self, key: str) -> str | None:
        """Return the cached review (JSON text) stored under ``key``, or None."""
        return await self.replays.review(key)

    async def save_review(self, key: str, body: str) -> None:
        """Cache a review under ``key``."""
        await self.replays.save_review(key, body)

    async def server_key(self, name: str) -> str:
        """Return the server's secret ``name`` (made once, at random, and kept)."""
        return await self.replays.server_key(name)

    async def daily_played(self, day: str, player_id: int) -> bool:
        """Return True if the player already has a counted daily game on ``day``."""
        return await self.replays.daily_played(day, player_id)

    async def daily_board(self, day: str, token: str | None, limit: int = 50) -> dict[str, Any]:
        """Return the counted final totals of ``day``'s daily deal, lowest first, and the asker's place."""
        return await self.replays.daily_board(day, token, limit)

    # ------------------------------------------------------------------ pruning (``pruning``)

    async def prune(self, now: float, days: float, keep: Collection[int] = ()) -> tuple[int, int]:
        """Delete the players and tables never played, ``days`` days after; return how many of each were deleted."""
        return await self.pruning.prune(now, days, keep)
