"""Playing at one's seat: a move, ready for the next hand, a claim, a rematch, a hint, chat and one's chat switch."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..table import chat as table_chat
from ..table import commands
from .seats import seated
from .services import Services

if TYPE_CHECKING:
    from ..net.client import Client


def intent(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """A pass, a card played or a moon choice: the game core checks it."""
    table, seat = seated(client)
    commands.act(table, seat, msg)
    ctx.changed(table)


def ready(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``ready``: this person is ready for the next hand."""
    table, seat = seated(client)
    table.set_ready(seat)
    ctx.changed(table)


def claim(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``claim``: this person claims every remaining trick."""
    table, seat = seated(client)
    table.claim(seat)
    ctx.changed(table)


def rematch(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``rematch``: after game over, a vote to play again with the same people."""
    table, seat = seated(client)
    table.vote_rematch(seat, time.time())
    ctx.changed(table)


async def hint(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``hint``: the hard player's move for this seat's decision (searched once per decision)."""
    table, seat = seated(client)
    ask = commands.hint_asked(table, seat)
    if isinstance(ask, dict):  # this decision's hint, asked before
        client.push(ask)
        return
    decided = await ctx.thinker.decide("hard", ask.view)
    client.push(commands.hint_answer(table, ask, decided, keep=client.seat == ask.seat))


def chat(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``chat``: a line to the table (memory only), within the connection's, the address's and the table's budgets."""
    table = table_chat.check(client, msg)
    ctx.limits.chat(client, table)
    table_chat.say(ctx, client, table, msg)


def mute_chat(ctx: Services, client: Client, msg: dict[str, Any]) -> None:
    """``mute_chat``: this seat turns chat off for itself (at a Play now table half the people stop it), or on."""
    table, seat = seated(client)
    table.mute_chat(seat, msg["muted"])
    ctx.changed(table)
    if not msg["muted"]:
        table_chat.history(ctx, client, table)  # what was said meanwhile
