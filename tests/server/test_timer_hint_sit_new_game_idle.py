"""A table's life beyond one game: turn timer, hints, changing seats, a new game, pausing and closing idle tables."""

from __future__ import annotations

import asyncio
import json

from .conftest import events_of, move_once, my_move, play_until, wait_for
from .test_full_game import play_out
from .wording import worded

NO_PASSING = {"variant": "classic", "passing": "off", "end_score": 100}


def hand_over(t: dict) -> bool:
    """The hand has been scored and the table waits for ready."""
    return t["view"] is not None and t["view"]["phase"] == "hand_over"


async def with_bots(server, options: dict | None = None, level: str = "easy", **extra):
    """A host alone with three computer players, not started yet."""
    host = await server.host("Anna", options=options, **extra)
    await host.send("fill_computers", level=level)
    await host.until(lambda t: all(s["kind"] == "computer" for s in t["seats"][1:]))
    return host


class TestTurnTimer:
    async def test_the_minimum_is_a_server_setting(self, server):
        host = await with_bots(server)
        err = await host.error("set_timer", seconds=4)
        assert err["code"] == "bad_message" and err["field"] == "seconds" and "5 to 300" in worded(err)
        assert host.table["turn_timer"] is None
        await host.send("set_timer", seconds=5)
        t = await host.until(lambda t: t["turn_timer"] == 5)
        assert t["events"][-1] == {"seq": t["seq"], "type": "timer", "seconds": 5}

    async def test_on_expiry_a_computer_makes_that_one_move_then_the_clock_restarts(self, make_server):
        server = await make_server(timer_min=1)
        host = await with_bots(server, options={"variant": "classic", "passing": "left", "end_score": 100})
        assert (await host.error("set_timer", seconds=0))["code"] == "bad_message"
        await host.send("set_timer", seconds=1)
        await host.until(lambda t: t["turn_timer"] == 1)
        await host.send("start")
        t = await host.until(lambda t: t["status"] == "playing" and t["view"]["phase"] == "passing")
        assert 0 < t["deadline"] <= 1.0
        hand = set(t["view"]["hand"])
        # Anna lets the clock run out: a computer passes three of her cards for her
        t = await host.until(lambda t: t["view"]["phase"] == "playing", timeout=5)
        # the pass says it was made for her (others passed in time: theirs say not)
        assert [e["auto"] for e in events_of(host) if e["type"] == "passed" and e["seat"] == 0] == [True]
        assert not any(e["auto"] for e in events_of(host) if e["type"] == "passed" and e["seat"] != 0)
        passed = t["view"]["passed"]
        assert len(passed) == 3 and set(passed) <= hand and len(t["view"]["received"]) == 3
        # that was one move: her first card waits for her with a fresh clock, and again a computer plays it
        t = await play_until(host, my_move)
        assert 0 < t["deadline"] <= 1.0
        t = await host.until(lambda t: any(e["type"] == "play" and e["seat"] == 0 for e in t["events"]), timeout=5)
        assert [e["auto"] for e in t["events"] if e["type"] == "play" and e["seat"] == 0] == [True]
        # the next decision has its own clock, and a card in time is her own
        t = await host.until(my_move)
        assert 0 < t["deadline"] <= 1.0
        await move_once(host)
        plays = [e for e in events_of(host) if e["type"] == "play" and e["seat"] == 0]
        assert [e["auto"] for e in plays] == [True, False]
        # switched off: no clock any more
        await host.send("set_timer", seconds=None)
        t = await play_until(host, lambda t: t["turn_timer"] is None and my_move(t))
        assert t["deadline"] is None


class TestHint:
    async def test_a_hint_passes_three_of_your_cards_and_plays_a_legal_one(self, server):
        host = await with_bots(server, options={"variant": "classic", "passing": "left", "end_score": 100})
        err = await host.error("hint")
        assert err["code"] == "hint_not_your_move"  # before the start
        await host.send("start")
        t = await host.until(lambda t: t["status"] == "playing")
        searches = []
        decide = server.app.hub.thinker.decide

        async def counted(level, view):
            if level == "hard":  # the computer players at this table are easy
                searches.append(level)
            return await decide(level, view)

        server.app.hub.thinker.decide = counted
        await host.send("hint")
        hint = await host.expect("hint")
        cards = hint["cards"]
        assert len(cards) == 3 and len(set(cards)) == 3 and set(cards) <= set(t["view"]["hand"])
        assert "choice" not in hint
        # asking again for the same decision gives the same answer without a second search
        await host.send("hint")
        assert await host.expect("hint") == hint and searches == ["hard"]
        await host.send("pass", cards=cards)  # the hint is a pass the game accepts
        t = await host.until(lambda t: t["view"]["phase"] == "playing")
        assert sorted(t["view"]["passed"]) == sorted(cards)
        t = await host.until(my_move)
        await host.send("hint")
        hint = await host.expect("hint")
        assert len(hint["cards"]) == 1 and hint["cards"][0] in host.table["view"]["legal"]
        assert searches == ["hard", "hard"]
        await host.send("play", card=hint["cards"][0])
        await host.until(lambda t: any(e["type"] == "play" and e["seat"] == 0 for e in t["events"]))


