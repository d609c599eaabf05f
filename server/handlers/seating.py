"""Taking a seat or a place to watch at a table by its code, changing seats and leaving."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..table import outgoing
from ..table.messages import Join, Leave, Resume, Sit, Watch
from ..table.seat_view import Moment, full_message
from . import chatting
from .binding import handles
from .seats import attach, check_free, find, known, seated, unwatch
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


@handles(Join)
def join(ctx: Services, client: Client, msg: Join) -> None:
    """``join``: sit at a free seat of the table with that code."""
    check_free(ctx, client)
    table = find(ctx, client, msg.code)
    seat, token = table.seating.seat_person(client.id, *known(client), msg.seat)
    attach(ctx, client, table, seat.index, token)
    ctx.changed(table)
    chatting.send_history(ctx, client, table)


@handles(Resume)
def resume(ctx: Services, client: Client, msg: Resume) -> None:
    """``resume``: back at the seat a seat token (or this player) holds, with the events missed or a snapshot."""
    check_free(ctx, client)
    table = ctx.tables.get(msg.code)  # a valid seat token is never refused, whatever the rate limits
    if table is None:
        raise ctx.failed(client, "unknown_table", table=msg.code[:16])
    given = msg.seat_token
    seat = table.seating.seat_by_token(given) if given is not None else table.seating.seat_of_player(client.player_id)
    if seat is None:
        raise ctx.failed(client, "bad_token")
    replaced = table.seating.reconnect(seat.index, client.id)  # the newer connection wins the seat
    old = ctx.tables.release(replaced) if replaced is not None else None
    if old is not None:
        ctx.tables.send(table, old, outgoing.left(table.code))
    attach(ctx, client, table, seat.index, given)
    last = msg.last_seq
    if last is not None and last <= table.seq and table.events_since(last) is not None:
        table.presence.arrive(client.id, last)  # a last_seq the table never reached (lost power) gets a snapshot
        resumed = "events"
    else:
        table.presence.arrive(client.id, table.seq)
        resumed = "snapshot"
    ctx.tables.send(table, client, full_message(table, client.id, Moment(table, time.monotonic()), resumed))
    ctx.changed(table)
    chatting.send_history(ctx, client, table)


@handles(Watch)
def watch(ctx: Services, client: Client, msg: Watch) -> None:
    """``watch``: follow the table with that code without a seat."""
    check_free(ctx, client)
    table = find(ctx, client, msg.code)
    table.seating.check_not_removed(client.player_id)
    table.seating.check_watchable()
    table.seating.watch(client.id)
    ctx.tables.place(client, table)
    table.presence.arrive(client.id, table.seq)
    code = table.code
    ctx.tables.send(table, client, outgoing.watching(code, f"/t/{code}"))
    ctx.changed(table)  # the watcher gets its full table; the others see the count
    chatting.send_history(ctx, client, table)


@handles(Sit)
def sit(ctx: Services, client: Client, msg: Sit) -> None:
    """``sit``: a watcher takes a seat, or a seated person moves to another."""
    table = ctx.tables.table_of(client)
    # a watcher sits: on an empty seat, or on a computer player's between hands (and watches no more)
    if table is not None and table.presence.watching(client.id):
        seat, token = table.seating.seat_person(client.id, *known(client), msg.seat)
        attach(ctx, client, table, seat.index, token)
        ctx.changed(table)
        return
    table, old = seated(ctx, client)
    seen = table.presence.sight(client.id).seen
    seat, token = table.seating.change_seat(old, msg.seat)
    attach(ctx, client, table, seat.index, token)
    table.presence.arrive(client.id, seen)  # the next table message shows the seat change's own events too
    ctx.changed(table)


@handles(Leave)
def leave(ctx: Services, client: Client, msg: Leave) -> None:
    """``leave``: stop watching, or give up the seat."""
    table = ctx.tables.table_of(client)
    if table is not None and table.presence.watching(client.id):
        unwatch(ctx, client, table)
        ctx.tables.send(table, client, outgoing.left(table.code))
        ctx.changed(table)
        return
    table, seat = seated(ctx, client)
    ctx.tables.release(client.id)
    table.seating.leave(seat)
    ctx.tables.send(table, client, outgoing.left(table.code))
    ctx.changed(table)
