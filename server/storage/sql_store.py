"""What the SQLite and PostgreSQL stores share: every query and write, made of one part per concern.

``TableLogs`` (``sql_logs``) keeps the group-committed table logs, ``Players`` (``sql_players``) the players and
their devices, ``GameRecords`` (``sql_games``) finished games, ratings and the leaderboard, ``Replays``
(``sql_replays``) replays, reviews, reports and the daily board, ``Pruning`` (``sql_pruning``) what was never
played; each runs its SQL over ``SqlAccess`` (``sql_query``), which the SQLite and PostgreSQL stores implement.
"""

from __future__ import annotations

import time

from ..metrics import Metrics
from .group_commit import GroupCommit
from .sql_games import GameRecords
from .sql_logs import TableLogs
from .sql_players import Players
from .sql_pruning import Pruning
from .sql_replays import Replays
from .store import Store


class SqlStore(TableLogs, Players, GameRecords, Replays, Pruning, Store):
    """A ``Store`` on an SQL database: the subclass gives transactions and the fast append, the parts the rest."""

    def __init__(self) -> None:
        self.commits = GroupCommit(self._write_batch, lambda: self.probe())  # looked up at each probe
        self._player_ids: dict[str, int] = {}  # token hash -> player id, for returning players
        self._tokens_since = time.time()  # when that cache was last emptied (pruning empties it now and then)

    def measure(self, metrics: Metrics) -> None:
        """Time each group commit transaction in the node's ``metrics`` (``hearts_store_commit_seconds``)."""
        self.commits.metrics = metrics

    async def close(self) -> None:
        """Commit what is queued, then close the database."""
        await self.commits.close()
        await self._close()