class TestSit:
    async def test_before_the_start_a_person_moves_to_an_empty_seat_or_a_computer_players_seat(self, server):
        host = await server.host("Anna")
        code = host.joined["code"]
        bram = await server.connect("Bram")
        await bram.send("join", code=code)
        old = (await bram.expect("joined"))["seat_token"]
        assert bram.joined["seat"] == 1
        for taken in (0, 1):
            err = await bram.error("sit", seat=taken)
            assert err["code"] == "seat_taken"
        await bram.send("sit", seat=3)
        joined = await bram.expect("joined")
        assert joined["seat"] == 3 and joined["seat_token"] != old and joined["host"] is False
        t = await host.until(lambda t: t["seats"][3]["name"] == "Bram")
        assert t["seats"][1]["kind"] == "empty" and t["seats"][3]["kind"] == "person"
        assert (await bram.expect("table"))["you"] == 3
        # the old seat token no longer opens anything
        other = await server.connect("Eve")
        assert (await other.error("resume", code=code, seat_token=old))["code"] == "bad_token"
        # a computer player's seat can be taken before the start; the computer player is gone
        await host.send("add_computer", seat=2, level="easy")
        await host.until(lambda t: t["seats"][2]["kind"] == "computer")
        await bram.send("sit", seat=2)
        assert (await bram.expect("joined"))["seat"] == 2
        t = await host.until(lambda t: t["seats"][2]["name"] == "Bram")
        assert [s["kind"] for s in t["seats"]] == ["person", "empty", "person", "empty"]
        # hosting moves with the host
        await host.send("sit", seat=1)
        joined = await host.expect("joined")
        assert joined["seat"] == 1 and joined["host"] is True
        t = await bram.until(lambda t: t["seats"][1]["name"] == "Anna")
        assert t["host"] == 1 and t["seats"][0]["kind"] == "empty"

    async def test_between_hands_people_take_computer_players_seats_but_not_mid_hand(self, server):
        anna = await server.host("Anna", options=NO_PASSING)
        code = anna.joined["code"]
        bram = await server.connect("Bram")
        await bram.send("join", code=code)
        await bram.expect("joined")
        await anna.send("fill_computers", level="easy")
        await anna.until(lambda t: [s["kind"] for s in t["seats"]] == ["person", "person", "computer", "computer"])
        await anna.send("start")
        await anna.until(lambda t: t["status"] == "playing")
        # mid-hand a computer player's seat is not free
        assert (await bram.error("sit", seat=2))["code"] == "seat_taken"
        cor = await server.connect("Cor")
        assert (await cor.error("join", code=code, seat=3))["code"] == "seat_taken"
        assert (await cor.error("join", code=code))["code"] == "table_full"
        await asyncio.gather(play_until(anna, hand_over), play_until(bram, hand_over))
        # between hands: a newcomer takes seat 3 by number, Bram moves over to seat 2
        await cor.send("join", code=code, seat=3)
        assert (await cor.expect("joined"))["seat"] == 3
        t = await cor.expect("table")
        assert t["you"] == 3 and t["view"]["seat"] == 3 and t["view"]["phase"] == "hand_over"
        assert t["view"]["totals"] == anna.table["view"]["totals"]
        await bram.send("sit", seat=2)
        assert (await bram.expect("joined"))["seat"] == 2
        t = await anna.until(lambda t: t["seats"][2]["name"] == "Bram")
        # his old seat cannot stay empty mid-game: a computer player of the table's level keeps it
        assert t["seats"][1] == {**t["seats"][1], "kind": "computer", "level": "medium", "connected": True}
        assert [s["kind"] for s in t["seats"]] == ["person", "computer", "person", "person"]
        for p in (anna, bram, cor):
            await p.send("ready")
        t = await cor.until(
            lambda t, n=t["view"]["hand_no"]: t["view"]["hand_no"] == n + 1 and t["view"]["phase"] == "playing"
        )
        assert len(t["view"]["hand"]) == 13  # no trick can be complete before Cor plays
        assert (await cor.error("sit", seat=1))["code"] == "seat_taken"


