"""Where a connection sits: the checks and the seating steps the handlers share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..table import outgoing
from ..table.errors import ProtocolError
from ..table.presence import Connection
from ..table.table import Table
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


def check_free(client: Client) -> None:
    """Refuse a connection that already sits at or watches a table (``already_seated``)."""
    if client.table is not None:
        raise ProtocolError("already_seated", table=client.table.code)


def seated(client: Client) -> tuple[Table, int]:
    """Return the table the connection sits at and its seat, or refuse (``not_seated``)."""
    if client.table is None or client.seat is None:
        raise ProtocolError("not_seated")
    return client.table, client.seat


def known(client: Client) -> tuple[int, str]:
    """Return who the connection said it is (player id, name); the hub takes nothing else before (``hello_first``)."""
    if client.player_id is None or client.name is None:
        raise ProtocolError("hello_first")
    return client.player_id, client.name


def find(ctx: Services, client: Client, code: str) -> Table:
    """Return the open table ``code``; an unknown code counts as a guess (``unknown_table``, then ``rate_limited``)."""
    if ctx.guessing(client):
        raise ProtocolError("rate_limited")
    table = ctx.tables.get(code)
    if table is None:
        raise ctx.failed(client, "unknown_table", table=code[:16])
    return table


def attach(ctx: Services, client: Client, table: Table, seat: int, token: str | None) -> None:
    """Put the connection at ``seat`` of ``table`` and tell it so (``joined``); the seat's ratings show first."""
    ctx.tables.load_ratings(table)  # the one reader, also after every rated game is stored
    client.table, client.seat = table, seat
    table.presence.arrive(client, table.seq)
    ctx.tables.send(table, client, outgoing.joined(table.code, seat, token, f"/t/{table.code}", table.host == seat))


def unwatch(client: Connection, table: Table) -> None:
    """The watcher ``client`` stops watching ``table``."""
    table.presence.watchers.discard(client)
    client.table = client.seat = None
