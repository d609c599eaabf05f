"""Where a connection sits: the checks and the seating steps the handlers share.

Which table a connection is at is the registry's (``Tables.place``, ``Tables.release``, ``Tables.table_of``); where it
sits there is the table's presence's, by the connection's id (``Presence.seat_of``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..table import outgoing
from ..table.errors import ProtocolError
from ..table.table import Table
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


def check_free(ctx: Services, client: Client) -> None:
    """Refuse a connection that already sits at or watches a table (``already_seated``)."""
    table = ctx.tables.table_of(client)
    if table is not None:
        raise ProtocolError("already_seated", table=table.code)


def seated(ctx: Services, client: Client) -> tuple[Table, int]:
    """Return the table the connection sits at and its seat, or refuse (``not_seated``)."""
    table = ctx.tables.table_of(client)
    seat = table.presence.seat_of(client.id) if table is not None else None
    if table is None or seat is None:
        raise ProtocolError("not_seated")
    return table, seat


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
    """Put the connection, seated on ``seat`` of ``table``, at the table and tell it so (``joined``).

    The seat's ratings show first.
    """
    ctx.tables.load_ratings(table)  # the one reader, also after every rated game is stored
    ctx.tables.place(client, table)
    table.presence.arrive(client.id, table.seq)
    ctx.tables.send(table, client, outgoing.joined(table.code, seat, token, f"/t/{table.code}", table.host == seat))


def unwatch(ctx: Services, client: Client, table: Table) -> None:
    """The watcher ``client`` stops watching ``table``."""
    table.seating.unwatch(client.id)
    ctx.tables.release(client.id)
