"""Two real nodes on one PostgreSQL and one Redis give the same answer: Play now's wait and its matching, a device
signed out, and a person removed from a Play now table (real ``hearts serve`` processes, as in ``test_cluster``)."""

from __future__ import annotations

import asyncio
import json
import statistics
import time

from hartenjagen.server.connection.closing import Close

from .crashkit import Client
from .test_cluster import BUDGET, wait_until
from .test_store_restore import http_json


async def answer(p, *kinds: str, timeout: float = 10.0) -> dict:
    """The next message of one of ``kinds`` (or an error)."""
    while True:
        msg = await p.recv(timeout)
        if msg["type"] in (*kinds, "error"):
            return msg


async def open_as(cluster, node, name: str, token: str) -> Client:
    """A connection to ``node`` that says hello as the player with ``token`` (closed with the test's others)."""
    client = await Client.open(node.url, name, token)
    cluster.clients.append(client)
    return client


async def listed_on(node, code: str) -> bool:
    """True once ``node``'s start page lists table ``code``."""
    return code in [e["code"] for e in http_json(node, "/api/open-tables")["tables"]]


async def test_play_now_through_the_other_node_brings_the_fill_in_time_closer_as_on_the_owner(cluster):
    options = {"variant": "classic", "end_score": 50}
    async with asyncio.timeout(BUDGET):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna = await cluster.open(a, "Anna")
        await anna.send("play_now", options=options, lang="en", wait=300)
        code = (await anna.expect("joined"))["code"]
        await anna.wait(lambda: anna.table is not None, what="Anna's table")
        assert anna.table["open"]["fill_at"] - time.time() > 290
        await wait_until(lambda: listed_on(b, code), what="the table on node b's list")

        bram = await cluster.open(b, "Bram")  # through the node that does not own the table
        await bram.send("play_now", options=options, lang="en", wait=120)
        assert (await bram.expect("joined"))["code"] == code
        await anna.wait(
            lambda: anna.table["open"]["fill_at"] - time.time() <= 121, what="the fill-in time at Bram's 120 s"
        )
        same = anna.table["open"]["fill_at"]
        await bram.wait(lambda: bram.table is not None and bram.table["open"]["fill_at"] == same, what="Bram's view")

        carla = await cluster.open(a, "Carla")  # on the owner a longer wait changes nothing, as before
        await carla.send("play_now", options=options, lang="en", wait=200)
        assert (await carla.expect("joined"))["code"] == code
        await carla.wait(lambda: carla.table is not None, what="Carla's table")
        assert carla.table["open"]["fill_at"] - time.time() <= 121


async def test_two_people_pressing_play_now_at_once_on_two_nodes_meet_at_one_table(cluster):
    # Xander's page speaks Dutch, Yara's English (in the last two rounds both Dutch): Play now matches the game,
    # whatever the language, under the lock of the tables for anyone and then that of each one's language.
    async with asyncio.timeout(BUDGET * 2):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        for round_no in range(4):
            options = {"variant": "classic", "end_score": 50 + 25 * round_no}  # a fresh match each round
            x = await cluster.open(a, f"Xander{round_no}")
            y = await cluster.open(b, f"Yara{round_no}")
            first, second = (x, y) if round_no % 2 == 0 else (y, x)
            langs = {x: "nl", y: "en" if round_no < 2 else "nl"}
            await asyncio.gather(
                first.send("play_now", options=options, lang=langs[first], wait=300),
                second.send("play_now", options=options, lang=langs[second], wait=300),
            )
            got = [await answer(p, "joined") for p in (x, y)]
            assert [g["type"] for g in got] == ["joined", "joined"], got
            assert got[0]["code"] == got[1]["code"], f"round {round_no}: two tables {got}"
            assert {got[0]["seat"], got[1]["seat"]} == {0, 1}


async def test_a_signed_out_device_is_closed_on_every_node_and_its_token_holds_nobody_there(cluster):
    async with asyncio.timeout(BUDGET):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna = await cluster.open(a, "Anna")
        took = []
        for round_no in range(3):
            await anna.send("device_code")
            code = (await answer(anna, "device_code"))["code"]
            phone = await cluster.open(b, "someone")
            await phone.send("use_device_code", code=code, label=f"Phone {round_no}")
            token = (await phone.expect("device_joined"))["player_token"]
            on_b = await open_as(cluster, b, "Anna", token)  # node b greets the phone as Anna (and keeps its token)
            on_a = await open_as(cluster, a, "Anna", token)  # and so does the node where the sign-out happens
            assert on_b.welcome["player_token"] == on_a.welcome["player_token"] == token
            await on_b.send("devices")
            listing = (await on_b.expect("devices"))["devices"]
            device = next(d["id"] for d in listing if d["this"])

            started = time.monotonic()
            await anna.send("sign_out_device", device=device)
            await on_b.wait(lambda on_b=on_b: on_b.closed, timeout=2.0, what="the phone closed on node b")
            took.append(time.monotonic() - started)
            await on_a.wait(lambda on_a=on_a: on_a.closed, timeout=2.0, what="the phone closed on node a")
            await phone.wait(lambda phone=phone: phone.closed, timeout=2.0, what="the phone's first connection")
            assert on_b.close_code == on_a.close_code == phone.close_code == Close.SIGNED_OUT.code
            assert on_b.ws.close_reason == Close.SIGNED_OUT.reason
            assert [d["id"] for d in (await answer(anna, "devices"))["devices"]] == [listing[0]["id"]]
            await anna.sync()  # Anna's own device stays
            for node in (b, a):  # neither node's cache of returning players greets the phone as Anna any more
                again = await open_as(cluster, node, "Anna", token)
                assert again.welcome["player_token"] != token
        print(
            "sign-out reached the other node in "
            + ", ".join(f"{t * 1000:.1f}" for t in took)
            + f" ms (median {statistics.median(took) * 1000:.1f} ms)"
        )
        assert max(took) < 2.0


