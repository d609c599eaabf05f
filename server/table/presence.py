"""Who is at a table now, known by connection id: where each connection sits, and what each was shown.

Presence is never logged nor stored. The table knows a connection only by the id its connection layer gave it
(``ConnectionId``): where it sits (a seat, or None: watching) and what it was shown (``Sight``) are kept here by that
id, and each seat's ``Attendance`` holds the id of its person's live connection. A step returns what to write to
which id; the live layer keeps the connection objects and writes. The table holds no network object, so it writes
none of their fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NewType, Protocol

from hartenjagen.shared.view import CommonView

ConnectionId = NewType("ConnectionId", int)  # a live connection, as its connection layer numbers it


@dataclass(slots=True)
class Attendance:
    """One seat's presence: its person's live connection (its id, or None), and since when that person is gone."""

    connection: ConnectionId | None = None
    disconnected_at: float | None = None  # monotonic time the connection dropped (None while connected)


class Shared(Protocol):
    """What every seat shares at one moment of a table, as a ``Sight`` keeps it (``seat_view.Moment``)."""

    @property
    def public(self) -> dict[str, Any]:
        """The fields of the ``table`` message every seat shares."""

    @property
    def common(self) -> CommonView | None:
        """The view fields every seat shares (None: no game)."""


@dataclass(slots=True)
class Sight:
    """What one connection at a table was shown: the last public event, its moment, its seat and own view fields."""

    seen: int = 0  # the last public event it was shown
    shown: dict[str, Any] | None = None  # the whole table message it holds, once built (``seat_view.shown_message``)
    moment: Shared | None = None  # the table moment it was last shown (None: shown nothing yet)
    you: int | None = None  # the seat it was shown as (None: watching)
    fields: Any = None  # its seat's own view fields then (``shared.view.SeatFields``; None: watching, or no game)
    key: tuple[Any, ...] | None = None  # what those fields were made from (``shared.view.seat_key``)


@dataclass
class Presence:
    """Every connection at a table by its id: its seat (None: watching), and what it was shown.

    Where each connection sits is written by the table's seating commands only (``seating.Seating``), which keep each
    seat's ``Attendance`` beside it: a connection on a seat here is that seat's live connection.
    """

    seats: dict[ConnectionId, int | None] = field(default_factory=dict)  # by connection id: its seat, None: watching
    sights: dict[ConnectionId, Sight] = field(default_factory=dict)  # by connection id: what it was shown

    def here(self, connection: ConnectionId) -> bool:
        """True while ``connection`` sits or watches at this table."""
        return connection in self.seats

    def seat_of(self, connection: ConnectionId) -> int | None:
        """The seat ``connection`` sits on (None: it watches, or is not here)."""
        return self.seats.get(connection)

    def watching(self, connection: ConnectionId) -> bool:
        """True while ``connection`` watches this table without a seat."""
        return connection in self.seats and self.seats[connection] is None

    def watchers(self) -> list[ConnectionId]:
        """The connections watching without a seat, in the order they came."""
        return [c for c, seat in self.seats.items() if seat is None]

    def place(self, connection: ConnectionId, seat: int | None) -> None:
        """``connection`` is on ``seat`` now (None: watching)."""
        self.seats[connection] = seat

    def go(self, connection: ConnectionId) -> None:
        """``connection`` is no longer at the table: forget where it sat and what it was shown."""
        self.seats.pop(connection, None)
        self.sights.pop(connection, None)

    def sight(self, connection: ConnectionId) -> Sight:
        """What ``connection`` was shown at this table (a connection shown nothing yet gets an empty ``Sight``)."""
        found = self.sights.get(connection)
        if found is None:
            found = self.sights[connection] = Sight()
        return found

    def arrive(self, connection: ConnectionId, seen: int) -> None:
        """``connection`` is shown this table afresh; the public events after ``seen`` are new to it."""
        self.sights[connection] = Sight(seen)
