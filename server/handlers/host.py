"""The host's commands with more to do than the table command: who may watch, the timer's least, listing, removing.

The host's plain table commands (computer players, the start, a restart, a new game, the pace, chat on or off) are
handled with every other table command by ``command`` in ``play.py``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..table import commands, outgoing
from ..table.errors import ProtocolError
from ..table.messages import TIMER_MAX, AllowWatch, RemovePlayer, SetOpen, SetTimer
from .binding import handles
from .seats import seated
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


@handles(AllowWatch)
def allow_watch(ctx: Services, client: Client, msg: AllowWatch) -> None:
    """``allow_watch``: let people watch, or not (the watchers there are leave)."""
    table, seat = seated(ctx, client)
    commands.run(table, seat, msg, time.time())
    if not msg.allowed:
        for watcher in table.presence.watchers():
            table.seating.unwatch(watcher)
            left = ctx.tables.release(watcher)
            if left is not None:
                ctx.tables.send(table, left, outgoing.left(table.code, "watch_off"))
    ctx.changed(table)


@handles(SetTimer)
def set_timer(ctx: Services, client: Client, msg: SetTimer) -> None:
    """``set_timer``: seconds per move (within this server's least and the most), or none."""
    seconds, low = msg.seconds, ctx.config.timer_min
    if seconds is not None and not low <= seconds <= TIMER_MAX:
        raise ProtocolError("bad_message", field="seconds", problem="int_range", low=low, high=TIMER_MAX)
    table, seat = seated(ctx, client)
    commands.run(table, seat, msg, time.time())
    ctx.changed(table)


@handles(SetOpen)
def set_open(ctx: Services, client: Client, msg: SetOpen) -> None:
    """``set_open``: list the table on the start page for anyone to sit down, or take it off."""
    table, seat = seated(ctx, client)
    commands.run(table, seat, msg, time.time())
    ctx.changed(table)
    ctx.lobby.changed()
    ctx.tables.load_ratings(table)  # an open table of a rated family shows the seated people's ratings


@handles(RemovePlayer)
def remove_player(ctx: Services, client: Client, msg: RemovePlayer) -> None:
    """``remove_player``: remove a seated person between hands, with a reason everyone sees."""
    table, seat = seated(ctx, client)
    removed = table.hosting.remove_person(seat, msg.seat, msg.reason)  # its connection: no longer at the table
    left = ctx.tables.release(removed) if removed is not None else None
    if left is not None:
        ctx.tables.send(table, left, outgoing.left(table.code, "removed", msg.reason))
    ctx.lobby.changed()
    ctx.changed(table)
    if ctx.cluster is not None:  # the other nodes' Play now stops matching the person to this table at once
        ctx.spawn(ctx.cluster.publish_open())