async def test_the_page_that_shows_a_device_code_hears_once_that_it_was_used_on_another_node(cluster):
    async with asyncio.timeout(BUDGET):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        laptop = await cluster.open(a, "Anna")
        await laptop.send("device_code")
        code = (await answer(laptop, "device_code"))["code"]
        phone = await cluster.open(b, "someone")  # the code is used through the other node
        await phone.send("use_device_code", code=code, label="Phone")
        await phone.expect("device_joined")
        told = await answer(laptop, "device_code_used")
        assert (told["type"], told["code"], told["label"]) == ("device_code_used", code, "Phone")
        await phone.sync()
        assert not [m for m in phone.inbox if m["type"] == "device_code_used"]  # the new device is not told

        # through the laptop's own node: told once, not again by the notice that comes back through Redis
        await laptop.send("device_code")
        second = (await answer(laptop, "device_code"))["code"]
        tablet = await cluster.open(a, "someone")
        await tablet.send("use_device_code", code=second, label="Tablet")
        await tablet.expect("device_joined")
        assert (await answer(laptop, "device_code_used"))["code"] == second
        await phone.send("device_code")  # a round trip through Redis after the notice: any echo has come by now
        third = (await answer(phone, "device_code"))["code"]
        watch = await cluster.open(b, "someone")
        await watch.send("use_device_code", code=third, label="Watch")
        await watch.expect("device_joined")
        assert (await answer(laptop, "device_code_used"))["code"] == third  # the next notice, no echo before it


async def test_a_removed_person_cannot_watch_or_chat_at_that_table_through_either_node_and_plays_elsewhere(cluster):
    options = {"variant": "classic", "end_score": 75}
    async with asyncio.timeout(BUDGET):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna = await cluster.open(a, "Anna")
        await anna.send("create", options=options)
        code = (await anna.expect("joined"))["code"]
        await anna.send("set_open", open=True, lang="en")
        bram = await cluster.open(b, "Bram")  # through the node that does not own the table
        await bram.send("join", code=code)
        assert (await bram.expect("joined"))["code"] == code
        token = bram.welcome["player_token"]
        watching = await open_as(cluster, a, "Bram", token)  # Bram's other device watches his table
        await watching.send("watch", code=code)
        await watching.expect("watching")

        await anna.send("remove_player", seat=1, reason="rude in the chat")
        left = await answer(bram, "left")
        assert (left["type"], left["reason"]) == ("left", "removed")
        for node in (b, a):  # he may not sit, nor watch the table, through either node
            c = await open_as(cluster, node, "Bram", token)
            for kind, ok in (("join", "joined"), ("watch", "watching")):
                await c.send(kind, code=code)
                refused = await answer(c, ok)
                assert (refused["type"], refused["code"]) == ("error", "removed_here"), (node.name, kind, refused)
            await c.send("play_now", options=options, lang="en", wait=300)  # Play now seats him elsewhere
            got = await answer(c, "joined")
            assert got["type"] == "joined" and got["code"] != code, got
            await c.send("leave")
            await answer(c, "left")
        # nor chat there as a watcher
        await watching.send("chat", text="let me back in")
        refused = await answer(watching, "chat")
        assert (refused["type"], refused["code"]) == ("error", "removed_here"), refused
        await anna.sync()
        assert not any(m["type"] == "chat" for m in anna.inbox)


def test_the_published_entry_names_who_was_removed_so_no_node_matches_them_and_the_start_page_never_shows_it():
    from hartenjagen.server.live import lobby
    from hartenjagen.server.table.presence import ConnectionId
    from hartenjagen.server.table.table import Table
    from hartenjagen.shared.variants import make_rules

    table = Table.create("K7QXPM", make_rules({"variant": "classic"}), at=0.0)
    table.seating.seat_person(ConnectionId(1), 7, "Anna", 0)
    table.hosting.queue("en", 300.0)
    table.barred.add(8)  # as a removal leaves it
    published = json.loads(json.dumps(lobby.entry(table)))  # as another node reads it from Redis
    options = table.rules.to_json()
    assert lobby.fits(published, options, "en", 9) and not lobby.fits(published, options, "en", 8)
    assert "_barred" not in json.dumps(lobby.public([published]))
