"""Who is at a table now: each seat's live connection and the watchers. Presence is never logged nor stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .seat_view import Moment
    from .table import Table


class Connection(Protocol):
    """A live connection as a table sees it: where it sits, what it was shown last, and how a message reaches it."""

    table: Table | None
    seat: int | None  # None: watching
    seen: int  # the last public event it was shown
    shown: dict[str, Any] | None  # the last table message it was shown (its updates are cut against it)
    shown_moment: Moment | None  # the table moment that message was built from

    def push(self, message: dict[str, Any] | str) -> None:
        """Send one message (or its JSON text) now, in order."""

    def close_soon(self, why: Any) -> None:
        """Close the connection after what it was sent; ``why``: the server's close code and reason."""


@dataclass(slots=True)
class Attendance:
    """One seat's presence: its person's live connection (or None), and since when that person is gone."""

    client: Connection | None = None
    disconnected_at: float | None = None  # monotonic time the connection dropped (None while connected)


@dataclass
class Presence:
    """A table's presence beside its seats' own ``Attendance``: the people watching without a seat."""

    watchers: set[Connection] = field(default_factory=set)  # live connections watching without a seat
