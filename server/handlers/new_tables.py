"""New tables: a table of one's own (or today's deal), Play now's matching, and the tables one holds a seat at."""

from __future__ import annotations

import contextlib
import secrets
import time
from typing import TYPE_CHECKING

from hartenjagen.shared.rules import Rules
from hartenjagen.shared.variants import make_rules

from ..live import lobby
from ..storage.store import ClusterUnavailable
from ..table import outgoing
from ..table.codes import new_code
from ..table.daily import DAILY_LEVEL, daily_deal, day_of
from ..table.errors import ProtocolError
from ..table.messages import Create, MyTables, PlayNow
from ..table.table import Table, check_seat, table_rules
from . import chatting
from .binding import handles
from .seats import attach, check_free, known
from .services import Services

if TYPE_CHECKING:
    from ..connection.client import Client


@handles(Create)
async def create(ctx: Services, client: Client, msg: Create) -> None:
    """``create``: open a table with these options (or today's deal against computer players) and sit at it."""
    if ctx.store.down is not None:  # its first entries could not be stored: refused before anything is made
        raise ProtocolError("server_busy")
    if msg.daily:
        check_free(ctx, client)
        day = day_of(time.time())
        counts = not await ctx.store.daily_played(day, known(client)[0])
        check_free(ctx, client)  # the connection may have sat down elsewhere meanwhile
        deal: int | None = daily_deal(day, ctx.daily_key)
        rules, daily, level = make_rules({}), {"date": day, "counts": counts}, DAILY_LEVEL
    else:
        rules, deal = table_rules(msg.options)
        daily, level = None, msg.computer_level
        check_seat(rules.seats, msg.seat)
        check_free(ctx, client)  # after the fields, as the protocol lists the checks
    code, table_id = await new_table_code(ctx, client)
    table = Table.create(code, rules, level, deal, daily, grace=ctx.config.grace, table_id=table_id, at=time.time())
    ctx.tables.add(table)
    seat, token = table.seating.seat_person(client.id, *known(client), 0 if daily else msg.seat)
    attach(ctx, client, table, seat.index, token)
    if daily is not None:
        table.hosting.fill_computers(seat.index, DAILY_LEVEL)
    ctx.changed(table)


async def new_table_code(ctx: Services, client: Client) -> tuple[str, str | None]:
    """A code for a new table, counted against the address's new tables first (``tables_limited``)."""
    ctx.limits.new_table(client)
    try:
        return await _free_code(ctx, client)
    except BaseException:
        ctx.limits.new_tables.give_back(client.address_key)  # no table was opened
        raise


async def _free_code(ctx: Services, client: Client) -> tuple[str, str | None]:
    """A code free on this node, or in a cluster one reserved across it with the new table's lease."""
    if ctx.cluster is None:
        return new_code(ctx.tables.by_code), None
    table_id = secrets.token_hex(8)
    try:
        code, _ = await ctx.cluster.new_table(table_id, lambda: new_code(ctx.tables.by_code))
    except ClusterUnavailable:
        raise ProtocolError("cluster_unavailable") from None
    if ctx.tables.table_of(client) is not None:  # the connection sat down elsewhere meanwhile
        ctx.cluster.drop(code)
        check_free(ctx, client)
    return code, table_id


@handles(PlayNow)
async def play_now(ctx: Services, client: Client, msg: PlayNow) -> None:
    """Sit at an open Play now table that fits (this node's, else another node's), or open one and wait there.

    Play now matches on the game, whatever the language, unless the person asks for players of their own language
    only (``lang_only``). In a cluster a node matches one kind of table (options, and the language where it is
    asked for) at a time across the cluster: it holds a short Redis lock of each kind the press may sit at while it
    matches or opens a table and publishes its open tables before letting go, so two people pressing at once on two
    nodes meet at one table.
    """
    check_free(ctx, client)
    if not client.play_now.take():
        raise ProtocolError("play_now_limited")
    if ctx.store.down is not None:
        raise ProtocolError("server_busy")
    rules, deal = table_rules(msg.options if msg.options is not None else {"variant": "classic"})
    if deal is not None:
        raise ProtocolError("bad_option", field="deal", problem="play_now_deal")
    options, lang = rules.to_json(), msg.lang
    if ctx.cluster is None:
        await _seat_press(ctx, client, msg, rules, options, lang)
        return
    async with contextlib.AsyncExitStack() as locks:
        for kind in lobby.match_keys(options, lang, msg.lang_only):
            await locks.enter_async_context(ctx.cluster.matching(kind))
        check_free(ctx, client)  # the connection may have sat down elsewhere meanwhile
        if await _seat_press(ctx, client, msg, rules, options, lang):
            await ctx.cluster.publish_open()  # before the locks go: the next press sees this table


async def _seat_press(ctx: Services, client: Client, msg: PlayNow, rules: Rules, options: dict, lang: str) -> bool:
    """Seat one Play now press; True when a table here changed, False when it went to another node's table.

    A press relayed from another node names the table it matched (``at_table``): it sits there as a press here
    would, its wait included, or, when that table no longer fits (full, started, or the person was removed
    there), at another table here or a new one.
    """
    at = time.time()
    fill_at = at + msg.wait
    only = msg.lang_only
    here = [
        t
        for t in ctx.tables.by_code.values()
        if (e := lobby.entry(t)) is not None and lobby.fits(e, options, lang, client.player_id, only)
    ]
    if here:
        target = ctx.tables.by_code.get(msg.at_table)
        # the table matched on the other node, else the fullest, then the oldest
        table = target if target in here else max(here, key=lambda t: (len(t.persons()), -t.opened_at))
        seat, token = table.seating.seat_person(client.id, *known(client), None, lang)
        table.hosting.wait_until(fill_at)
        attach(ctx, client, table, seat.index, token)
        ctx.lobby.changed()
        ctx.changed(table)
        chatting.send_history(ctx, client, table)
        return True
    if ctx.cluster is not None and client.edge is None:  # a press relayed here goes no further
        found = await ctx.cluster.open_elsewhere()
        elsewhere = [e for e in found if lobby.fits(e, options, lang, client.player_id, only)]
        check_free(ctx, client)
        if elsewhere:
            best = min(elsewhere, key=lambda e: e["free"])
            assert ctx.relay is not None  # set by the app whenever there is a cluster
            ctx.relay.open(client, best["node"], lobby.relayed_press(msg, best["code"]))
            return False
    code, table_id = await new_table_code(ctx, client)
    check_free(ctx, client)
    table = Table.create(code, rules, "medium", grace=ctx.config.grace, table_id=table_id, at=at)
    ctx.tables.add(table)
    seat, token = table.seating.seat_person(client.id, *known(client), 0, lang)
    table.hosting.queue(lang, fill_at, only)
    attach(ctx, client, table, seat.index, token)
    ctx.lobby.changed()
    ctx.changed(table)
    return True


@handles(MyTables)
async def my_tables(ctx: Services, client: Client, msg: MyTables) -> None:
    """``my_tables``: the open tables (this node's, and in a cluster every node's) where this player holds a seat."""
    found = ctx.lobby.seats_of(client.player_id)
    if ctx.cluster is not None:
        found += await ctx.cluster.seats_elsewhere(client.player_id)
    client.push(outgoing.my_tables(sorted(found, key=lambda t: t["code"])))
