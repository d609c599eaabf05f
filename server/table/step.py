"""The one step after every change of a table, decided without I/O: what to store, what to send, what to schedule.

``settle`` takes the time (``now`` on the monotonic clock for timers, ``at`` on the wall clock for the log) and
returns a ``Step``; ``live.registry`` carries it out: it stores the entries, delivers the messages once they are
stored (``live.delivery``, which writes each to the connection its id names, and marks in the table's presence what
each connection was shown), and starts the timers and computer moves asked for. A connection is only its id here
(``presence.ConnectionId``): nothing here reads a clock, writes a socket, touches the database or holds a connection,
so every decision can be tested with plain numbers (``tests/server/test_table_step.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .presence import ConnectionId
from .seat_view import Moment, Shown, cut
from .table import Table


@dataclass
class Step:
    """What one change of a table calls for."""

    entries: list[tuple[int, str]]  # log entries to store, in order, before any message below is delivered
    record: dict[str, Any] | None  # a finished game to store with them
    messages: list[tuple[ConnectionId, dict[str, Any] | str]]  # (connection id, message) to deliver once stored
    closed: bool  # nobody is left: the table closed, and is forgotten once its entries are stored
    wake_at: float | None  # when the table needs a look again (its turn timer, a grace period), monotonic
    idle: bool  # no person is connected: the table closes unless someone comes within the idle timeout
    moment: Moment  # what every seat shares now (the next step's updates are cut against it)
    computers: list[int] = field(default_factory=list)  # seats a computer should move for now
    shown: list[Shown] = field(default_factory=list)  # what each connection was shown: marked when sent


def settle(table: Table, now: float, at: float, before: Moment | None = None) -> Step:
    """Bring ``table`` to rest after a change and return what that calls for.

    Marks people away past their grace period, deals the next hand when everyone is ready, starts the turn timer
    of a new decision, records a finished game, cuts every connection's update from one shared moment (``before``
    is the moment the last step built), and closes the table when no person holds a seat any more. Each message
    goes to a connection id of the table's presence; what each connection was shown is returned in ``shown``, to be
    marked in the table's presence (by connection id) as its message is sent (``mark_shown``).
    """
    table.seating.mark_away(now, table.runtime.grace)
    table.hosting.autostart(at)
    table.maybe_deal()
    table.turns.refresh_deadline(now)
    record = table.finish(at)
    moment = Moment(table, now, before)
    if before is not None:
        before.before = None  # keep one step of history, not a chain
    messages: list[tuple[ConnectionId, dict[str, Any] | str]] = []
    shown: list[Shown] = []
    for connection in table.connections():
        made = cut(table, connection, moment)
        shown.append(made.shown)
        text = moment.text(made)
        if text is not None:
            messages.append((connection, text))
    closed = not table.persons()
    if closed:
        table.close(at)
        messages += table.closed_notices()
    return Step(
        entries=table.take_unsaved(),
        record=record,
        messages=messages,
        closed=closed,
        wake_at=None if closed else table.turns.next_wake(now, at),
        idle=not closed and not table.connected_persons(),
        computers=[] if closed else table.turns.auto_seats(),
        moment=moment,
        shown=shown,
    )


def mark_shown(shown: Iterable[Shown]) -> None:
    """Mark in the table's presence what a step showed each connection: done as its messages are sent, in order."""
    for mark in shown:
        mark.apply()
