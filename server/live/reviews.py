"""Hand reviews on the server: cached in the database, computed one at a time in a low-priority worker process.

A review runs the hard player over every decision of one seat in one hand (``shared.review``), a second or so per
decision: minutes of CPU for a busy evening. So each review is computed once (then read from the ``reviews`` table),
in its own worker process at a lower scheduling priority than the computer players and the event loop, one at a time
(the rest queue behind it), and each player may ask for a few an hour.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from typing import Any

from hartenjagen.shared.variants import make_rules

from ..storage.store import Store

log = logging.getLogger("hearts.reviews")
PER_HOUR = 30  # reviews a player may start in any hour
BURST = 6  # reviews of one player computing at the same time
QUEUE = 12  # reviews waiting at most; beyond that new ones are refused (review_busy) rather than queued for minutes
NICENESS = 10  # the review process yields the CPU to the event loop and the computer players (nice 5)
FORMAT = 2  # the review's format, in the cache key: 2 = reasons as codes with parameters, no sentences (shared.review)


def game_name(table_id: str | None, started_at: float, game_id: int | None = None) -> str:
    """Name a game for the review cache by its table and start, as the table does while it plays.

    So a review given at the table is the one ``GET /api/games/{id}/review/{hand}`` finds; a game with no table id
    keeps its own id.
    """
    return f"t{table_id}:{started_at}" if table_id else f"g{game_id}"


class ReviewRefused(Exception):
    """A review that cannot be given now: ``code`` is ``review_limited`` or ``review_busy``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _lower_priority() -> None:
    """Run the review process niced: it yields to the event loop and the computer players, yet still moves.

    SCHED_IDLE, or nice 19, starved it for minutes while the computer players kept both cores busy.
    """
    try:
        os.nice(NICENESS)
    except OSError:
        pass


def review_job(
    options: dict[str, Any], events: list[dict[str, Any]], seat: int, hand_no: int, budget_ms: float, names: list[str]
) -> str:
    """In the worker: the review of ``seat``'s decisions in hand ``hand_no`` as JSON text."""
    from hartenjagen.shared.review import review_hand

    review = review_hand(make_rules(options), events, seat, hand_no, budget_ms, names)
    return json.dumps(review, separators=(",", ":"))


class Reviewer:
    """Gives reviews: from the cache, else computed in the review process (one in flight per key)."""

    def __init__(self, store: Store, budget_ms: float) -> None:
        self.store = store
        self.budget_ms = budget_ms
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[str, asyncio.Future] = {}
        self._tasks: set[asyncio.Task] = set()  # the computations under way (held: the loop keeps weak references)
        self._starts: dict[int, deque[float]] = {}  # per player: when their reviews of the last hour started
        self._owner: dict[str, int] = {}  # a review computing now -> the player who started it

    def key(self, game: str, seat: int, hand_no: int) -> str:
        """The cache key of a review: the game (``g<id>`` or ``t<table>:<start>``), seat, hand, budget and format."""
        return f"{game}:{seat}:{hand_no}:{self.budget_ms:g}:v{FORMAT}"

    async def review(
        self,
        player_id: int,
        key: str,
        options: dict[str, Any],
        events: list[dict[str, Any]],
        seat: int,
        hand_no: int,
        names: list[str],
        wait: float | None = None,
    ) -> dict[str, Any] | None:
        """Return the review; raise ``ReviewRefused`` past the player's limit or a full queue, ``StoreBusy``.

        With ``wait``, give up waiting after that many seconds and return None: the review goes on and is cached, and
        asking again (free while it runs) gives it once it is done.
        """
        cached = await self.store.review(key)
        if cached is not None:
            return json.loads(cached)
        running = self._running.get(key)
        if running is None:
            if len(self._running) >= QUEUE:
                raise ReviewRefused("review_busy")
            self._count_start(player_id)
            running = self._running[key] = asyncio.get_running_loop().create_future()
            self._owner[key] = player_id
            job = (options, events, seat, hand_no, self.budget_ms, names)
            task = asyncio.get_running_loop().create_task(self._compute(key, job))
            self._tasks.add(task)
            task.add_done_callback(functools.partial(self._settle, key))
        if wait is None:
            return json.loads(await asyncio.shield(running))
        try:
            return json.loads(await asyncio.wait_for(asyncio.shield(running), wait))
        except TimeoutError:
            return None

    def _count_start(self, player_id: int, now: float | None = None) -> None:
        """Count a new review of ``player_id``, or refuse it: at most BURST computing at once, PER_HOUR an hour."""
        now = time.monotonic() if now is None else now
        if sum(1 for owner in self._owner.values() if owner == player_id) >= BURST:
            raise ReviewRefused("review_limited")
        starts = self._starts.setdefault(player_id, deque())
        while starts and now - starts[0] >= 3600.0:
            starts.popleft()
        if len(starts) >= PER_HOUR:
            raise ReviewRefused("review_limited")
        if len(self._starts) > 10_000:  # bounded: forget players with no start in the last hour
            for pid in [p for p, d in self._starts.items() if not d or now - d[-1] >= 3600.0]:
                del self._starts[pid]
            starts = self._starts.setdefault(player_id, starts)
        starts.append(now)

    async def _compute(self, key: str, job: tuple) -> str:
        loop = asyncio.get_running_loop()
        pool = await self._ensure_pool()
        try:
            text = await loop.run_in_executor(pool, review_job, *job)
        except BrokenExecutor:
            self._pool = None
            raise
        try:
            await self.store.save_review(key, text)
        except Exception:  # the review stands without its cache entry (the next ask computes it again)
            log.exception("review %s could not be cached", key)
        return text

    def _settle(self, key: str, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        self._owner.pop(key, None)
        future = self._running.pop(key)
        if task.cancelled():
            future.cancel()
        elif (error := task.exception()) is not None:
            future.set_exception(error)
        else:
            future.set_result(task.result())
        if not future.cancelled():
            future.exception()  # seen here: an error reaches whoever awaits it, and nobody else complains

    async def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_lower_priority)
        return self._pool

    def close(self) -> None:
        """Stop the review process (reviews under way are dropped; nothing half-written is cached)."""
        for task in list(self._tasks):
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
