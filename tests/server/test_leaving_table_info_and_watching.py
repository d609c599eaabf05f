"""Leaving and coming back, table info before joining, and watching without a seat."""

from __future__ import annotations

import asyncio
import json

from hartenjagen.server.table.seat_view import Moment, table_message

from .conftest import play_until, seat_four, state_of
from .wording import worded

NO_PASSING = {"variant": "classic", "passing": "off", "end_score": 100}


def hand_over(t: dict) -> bool:
    return t["view"] is not None and t["view"]["phase"] == "hand_over"


async def with_bots(server, name: str = "Anna", options: dict | None = None):
    host = await server.host(name, options=options or NO_PASSING)
    await host.send("fill_computers", level="easy")
    await host.send("start")
    await host.until(lambda t: t["status"] == "playing")
    return host


async def anna_and_bram_playing(server):
    """Anna hosts, Bram joins by code, two computer players fill up, and the game starts."""
    anna = await server.host("Anna", options=NO_PASSING)
    code = anna.joined["code"]
    bram = await server.connect("Bram")
    await bram.send("join", code=code)
    await bram.expect("joined")
    await anna.send("fill_computers", level="easy")
    await anna.send("start")
    await bram.until(lambda t: t["status"] == "playing")
    return anna, bram, code


async def info(server, code: str, seat_token: str | None = None) -> tuple[int, dict]:
    status, _, body = await server.get(f"/api/tables/{code}", {"X-Seat-Token": seat_token} if seat_token else None)
    return status, json.loads(body)


class TestLeavingDuringAGame:
    async def test_the_others_are_told_who_left_and_which_computer_plays_on(self, server):
        anna, bram, code = await anna_and_bram_playing(server)
        await bram.send("leave")
        await bram.expect("left")
        t = await anna.until(lambda t: t["seats"][1]["kind"] == "computer")
        told = [e for m in anna.inbox if m["type"] == "table" for e in m["events"] if e.get("left")]
        expected = {"type": "seated", "seat": 1, "name": "Ellen", "who": "computer", "left": "Bram"}
        assert told == [{"seq": told[0]["seq"], **expected}]
        assert t["seats"][1]["name"] == "Ellen"

    async def test_a_seat_move_is_not_told_as_leaving(self, server):
        host = await with_bots(server)
        await play_until(host, hand_over)
        await host.send("sit", seat=2)
        await host.expect("joined")
        await host.until(lambda t: t["you"] == 2)
        await host.drain()
        assert not any(e.get("left") for m in host.inbox if m["type"] == "table" for e in m["events"])

    async def test_the_leaver_takes_their_own_seat_back_by_link_between_hands(self, server):
        anna, bram, code = await anna_and_bram_playing(server)
        token = bram.welcome["player_token"]
        await bram.send("leave")
        await bram.expect("left")
        # mid-hand every seat is taken: the link says so and changes nothing
        back = await server.connect("Bram", token=token)
        before = state_of(server.table(code))
        err = await back.error("join", code=code)
        assert err["code"] == "table_full" and "between hands" in worded(err)
        assert "tussen twee rondes" in worded(err, "nl")
        assert state_of(server.table(code)) == before
        await play_until(anna, hand_over)
        # between hands the same link (join without a seat) gives Bram his own seat back, not the first computer's
        await back.send("join", code=code)
        joined = await back.expect("joined")
        assert joined["seat"] == 1
        t = await back.expect("table")
        assert t["you"] == 1 and t["seats"][1] == {**t["seats"][1], "kind": "person", "name": "Bram"}
        assert t["view"]["totals"] == anna.table["view"]["totals"]

    async def test_a_newcomer_by_link_gets_the_first_computer_seat_between_hands(self, server):
        host = await with_bots(server)
        code = host.joined["code"]
        await play_until(host, hand_over)
        cor = await server.connect("Cor")
        await cor.send("join", code=code)
        assert (await cor.expect("joined"))["seat"] == 1

    async def test_a_full_table_of_people_stays_full(self, server):
        players = await seat_four(server)
        eva = await server.connect("Eva")
        assert (await eva.error("join", code=players[0].joined["code"]))["code"] == "table_full"


