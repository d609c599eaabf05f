"""What a table's step asks to happen later: computer moves, its next look (turn timer, grace), its idle close.

Computer moves run as tasks: a computer thinks during the ``--bot-delay`` pause (the hard player in the workers,
``server.live.computer``), then its move is checked against the view it was made from and applied, unless the table
moved on meanwhile. Timers are the event loop's own; each table has at most one wake-up and one idle timer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from ..table.commands import computer_play, computer_turn
from ..table.pace import PACE_FACTORS
from ..table.step import Step
from ..table.table import Table
from .computer import Thinker

log = logging.getLogger("hearts.server")


class OpenTables(Protocol):
    """What the scheduler needs of the open tables (``server.live.registry.Tables``)."""

    def holds(self, table: Table) -> bool:
        """True while ``table`` is the open table of its code."""

    def changed(self, table: Table) -> None:
        """Settle, store and deliver ``table`` after a change."""

    def close(self, table: Table) -> None:
        """Close an idle table."""


class Scheduler:
    """Starts the computer moves and timers a step asks for, and cancels a table's when it is forgotten."""

    def __init__(self, tables: OpenTables, thinker: Thinker, bot_delay: float, idle_timeout: float) -> None:
        self.tables = tables
        self.thinker = thinker
        self.bot_delay = bot_delay
        self.idle_timeout = idle_timeout
        self.pending: dict[str, set[int]] = {}  # per table: seats whose computer move is under way
        self._wake: dict[str, asyncio.TimerHandle] = {}
        self._idle: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task] = set()

    def apply(self, table: Table, step: Step, now: float) -> None:
        """Start what ``step`` asks for: computer moves for its seats, its next wake-up, the idle close."""
        pending = self.pending.setdefault(table.code, set())
        for s in step.computers:
            if s not in pending:
                pending.add(s)
                self._spawn(self._computer_move(table, s))
        loop = asyncio.get_running_loop()
        handle = self._wake.pop(table.code, None)
        if handle is not None:
            handle.cancel()
        if step.wake_at is not None:
            delay = max(0.0, step.wake_at - now) + 0.01
            self._wake[table.code] = loop.call_later(delay, self._wake_up, table)
        idle = self._idle.get(table.code)
        if not step.idle:
            if idle is not None:
                idle.cancel()
                del self._idle[table.code]
        elif idle is None:
            self._idle[table.code] = loop.call_later(self.idle_timeout, self.tables.close, table)

    def forget(self, code: str) -> None:
        """Cancel a table's timers (its computer moves find it gone and stop)."""
        for handles in (self._wake, self._idle):
            handle = handles.pop(code, None)
            if handle is not None:
                handle.cancel()
        self.pending.pop(code, None)

    def _wake_up(self, table: Table) -> None:
        self._wake.pop(table.code, None)
        table.turns.expire_timer(time.monotonic())
        self.tables.changed(table)

    def _spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _computer_move(self, table: Table, s: int) -> None:
        try:
            turn = computer_turn(table, s)
            thinking = asyncio.ensure_future(self.thinker.decide(turn.level, turn.view))  # thinks during the pause
            try:
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay * PACE_FACTORS.get(table.pace, 1.0))
                intent = await thinking
            finally:
                thinking.cancel()  # the table went away meanwhile: a decision still queued is dropped
            if self.tables.holds(table):
                computer_play(table, turn, intent)  # unless the table moved on while the computer thought
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer move failed at table %s seat %s", table.code, s)
        finally:
            self.pending.get(table.code, set()).discard(s)
            self.tables.changed(table)

    @property
    def moves_under_way(self) -> int:
        """Computer moves being thought about or waiting for their pause, over all tables."""
        return sum(len(seats) for seats in self.pending.values())

    async def shutdown(self) -> None:
        """Cancel every timer and computer move."""
        for handles in (self._wake, self._idle):
            for handle in handles.values():
                handle.cancel()
            handles.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
