"""Hand reviews through the server: at the table after a hand, and for a finished game over HTTP.

Real server, real store, the review computed in the real review process (a small budget keeps the tests quick).
"""

from __future__ import annotations

import asyncio

from hartenjagen.server.live.reviews import BURST, PER_HOUR, ReviewRefused

from .conftest import Player
from .test_replays import DEAL, drive, drive_all, get_json, seat_four

OPTIONS = {"variant": "classic", "end_score": 100, "deal": DEAL}
BUDGET_MS = 10.0


def hand_over(t: dict) -> bool:
    """The hand is over, and with it the game when it reached the end score (a hand of 25 points may)."""
    return t["view"] is not None and t["view"]["phase"] in ("hand_over", "game_over")


async def anna_after_a_hand(make_server, **settings):
    server = await make_server(review_ms=BUDGET_MS, **settings)
    anna = await server.host("Anna", options=OPTIONS)
    await anna.send("fill_computers", level="easy")
    await anna.send("start")
    await drive(anna, hand_over)
    return server, anna


async def message(p: Player, pred, timeout: float = 60.0) -> dict:
    """Read until a message for which ``pred`` holds (tables on the way are remembered)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        msg = await p.recv(max(0.01, deadline - asyncio.get_running_loop().time()))
        if pred(msg):
            return msg


async def answer(p: Player, kind: str) -> dict:
    return await message(p, lambda m: m["type"] in (kind, "error"))


class TestAtTheTable:
    async def test_after_a_hand_anna_gets_her_review_and_asking_again_gives_the_same_at_once(self, make_server):
        server, anna = await anna_after_a_hand(make_server)
        await anna.send("review", hand_no=0)
        got = await answer(anna, "review")
        assert got["type"] == "review", got
        review = got["review"]
        assert (got["hand_no"], got["seat"], review["seat"], review["hand_no"]) == (0, 0, 0, 0)
        kinds = [d["kind"] for d in review["decisions"]]
        assert kinds == ["pass"] + ["play"] * 13  # hand 0 passes left: her pass and her thirteen cards
        for d in review["decisions"]:
            assert d["cost"] >= 0 and d["mark"] in (None, "inaccuracy", "mistake", "blunder")
            assert (d["mark"] is None) == (d["cost"] < 0.5) or d["reason"]["code"].startswith("moon")
        assert review["total_cost"] == round(sum(d["cost"] for d in review["decisions"]), 2)  # the client words it
        table = server.app.hub.tables.by_code[anna.joined["code"]]
        cached = await server.app.db.review(server.app.hub.reviewer.key(f"t{table.table_id}:{table.started_at}", 0, 0))
        assert cached is not None
        await anna.send("review", hand_no=0)
        again = await answer(anna, "review")
        assert again["review"] == review

    async def test_the_review_given_at_the_table_is_the_one_the_finished_game_gives_at_once(self, make_server):
        server = await make_server(review_ms=BUDGET_MS)
        anna = await server.host("Anna", options={**OPTIONS, "end_score": 25})
        await anna.send("fill_computers", level="easy")
        await anna.send("start")
        await drive(anna, hand_over)
        await anna.send("review", hand_no=0)
        at_table = await answer(anna, "review")
        await drive(anna, lambda t: t["status"] == "finished")
        token = anna.welcome["player_token"]
        status, games = await get_json(server, "/api/games", token)
        reviewer = server.app.hub.reviewer

        def refuse(*args, **kwargs):
            raise ReviewRefused("review_limited")  # past her limit: a cached review must still be given

        reviewer._count_start = refuse
        server.app.api.review_wait = 0.01  # a review computed again would answer 202
        status, body = await get_json(server, f"/api/games/{games['games'][0]['id']}/review/0", token)
        assert status == 200, body
        assert body["review"] == at_table["review"]

    async def test_a_hand_that_is_not_over_cannot_be_reviewed(self, make_server):
        server, anna = await anna_after_a_hand(make_server)
        await anna.send("review", hand_no=1)
        refused = await answer(anna, "review")
        assert refused["type"] == "error" and refused["code"] == "review_after_hand"

    async def test_the_table_goes_on_while_a_review_is_computed(self, make_server):
        server, anna = await anna_after_a_hand(make_server)
        server.app.hub.reviewer.budget_ms = 150.0  # seconds of work
        await anna.send("review", hand_no=0)
        await anna.send("ready")
        moved = await message(anna, lambda m: m["type"] in ("table", "review"), timeout=30)
        assert moved["type"] != "review"  # the next hand is dealt before the review is done
        got = await answer(anna, "review")
        assert got["type"] == "review"


async def review_over_http(server, path: str, token: str, timeout: float = 90.0) -> tuple[int, dict]:
    """GET a review, asking again after each 202 (still being computed) as the replay viewer does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        status, body = await get_json(server, path, token)
        if status != 202 or loop.time() > deadline:
            return status, body
        await asyncio.sleep(body["retry_ms"] / 1000)