class TestNewGame:
    async def test_after_game_over_the_host_goes_back_to_waiting_with_the_same_seats(self, server):
        options = {"variant": "classic", "end_score": 25}
        host = await with_bots(server, options=options)
        assert (await host.error("new_game"))["code"] == "new_game_after_game_over"
        await host.send("start")
        first = (await host.until(lambda t: t["status"] == "playing"))["view"]["hand_no"]
        assert (await host.error("new_game"))["code"] == "new_game_after_game_over"
        final = await play_out(host)
        code = final["code"]
        # after game over a friend takes a computer player's seat; only the host starts a new game
        bram = await server.connect("Bram")
        await bram.send("join", code=code, seat=2)
        await bram.expect("joined")
        seats = (await host.until(lambda t: t["seats"][2]["name"] == "Bram"))["seats"]
        assert (await bram.error("new_game"))["code"] == "not_host"
        await host.send("new_game")
        t = await host.until(lambda t: t["status"] == "waiting")
        assert t["seats"] == seats and t["host"] == 0 and t["view"] is None and t["ready"] == []
        assert t["events"][-1]["type"] == "new_game" and t["options"] == final["options"]
        assert (await bram.until(lambda t: t["status"] == "waiting"))["you"] == 2
        # seats can be changed again before the start
        await host.send("remove_computer", seat=3)
        await host.until(lambda t: t["seats"][3]["kind"] == "empty")
        await host.send("add_computer", seat=3, level="easy")
        await host.until(lambda t: t["seats"][3]["kind"] == "computer")
        await host.send("start")
        t = await host.until(lambda t: t["status"] == "playing")
        assert t["view"]["hand_no"] == first and t["view"]["totals"] == [0, 0, 0, 0] and t["view"]["history"] == []
        status, _, body = await server.get("/api/stats", {"X-Player-Token": host.welcome["player_token"]})
        assert status == 200 and json.loads(body)["games_played"] == 1


class TestNobodyThere:
    async def test_computer_players_wait_while_nobody_is_connected(self, make_server):
        server = await make_server(grace=0.1)
        host = await with_bots(server, options=NO_PASSING)
        code, token = host.joined["code"], host.joined["seat_token"]
        await host.send("start")
        t = await host.until(my_move)
        last, cards = t["seq"], len(t["view"]["hand"])
        await host.close()
        table = server.table(code)
        await wait_for(lambda: table.seats[0].away)  # past the grace period, yet nobody moves for her
        assert table.turns.auto_seats() == []
        back = await server.connect("Anna")
        await back.send("resume", code=code, seat_token=token, last_seq=last)
        await back.expect("joined")
        t = await back.expect("table")
        assert [e["type"] for e in t["events"]] == ["away", "back"]
        assert my_move(t) and len(t["view"]["hand"]) == cards

    async def test_tables_with_nobody_connected_close_after_the_idle_timeout_and_games_stay(self, make_server):
        server = await make_server(idle_timeout=0.3)
        host = await with_bots(server, options={"variant": "classic", "end_score": 25})
        await host.send("start")
        await host.until(lambda t: t["status"] == "playing")
        final = await play_out(host)
        bram = await server.host("Bram")  # a table still waiting for players
        cor = await server.host("Cor")  # stays connected
        codes = {p.joined["code"]: p.joined["seat_token"] for p in (host, bram)}
        await host.close()
        await bram.close()
        await wait_for(lambda: not codes.keys() & server.app.hub.tables.by_code.keys())
        status, _, body = await server.get("/healthz")
        assert status == 200 and json.loads(body)["tables"] == 1
        assert cor.joined["code"] in server.app.hub.tables.by_code
        again = await server.connect("Anna")
        for code, token in codes.items():
            assert (await again.error("resume", code=code, seat_token=token))["code"] == "unknown_table"
        # the finished game is in the database
        status, _, body = await server.get("/api/stats", {"X-Player-Token": host.welcome["player_token"]})
        stats = json.loads(body)
        assert status == 200 and stats["games_played"] == 1 and stats["hands"] == len(final["view"]["history"])
        # the connected host's table is untouched
        await cor.send("fill_computers", level="easy")
        await cor.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
