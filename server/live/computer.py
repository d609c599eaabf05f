"""Computer players from a seat's view: cheap levels decide inline, the hard player in worker processes.

The hard player's budget shrinks when its decisions queue: each decision gets the budget that lets
every decision now waiting finish within ``target`` seconds on the workers there are, never below
a floor, and never above the configured budget. Budgets come in fixed steps, so a decision is a
function of the view, the seed and one of a few budgets (as the arena plays them), and the steps
in use show on ``/healthz``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import select
import threading
import time
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from hartenjagen.shared.bots import kernel
from hartenjagen.shared.bots.base import DEFAULT_MS, Intent
from hartenjagen.shared.bots.choice import decide, fallback
from hartenjagen.shared.view import View

from ..metrics import NO_METRICS, Metrics

log = logging.getLogger("hearts.computer")
#: Levels whose decision costs less than shipping a view to a worker (tens of microseconds): decided inline.
INLINE_LEVELS = frozenset({"random", "easy", "medium"})


#: The budget steps of the hard player under load (nominal ms): each about 0.7 times the one before.
STEPS = (
    4000.0,
    2800.0,
    2000.0,
    1400.0,
    1000.0,
    700.0,
    560.0,
    400.0,
    280.0,
    200.0,
    140.0,
    100.0,
    70.0,
    50.0,
    35.0,
    25.0,
    18.0,
    12.0,
    10.0,
)


def _prepare_worker(server_pid: int) -> None:
    """Start a worker below the event loop's priority, ending with the server, and compile the look-ahead first.

    A worker holds its own queue's writing end and the process server's liveness pipe, so nothing it reads ends
    when a server is killed (``kill -9``, the out-of-memory killer): without a watch of its own, it and the
    process server would wait for ever, holding memory and whatever the server's output went to.

    The event loop keeps people's moves and the easy and medium players. The kernel compiles once per
    install (20 to 35 s), here, before any decision's timeout runs; once numba's cache holds it, a worker
    loads it at its first hard decision (about 1 s) and a server without hard players never does.
    """
    _exit_with(server_pid)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    if kernel.AVAILABLE and not kernel.cached():
        kernel.warm()


WORKER_NICENESS = 5
GONE_POLL_S = 1.0  # where a process cannot be waited for by its descriptor, how often a worker looks for the server


def _exit_with(pid: int) -> None:
    """End this process as soon as process ``pid`` has ended (a thread waits on it; no polling on Linux)."""

    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)  # readable once the process has ended
        except (AttributeError, OSError):  # not Linux, or the server is gone already
            fd = -1
        if fd >= 0:
            select.select([fd], [], [])
        else:
            while _running(pid):
                time.sleep(GONE_POLL_S)
        os._exit(0)

    threading.Thread(target=watch, name="hearts-server-watch", daemon=True).start()


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def step_for(budget_ms: float, floor_ms: float, ceiling_ms: float) -> float:
    """Return the largest step at most ``budget_ms``, kept within [floor, ceiling]."""
    for step in STEPS:
        if step <= budget_ms:
            return max(floor_ms, min(ceiling_ms, step))
    return max(floor_ms, min(ceiling_ms, STEPS[-1]))


class Budgets:
    """The hard player's budget for the next decision, from the work queued ahead of it and the machine's speed."""

    def __init__(self, workers: int, ceiling_ms: float, floor_ms: float, target_s: float) -> None:
        self.workers = max(1, workers)
        self.ceiling_ms, self.floor_ms, self.target_s = ceiling_ms, min(floor_ms, ceiling_ms), target_s
        self.waiting = 0  # hard decisions handed to the workers and not back yet
        self.queued_ms = 0.0  # their budgets, summed
        self.seconds_per_ms = 0.001  # measured wall seconds per nominal millisecond (moving average)
        self.used: dict[float, int] = {}  # budget step -> decisions made with it

    def next(self) -> float:
        """Return the budget for a decision joining the queue now: done within the target, if the floor allows."""
        ahead_s = self.queued_ms / self.workers * self.seconds_per_ms  # until a worker is free for it
        fits = (self.target_s - ahead_s) / self.seconds_per_ms
        return step_for(fits, self.floor_ms, self.ceiling_ms)

    def take(self) -> float:
        """Return the next budget and count its decision as queued."""
        budget = self.next()
        self.waiting += 1
        self.queued_ms += budget
        return budget

    def done(self, budget_ms: float, seconds: float | None) -> None:
        """Count a decision as done; with its wall time (queueing excluded), follow the machine's real speed."""
        self.waiting -= 1
        self.queued_ms = max(0.0, self.queued_ms - budget_ms)
        if seconds is None:
            return
        self.used[budget_ms] = self.used.get(budget_ms, 0) + 1
        if budget_ms > 0 and seconds > 0:
            rate = min(seconds / budget_ms, 0.02)
            self.seconds_per_ms += 0.1 * (rate - self.seconds_per_ms)


