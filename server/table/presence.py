"""Who is at a table now: each seat's live connection, the watchers, and what each connection was shown.

Presence is never logged nor stored. What a connection was shown is kept here by connection id (``Sight``), not on
the connection: the table writes no field of a network object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from hartenjagen.shared.view import CommonView


class Connection(Protocol):
    """A live connection as a table sees it: where it sits, and how a message reaches it."""

    seat: int | None  # None: watching

    @property
    def table(self) -> object | None:
        """The table it is at, told apart by identity (its hub sets it; the table is ``table.Table``)."""

    @table.setter
    def table(self, value: None) -> None:
        """The connection left the table."""

    def push(self, message: dict[str, Any] | str) -> None:
        """Send one message (or its JSON text) now, in order."""

    def close_soon(self, why: Any) -> None:
        """Close the connection after what it was sent; ``why``: the server's close code and reason."""


@dataclass(slots=True)
class Attendance:
    """One seat's presence: its person's live connection (or None), and since when that person is gone."""

    client: Connection | None = None
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
    """What one connection at a table was shown: the last public event, the last table message, its moment."""

    seen: int = 0  # the last public event it was shown
    shown: dict[str, Any] | None = None  # the last table message it was shown (its updates are cut against it)
    moment: Shared | None = None  # the table moment that message was built from


def connection_id(client: Connection) -> int:
    """The id a table knows a connection by while it is there (the live connection's identity)."""
    return id(client)


@dataclass
class Presence:
    """A table's presence beside its seats' own ``Attendance``: the watchers, and what each connection was shown."""

    watchers: set[Connection] = field(default_factory=set)  # live connections watching without a seat
    sights: dict[int, Sight] = field(default_factory=dict)  # by connection id: what each connection here was shown

    def sight(self, client: Connection) -> Sight:
        """What ``client`` was shown at this table (a connection shown nothing yet gets an empty ``Sight``)."""
        key = connection_id(client)
        found = self.sights.get(key)
        if found is None:
            found = self.sights[key] = Sight()
        return found

    def arrive(self, client: Connection, seen: int) -> None:
        """``client`` comes to the table shown nothing yet; the public events after ``seen`` are new to it."""
        self.sights[connection_id(client)] = Sight(seen)

    def keep(self, here: list[Connection]) -> None:
        """Forget what the connections no longer at the table (``here`` are) were shown."""
        if len(self.sights) > len(here):
            sights = self.sights
            self.sights = {key: sights[key] for key in map(connection_id, here) if key in sights}
