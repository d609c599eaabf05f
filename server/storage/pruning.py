"""Now and then, off the hot path: delete the players who never finished a game and the tables that never started.

Each node prunes every ``every`` seconds, its first time at a random moment within that, so nodes started together
do not prune together (and if two do, each row is deleted once: ``sql_pruning``). ``days`` 0 keeps everything.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Collection

from .store import Store, StoreBusy

log = logging.getLogger("hearts.store")


class Pruner:
    """The node's pruning task: ``Store.prune`` every ``every`` seconds, with the players connected here kept."""

    def __init__(self, store: Store, days: float, every: float, keep: Callable[[], Collection[int]]) -> None:
        self.store, self.days, self.every, self.keep = store, days, every, keep
        self.passes = 0  # prunes done (each deleted what it found, maybe nothing)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Start pruning (not at all with ``days`` 0)."""
        if self.days > 0:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop pruning (a batch under way is rolled back with its transaction)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        await asyncio.sleep(random.uniform(0, self.every))
        while True:
            try:
                players, tables = await self.store.prune(time.time(), self.days, self.keep())
                if players or tables:
                    log.info("pruned %d players and %d tables never played", players, tables)
            except StoreBusy as exc:  # the database does not answer: the next pass tries again
                log.debug("pruning waits for the database: %s", exc)
            except Exception:  # a bug must not stop the node (nor the next pass)
                log.exception("pruning failed")
            self.passes += 1
            await asyncio.sleep(self.every)
