"""The host's commands: computer players, the start, timers, pace, who may watch and chat, listing, removing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..table.errors import ProtocolError
from ..table.messages import TIMER_MAX
from ..table.table import Table
from .seats import seated, unwatch
from .services import Services

if TYPE_CHECKING:
    from ..net.client import Client


def _host_action(ctx: Services, client: Client, action: Callable[..., object], *args: Any) -> Table:
    """Run the table command ``action`` (one of ``Table``'s host commands) for the client's seat; return the table."""
    table, seat = seated(client)
    action(table, seat, *args)
    ctx.changed(table)
    return table


def allow_watch(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``allow_watch``: let people watch, or not (the watchers there are leave)."""
    table, seat = seated(client)
    table.set_watch(seat, msg["allowed"])
    if not msg["allowed"]:
        for watcher in list(table.presence.watchers):
            unwatch(watcher, table)
            ctx.tables.send(table, watcher, {"type": "left", "code": table.code, "reason": "watch_off"})
    ctx.changed(table)


def allow_chat(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``allow_chat``: the table's chat on or off."""
    _host_action(ctx, client, Table.set_chat, msg["allowed"])


def add_computer(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``add_computer``: a computer player at that seat."""
    _host_action(ctx, client, Table.add_computer, msg["seat"], msg["level"])


def remove_computer(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``remove_computer``: that seat's computer player goes."""
    _host_action(ctx, client, Table.remove_computer, msg["seat"])


def fill_computers(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``fill_computers``: computer players in every empty seat."""
    _host_action(ctx, client, Table.fill_computers, msg["level"])


def start(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``start``: the game begins."""
    _host_action(ctx, client, Table.start, time.time())


def restart(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``restart``: the game starts over from its first hand, with the same deals, seats and options."""
    _host_action(ctx, client, Table.restart, time.time())


def new_game(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``new_game``: after game over, back to waiting with the same seats and options."""
    _host_action(ctx, client, Table.new_game)


def set_timer(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``set_timer``: seconds per move (within this server's least and the most), or none."""
    seconds, low = msg["seconds"], ctx.config.timer_min
    if seconds is not None and not low <= seconds <= TIMER_MAX:
        raise ProtocolError(
            "bad_message",
            field="seconds",
            detail=(
                f"expected a whole number from {low} to {TIMER_MAX}",
                f"verwacht: een heel getal van {low} tot en met {TIMER_MAX}",
            ),
        )
    _host_action(ctx, client, Table.set_timer, seconds)


def set_pace(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``set_pace``: how long computer players pause before they move."""
    _host_action(ctx, client, Table.set_pace, msg["pace"])


def set_open(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``set_open``: list the table on the start page for anyone to sit down, or take it off."""
    table = _host_action(ctx, client, Table.set_open, msg["open"], msg.get("lang", "en"))
    ctx.lobby.changed()
    ctx.tables.load_ratings(table)  # an open table of a rated family shows the seated people's ratings


def remove_player(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``remove_player``: remove a seated person between hands, with a reason everyone sees."""
    table, seat = seated(client)
    removed = table.remove_person(seat, msg["seat"], msg["reason"])
    if removed is not None:
        removed.table = removed.seat = None
        ctx.tables.send(table, removed, {"type": "left", "code": table.code, "reason": "removed",
                                         "text": msg["reason"]})  # fmt: skip
    ctx.lobby.changed()
    ctx.changed(table)
    if ctx.cluster is not None:  # the other nodes' Play now stops matching the person to this table at once
        ctx.spawn(ctx.cluster.publish_open())
