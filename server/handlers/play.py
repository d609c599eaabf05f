"""Playing at one's seat: the table commands (a move, ready, a claim, a rematch, the host's), a hint, chat."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..table import chat as table_chat
from ..table import commands
from ..table.messages import (
    AddComputer,
    AllowChat,
    Chat,
    Claim,
    ClientMessage,
    FillComputers,
    Hint,
    Moon,
    MuteChat,
    NewGame,
    Pass,
    Play,
    Ready,
    Rematch,
    RemoveComputer,
    Restart,
    SetPace,
    Start,
)  # fmt: skip
from . import chatting
from .binding import handles
from .seats import seated
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


@handles(Pass, Play, Moon, Ready, Claim, Rematch, AllowChat, AddComputer, RemoveComputer, FillComputers, Start,
         Restart, NewGame, SetPace)  # fmt: skip
def command(ctx: Services, client: Client, msg: ClientMessage) -> None:
    """A table command from the connection's seat, through the one command layer (``commands.run``)."""
    table, seat = seated(ctx, client)
    commands.run(table, seat, msg, time.time())
    ctx.changed(table)


@handles(Hint)
async def hint(ctx: Services, client: Client, msg: Hint) -> None:
    """``hint``: the hard player's move for this seat's decision (searched once per decision)."""
    table, seat = seated(ctx, client)
    ask = commands.hint_asked(table, seat)
    if isinstance(ask, dict):  # this decision's hint, asked before
        client.push(ask)
        return
    decided = await ctx.thinker.decide("hard", ask.view)
    client.push(commands.hint_answer(table, ask, decided, keep=table.presence.seat_of(client.id) == ask.seat))


@handles(Chat)
def chat(ctx: Services, client: Client, msg: Chat) -> None:
    """``chat``: a line to the table (memory only), within the connection's, the address's and the table's budgets."""
    table = table_chat.check(ctx.tables.table_of(client), client.id, client.player_id, msg)
    ctx.limits.chat(client, table)
    chatting.say(ctx, client, table, msg)


@handles(MuteChat)
def mute_chat(ctx: Services, client: Client, msg: MuteChat) -> None:
    """``mute_chat``: this seat turns chat off for itself (at a Play now table half the people stop it), or on."""
    table, seat = seated(ctx, client)
    commands.run(table, seat, msg, time.time())
    ctx.changed(table)
    if not msg.muted:
        chatting.send_history(ctx, client, table)  # what was said meanwhile
