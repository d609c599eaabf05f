"""Taking a seat or a place to watch at a table by its code, changing seats and leaving."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..table import chat
from ..table.seat_view import Moment, full_message
from .seats import attach, check_free, find, known, seated, unwatch
from .services import Services

if TYPE_CHECKING:
    from ..net.client import Client


def join(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``join``: sit at a free seat of the table with that code."""
    check_free(client)
    table = find(ctx, client, msg["code"])
    seat, token = table.seat_person(client, *known(client), msg.get("seat"))
    attach(ctx, client, table, seat.index, token)
    ctx.changed(table)
    chat.history(ctx, client, table)


def resume(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``resume``: back at the seat a seat token (or this player) holds, with the events missed or a snapshot."""
    check_free(client)
    table = ctx.tables.get(msg["code"])  # a valid seat token is never refused, whatever the rate limits
    if table is None:
        raise ctx.failed(client, "unknown_table", table=msg["code"][:16])
    given = msg.get("seat_token")
    seat = table.seat_by_token(given) if given is not None else table.seat_of_player(client.player_id)
    if seat is None:
        raise ctx.failed(client, "bad_token")
    old = seat.client
    if old is not None and old is not client:
        old.table = old.seat = None  # the newer connection wins the seat
        ctx.tables.send(table, old, {"type": "left", "code": table.code})
    table.reconnect(seat.index, client)
    attach(ctx, client, table, seat.index, given)
    last = msg.get("last_seq")
    if last is not None and last <= table.seq and table.events_since(last) is not None:
        client.seen, resumed = last, "events"  # a last_seq the table never reached (lost power) gets a snapshot
    else:
        client.seen, resumed = table.seq, "snapshot"
    ctx.tables.send(table, client, full_message(table, client, Moment(table, time.monotonic()), resumed))
    ctx.changed(table)
    chat.history(ctx, client, table)


def watch(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``watch``: follow the table with that code without a seat."""
    check_free(client)
    table = find(ctx, client, msg["code"])
    table.check_not_removed(client.player_id)
    table.check_watchable()
    table.presence.watchers.add(client)
    client.table, client.seat, client.seen, client.shown, client.shown_moment = table, None, table.seq, None, None
    code = table.code
    ctx.tables.send(table, client, {"type": "watching", "code": code, "link": f"/t/{code}"})
    ctx.changed(table)  # the watcher gets its full table; the others see the count
    chat.history(ctx, client, table)


def sit(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``sit``: a watcher takes a seat, or a seated person moves to another."""
    table = client.table
    # a watcher sits: on an empty seat, or on a computer player's between hands
    if table is not None and client in table.presence.watchers:
        seat, token = table.seat_person(client, *known(client), msg["seat"])
        table.presence.watchers.discard(client)
        attach(ctx, client, table, seat.index, token)
        ctx.changed(table)
        return
    table, old = seated(client)
    seen = client.seen
    seat, token = table.change_seat(old, msg["seat"])
    attach(ctx, client, table, seat.index, token)
    client.seen = seen  # the next table message shows the seat change's own events too
    ctx.changed(table)


def leave(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``leave``: stop watching, or give up the seat."""
    table = client.table
    if table is not None and client in table.presence.watchers:
        unwatch(client, table)
        ctx.tables.send(table, client, {"type": "left", "code": table.code})
        ctx.changed(table)
        return
    table, seat = seated(client)
    client.table = client.seat = None
    table.leave(seat)
    ctx.tables.send(table, client, {"type": "left", "code": table.code})
    ctx.changed(table)
