"""Open tables come back after a restart on either store; ``hearts serve --db postgresql://...`` survives kill -9.

The end-to-end test runs real ``hearts serve`` processes on a fresh PostgreSQL database (see ``pg.py``): one
person and three computer players play a classic game to 25; the server is killed with SIGKILL mid-hand (and
again in a later hand when the game lasts that long) and started again on the same database each time; the
finished game's replay holds every move the person saw, in order, with none lost and none added.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

from hartenjagen.server.storage.opening import is_postgres_url

from . import pg
from .conftest import both_stores, start_server
from .crashkit import Client, ServerProcess, settled
from .test_crash_restore import Scene, assert_restored

TEST_BUDGET = 40.0
OPTIONS = {"variant": "classic", "end_score": 25, "deal": 5151}


# ------------------------------------------------------------------ in process, both stores


@both_stores
async def test_open_tables_come_back_after_a_restart_with_the_same_views(tmp_path, db_url):
    first = await start_server(tmp_path, db=db_url)
    try:
        anna = await first.host("Anna", options=OPTIONS, computer_level="easy")
        await anna.send("fill_computers", level="easy")
        await anna.send("start")
        before = await anna.until(lambda t: t["status"] == "playing" and t["view"]["to_act"] == [0])
        bram = await first.host("Bram")  # a table still waiting for players
        tokens = [(p.welcome["player_token"], p.joined["code"], p.joined["seat_token"]) for p in (anna, bram)]
        await anna.drain()
    finally:
        await first.app.stop()

    again = await start_server(tmp_path, db=db_url)
    try:
        status, _, body = await again.get("/healthz")
        health = json.loads(body)
        store = "postgresql" if is_postgres_url(db_url) else "sqlite"
        assert (status, health["tables"], health["store"]) == (200, 2, store)
        last = anna.table
        anna2 = await again.connect("Anna", token=tokens[0][0])
        await anna2.send("resume", code=tokens[0][1], seat_token=tokens[0][2], last_seq=last["seq"])
        await anna2.expect("joined")
        after = await anna2.expect("table")
        assert after["view"] == last["view"] == before["view"] and after["code"] == last["code"]
        assert [(s["name"], s["kind"]) for s in after["seats"]] == [(s["name"], s["kind"]) for s in last["seats"]]
        assert [e["type"] for e in after["events"]] == ["back"] and after["seq"] == last["seq"] + 1
        bram2 = await again.connect("Bram", token=tokens[1][0])
        await bram2.send("resume", code=tokens[1][1], seat_token=tokens[1][2])
        await bram2.expect("joined")
        waiting = await bram2.expect("table")
        assert waiting["status"] == "waiting" and waiting["seats"][0]["name"] == "Bram"
        # and play goes on: the person passes, the computers lead and follow until her turn
        await anna2.send("pass", cards=after["view"]["hand"][:3])
        await anna2.until(lambda t: t["view"]["phase"] == "playing")
    finally:
        for c in again.clients:
            await c.ws.close()
        await again.app.stop()


# ------------------------------------------------------------------ real processes on PostgreSQL


def http_json(srv: ServerProcess, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{srv.port}{path}", timeout=5) as resp:
        return json.loads(resp.read())


def my_turn(t: dict[str, Any] | None) -> bool:
    v = t and t["view"]
    return bool(v) and t["status"] == "playing" and v["seat"] in v["to_act"]


async def play_until(c: Client, stop) -> dict[str, Any]:
    """The person answers at their own seat with the first legal choice (and says ready between hands) until
    ``stop(table)``."""
    await c.wait(lambda: c.table is not None, what="the first table message")
    for _ in range(3000):
        t = c.table
        if stop(t):
            return t
        assert t["status"] != "finished", "the game ended before the condition held"
        v = t["view"]
        if my_turn(t):
            if v["phase"] == "passing":
                await c.send("pass", cards=v["hand"][: v["pass_count"]])
            elif v["phase"] == "playing":
                await c.send("play", card=v["legal"][0])
            else:
                await c.send("moon", choice="others")
        elif v and t["status"] == "playing" and v["phase"] == "hand_over" and v["seat"] not in t["ready"]:
            await c.send("ready")
        await c.wait(lambda n=t["seq"]: c.table["seq"] > n or stop(c.table), what=f"the table after seq {t['seq']}")
    raise AssertionError("the condition never held")


def plays_seen(clients: list[Client]) -> list[tuple[int, int, str]]:
    """Every play the person was shown, across the restarts: ``(hand_no, seat, card)`` in order, each once."""
    events: dict[int, dict[str, Any]] = {}
    for c in clients:
        for msg in c.inbox:
            if msg["type"] == "table":
                for e in msg["events"]:
                    assert events.setdefault(e["seq"], e) == e, f"event {e['seq']} changed over a restart"
    seqs = sorted(events)
    assert seqs == list(range(seqs[0], seqs[-1] + 1)), "a gap in the events the person was shown"
    out, hand = [], -1
    for s in seqs:
        e = events[s]
        if e["type"] == "deal":
            hand = e["hand_no"]
        elif e["type"] == "play":
            out.append((hand, e["seat"], e["card"]))
    return out


async def crash_and_resume(scene: Scene, srv: ServerProcess, c: Client) -> tuple[ServerProcess, Client]:
    """Kill -9 the server at a quiet moment (the computers wait for the person), start another, resume the seat."""
    await settled(srv, [c])
    before = c.table
    assert my_turn(before), "not a quiet moment"
    await srv.crash()
    c.abandon()
    srv = scene.start()
    assert http_json(srv, "/healthz")["store"] == "postgresql"
    again = await scene.open(srv, "Anna", c.welcome["player_token"])
    await again.send("resume", code=c.joined["code"], seat_token=c.joined["seat_token"], last_seq=before["seq"])
    again.joined = await again.expect("joined")
    assert_restored(before, await again.expect("table"), [0])
    return srv, again


async def test_hearts_serve_on_postgresql_survives_kill_9_mid_game_with_no_move_lost(tmp_path):
    url = await pg.create_database()
    scene = Scene(tmp_path)
    scene.db = url  # ServerProcess passes it to --db as it is
    try:
        async with asyncio.timeout(TEST_BUDGET):
            srv = scene.start()
            first_line = srv.out.read_text().splitlines()[0]
            assert first_line.endswith(f"(store: PostgreSQL {url})"), first_line
            anna = await scene.open(srv, "Anna")
            await anna.send("create", options=OPTIONS, computer_level="easy")
            await anna.expect("joined")
            await anna.send("fill_computers", level="easy")
            await anna.send("start")
            clients = [anna]

            # mid-hand: five tricks into the first hand, the person to play
            await play_until(
                anna, lambda t: my_turn(t) and t["view"]["phase"] == "playing" and len(t["view"]["tricks"]) >= 5
            )
            srv, anna = await crash_and_resume(scene, srv, anna)
            clients.append(anna)

            # later hands (when the game lasts that long): two tricks into the next hand, then kill -9 again
            def next_hand(t: dict[str, Any]) -> bool:
                return t["status"] == "finished" or (
                    my_turn(t) and t["view"]["hand_no"] >= 1 and t["view"]["phase"] == "playing"
                    and len(t["view"]["tricks"]) >= 2
                )  # fmt: skip

            if (await play_until(anna, next_hand))["status"] != "finished":
                srv, anna = await crash_and_resume(scene, srv, anna)
                clients.append(anna)
            final = await play_until(anna, lambda t: t["status"] == "finished")
            assert max(final["view"]["totals"]) >= 25

            # the stored game holds exactly the plays the person was shown, over both restarts
            replay = http_json(srv, f"/api/replays/{final['replay']['share']}")
            stored = [
                (h["hand_no"], c["seat"], c["card"]) for h in replay["hands"] for t in h["tricks"] for c in t["cards"]
            ]
            assert stored == plays_seen(clients)
            assert len(stored) == 52 * len(replay["hands"])
            stats = http_json(srv, "/healthz")
            assert stats["tables"] == 1 and stats["store"] == "postgresql"
            for s in scene.servers:
                assert "Traceback" not in s.stderr(), s.stderr()
        # the log in PostgreSQL: one table, entries 1..N without a gap, and the finished game recorded
        (table_id, n, count), *_ = await pg.sql(
            url, "SELECT table_id, MAX(n), COUNT(*) FROM table_log GROUP BY table_id"
        )
        assert n == count > 52
        assert [tuple(r) for r in await pg.sql(url, "SELECT table_id, hands FROM games")] == [
            (table_id, len(replay["hands"]))
        ]
    finally:
        await scene.cleanup()
        await pg.drop_database(url)
