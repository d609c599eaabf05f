"""Every message the server writes to a client, one function per message type (docs/protocol.md lists them).

The hub's handlers, the table's step, the offline table, the relay and the device codes all build what they send
here, so one module shows the whole outgoing side of the protocol. A ``table`` message is cut per seat by
``seat_view`` and an ``update`` encoded in parts by ``update.py``: both start from the envelopes below.
"""

from __future__ import annotations

from typing import Any

#: The protocol version this server speaks: a ``hello`` with another is refused (``bad_version``).
PROTOCOL_VERSION = 1
Message = dict[str, Any]


def pong() -> Message:
    """``pong``: the answer to ``ping``."""
    return {"type": "pong"}


def welcome(player_token: str | None, name: str) -> Message:
    """``welcome``: the player this connection plays as (no token at an offline table)."""
    return {"type": "welcome", "version": PROTOCOL_VERSION, "player_token": player_token, "name": name}


def joined(code: str, seat: int, seat_token: str | None, link: str, host: bool, offline: bool = False) -> Message:
    """``joined``: the connection sits at ``seat`` of the table ``code`` (``offline``: the browser's own table)."""
    message: Message = {"type": "joined", "code": code, "seat": seat, "seat_token": seat_token, "link": link,
                        "host": host}  # fmt: skip
    if offline:
        message["offline"] = True
    return message


def watching(code: str, link: str) -> Message:
    """``watching``: the connection follows the table ``code`` without a seat."""
    return {"type": "watching", "code": code, "link": link}


def left(code: str, reason: str | None = None, text: str | None = None) -> Message:
    """``left``: the connection is no longer at the table ``code`` (why, and the host's words for a removal)."""
    message: Message = {"type": "left", "code": code}
    if reason is not None:
        message["reason"] = reason
    if text is not None:
        message["text"] = text
    return message


def moved(path: str, again: Message | None = None) -> Message:
    """``moved``: reconnect at ``path`` (the node that holds the table) and send ``again`` there, if given."""
    message: Message = {"type": "moved", "path": path}
    if again is not None:
        message["again"] = again
    return message


def my_tables(tables: list[dict[str, Any]]) -> Message:
    """``my_tables``: the open tables where this player holds a seat."""
    return {"type": "my_tables", "tables": tables}


def table(public: dict[str, Any], you: int | None, view: Any, events: list[Any], resumed: str | None) -> Message:
    """``table``: a whole table as one seat (``you``) or a watcher (None) sees it."""
    return {"type": "table", **public, "you": you, "view": view, "events": events, "resumed": resumed}


def update() -> Message:
    """``update``: the envelope of the parts of a table that changed (``update.py`` adds them and encodes it)."""
    return {"type": "update"}


def hint(cards: list[str], choice: str | None) -> Message:
    """``hint``: the hard player's move for the asking seat (cards from its own view, or a moon choice)."""
    message: Message = {"type": "hint", "cards": cards}
    if choice is not None:
        message["choice"] = choice
    return message


def chat(line_id: int, at: int, seat: int | None, name: str | None, text: str | None, phrase: str | None) -> Message:
    """``chat``: one line said at the table (a text, else a phrase), numbered for the table's life."""
    message: Message = {"type": "chat", "id": line_id, "at": at, "from": {"seat": seat, "name": name}}
    if text is not None:
        message["text"] = text
    else:
        message["phrase"] = phrase
    return message


def chat_history(code: str, lines: list[Message]) -> Message:
    """``chat_history``: the table's recent lines, after a join, a resume, a watch or chat turned on again."""
    return {"type": "chat_history", "code": code, "messages": lines}


def reported(seat: int) -> Message:
    """``reported``: the report of the person at ``seat`` is kept."""
    return {"type": "reported", "seat": seat}


def review(hand_no: int, seat: int, found: Any) -> Message:
    """``review``: the hard player's verdict on a seat's decisions in one finished hand."""
    return {"type": "review", "hand_no": hand_no, "seat": seat, "review": found}


def device_code(code: str, expires_at: float, link: str, qr_svg: str) -> Message:
    """``device_code``: a one-time code that signs another device in as this player, its link and QR code."""
    return {"type": "device_code", "code": code, "expires_at": expires_at, "link": link, "qr_svg": qr_svg}


def device_joined(player_token: str, name: str) -> Message:
    """``device_joined``: this connection is now the code's player, on a device token of its own."""
    return {"type": "device_joined", "player_token": player_token, "name": name}


def device_code_used(code: str, label: str, device: str) -> Message:
    """``device_code_used``: one of the player's codes was used by the device ``device``."""
    return {"type": "device_code_used", "code": code, "label": label, "device": device}


def devices(listing: list[dict[str, Any]]) -> Message:
    """``devices``: every device that holds the player."""
    return {"type": "devices", "devices": listing}


def error(code: str, params: dict[str, Any], field: str | None = None, reason: dict[str, Any] | None = None) -> Message:
    """``error``: a refusal, to this connection only: its code, parameters, field and the core's reason."""
    message: Message = {"type": "error", "code": code, **params}
    if field is not None:
        message["field"] = field
    if reason is not None:
        message["reason"] = reason
    return message
