"""Table chat: short messages and quick phrases among the people at one table, kept in memory only.

Chat never enters the table log or the database: the last ``CHAT_KEEP`` lines live on the table object and are
gone when the table closes (or the server restarts). The host's on/off switch is a table setting and is logged
like ``allow_watch``; so is a seat's own switch (``mute_chat``: that seat gets no lines, and at a Play now table
chat stops for everyone while half the people seated there turned it off). Lines go out through the table's
delivery queue, so a line never overtakes a table change that was shown before it, and a relayed connection
(cluster) gets them like any other message. Nothing here reads a clock or sends: ``say`` takes the line's time and
returns what to send to which connection, and the hub's handler (``server/handlers/chatting.py``) sends it. How many
lines a connection, an address and a table may send is the hub's to count too (``server/connection/limits.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from . import outgoing
from .errors import ProtocolError
from .jsontext import compact
from .messages import CHAT_MAX, PHRASES
from .parts import CHAT_KEEP, Room
from .presence import Connection

if TYPE_CHECKING:
    from .table import Table

__all__ = [
    "CHAT_MAX", "CHAT_KEEP", "PHRASES", "Room", "Said", "Speaker", "check", "history", "room", "say",
]  # fmt: skip


class Speaker(Connection, Protocol):
    """A connection that chats: who it is."""

    table: Table | None
    player_id: int | None
    name: str | None


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


def check(client: Speaker, msg: Said) -> Table:
    """``chat``: refuse what may not be said now (the field, who, chat off); return the table it goes to."""
    if (msg.text is None) == (msg.phrase is None):
        raise ProtocolError("bad_message", field="text", problem="text_or_phrase")
    table = client.table
    if table is None or (client.seat is None and client not in table.presence.watchers):
        raise ProtocolError("not_seated")
    table.seating.check_not_removed(client.player_id)  # a removed person's other device, watching, says nothing there
    if not table.chat_allowed:
        raise ProtocolError("chat_off_by_host")
    if table.chat_voted_off:
        raise ProtocolError("chat_off_by_vote")
    if client.seat is not None and client.seat in table.chat_muted:
        raise ProtocolError("chat_off_by_you")
    return table


def say(client: Speaker, table: Table, msg: Said, at: int) -> list[tuple[Connection, str]]:
    """Keep a checked line (``check``) said at wall-clock second ``at``; return it for every connection to send it to.

    Every seat and watcher of the table hears it but the seats that turned chat off.
    """
    chat = room(table)
    chat.last_id += 1
    name = table.seats[client.seat].name if client.seat is not None else client.name
    line = outgoing.chat(chat.last_id, at, client.seat, name, msg.text, msg.phrase)
    chat.lines.append(line)
    text = compact(line)
    muted = table.chat_muted
    return [(person, text) for person in table.connections() if person.seat is None or person.seat not in muted]


def history(client: Speaker, table: Table) -> dict[str, Any] | None:
    """The ``chat_history`` message (the recent lines) for ``client`` after a ``join``/``resume``/``watch``.

    Also when chat is turned on again. None when ``client`` is not at ``table`` (any more).
    """
    if client.table is not table:
        return None
    lines = list(table.runtime.chat_room.lines) if table.runtime.chat_room is not None else []
    if client.seat is not None and client.seat in table.chat_muted:
        lines = []  # the seat turned chat off for itself
    return outgoing.chat_history(table.code, lines)
