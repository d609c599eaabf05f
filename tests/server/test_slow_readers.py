"""A connection that stops reading is closed with 1008 "not reading", and its seat no longer holds the table up.

Nothing is learned from writing alone (the kernel's buffers take megabytes for a client that reads nothing); a
websocket client answers a ping only once it has read everything before it. The server pings connections that
were sent something, and closes one that leaves a ping unanswered for ``read_timeout`` seconds (1 s here).
"""

from __future__ import annotations

import pytest
from websockets.exceptions import ConnectionClosed

from .conftest import wait_for
from .test_replays import drive

OPTIONS = {"variant": "classic", "passing": "off", "end_score": 100, "deal": 777}


def hand(t: dict) -> int:
    return t["view"]["hand_no"] if t["view"] else -1


async def close_code_once_read(p) -> int:
    """Read again: everything that was waiting, then the close the server sent."""
    p.ws.transport.resume_reading()
    with pytest.raises(ConnectionClosed):
        while True:
            await p.recv(10)
    return p.ws.close_code


async def test_a_seated_person_who_stops_reading_is_cut_off_and_the_table_plays_on_without_waiting(make_server):
    server = await make_server(read_timeout=1.0, grace=1.0)
    anna = await server.host("Anna", options=OPTIONS, computer_level="easy")
    bram = await server.connect("Bram")
    await bram.send("join", code=anna.joined["code"])
    await bram.expect("joined")
    await anna.send("fill_computers", level="easy")
    await anna.send("start")
    await bram.until(lambda t: t["status"] == "playing")
    bram.ws.transport.pause_reading()  # Bram's device stops reading (a frozen tab, a stuck proxy)

    # Anna plays two whole hands: Bram is cut off, counts as away after the grace period, and a computer plays for
    # him; at the end of the hand nobody waits for his "ready"
    last = await drive(anna, lambda t: hand(t) >= 1 and t["view"]["phase"] == "playing")
    bram_seat = bram.joined["seat"]
    assert last["seats"][bram_seat]["away"] and not last["seats"][bram_seat]["connected"]
    assert server.app.readers.cut_off == 1
    assert await close_code_once_read(bram) == 1008
    assert bram.ws.close_reason == "not reading"


async def test_a_watcher_who_stops_reading_is_cut_off(make_server):
    server = await make_server(read_timeout=1.0)
    anna = await server.host("Anna", options=OPTIONS, computer_level="easy")
    watcher = await server.connect("Wim")
    await watcher.send("watch", code=anna.joined["code"])
    await watcher.expect("watching")
    await watcher.expect("table")
    watcher.ws.transport.pause_reading()
    await anna.send("fill_computers", level="easy")
    await anna.send("start")
    await drive(anna, lambda t: hand(t) >= 1)  # the watcher was sent a hand's worth, and reads none of it
    await wait_for(lambda: server.app.readers.cut_off == 1, 5)
    assert await close_code_once_read(watcher) == 1008
    assert (await anna.until(lambda t: t["watch"]["count"] == 0))["watch"]["count"] == 0  # the others see it leave


async def test_a_person_who_reads_is_never_cut_off_however_long_the_game(make_server):
    server = await make_server(read_timeout=0.4, bot_delay=0.04)  # a hand lasts about two seconds
    anna = await server.host("Anna", options=OPTIONS, computer_level="easy")
    await anna.send("fill_computers", level="easy")
    await anna.send("start")
    await drive(anna, lambda t: hand(t) >= 1)
    assert server.app.readers.cut_off == 0 and not anna.ws.close_code
