"""Tables that open and close leave nothing alive behind: after a full collection, live memory is at its baseline."""

from __future__ import annotations

import gc
import sys
import weakref

from .conftest import wait_for


async def open_and_close(server, count: int, tokens: dict[int, str], opened: list | None = None) -> None:
    """``count`` people (the same ones each round) each open a table with three computer players, start it,
    and leave (the table closes); each table is added to ``opened`` (a weak reference) when given."""
    for i in range(count):
        p = await server.connect(f"Speler {i}", token=tokens.get(i))
        tokens[i] = p.welcome["player_token"]
        await p.send("create", options={"variant": "classic"})
        joined = await p.expect("joined")
        if opened is not None:
            opened.append(weakref.ref(server.app.hub.tables.by_code[joined["code"]]))
        await p.send("fill_computers", level="easy")
        await p.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        await p.send("start")
        await p.until(lambda t: t["status"] == "playing")
        await p.send("leave")
        await p.expect("left")
        await p.close()
    server.clients.clear()
    hub = server.app.hub  # every connection gone and every table closed, their last writes stored
    await wait_for(lambda: not hub.clients and not hub.tables.by_code)
    await server.settled()


async def test_rounds_of_tables_opened_and_closed_leave_live_memory_at_its_baseline(server):
    tokens: dict[int, str] = {}
    await open_and_close(server, 60, tokens)  # warm up: the players, caches, the database's statements
    gc.collect()
    baseline = sys.getallocatedblocks()
    for _ in range(3):
        await open_and_close(server, 60, tokens)
        assert len(server.app.hub.tables) == 0
    gc.collect()
    grown = sys.getallocatedblocks() - baseline
    # 180 tables came and went; a leak of even one small object per table and seat would show here
    assert grown < 180 * 4, f"{grown} memory blocks more than before the rounds"


async def test_a_closed_table_is_freed_at_once_not_at_the_collectors_next_full_pass(server):
    """A busy server seldom runs a full collection, so a table caught in a reference cycle would stay in memory long
    after it closed: rounds of tables opened and closed grew the server's memory round after round."""
    tokens: dict[int, str] = {}
    await open_and_close(server, 5, tokens)  # warm up
    opened: list[weakref.ref] = []
    gc.collect()
    gc.disable()  # only reference counting frees anything now, as between a busy server's rare full passes
    try:
        await open_and_close(server, 10, tokens, opened)
        alive = [ref() for ref in opened if ref() is not None]
        assert len(opened) == 10 and not alive, f"{len(alive)} of {len(opened)} closed tables are still in memory"
    finally:
        gc.enable()
