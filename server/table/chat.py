"""Table chat: short messages and quick phrases among the people at one table, kept in memory only.

Chat never enters the table log or the database: the last ``CHAT_KEEP`` lines live on the table object and are
gone when the table closes (or the server restarts). The host's on/off switch is a table setting and is logged
like ``allow_watch``; so is a seat's own switch (``mute_chat``: that seat gets no lines, and at a Play now table
chat stops for everyone while half the people seated there turned it off). Lines go out through the table's
delivery queue, so a line never overtakes a table change that was shown before it, and a relayed connection
(cluster) gets them like any other message. How many lines a connection, an address and a table may send is the
hub's to count (``server/net/limits.py``): nothing here reads a clock but the line's own time.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

from .errors import ProtocolError
from .jsontext import compact
from .presence import Connection

if TYPE_CHECKING:
    from .table import Table

CHAT_MAX = 200  # code points after trimming
CHAT_KEEP = 50  # lines a table remembers for people who (re)join
#: quick phrases: every browser shows them in its own language (client/js/i18n)
PHRASES = ("well_played", "oops", "again", "thanks", "good_luck")


class Room:
    """One table's recent chat lines, oldest first, numbered 1, 2, 3... for the table's life."""

    __slots__ = ("lines", "last_id")

    def __init__(self) -> None:
        self.lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.last_id = 0


class Speaker(Connection, Protocol):
    """A connection that chats: who it is."""

    player_id: int | None
    name: str | None


class Delivering(Protocol):
    """The node's tables as chat uses them: a message queued for a connection, then the table's queue sent."""

    def send(self, table: Table, client: Connection, message: dict[str, Any] | str) -> None:
        """Queue ``message`` for ``client``: it goes out with the table's next flush, after what it logged."""

    def deliver(self, table: Table) -> None:
        """Deliver what was ``send``-queued for ``table`` without a change of its own, in order."""


class ChatHub(Protocol):
    """What chat asks of the hub: its tables."""

    @property
    def tables(self) -> Delivering:
        """The node's open tables."""


def room(table: Table) -> Room:
    """The table's chat room (made on first use; it lives and dies with the table object)."""
    if table.runtime.chat_room is None:
        table.runtime.chat_room = Room()
    return table.runtime.chat_room


def check(client: Speaker, msg: dict[str, Any]) -> Table:
    """``chat``: refuse what may not be said now (the field, who, chat off); return the table it goes to."""
    if ("text" in msg) == ("phrase" in msg):
        detail = ("either text or phrase, not both", "text of phrase, niet allebei")
        raise ProtocolError("bad_message", field="text", detail=detail)
    table = client.table
    if table is None or (client.seat is None and client not in table.presence.watchers):
        raise ProtocolError("not_seated")
    table.check_not_removed(client.player_id)  # a removed person's other device, watching, says nothing there
    if not table.chat_allowed:
        raise ProtocolError("chat_off", detail=("the host turned it off", "de host heeft hem uitgezet"))
    if table.chat_voted_off:
        detail = ("half the people at this table turned it off", "de helft van de mensen aan deze tafel zette hem uit")
        raise ProtocolError("chat_off", detail=detail)
    if client.seat is not None and client.seat in table.chat_muted:
        raise ProtocolError("chat_off", detail=("you turned it off for yourself", "je zette hem voor jezelf uit"))
    return table


def say(hub: ChatHub, client: Speaker, table: Table, msg: dict[str, Any]) -> None:
    """Send a checked line (``check``) to every seat and watcher of the table but the seats that turned chat off."""
    chat = room(table)
    chat.last_id += 1
    name = table.seats[client.seat].name if client.seat is not None else client.name
    line: dict[str, Any] = {
        "type": "chat",
        "id": chat.last_id,
        "at": int(time.time()),
        "from": {"seat": client.seat, "name": name},
    }
    if "text" in msg:
        line["text"] = msg["text"]
    else:
        line["phrase"] = msg["phrase"]
    chat.lines.append(line)
    text = compact(line)
    muted = table.chat_muted
    for person in table.connections():
        if person.seat is None or person.seat not in muted:
            hub.tables.send(table, person, text)
    hub.tables.deliver(table)


def history(hub: ChatHub, client: Connection, table: Table) -> None:
    """After a ``join``/``resume``/``watch`` (or chat turned on again): the recent lines, after the ``table``."""
    if client.table is not table:
        return
    lines = list(table.runtime.chat_room.lines) if table.runtime.chat_room is not None else []
    if client.seat is not None and client.seat in table.chat_muted:
        lines = []  # the seat turned chat off for itself
    hub.tables.send(table, client, {"type": "chat_history", "code": table.code, "messages": lines})
    hub.tables.deliver(table)
