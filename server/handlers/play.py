"""Playing at one's seat: a pass, a card or a moon choice, ready for the next hand, a claim, a rematch, a hint, chat."""

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
    """``chat``: a line to the table (memory only: never in the table log)."""
    table_chat.say(ctx, client, msg)
