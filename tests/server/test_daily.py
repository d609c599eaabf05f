"""The daily deal: one deal a day for everyone, played alone against three computer players, and its board."""

from __future__ import annotations

import datetime as dt
import time
import urllib.parse

from hartenjagen.server.table.daily import DAILY_LEVEL, daily_deal, day_of
from hartenjagen.shared.cards import mask_names
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.variants import make_rules

from .conftest import both_stores
from .test_replays import drive, finished, get_json


async def daily_table(server, name: str = "Anna"):
    """A player who opened today's daily table (the first ``table`` message is read)."""
    return await server.host(name, options={}, daily=True)


class TestDailyTable:
    async def test_a_daily_table_deals_todays_deal_against_three_medium_computers_and_nobody_joins(self, server):
        day = day_of(time.time())
        anna = await daily_table(server)
        t = anna.table
        assert t["status"] == "waiting" and t["you"] == 0 and t["host"] == 0
        assert t["deal"] is None  # today's number is the server's secret: it would give away every hand
        assert t["daily"] == {"date": day, "counts": True}
        assert t["options"] == make_rules({}).to_json()  # classic with its defaults
        assert t["seats"][0]["kind"] == "person" and t["seats"][0]["name"] == "Anna"
        assert (
            [(s["kind"], s["level"]) for s in t["seats"][1:]]
            == [("computer", DAILY_LEVEL)] * 3
            == [("computer", "medium")] * 3
        )

        # only its creator sits there: no free seat, and a computer's seat cannot be taken either
        code = anna.joined["code"]
        bram = await server.connect("Bram")
        assert (await bram.error("join", code=code))["code"] == "table_full"
        assert (await bram.error("join", code=code, seat=2))["code"] == "table_full"
        assert len(server.table(code).persons()) == 1

        # options sent with a daily create are ignored: still today's deal with the classic defaults
        cor = await server.host("Cor", options={"variant": "dutch", "deal": 5}, daily=True)
        assert cor.table["deal"] is None and cor.table["options"]["variant"] == "classic"

        # everyone gets the same cards
        await anna.send("start")
        first = await anna.until(lambda t: t["status"] == "playing")
        rules = make_rules({})
        key = server.app.hub.daily_key
        assert first["view"]["hand"] == mask_names(seeded_deal(rules, daily_deal(day, key), 0)[0])
        await cor.send("start")
        assert (await cor.until(lambda t: t["status"] == "playing"))["view"]["hand"] == first["view"]["hand"]

        # and the daily deal cannot be started over
        err = await anna.error("restart")
        assert err["code"] == "daily_no_restart"

    @both_stores
    async def test_only_the_first_complete_daily_game_of_the_day_counts(self, server):
        day = day_of(time.time())
        anna = await daily_table(server)
        token = anna.welcome["player_token"]
        assert anna.table["daily"]["counts"] is True
        # nothing played yet: an empty board
        assert await get_json(server, f"/api/daily/{day}", token) == (
            200,
            {"date": day, "deal": None, "board": [], "you": None, "played": False},
        )

        await anna.send("start")
        final = await drive(anna, finished)
        total = final["view"]["totals"][0]
        board = {"date": day, "deal": None, "board": [{"place": 1, "name": "Anna", "total": total}]}
        assert await get_json(server, f"/api/daily/{day}", token) == (
            200,
            {**board, "you": {"place": 1, "total": total}, "played": True},
        )
        # without a token: the same board, and no place of one's own
        assert await get_json(server, f"/api/daily/{day}") == (200, {**board, "you": None, "played": False})

        # the same table again: played, but not counted (and the table says so before the start)
        await anna.send("new_game")
        again = await anna.until(lambda t: t["status"] == "waiting")
        assert again["daily"] == {"date": day, "counts": False}
        await anna.send("leave")
        await anna.expect("left")

        # a new daily table the same day: also not counted, said before the start
        await anna.send("create", options={}, daily=True)
        await anna.expect("joined")
        second = await anna.until(lambda t: t["status"] == "waiting" and t["code"] != final["code"])
        assert second["daily"] == {"date": day, "counts": False}
        await anna.send("start")
        await anna.until(lambda t: t["status"] == "playing")
        second_final = await drive(anna, finished)
        assert second_final["replay"] is not None

        # the board still holds the first game's total only
        assert await get_json(server, f"/api/daily/{day}", token) == (
            200,
            {**board, "you": {"place": 1, "total": total}, "played": True},
        )
        # both games are in her list, on the day's deal
        status, listing = await get_json(server, "/api/games", token)
        assert status == 200 and [g["deal"] for g in listing["games"]] == [None] * 2
        assert [g["daily"] for g in listing["games"]] == [day] * 2  # marked as the day's daily deal, counted or not

        # another player's first daily game still counts
        bram = await daily_table(server, "Bram")
        assert bram.table["daily"] == {"date": day, "counts": True}

    async def test_of_two_daily_tables_open_at_once_the_game_finished_first_counts(self, server):
        day = day_of(time.time())
        first_table = await daily_table(server)
        token = first_table.welcome["player_token"]
        second_table = await server.connect("Anna", token=token)  # the same player in another tab
        await second_table.send("create", options={}, daily=True)
        await second_table.expect("joined")
        await second_table.expect("table")
        assert first_table.table["daily"]["counts"] is True and second_table.table["daily"]["counts"] is True

        await second_table.send("start")
        total = (await drive(second_table, finished))["view"]["totals"][0]
        await first_table.send("start")
        await drive(first_table, finished)
        status, body = await get_json(server, f"/api/daily/{day}", token)
        assert status == 200
        assert body["board"] == [{"place": 1, "name": "Anna", "total": total}]
        assert body["you"] == {"place": 1, "total": total}

    @both_stores
    async def test_the_daily_key_is_kept_across_restarts_and_differs_between_servers(self, tmp_path, make_server):
        first = await make_server()
        again = await make_server()  # the same database file
        assert first.app.hub.daily_key == again.app.hub.daily_key and len(first.app.hub.daily_key) == 64
        other = await make_server(db=str(tmp_path / "other.db"))
        assert other.app.hub.daily_key != first.app.hub.daily_key

    async def test_bad_and_future_dates_are_refused(self, server):
        tomorrow = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=1)).isoformat()
        fullwidth = urllib.parse.quote("２０２６－１１－３０")  # digits that are not ASCII, as a browser sends them
        for bad in (
            "2026-13-01", "yesterday", "2026-1-1", "2026-02-30", "20261130", tomorrow, "9999-12-31", "", fullwidth,
            "9" * 300,
        ):  # fmt: skip
            assert await get_json(server, f"/api/daily/{bad}") == (400, {"error": "bad_date"}), bad
        # a past day nobody played: an empty board with that day's deal
        assert await get_json(server, "/api/daily/2020-02-29") == (
            200,
            {
                "date": "2020-02-29",
                "deal": daily_deal("2020-02-29", server.app.hub.daily_key),  # a past day's number is shown
                "board": [],
                "you": None,
                "played": False,
            },
        )
