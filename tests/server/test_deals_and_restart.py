"""Numbered deals (``options.deal``) and the host's ``restart``: the same cards again, the abandoned game unrecorded."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

import pytest

from hartenjagen.shared.cards import mask_names
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.variants import make_rules

from .conftest import events_of, play_until, seat_four, state_of
from .test_replays import drive, finished, get_json

OPTIONS = {"variant": "classic", "end_score": 25}


def dealt_views(p) -> dict[int, list[str]]:
    """The cards this client held when each hand was dealt (hand_no -> its hand), from the latest deal of each."""
    out = {}
    for m in p.inbox:
        if m["type"] == "table" and any(e["type"] == "deal" for e in m["events"]):
            out[m["view"]["hand_no"]] = m["view"]["hand"]
    return out


def count_rows(db_path: str, table: str) -> int:
    with closing(sqlite3.connect(db_path)) as conn:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


class TestNumberedDeals:
    async def test_every_seat_gets_the_seeded_cards_and_another_table_with_that_number_the_same(self, server):
        players = await seat_four(server, {**OPTIONS, "deal": 77})
        assert all(p.table["deal"] == 77 for p in players)
        assert "deal" not in players[0].table["options"]  # a table setting, not a rule
        await players[0].send("start")
        rules = make_rules(OPTIONS)
        expected = [mask_names(h) for h in seeded_deal(rules, 77, 0)]
        for seat, p in enumerate(players):
            t = await p.until(lambda t: t["status"] == "playing")
            assert t["view"]["hand_no"] == 0
            assert t["view"]["hand"] == expected[seat]

        other = await server.host("Eva", options={**OPTIONS, "deal": 77}, computer_level="easy")
        await other.send("fill_computers", level="easy")
        await other.until(lambda t: all(s["kind"] == "computer" for s in t["seats"][1:]))
        await other.send("start")
        t = await other.until(lambda t: t["status"] == "playing")
        assert t["deal"] == 77 and t["view"]["hand"] == expected[0]

        secure = await server.host("Femke", options=OPTIONS)
        assert secure.table["deal"] is None

    @pytest.mark.parametrize("bad", [0, -1, 10**9, 1.5, "7", True, False, [7], {"n": 7}])
    async def test_a_deal_that_is_not_a_whole_number_in_range_is_refused_and_nothing_is_created(self, server, bad):
        p = await server.connect("Anna")
        err = await p.error("create", options={**OPTIONS, "deal": bad})
        assert err["code"] == "bad_option" and err["field"] == "deal", err
        assert len(server.app.hub.tables) == 0
        await p.send("ping")
        assert (await p.recv())["type"] == "pong"  # nothing else was sent: no joined, no table
        assert count_rows(server.app.config.db, "tables") == 0
        # the connection is not seated anywhere: a good create works at once
        await p.send("create", options={**OPTIONS, "deal": 999_999_999})
        await p.expect("joined")
        assert (await p.expect("table"))["deal"] == 999_999_999

    async def test_the_smallest_deal_number_is_accepted(self, server):
        p = await server.host("Anna", options={**OPTIONS, "deal": 1})
        assert p.table["deal"] == 1


class TestRestart:
    async def test_only_the_host_restarts_and_only_once_the_game_has_started(self, server):
        players = await seat_four(server, {**OPTIONS, "deal": 5})
        host, bram = players[0], players[1]
        table = server.table(host.joined["code"])
        before = state_of(table)
        assert (await host.error("restart"))["code"] == "not_started"
        assert (await bram.error("restart"))["code"] == "not_host"
        assert state_of(table) == before
        await host.send("start")
        await bram.until(lambda t: t["status"] == "playing")
        before = state_of(table)
        assert (await bram.error("restart"))["code"] == "not_host"
        assert state_of(table) == before

    async def test_mid_game_every_seat_gets_its_first_cards_again_with_zero_totals(self, server):
        players = await seat_four(server, {**OPTIONS, "deal": 77})
        host = players[0]
        await host.send("start")
        for p in players:
            await p.until(lambda t: t["status"] == "playing")
        first = [dealt_views(p)[0] for p in players]

        # into the hand: passes made, two tricks played
        await asyncio.gather(*(play_until(p, lambda t: len(t["view"]["tricks"]) >= 2) for p in players))
        assert players[0].table["view"]["hand"] != first[0]  # passing and playing changed what she holds

        seq_before = host.table["seq"]
        await host.send("restart")
        for seat, p in enumerate(players):
            t = await p.until(lambda t: any(e["type"] == "restart" for e in t["events"]))
            kinds = [e["type"] for e in t["events"]]
            assert kinds.index("restart") < kinds.index("deal")
            assert [e["hand_no"] for e in t["events"] if e["type"] == "deal"] == [0]
            assert t["seq"] > seq_before and t["status"] == "playing" and t["replay"] is None
            view = t["view"]
            assert view["hand_no"] == 0 and view["phase"] == "passing"
            assert view["hand"] == first[seat]
            assert view["totals"] == [0, 0, 0, 0] and view["history"] == [] and view["tricks"] == []
            assert view["points_taken"] == [0, 0, 0, 0]

    async def test_a_secure_deal_restarts_with_the_same_hands_and_only_the_finished_game_is_recorded(self, server):
        # end_score 50: the first hand can never end the game, so there is always a second hand
        options = {"variant": "classic", "end_score": 50}
        host = await server.host("Anna", options=options, computer_level="easy")
        token = host.welcome["player_token"]
        assert host.table["deal"] is None
        await host.send("fill_computers", level="easy")
        await host.until(lambda t: all(s["kind"] == "computer" for s in t["seats"][1:]))
        await host.send("start")
        await drive(host, lambda t: t["status"] == "playing" and t["view"]["hand_no"] == 1)
        before = dealt_views(host)
        assert sorted(before) == [0, 1]
        await drive(host, lambda t: len(t["view"]["tricks"]) >= 1)  # a little into the second hand

        await host.send("restart")
        t = await host.until(lambda t: any(e["type"] == "restart" for e in t["events"]))
        assert t["view"]["hand_no"] == 0 and t["view"]["hand"] == before[0]
        assert t["view"]["totals"] == [0, 0, 0, 0] and t["view"]["history"] == []
        # nothing of the abandoned game is recorded
        assert await get_json(server, "/api/games", token) == (200, {"games": []})
        status, stats = await get_json(server, "/api/stats", token)
        assert status == 200 and stats["games_played"] == 0 and stats["hands"] == 0

        # the second hand after the restart gets the cards the second hand got the first time
        n_deals = sum(1 for e in events_of(host) if e["type"] == "deal")
        await drive(host, lambda t: t["status"] == "playing" and t["view"]["hand_no"] == 1)
        deal_msgs = [m for m in host.inbox if m["type"] == "table" and any(e["type"] == "deal" for e in m["events"])]
        assert deal_msgs[-1]["view"]["hand_no"] == 1 and deal_msgs[-1]["view"]["hand"] == before[1]
        assert sum(1 for e in events_of(host) if e["type"] == "deal") == n_deals + 1

        final = await drive(host, finished)
        history = final["view"]["history"]
        status, listing = await get_json(server, "/api/games", token)
        assert status == 200 and len(listing["games"]) == 1
        assert listing["games"][0]["hands"] == len(history)
        status, stats = await get_json(server, "/api/stats", token)
        assert stats["games_played"] == 1 and stats["hands"] == len(history)
        (variant,) = stats["variants"]  # the figures per variant too: here the one variant played
        per = stats["variants"][variant]
        assert (per["games_played"], per["hands"], per["lowest_score"]) == (1, len(history), stats["lowest_score"])
        status, replay = await get_json(server, f"/api/games/{final['replay']['id']}", token)
        assert status == 200 and len(replay["hands"]) == len(history)
        assert replay["hands"][0]["dealt"][0] == before[0] and replay["hands"][1]["dealt"][0] == before[1]

        # after game over a restart starts the same deals again; the finished game stays recorded
        await host.send("restart")
        t = await host.until(lambda t: t["status"] == "playing" and t["view"] is not None and not t["view"]["history"])
        assert t["replay"] is None and t["view"]["hand_no"] == 0 and t["view"]["hand"] == before[0]
        status, listing = await get_json(server, "/api/games", token)
        assert [g["id"] for g in listing["games"]] == [final["replay"]["id"]]
        assert (await get_json(server, f"/api/replays/{final['replay']['share']}"))[1] == replay
