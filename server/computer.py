"""Computer players from a seat's view: cheap levels decide inline, the hard player in worker processes."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import secrets
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from shared.bots import make_player

log = logging.getLogger("hearts.computer")
#: Levels whose decision costs less than shipping a view to a worker (tens of microseconds): decided inline.
INLINE_LEVELS = frozenset({"random", "easy", "medium"})


def decide(level: str, seed: int, view: dict[str, Any]) -> dict[str, Any] | None:
    """Return the intent a fresh computer player of ``level`` makes from ``view`` (runs in a worker)."""
    return make_player(level, seed).decide(view)


def fallback(view: dict[str, Any]) -> dict[str, Any] | None:
    """Return a simple legal intent from ``view``: used when a computer player fails or errs."""
    return make_player("random", random.randrange(2**32)).decide(view)


def fits(intent: Any, view: dict[str, Any]) -> bool:
    """Return True if ``intent`` is a move the game accepts from the seat of ``view`` (its own cards only)."""
    if not isinstance(intent, dict):
        return False
    kind, phase = intent.get("type"), view.get("phase")
    if kind == "pass" and phase == "passing":
        cards = intent.get("cards")
        hand = view["hand"]
        return (
            isinstance(cards, list)
            and len(cards) == view["pass_count"]
            and all(isinstance(c, str) and c in hand for c in cards)
            and len(set(cards)) == len(cards)
        )
    if kind == "play" and phase == "playing":
        return isinstance(intent.get("card"), str) and intent["card"] in view["legal"]
    if kind == "moon" and phase == "moon_choice":
        return intent.get("choice") in view["moon_choices"]
    return False


def _noop() -> None:
    """Do nothing in a worker (used to start the pool's processes off the event loop)."""


class Thinker:
    """Runs computer decisions: cheap levels inline, the rest in ``workers`` processes (threads when 0)."""

    def __init__(self, workers: int, timeout: float = 5.0, inline: bool = True) -> None:
        self.workers = workers
        self.timeout = timeout
        self.inline = INLINE_LEVELS if inline else frozenset()
        self._executor: Executor | None = None
        self._lock: asyncio.Lock | None = None

    def _make(self) -> Executor:
        """Create the pool and start a worker (blocking: starting the process server takes a while)."""
        if self.workers <= 0:
            return ThreadPoolExecutor(max_workers=2, thread_name_prefix="hearts-bot")
        ctx = multiprocessing.get_context("forkserver")
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
        pool.submit(_noop).result()
        return pool

    async def start(self) -> Executor:
        """Return the pool, creating it in a thread so that the event loop never waits for processes to start."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._executor is None:
                self._executor = await asyncio.to_thread(self._make)
            return self._executor

    async def decide(self, level: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """Return the computer's intent for ``view``; on any failure fall back to a simple legal move."""
        if level in self.inline:
            try:
                return decide(level, secrets.randbits(32), view)
            except Exception:
                log.exception("computer player %s failed; playing a simple legal move", level)
                return fallback(view)
        loop = asyncio.get_running_loop()
        pool = None
        try:
            pool = await self.start()
            job = loop.run_in_executor(pool, decide, level, secrets.randbits(32), view)
            return await asyncio.wait_for(job, self.timeout)
        except TimeoutError:  # a hung decision: play on, and put fresh workers in place of the stuck one
            log.error("a %s computer decision took over %.1f s; playing a simple legal move", level, self.timeout)
            self._replace(pool)
            return fallback(view)
        except BrokenExecutor:  # a worker died: start a fresh pool for the next decision
            log.error("the computer players' worker pool broke; starting a new one")
            self._replace(pool)
            return fallback(view)
        except Exception:  # a broken computer player must never stall a table
            log.exception("computer player %s failed; playing a simple legal move", level)
            return fallback(view)

    def _replace(self, pool: Executor | None) -> None:
        """Drop ``pool`` (stopping its processes, a stuck one included); the next decision starts a new one."""
        if pool is None or self._executor is not pool:
            return
        self._executor = None
        processes = getattr(pool, "_processes", None) or {}  # ProcessPoolExecutor's workers (threads cannot be)
        for proc in list(processes.values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
