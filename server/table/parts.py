"""A table's three parts: its stored state (the fold of its log), its presence, its runtime; only the state is stored.

``TableState`` (``state.py``) is everything a stored log folds back into. Beside it a table holds ``Presence`` (who
is here now: each seat's live connection and the watchers) and ``Runtime`` (what it keeps while it runs in memory:
timers, hints, cached ratings, its hub's settings). Neither is logged nor stored: after a restore both start empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .chat import Room
from .errors import ProtocolError
from .presence import Connection, Presence
from .state import WAITING, Seat, TableState


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


class TableParts(TableState):
    """A table's stored state with its presence and runtime beside it, and the checks every command shares."""

    presence: Presence
    runtime: Runtime

    def __init__(self, table_id: str = "", grace: float = 30.0, **state: Any) -> None:
        super().__init__(table_id=table_id, **state)
        self.presence = Presence()
        self.runtime = Runtime(grace=grace)

    def _new_decision(self, *, stop_timer: bool) -> None:
        """The fold says the decision in progress is over (a new timer, a restart, a new game): start it over."""
        self.runtime.decision_key = None
        if stop_timer:
            self.runtime.deadline = None

    def seat_at(self, seat: int) -> Seat:
        """Return seat number ``seat``; a number past this table's seats is refused (the protocol allows up to 11)."""
        return self.seats[check_seat(len(self.seats), seat)]

    def _check_host(self, seat: int) -> None:
        if seat != self.host:
            raise ProtocolError("not_host")

    def _check_waiting(self, what: tuple[str, str]) -> None:
        if self.status != WAITING:
            raise ProtocolError(
                "not_now", detail=(f"{what[0]} only before the start", f"{what[1]} alleen vóór het begin")
            )

    def connections(self) -> list[Connection]:
        """Return every connection at the table: the seated people's, then the watchers'."""
        return [s.client for s in self.seats if s.client is not None] + list(self.presence.watchers)

    def closed_notices(self) -> list[tuple[Connection, dict[str, Any] | str]]:
        """Return the ``left`` message each watcher gets when the table closes."""
        return [(w, {"type": "left", "code": self.code, "reason": "closed"}) for w in self.presence.watchers]


def check_seat(seats: int, seat: int) -> int:
    """Return ``seat`` when a table of ``seats`` has it, else refuse it as a bad ``seat`` field."""
    if not 0 <= seat < seats:
        last = seats - 1
        detail = (f"this table's seats are 0 to {last}", f"de stoelen van deze tafel zijn 0 tot en met {last}")
        raise ProtocolError("bad_message", field="seat", detail=detail)
    return seat
