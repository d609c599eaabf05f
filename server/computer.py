"""Computer players off the event loop: decisions run in worker processes (or threads) from a seat's view."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from shared.bots import make_player

log = logging.getLogger("hearts.computer")


def decide(level: str, seed: int, view: dict[str, Any]) -> dict[str, Any] | None:
    """Return the intent a fresh computer player of ``level`` makes from ``view`` (runs in a worker)."""
    return make_player(level, seed).decide(view)


def fallback(view: dict[str, Any]) -> dict[str, Any] | None:
    """Return a simple legal intent from ``view``: used when a computer player fails or errs."""
    return make_player("random", random.randrange(2**32)).decide(view)


class Thinker:
    """Runs computer decisions away from the event loop; ``workers`` processes, or threads when 0."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers > 0:
                ctx = multiprocessing.get_context("forkserver")
                self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
            else:
                self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hearts-bot")
        return self._executor

    async def decide(self, level: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """Return the computer's intent for ``view``; on any failure fall back to a simple legal move."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), decide, level, secrets.randbits(32), view)
        except Exception:  # a broken computer player must never stall a table
            log.exception("computer player %s failed; playing a simple legal move", level)
            return fallback(view)

    def close(self) -> None:
        """Stop the workers."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
