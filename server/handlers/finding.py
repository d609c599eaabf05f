"""Finding a table by its code: open here, held by another node, or brought back from the database."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..connection.routes import node_path
from ..storage.opening import REDIS_ERRORS
from ..storage.store import ClusterUnavailable, StoreBusy
from ..table import outgoing
from ..table.codes import table_code
from ..table.errors import ProtocolError
from ..table.messages import LOCATED, ClientMessage, Join, Resume, Watch
from ..table.seat_view import public_table
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client

COMES_BACK = frozenset((Resume.kind, Watch.kind))  # Redis down: server_busy (closed with 1013: the client tries again)


def naming_a_table(msg: ClientMessage) -> Join | Resume | Watch | None:
    """Return ``msg`` when it names a table by its code (``LOCATED``, from the declarations), else None."""
    return cast("Join | Resume | Watch", msg) if msg.kind in LOCATED else None


async def locate(ctx: Services, client: Client, msg: Join | Resume | Watch) -> bool:
    """A code not open here: send the client to the node that owns it or relay it there (True), or restore it here.

    Behind a proxy that routes a path to each node (``client.route``) the client is told where the table lives
    (``moved``) and reconnects there; behind any other proxy the connection is relayed to the owner.

    Without a cluster only a table parked while the database was down is restored. In a cluster the table is
    restored here when nobody holds it or its node died. Redis down: ``server_busy`` for a ``resume`` or ``watch`` (the
    dispatch closes the connection with 1013 and the client comes back by itself), ``cluster_unavailable`` for a
    ``join``; the database down: ``StoreBusy`` (``server_busy`` too).
    """
    code = msg.code
    if ctx.guessing(client) and not isinstance(msg, Resume):
        return False  # the handler refuses it (rate_limited) without asking anyone
    if ctx.cluster is None:
        if code in ctx.tables.parked:
            await ctx.tables.fetch(code)
        return False
    try:
        for _ in range(2):  # a claim lost to another node (its look for orphans, a moment ago): ask again
            found = await ctx.cluster.lookup(code)
            if found is None:  # no code key: no such table, or one Redis lost the keys of and nobody holds
                await ctx.tables.fetch(code)  # (an orphan: adopted here now, not a second later by the look)
                return False
            _, holder, alive = found
            if holder is not None and holder != ctx.cluster.node and alive:
                path = node_path(client.route, holder)
                if path is not None:  # the proxy routes to each node: the client comes back straight to the owner
                    client.push(outgoing.moved(path, msg.to_wire()))
                    return True
                assert ctx.relay is not None  # set by the app whenever there is a cluster
                ctx.relay.open(client, holder, msg)
                return True
            if await ctx.tables.fetch(code) is not None:
                return False
    except ClusterUnavailable:  # Redis answers, but lost its keys a moment ago: the table's node sets them again
        raise ProtocolError("server_busy" if msg.kind in COMES_BACK else "cluster_unavailable") from None
    except REDIS_ERRORS as exc:
        ctx.cluster.mark_down(exc)
        # the browser sends resume and watch by itself after every reconnect: it must come back, not stay put
        raise ProtocolError("server_busy" if msg.kind in COMES_BACK else "cluster_unavailable") from None
    return False


async def table_info_anywhere(ctx: Services, code: str, address: str, seat_token: str = "") -> tuple[int, dict]:
    """``GET /api/tables/{code}`` in a cluster: the owner's answer for a table another node holds."""
    wanted = table_code(code) or ""
    relay, cluster = ctx.relay, ctx.cluster
    if relay is None or cluster is None or not wanted or wanted in ctx.tables.by_code or ctx.guesses.blocked(address):
        return table_info(ctx, code, address, seat_token)
    try:
        found = await cluster.lookup(wanted)
        if found is not None and found[1] not in (None, cluster.node) and found[2]:
            answer = await relay.ask(found[1], wanted, address, seat_token)
            if answer is not None:
                return answer
        elif found is not None:
            await ctx.tables.fetch(wanted)  # nobody holds it (its node died): adopt it here
    except StoreBusy:
        return 503, {"error": "server_busy"}
    except ClusterUnavailable:
        return 503, {"error": "cluster_unavailable"}
    except REDIS_ERRORS:
        return 503, {"error": "cluster_unavailable"}
    return table_info(ctx, code, address, seat_token)


def table_info(ctx: Services, code: str, address: str, seat_token: str = "") -> tuple[int, dict[str, Any]]:
    """``GET /api/tables/{code}``: (HTTP status, body); unknown codes and wrong seat tokens count as guesses."""
    if ctx.guesses.blocked(address):
        return 429, {"error": "rate_limited"}
    wanted = table_code(code)
    table = ctx.tables.get(wanted) if wanted is not None else None
    if table is None:
        ctx.guesses.fail(address)
        return 404, {"error": "not_found"}
    body = public_table(table)
    if seat_token:
        seat = table.seating.seat_by_token(seat_token)
        if seat is None:
            ctx.guesses.fail(address)
        body["you"] = seat.index if seat is not None else None
    return 200, body