class TestTableInfo:
    async def test_public_facts_and_nothing_secret(self, server):
        anna = await server.host("Anna", options={"variant": "dutch", "deal": 4242})
        code = anna.joined["code"]
        await anna.send("fill_computers", level="easy")
        await anna.send("start")
        await anna.until(lambda t: t["status"] == "playing")
        status, body = await info(server, code.lower())
        assert status == 200
        assert body["code"] == code and body["host"] == "Anna" and body["status"] == "playing"
        assert body["options"]["variant"] == "dutch" and body["daily"] is False
        assert [s["kind"] for s in body["seats"]] == ["person", "computer", "computer", "computer"]
        assert body["between_hands"] is False and body["hand_no"] == 0
        assert body["watch"] == {"allowed": True, "count": 0}
        assert "you" not in body
        text = json.dumps(body)
        hand = anna.table["view"]["hand"]
        assert anna.joined["seat_token"] not in text and anna.welcome["player_token"] not in text
        assert "4242" not in text and not any(f'"{c}"' in text for c in hand)

    async def test_a_seat_token_says_which_seat_it_holds(self, server):
        anna = await server.host("Anna")
        code = anna.joined["code"]
        assert (await info(server, code, anna.joined["seat_token"]))[1]["you"] == 0
        assert (await info(server, code, "not-my-token"))[1]["you"] is None

    async def test_an_unknown_code_is_404_without_echo(self, server):
        for path in ("ZZZZZZ", "<script>", "A" * 40, "ab/cd"):
            status, _, body = await server.get(f"/api/tables/{path}")
            assert status == 404 and json.loads(body) == {"error": "not_found"}
            assert b"ZZZZ" not in body and b"script" not in body

    async def test_guessing_is_rate_limited_like_join_codes(self, make_server):
        server = await make_server(address_failures=3)
        anna = await server.host("Anna")
        for _ in range(3):
            assert (await info(server, "QQQQQQ"))[0] == 404
        status, body = await info(server, anna.joined["code"])
        assert status == 429 and body == {"error": "rate_limited"}