class TestFinishedGames:
    async def test_a_player_reviews_their_own_seat_of_a_finished_game_and_nobody_else_can(self, make_server):
        server = await make_server(review_ms=BUDGET_MS)
        players = await seat_four(server, {"variant": "classic", "end_score": 25, "deal": DEAL})
        await players[0].send("start")
        await drive_all(players)
        bram = players[1]
        status, games = await get_json(server, "/api/games", bram.welcome["player_token"])
        game_id = games["games"][0]["id"]
        status, body = await review_over_http(server, f"/api/games/{game_id}/review/0", bram.welcome["player_token"])
        assert status == 200, body
        assert (body["game_id"], body["hand_no"], body["seat"]) == (game_id, 0, 1)
        assert body["review"]["seat"] == 1 and len(body["review"]["decisions"]) == 14
        stranger = await server.connect("Eva")
        status, body = await get_json(server, f"/api/games/{game_id}/review/0", stranger.welcome["player_token"])
        assert (status, body) == (404, {"error": "not_found"})
        status, body = await get_json(server, f"/api/games/{game_id}/review/99", bram.welcome["player_token"])
        assert status == 404
        status, body = await get_json(server, f"/api/games/{game_id}/review/0")
        assert (status, body) == (404, {"error": "not_found"})  # as the game itself answers without a token

    async def test_a_long_review_answers_202_at_once_and_asking_again_gives_it_when_done(self, make_server):
        # A review takes seconds of CPU; an HTTP request must not hang on it (the websockets server cuts at 10 s).
        server = await make_server(review_ms=BUDGET_MS)
        players = await seat_four(server, {"variant": "classic", "end_score": 25, "deal": DEAL})
        await players[0].send("start")
        await drive_all(players)
        token = players[2].welcome["player_token"]
        status, games = await get_json(server, "/api/games", token)
        path = f"/api/games/{games['games'][0]['id']}/review/0"
        server.app.api.review_wait = 0.05
        server.app.hub.reviewer.budget_ms = 120.0  # seconds of work
        statuses = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 90
        while loop.time() < deadline:
            status, body = await get_json(server, path, token)
            statuses.append(status)
            if status != 202:
                break
            assert body["status"] == "pending" and body["retry_ms"] > 0
            await asyncio.sleep(0.1)
        assert statuses[0] == 202 and statuses[-1] == 200 and set(statuses[:-1]) == {202}, statuses
        # asking again while it runs is free: one review started, however often it was asked
        assert sum(len(starts) for starts in server.app.hub.reviewer._starts.values()) == 1
        assert body["seat"] == 2 and len(body["review"]["decisions"]) == 14
        status, again = await get_json(server, path, token)
        assert (status, again) == (200, body)  # from the cache, at once


class TestLimits:
    async def test_a_player_may_have_six_reviews_computing_at_once_and_a_seventh_once_they_are_done(self, make_server):
        server, anna = await anna_after_a_hand(make_server)
        reviewer = server.app.hub.reviewer
        table = server.app.hub.tables.by_code[anna.joined["code"]]
        events = [dict(e) for e in table.game.events]
        options = dict(table.rules.to_json())
        names = ["Anna", "B", "C", "D"]
        jobs = [
            asyncio.ensure_future(reviewer.review(7, f"test:{i}", options, events, 0, 0, names)) for i in range(BURST)
        ]
        await asyncio.sleep(0)  # all six started: they compute one after another
        try:
            await reviewer.review(7, "test:one-more", options, events, 0, 0, names)
        except ReviewRefused as exc:
            assert exc.code == "review_limited"
        else:
            raise AssertionError("a seventh review at once was given")
        assert (await reviewer.review(8, "test:other", options, events, 0, 0, names))["seat"] == 0  # another player
        done = await asyncio.gather(*jobs)
        assert all(r["seat"] == 0 for r in done)
        # none computing now: the seventh is given (the doc: 6 at once, 30 an hour)
        assert (await reviewer.review(7, "test:one-more", options, events, 0, 0, names))["seat"] == 0
        assert (await reviewer.review(7, "test:0", options, events, 0, 0, names)) == done[0]  # cached: always given

    async def test_a_player_may_start_thirty_reviews_an_hour(self, make_server):
        server, _ = await anna_after_a_hand(make_server)
        reviewer = server.app.hub.reviewer
        for i in range(PER_HOUR):
            reviewer._count_start(9, now=100.0 + i)
        try:
            reviewer._count_start(9, now=200.0)
        except ReviewRefused as exc:
            assert exc.code == "review_limited"
        else:
            raise AssertionError("a 31st review within the hour was started")
        reviewer._count_start(9, now=100.0 + 3600.0)  # an hour after the first: room for one more
