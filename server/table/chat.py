"""Table chat: short messages and quick phrases among the people at one table, kept in memory only.

Chat never enters the table log or the database: the last ``CHAT_KEEP`` lines live on the table object and are
gone when the table closes (or the server restarts). The host's on/off switch is a table setting and is logged
like ``allow_watch``; so is a seat's own switch (``mute_chat``: that seat gets no lines, and at a Play now table
chat stops for everyone while half the people seated there turned it off). Lines go out through the table's
delivery queue, so a line never overtakes a table change that was shown before it, and a relayed connection
(cluster) gets them like any other message. Nothing here reads a clock or sends: ``say`` takes the line's time and
returns what to send to which connection id, and the hub's handler (``server/handlers/chatting.py``) sends it. How many
lines a connection, an address and a table may send is the hub's to count too (``server/connection/limits.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from . import outgoing
from .errors import ProtocolError
from .jsontext import compact
from .messages import CHAT_MAX, PHRASES
from .parts import CHAT_KEEP, Room
from .presence import ConnectionId

if TYPE_CHECKING:
    from .table import Table

__all__ = [
    "CHAT_MAX", "CHAT_KEEP", "PHRASES", "Room", "Said", "check", "history", "room", "say",
]  # fmt: skip


class Said(Protocol):
    """A checked ``chat`` message (``messages.Chat``): a text or one of the phrases."""

    @property
    def text(self) -> str | None:
        """The line's text, or None for a phrase."""

    @property
    def phrase(self) -> str | None:
        """The phrase, or None for a text."""


def room(table: Table) -> Room:
    """The table's chat room (made on first use; it lives and dies with the table object)."""
    if table.runtime.chat_room is None:
        table.runtime.chat_room = Room()
    return table.runtime.chat_room


def check(table: Table | None, speaker: ConnectionId, player_id: int | None, msg: Said) -> Table:
    """``chat``: refuse what may not be said now (the field, who, chat off); return the table it goes to.

    ``table``: the table the connection ``speaker`` (of player ``player_id``) is at, if any.
    """
    if (msg.text is None) == (msg.phrase is None):
        raise ProtocolError("bad_message", field="text", problem="text_or_phrase")
    if table is None or not table.presence.here(speaker):
        raise ProtocolError("not_seated")
    table.seating.check_not_removed(player_id)  # a removed person's other device, watching, says nothing there
    if not table.chat_allowed:
        raise ProtocolError("chat_off_by_host")
    if table.chat_voted_off:
        raise ProtocolError("chat_off_by_vote")
    seat = table.presence.seat_of(speaker)
    if seat is not None and seat in table.chat_muted:
        raise ProtocolError("chat_off_by_you")
    return table


def say(table: Table, speaker: ConnectionId, name: str | None, msg: Said, at: int) -> list[tuple[ConnectionId, str]]:
    """Keep a checked line (``check``) said at wall-clock second ``at``; return it for every connection to send it to.

    ``name``: what a watcher ``speaker`` is called (a seat's line carries its seat's name). Every seat and watcher of
    the table hears it but the seats that turned chat off.
    """
    chat = room(table)
    chat.last_id += 1
    seat = table.presence.seat_of(speaker)
    said_by = table.seats[seat].name if seat is not None else name
    line = outgoing.chat(chat.last_id, at, seat, said_by, msg.text, msg.phrase)
    chat.lines.append(line)
    text = compact(line)
    muted, seats = table.chat_muted, table.presence.seats
    return [(c, text) for c in table.connections() if (s := seats.get(c)) is None or s not in muted]


def history(table: Table, connection: ConnectionId) -> dict[str, Any] | None:
    """The ``chat_history`` message (the recent lines) for ``connection`` after a ``join``/``resume``/``watch``.

    Also when chat is turned on again. None when ``connection`` is not at ``table`` (any more).
    """
    if not table.presence.here(connection):
        return None
    lines = list(table.runtime.chat_room.lines) if table.runtime.chat_room is not None else []
    seat = table.presence.seat_of(connection)
    if seat is not None and seat in table.chat_muted:
        lines = []  # the seat turned chat off for itself
    return outgoing.chat_history(table.code, lines)
