"""A table's parts beside its stored state, and the checks its commands share; only the state is stored.

``TableState`` (``state.py``) is everything a stored log folds back into. Beside it a ``table.Table`` holds as fields
``Presence`` (``presence.py``: who is here now, by connection id: each one's seat or watching, and what it was shown)
and ``Runtime`` (here: what it keeps while it runs in memory: timers, hints, cached ratings, its hub's settings).
Neither is logged nor stored: after a restore both start empty.
"""

from __future__ import annotations

import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .errors import ProtocolError
from .state import WAITING, Seat, TableState

CHAT_KEEP = 50  # chat lines a table remembers for people who (re)join


def held(table: TableState) -> TableState:
    """Return a part's reference to its table that does not keep the table alive.

    A table holds its parts (``Seating``, ``Hosting``, ``Turns``); were they to hold the table too, every closed
    table would be a reference cycle, freed only by the collector's next full pass, which a busy server seldom runs
    (``app.keep_gc_off_the_hot_path``): rounds of tables opened and closed grew the memory round after round. With
    this reference a closed table is freed as its last holder lets go.
    """
    return weakref.proxy(table)


class Room:
    """One table's recent chat lines, oldest first, numbered 1, 2, 3... for the table's life (``chat.py``)."""

    __slots__ = ("lines", "last_id")

    def __init__(self) -> None:
        self.lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.last_id = 0


@dataclass
class Runtime:
    """What a running table keeps in memory only (never stored, never folded): timers, hints, caches, settings."""

    grace: float = 30.0  # seconds play waits for a disconnected person before a computer stands in
    deadline: float | None = None  # monotonic time when the turn timer runs out
    decision_key: tuple | None = None  # the decision point the turn timer and the hints belong to
    timed_out: set[int] = field(default_factory=set)  # seats whose turn timer ran out at this decision
    hints: dict[int, dict[str, Any]] = field(default_factory=dict)  # per seat, for the current decision only
    chat_room: Room | None = None  # recent chat lines (made on the first)
    ratings: dict[int, dict[str, Any]] = field(default_factory=dict)  # player id -> shown rating
    rating_moves: tuple[int, dict[int, dict[str, int]]] | None = None  # a rated game's id, each person's before/after
    only: frozenset[str] | None = None  # the table messages its hub takes, when fewer than all (the offline table's)

    def new_decision(self, *, stop_timer: bool) -> None:
        """The decision in progress is over (a new timer, a restart, a new game): start it over."""
        self.decision_key = None
        if stop_timer:
            self.deadline = None


def check_host(table: TableState, seat: int) -> None:
    """Refuse a host command from ``seat`` when it does not host ``table`` (``not_host``)."""
    if seat != table.host:
        raise ProtocolError("not_host")


def check_waiting(table: TableState, code: str) -> None:
    """Refuse with ``code`` (what may be done only before the start) once ``table`` has started."""
    if table.status != WAITING:
        raise ProtocolError(code)


def check_seat(seats: int, seat: int) -> int:
    """Return ``seat`` when a table of ``seats`` has it, else refuse it as a bad ``seat`` field."""
    if not 0 <= seat < seats:
        raise ProtocolError("bad_message", field="seat", problem="seat_range", last=seats - 1)
    return seat


def seat_at(table: TableState, seat: int) -> Seat:
    """Return seat number ``seat``; a number past this table's seats is refused (the protocol allows up to 11)."""
    return table.seats[check_seat(len(table.seats), seat)]