class TestWatching:
    async def test_a_watcher_sees_the_table_but_no_hand_and_cannot_act(self, server):
        host = await with_bots(server)
        code = host.joined["code"]
        eva = await server.connect("Eva")
        await eva.send("watch", code=code.lower())
        watching = await eva.expect("watching")
        assert watching == {"type": "watching", "code": code, "link": f"/t/{code}"}
        t = await eva.expect("table")
        assert t["you"] is None and t["deal"] is None and t["view"] is not None
        for field in ("hand", "legal", "passed", "received", "refusals", "refusal", "seat", "moon_choices"):
            assert field not in t["view"]
        assert t["view"]["hand_sizes"][0] == 13 and len(t["view"]["hand_sizes"]) == 4
        t = await host.until(lambda t: t["watch"]["count"] == 1)
        for kind, fields in (("play", {"card": "2C"}), ("ready", {}), ("hint", {}), ("start", {}), ("restart", {})):
            assert (await eva.error(kind, **fields))["code"] == "not_seated"
        assert (await eva.error("join", code=code))["code"] == "already_seated"
        assert (await eva.error("sit", seat=2))["code"] == "seat_taken"  # mid-hand
        await eva.send("leave")
        assert await eva.expect("left") == {"type": "left", "code": code}
        await host.until(lambda t: t["watch"]["count"] == 0)

    async def test_a_watcher_follows_the_game_and_takes_a_computer_seat_between_hands(self, server):
        host = await with_bots(server)
        code = host.joined["code"]
        eva = await server.connect("Eva")
        await eva.send("watch", code=code)
        await eva.expect("watching")
        await asyncio.gather(play_until(host, hand_over), eva.until(hand_over))
        assert eva.table["view"]["history"] == host.table["view"]["history"]
        # the watcher's updates fold into exactly the full message the one filter builds for a watcher
        full = table_message(server.table(code), None, 0, Moment(server.table(code), 0.0))
        drop = ("events", "resumed", "deadline")
        assert {k: v for k, v in eva.table.items() if k not in drop} == {k: v for k, v in full.items() if k not in drop}
        assert any(m["type"] == "update" for m in eva.raw)
        await eva.send("sit", seat=3)
        joined = await eva.expect("joined")
        assert joined["seat"] == 3 and joined["seat_token"]
        t = await eva.expect("table")
        assert t["you"] == 3 and t["view"]["seat"] == 3
        t = await host.until(lambda t: t["seats"][3]["name"] == "Eva")
        assert t["watch"]["count"] == 0

    async def test_a_watcher_sits_on_an_empty_seat_before_the_start(self, server):
        anna = await server.host("Anna")
        eva = await server.connect("Eva")
        await eva.send("watch", code=anna.joined["code"])
        await eva.expect("watching")
        t = await eva.expect("table")
        assert t["view"] is None and t["you"] is None
        await eva.send("sit", seat=2)
        assert (await eva.expect("joined"))["seat"] == 2

    async def test_the_host_turns_watching_off(self, server):
        host = await with_bots(server)
        code = host.joined["code"]
        eva = await server.connect("Eva")
        await eva.send("watch", code=code)
        await eva.expect("watching")
        await host.until(lambda t: t["watch"]["count"] == 1)
        await host.send("allow_watch", allowed=False)
        assert await eva.expect("left") == {"type": "left", "code": code, "reason": "watch_off"}
        await host.until(lambda t: t["watch"] == {"allowed": False, "count": 0})
        err = await eva.error("watch", code=code)
        assert err["code"] == "no_watching_off" and "host" in worded(err) and "host" in worded(err, "nl")
        await host.send("allow_watch", allowed=True)
        await host.until(lambda t: t["watch"]["allowed"])
        await eva.send("watch", code=code)
        await eva.expect("watching")

    async def test_only_the_host_sets_watching_and_the_field_is_checked(self, server):
        players = await seat_four(server)
        assert (await players[1].error("allow_watch", allowed=False))["code"] == "not_host"
        err = await players[0].error("allow_watch", allowed="no")
        assert err["code"] == "bad_message" and err["field"] == "allowed"

    async def test_a_daily_table_cannot_be_watched(self, server):
        anna = await server.connect("Anna")
        await anna.send("create", options={}, daily=True)
        code = (await anna.expect("joined"))["code"]
        eva = await server.connect("Eva")
        assert (await eva.error("watch", code=code))["code"] == "no_watching_daily"
        assert (await info(server, code))[1]["watch"]["allowed"] is False

    async def test_watchers_are_told_when_the_table_closes_and_a_drop_is_counted(self, server):
        host = await with_bots(server)
        code = host.joined["code"]
        eva, finn = await server.connect("Eva"), await server.connect("Finn")
        for w in (eva, finn):
            await w.send("watch", code=code)
            await w.expect("watching")
        await host.until(lambda t: t["watch"]["count"] == 2)
        await finn.close()
        await host.until(lambda t: t["watch"]["count"] == 1)
        await host.send("leave")
        assert (await eva.expect("left"))["reason"] == "closed"
        assert code not in server.app.hub.tables.by_code
        assert (await eva.error("watch", code=code))["code"] == "unknown_table"

    async def test_watch_of_an_unknown_code_counts_as_a_guess(self, make_server):
        server = await make_server(code_failures=2)
        eva = await server.connect("Eva")
        assert (await eva.error("watch", code="QQQQQQ"))["code"] == "unknown_table"
        assert (await eva.error("watch", code="QQQQQR"))["code"] == "unknown_table"
        assert (await eva.error("watch", code="QQQQQS"))["code"] == "rate_limited"
