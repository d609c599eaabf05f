"""Table chat's I/O: the clock a line is said at, and sending lines (``server.table.chat`` decides what and to whom).

Chat goes through the table's delivery queue (``live.registry.Tables.send``), so a line never overtakes a table change
shown before it; a relayed connection (cluster) gets it like any other message.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..table import chat as table_chat
from ..table.table import Table
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


def say(ctx: Services, client: Client, table: Table, msg: table_chat.Said) -> None:
    """Send a checked line (``chat.check``) now to everyone at the table who hears it."""
    for connection, text in table_chat.say(table, client.id, client.name, msg, int(time.time())):
        person = ctx.tables.client(connection)
        if person is not None:
            ctx.tables.send(table, person, text)
    ctx.tables.deliver(table)


def send_history(ctx: Services, client: Client, table: Table) -> None:
    """Send ``client`` the table's recent lines (``chat.history``), after what the table showed it."""
    message = table_chat.history(table, client.id)
    if message is not None:
        ctx.tables.send(table, client, message)
        ctx.tables.deliver(table)