def _timed(level: str, seed: int, view: View, budget_ms: float | None) -> tuple[Intent | None, float]:
    """In a worker: the decision and the wall seconds it took there (queueing excluded)."""
    start = time.perf_counter()
    intent = decide(level, seed, view, budget_ms)
    return intent, time.perf_counter() - start


def _noop() -> None:
    """Do nothing in a worker (used to start the pool's processes off the event loop)."""


class Thinker:
    """Runs computer decisions: cheap levels inline, the rest in ``workers`` processes (threads when 0)."""

    def __init__(
        self,
        workers: int,
        timeout: float = 5.0,
        inline: bool = True,
        hard_ms: float = DEFAULT_MS,
        floor_ms: float = 10.0,
        target_s: float = 1.0,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self.workers = workers
        self.metrics = metrics  # times every decision, by level
        self.timeout = timeout
        self.timed_out = 0  # decisions that took longer than ``timeout`` (a simple legal move was played instead)
        self.inline = INLINE_LEVELS if inline else frozenset()
        self.budgets = Budgets(workers or 1, hard_ms, floor_ms, target_s)  # threads share one interpreter lock
        self._executor: Executor | None = None
        self._lock: asyncio.Lock | None = None

    def _make(self) -> Executor:
        """Create the pool and start a worker (blocking: starting the process server takes a while)."""
        if self.workers <= 0:
            if kernel.AVAILABLE and not kernel.cached():
                kernel.warm()
            return ThreadPoolExecutor(max_workers=2, thread_name_prefix="hearts-bot")
        ctx = multiprocessing.get_context("forkserver")
        pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=ctx, initializer=_prepare_worker, initargs=(os.getpid(),)
        )
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

    async def decide(self, level: str, view: View) -> Intent | None:
        """Return the computer's intent for ``view``; on any failure fall back to a simple legal move."""
        started = time.perf_counter()
        intent = await self._decide(level, view)
        self.metrics.decision_seconds(level).observe(time.perf_counter() - started)  # not when cancelled
        return intent

    async def _decide(self, level: str, view: View) -> Intent | None:
        if level in self.inline:
            try:
                return decide(level, secrets.randbits(32), view)
            except Exception:
                log.exception("computer player %s failed; playing a simple legal move", level)
                return fallback(view)
        loop = asyncio.get_running_loop()
        pool = None
        budget = self.budgets.take() if level == "hard" else 0.0
        seconds = None
        try:
            pool = await self.start()
            job = loop.run_in_executor(pool, _timed, level, secrets.randbits(32), view, budget or None)
            intent, seconds = await asyncio.wait_for(job, self.timeout)
            return intent
        except TimeoutError:  # a hung decision: play on, and put fresh workers in place of the stuck one
            self.timed_out += 1
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
        finally:
            if level == "hard":
                self.budgets.done(budget, seconds)

    def health(self) -> dict[str, Any]:
        """Return the hard player's queue and the budgets its decisions got (for ``/healthz``)."""
        b = self.budgets
        return {
            "waiting": b.waiting,
            "next_budget_ms": b.next(),
            "ms_per_budget_ms": round(b.seconds_per_ms * 1000, 3),
            "decisions_by_budget_ms": {f"{k:g}": v for k, v in sorted(b.used.items(), reverse=True)},
            "timed_out": self.timed_out,
        }

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
        """Stop the workers at once: a decision in flight is dropped (a restored table asks for it again).

        Waiting for them instead kept a stopping node alive for seconds under load (a worker still
        loading the compiled look-ahead, or in a long decision).
        """
        self._replace(self._executor)
