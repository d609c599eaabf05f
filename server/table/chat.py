"""Table chat: short messages and quick phrases among the people at one table, kept in memory only.

Chat never enters the table log or the database: the last ``CHAT_KEEP`` lines live on the table object and are
gone when the table closes (or the server restarts). The host's on/off switch is a table setting and is logged
like ``allow_watch``. Lines go out through the table's delivery queue, so a line never overtakes a table change
that was shown before it, and a relayed connection (cluster) gets them like any other message.
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
clock = time.monotonic  # when each line was said (a test gives its own clock)
CHAT_BURST = 5  # lines a connection may send ...
CHAT_WINDOW = 10.0  # ... within this many seconds
#: quick phrases: every browser shows them in its own language (client/js/i18n)
PHRASES = ("well_played", "oops", "again", "thanks", "good_luck")


class Room:
    """One table's recent chat lines, oldest first, numbered 1, 2, 3... for the table's life."""

    __slots__ = ("lines", "last_id")

    def __init__(self) -> None:
        self.lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEEP)
        self.last_id = 0


class Speaker(Connection, Protocol):
    """A connection that chats: who it is, and when its recent lines went out."""

    player_id: int | None
    name: str | None
    chat_sent: deque[float]


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


def _limited(client: Speaker, now: float) -> bool:
    """True when ``client`` already sent CHAT_BURST lines within the last CHAT_WINDOW seconds."""
    sent = client.chat_sent
    while sent and sent[0] <= now - CHAT_WINDOW:
        sent.popleft()
    return len(sent) >= CHAT_BURST


def say(hub: ChatHub, client: Speaker, msg: dict[str, Any]) -> None:
    """``chat``: check who may say what now, then send the line to every seat and watcher of the table."""
    if ("text" in msg) == ("phrase" in msg):
        detail = ("either text or phrase, not both", "text of phrase, niet allebei")
        raise ProtocolError("bad_message", field="text", detail=detail)
    table = client.table
    if table is None or (client.seat is None and client not in table.presence.watchers):
        raise ProtocolError("not_seated")
    table.check_not_removed(client.player_id)  # a removed person's other device, watching, says nothing there
    if not table.chat_allowed:
        raise ProtocolError("chat_off")
    now = clock()
    if _limited(client, now):
        raise ProtocolError("chat_limited", count=CHAT_BURST, seconds=int(CHAT_WINDOW))
    client.chat_sent.append(now)
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
    for person in table.connections():
        hub.tables.send(table, person, text)
    hub.tables.deliver(table)


def history(hub: ChatHub, client: Connection, table: Table) -> None:
    """After a ``join``/``resume``/``watch``: the table's recent lines, after its ``table`` message."""
    if client.table is not table:
        return
    lines = list(table.runtime.chat_room.lines) if table.runtime.chat_room is not None else []
    hub.tables.send(table, client, {"type": "chat_history", "code": table.code, "messages": lines})
    hub.tables.deliver(table)
