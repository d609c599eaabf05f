"""Pruning in SQL: players who never finished a game and tables that never started, deleted after a while.

A ``hello`` without a token makes a player, ``create`` a table; most of them are gone a minute later for good (a
page opened once, a script). Once nobody has seen such a player for ``days`` days (no finished game, one device at
most, named in no report, seated at no open table, not connected here), it is deleted with its device; so is a table
closed ``days`` days ago whose log never started a game. The work goes in small batches, each its own short
transaction, off the hot path (``storage.pruning.Pruner`` runs it now and then). Every delete checks its row again,
so nodes of a cluster that prune at the same moment delete each row once and nothing else.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Sequence
from functools import partial
from typing import Any

from . import sql
from .sql_players import Players
from .sql_query import Query, SqlAccess

DAY = 86_400.0
BATCH = 500  # rows looked at, and deleted, per transaction


class Pruning:
    """``SqlStore.pruning``: deletes what was never played (and forgets those players' cached tokens)."""

    def __init__(self, db: SqlAccess, players: Players) -> None:
        self.db = db
        self.players = players  # whose cache of returning players' tokens forgets the players pruned
        self._tokens_since = time.time()  # when that cache was last emptied (pruning empties it now and then)

    async def prune(self, now: float, days: float, keep: Collection[int] = ()) -> tuple[int, int]:
        """Delete the players and tables never played, ``days`` days after; return how many of each were deleted.

        ``keep``: players connected to this node (a connection open for days said no hello meanwhile).
        """
        cutoff = now - days * DAY
        if now - self._tokens_since > days * DAY / 2:  # a token cached here can name no player pruned since
            self.players.forget_players()
            self._tokens_since = now
        players = await self._prune_players(cutoff, set(keep))
        tables = await self._prune_tables(cutoff)
        return players, tables

    async def _prune_players(self, cutoff: float, keep: set[int]) -> int:
        """Delete the never-played players not seen since ``cutoff``, a batch per transaction."""
        seated: set[int] | None = None
        after: tuple[float, int] = (float("-inf"), 0)
        gone = 0
        while True:
            rows = await self.db._read(partial(_rows, query=sql.PRUNABLE_PLAYERS, args=(cutoff, *after, BATCH)))
            if not rows:
                return gone
            after = (rows[-1][1], rows[-1][0])
            if seated is None:
                seated = await self.db._read(_seated_at_open_tables)
            ids = [row[0] for row in rows if row[0] not in seated and row[0] not in keep]
            if ids:
                await self.db._write(partial(_delete_players, ids=ids, cutoff=cutoff))
                gone += len(ids)
                self.players.forget_ids(set(ids))
            if len(rows) < BATCH:
                return gone

    async def _prune_tables(self, cutoff: float) -> int:
        """Delete the tables closed before ``cutoff`` that never started a game, with their logs."""
        after: tuple[float, str] = (float("-inf"), "")
        gone = 0
        while True:
            rows = await self.db._read(partial(_rows, query=sql.PRUNABLE_TABLES, args=(cutoff, *after, BATCH)))
            if not rows:
                return gone
            after = (rows[-1][1], rows[-1][0])
            ids = [row[0] for row in rows]
            await self.db._write(partial(_delete_tables, ids=ids))
            gone += len(ids)
            if len(rows) < BATCH:
                return gone


async def _rows(q: Query, *, query: str, args: tuple[Any, ...]) -> list[Sequence[Any]]:
    """Every row of ``query`` with ``args``."""
    return await q.rows(query, *args)


async def _seated_at_open_tables(q: Query) -> set[int]:
    """The players the seated entries of every open table's log name."""
    found: set[int] = set()
    for (entry,) in await q.rows(sql.SEATED_AT_OPEN):
        pid = json.loads(entry).get("player_id")
        if isinstance(pid, int):
            found.add(pid)
    return found


async def _delete_players(q: Query, *, ids: list[int], cutoff: float) -> None:
    """Delete these players if still never played, then the devices and codes of those gone."""
    await q.executemany(sql.PRUNE_PLAYER, [(pid, cutoff) for pid in ids])
    await q.executemany(sql.PRUNE_DEVICES, [(pid, pid) for pid in ids])
    await q.executemany(sql.PRUNE_CODES, [(pid, pid) for pid in ids])


async def _delete_tables(q: Query, *, ids: list[str]) -> None:
    """Delete these closed tables: their log, their lease row, the table."""
    await q.executemany(sql.PRUNE_TABLE_LOG, [(tid,) for tid in ids])
    await q.executemany(sql.PRUNE_TABLE_LEASE, [(tid,) for tid in ids])
    await q.executemany(sql.PRUNE_TABLE, [(tid,) for tid in ids])
