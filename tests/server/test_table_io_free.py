"""The table (server/table/, the offline table's too) reads no clock and sends nothing: the time is passed in.

Each step returns what to write to which connection id, and the hub's delivery (or the offline worker) writes it;
chat's clock and sending are the hub's handler's (``server/handlers/chatting.py``). The table knows a connection only
by its id: where it sits and what it was shown are kept in the table's presence by that id, so no table code holds a
network object, let alone writes one of its fields.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

from hartenjagen.server.table.presence import ConnectionId
from hartenjagen.server.table.seat_view import Moment, full_message
from hartenjagen.server.table.step import settle
from hartenjagen.server.table.table import Table
from hartenjagen.shared.variants import make_rules

TABLE = Path(__file__).resolve().parents[2] / "server" / "table"
CLOCK_MODULES = {"time", "datetime"}  # datetime's parsing is fine; its clock (now, today, utcnow) is not
CLOCK_CALLS = {"now", "utcnow", "today", "monotonic_ns", "perf_counter", "time_ns"}
SENDS = {"send", "push", "deliver", "broadcast", "send_nowait", "write"}
CONNECTION_METHODS = {"push", "close_soon"}  # what a connection object has: the table declares none, knows ids only


def _calls(tree: ast.AST) -> list[str]:
    """The name of every method called on something (``x.push(...)`` -> ``push``)."""
    return [n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]


def test_no_table_module_reads_a_clock_or_sends():
    files = sorted(TABLE.glob("*.py"))
    assert len(files) > 20
    for path in files:
        text = path.read_text()
        tree = ast.parse(text, str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not {a.name for a in node.names} & {"time"}, f"{path.name} imports the time module"
            elif isinstance(node, ast.ImportFrom):
                assert node.module not in CLOCK_MODULES or not {a.name for a in node.names} & {"time", "monotonic"}
        called = set(_calls(tree))
        assert not called & CLOCK_CALLS, f"{path.name} reads a clock: {sorted(called & CLOCK_CALLS)}"
        assert not called & SENDS, f"{path.name} sends: {sorted(called & SENDS)}"
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        assert not defined & CONNECTION_METHODS, f"{path.name} declares a connection object (a table knows ids only)"
        assert "time.time(" not in text and "time.monotonic(" not in text, path.name


def test_the_walk_finds_a_clock_and_a_send():
    tree = ast.parse("import datetime as dt\ndef f(hub, c):\n    hub.send(c, dt.datetime.now())\n")
    assert {"send", "now"} <= set(_calls(tree))


def test_where_a_connection_sits_and_what_it_was_shown_are_the_tables_by_connection_id():
    table = Table.create("SHOWN1", make_rules({"variant": "classic"}), at=time.time())
    anna, bram = ConnectionId(7), ConnectionId(8)
    seat, _ = table.seating.seat_person(anna, None, "Anna", None)
    table.seating.watch(bram)
    assert table.presence.seats == {anna: seat.index, bram: None} and table.seats[seat.index].connection == anna
    step = settle(table, 0.0, time.time())
    assert [(to, type(text)) for to, text in step.messages] == [(anna, str), (bram, str)]  # to each id, what to write
    table.presence.arrive(anna, table.seq)
    message = full_message(table, anna, Moment(table, 0.0))
    sight = table.presence.sights[anna]
    assert sight.shown is message and sight.seen == table.seq and message["you"] == seat.index
