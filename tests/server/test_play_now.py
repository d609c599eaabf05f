"""Play now and open tables: strangers meet at one table, computers fill in after the wait, the start page lists open
tables with ratings, the host removes a person with a reason, players report one another, names are checked, and
rated games update the leaderboard exactly as the rating model computes it from the stored games."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import time

from openskill.models import BradleyTerryFull

from hartenjagen.tools.wsclient import next_intent

from .conftest import both_stores
from .test_replays import get_json
from .wording import worded

SHORT = {"variant": "classic", "end_score": 25}


async def answer(p, *kinds: str, timeout: float = 10.0) -> dict:
    """The next message of one of ``kinds`` (or an error)."""
    while True:
        msg = await p.recv(timeout)
        if msg["type"] in (*kinds, "error"):
            return msg


async def play_together(people, timeout: float = 60.0) -> None:
    """Every person answers their own decisions (first legal card) until each of them sees game over."""
    acted: dict[int, int] = {}
    deadline = time.monotonic() + timeout
    while not all(p.table is not None and p.table["status"] == "finished" for p in people):
        assert time.monotonic() < deadline, [p.table and p.table["status"] for p in people]
        for n, p in enumerate(people):
            t = p.table
            intent = next_intent(t) if t is not None else None
            if intent is not None and acted.get(n) != t["seq"]:
                acted[n] = t["seq"]
                await p.send(**intent)
        await asyncio.sleep(0.003)


async def press_play_now(server, names, options=SHORT, **fields):
    people = []
    for name in names:
        p = await server.connect(name)
        await p.send("play_now", options=options, **fields)
        joined = await answer(p, "joined")
        assert joined["type"] == "joined", joined
        people.append(p)
    return people


async def leave_all(people) -> None:
    for p in people:
        await p.send("leave")
        await answer(p, "left")


class TestPlayNow:
    @both_stores
    async def test_four_strangers_meet_at_one_table_that_starts_by_itself_and_is_rated(self, server, db_url):
        people = await press_play_now(server, ["Anna", "Bram", "Carla", "Daan"])
        codes = {p.joined["code"] for p in people}
        assert len(codes) == 1  # one table for all four
        await people[0].wait(lambda: people[0].table["status"] == "playing")
        t = people[0].table
        assert t["rated"] is True and t["open"]["play_now"] is True
        assert [s["kind"] for s in t["seats"]] == ["person"] * 4
        await play_together(people)
        tokens = [p.welcome["player_token"] for p in people]
        stats = [(await get_json(server, "/api/stats", tok))[1] for tok in tokens]
        assert all(s["ratings"]["classic"]["games"] == 1 for s in stats)
        totals = people[0].table["view"]["totals"]
        best = min(range(4), key=lambda s: totals[s])
        worst = max(range(4), key=lambda s: totals[s])
        seat_of = [p.joined["seat"] for p in people]
        rating = {seat_of[n]: stats[n]["ratings"]["classic"]["rating"] for n in range(4)}
        if totals[best] != totals[worst]:
            assert rating[best] > 1000 > rating[worst]  # a newcomer is 1000 ± 333

    async def test_a_person_alone_waits_then_computer_players_fill_in_and_the_game_is_not_rated(self, server):
        anna = (await press_play_now(server, ["Anna"], wait=5))[0]
        t = anna.table
        assert t["status"] == "waiting" and t["open"]["fill_at"] - time.time() <= 5.5
        started = time.monotonic()
        await anna.wait(lambda: anna.table["status"] == "playing", timeout=10)
        assert time.monotonic() - started >= 3.5
        assert [s["kind"] for s in anna.table["seats"]] == ["person", "computer", "computer", "computer"]
        assert anna.table["rated"] is False

    async def test_leaving_the_queue_closes_the_empty_table_and_a_second_person_then_opens_a_new_one(self, server):
        anna = (await press_play_now(server, ["Anna"]))[0]
        code = anna.joined["code"]
        status, body = await get_json(server, "/api/open-tables", "")
        assert status == 200 and [e["code"] for e in body["tables"]] == [code]
        await anna.send("leave")
        assert (await answer(anna, "left"))["type"] == "left"
        await server.settled()
        assert code not in server.app.hub.tables.by_code
        server.app.hub.lobby.changed()
        assert (await get_json(server, "/api/open-tables", ""))[1]["tables"] == []
        bram = (await press_play_now(server, ["Bram"]))[0]
        assert bram.joined["code"] != code and bram.joined["seat"] == 0

    async def test_play_now_matches_the_game_whatever_the_language_and_is_rate_limited(self, server):
        anna = (await press_play_now(server, ["Anna"], lang="nl"))[0]
        bram = (await press_play_now(server, ["Bram"], lang="en"))[0]
        carla = (await press_play_now(server, ["Carla"], options={"variant": "dutch"}, lang="nl"))[0]
        assert bram.joined["code"] == anna.joined["code"]  # strangers of two languages meet at one table
        assert carla.joined["code"] != anna.joined["code"]  # another game: another table
        t = await anna.until(lambda t: len([s for s in t["seats"] if s["kind"] == "person"]) == 2)
        assert t["open"]["langs"] == ["en", "nl"] and t["open"]["lang_only"] is False
        [listed] = [e for e in (await get_json(server, "/api/open-tables", ""))[1]["tables"] if e["code"] == t["code"]]
        assert listed["langs"] == ["en", "nl"] and listed["lang_only"] is False
        await leave_all([anna, bram, carla])
        eva = await server.connect("Eva")
        codes = []
        for _ in range(8):
            await eva.send("play_now", options=SHORT, lang="en")
            got = await answer(eva, "joined")
            codes.append(got.get("code") if got["type"] == "error" else "joined")
            if got["type"] == "joined":
                await eva.send("leave")
                await answer(eva, "left")
        assert codes[:6] == ["joined"] * 6 and codes[6:] == ["play_now_limited"] * 2

    async def test_a_person_who_asks_for_their_own_language_meets_only_its_speakers(self, server):
        # Anna asks for Dutch players only: Bram's English page opens a table of its own, Carla's Dutch page joins
        # Anna's (it speaks that language), and Dirk, who asks for English only, does not sit at Bram's open table.
        anna = (await press_play_now(server, ["Anna"], lang="nl", lang_only=True))[0]
        bram = (await press_play_now(server, ["Bram"], lang="en"))[0]
        carla = (await press_play_now(server, ["Carla"], lang="nl"))[0]
        dirk = (await press_play_now(server, ["Dirk"], lang="en", lang_only=True))[0]
        assert bram.joined["code"] != anna.joined["code"] and carla.joined["code"] == anna.joined["code"]
        assert dirk.joined["code"] not in (anna.joined["code"], bram.joined["code"])
        t = await anna.until(lambda t: len([s for s in t["seats"] if s["kind"] == "person"]) == 2)
        assert t["open"]["lang_only"] is True and t["open"]["lang"] == "nl" and t["open"]["langs"] == ["nl"]
        assert bram.table["open"]["lang_only"] is False and bram.table["open"]["langs"] == ["en"]
        eva = (await press_play_now(server, ["Eva"], lang="en", lang_only=True))[0]  # English only: Dirk's table
        assert eva.joined["code"] == dirk.joined["code"]
        await leave_all([anna, bram, carla, dirk, eva])

    async def test_bad_play_now_fields_are_refused_and_change_nothing(self, server):
        anna = await server.connect("Anna")
        for fields, field in (
            ({"wait": 1}, "wait"),
            ({"lang": "de"}, "lang"),
            ({"lang_only": "yes"}, "lang_only"),
            ({"options": {"deal": 5}}, "deal"),
        ):
            got = await anna.error("play_now", **fields)
            assert got["field"] == field, got
        assert len(server.app.hub.tables) == 0


class TestOpenTables:
    async def test_an_open_table_is_listed_with_ratings_until_it_is_full(self, server):
        anna = await server.host("Anna")
        await anna.send("set_open", open=True, lang="nl")
        await anna.wait(lambda: anna.table["open"]["listed"] and anna.table["ratings"] is not None)
        assert anna.table["ratings"][0] == {"rating": 1000, "uncertainty": 333, "score": 0, "games": 0}
        assert anna.table["ratings"][1:] == [None, None, None]
        status, body = await get_json(server, "/api/open-tables", "")
        [e] = body["tables"]
        assert e["code"] == anna.joined["code"] and e["lang"] == "nl" and e["variant"] == "classic"
        assert e["end_score"] == 25 and e["free"] == 3 and e["family"] == "classic" and not e["play_now"]
        assert e["seats"][0]["name"] == "Anna" and e["seats"][0]["rating"]["rating"] == 1000
        assert "_player" not in e["seats"][0] and "player_id" not in json.dumps(body)
        await anna.send("fill_computers", level="easy")
        await anna.sync()
        server.app.hub.lobby.changed()
        assert (await get_json(server, "/api/open-tables", ""))[1]["tables"] == []

    async def test_only_the_host_opens_a_table_and_a_daily_table_never(self, server):
        anna = await server.host("Anna")
        bram = await server.connect("Bram")
        await bram.send("join", code=anna.joined["code"])
        await answer(bram, "joined")
        assert (await bram.error("set_open", open=True))["code"] == "not_host"
        daily = await server.connect("Carla")
        await daily.send("create", options={}, daily=True)
        await answer(daily, "joined")
        assert (await daily.error("set_open", open=True))["code"] == "daily_alone"


class TestModeration:
    async def test_the_host_removes_a_person_with_a_reason_and_they_cannot_sit_there_again(self, server):
        anna = await server.host("Anna")
        await anna.send("set_open", open=True)
        bram = await server.connect("Bram")
        await bram.send("join", code=anna.joined["code"])
        await answer(bram, "joined")
        assert (await bram.error("remove_player", seat=0, reason="no"))["code"] == "not_host"
        await anna.send("remove_player", seat=1, reason="rude in the chat")
        left = await answer(bram, "left")
        assert left == {"type": "left", "code": anna.joined["code"], "reason": "removed", "text": "rude in the chat"}

        # the removal comes in one table message; another (her rating, read after the change) may follow it at once
        def removals() -> list[dict]:
            return [e for m in anna.inbox if m["type"] == "table" for e in m["events"] if e["type"] == "removed"]

        await anna.wait(lambda: bool(removals()) and anna.table["seats"][1]["kind"] == "empty", what="the removal")
        assert [(e["name"], e["reason"]) for e in removals()] == [("Bram", "rude in the chat")]
        assert (await bram.error("join", code=anna.joined["code"]))["code"] == "removed_here"

    async def test_removing_is_refused_during_a_hand(self, server):
        anna = await server.host("Anna")
        bram = await server.connect("Bram")
        await bram.send("join", code=anna.joined["code"])
        await answer(bram, "joined")
        await anna.send("fill_computers", level="easy")
        await anna.send("start")
        await anna.wait(lambda: anna.table["status"] == "playing")
        got = await anna.error("remove_player", seat=1, reason="slow")
        assert got["code"] == "remove_between_hands" and "between hands" in worded(got)

    async def test_a_report_is_kept_with_the_chat_lines_around_it(self, server, tmp_path):
        anna = await server.host("Anna")
        bram = await server.connect("Bram")
        await bram.send("join", code=anna.joined["code"])
        await answer(bram, "joined")
        await bram.send("chat", text="you all play badly")
        await answer(anna, "chat")
        await anna.send("report", seat=1, reason="insults")
        assert (await answer(anna, "reported")) == {"type": "reported", "seat": 1}
        refused = await anna.error("report", seat=0, reason="me")  # her own seat
        assert refused == {"type": "error", "code": "no_other_person", "seat": 0}
        [report] = await server.app.db.reports()
        assert report["reported_name"] == "Bram" and report["reason"] == "insults"
        assert json.loads(report["chat"])[0]["text"] == "you all play badly"
        shown = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "hartenjagen.server.cli", "reports", "--db", str(tmp_path / "hearts.db")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "'Bram'" in shown.stdout and "insults" in shown.stdout and "Bram: you all play badly" in shown.stdout
        for _ in range(4):
            await anna.send("report", seat=1, reason="again")
            await answer(anna, "reported")
        assert (await anna.error("report", seat=1, reason="again"))["code"] == "reports_limited"

    async def test_names_holding_obvious_abuse_are_refused_and_the_operator_adds_words(self, make_server, tmp_path):
        words = tmp_path / "names.txt"
        words.write_text("# more words\nschurk\n", encoding="utf-8")
        server = await make_server(blocked_names=str(words))
        for name in ("sh1t", "K.a n-k3r", "de Schurk", "Admin"):
            p = await server.connect(None)
            got = await p.error("hello", version=1, name=name)
            assert got["code"] == "bad_name", name
        for name in ("Catering", "Badminton", "Anna"):
            assert (await server.connect(name)).welcome["name"] == name


def expected_ratings(db: str) -> dict[str, tuple[float, float, int]]:
    """The classic ratings computed straight from the stored games with the rating model (no server code)."""
    model = BradleyTerryFull()
    ratings: dict[int, object] = {}
    games: dict[int, int] = {}
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT id FROM games ORDER BY finished_at, id").fetchall()
        names = dict(con.execute("SELECT id, name FROM players"))
        for (game_id,) in rows:
            seats = con.execute(
                "SELECT player_id, final_total FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
            ranks = [1 + sum(1 for _, other in seats if other < total) for _, total in seats]
            teams = [[ratings.get(pid) or model.rating(name=str(pid))] for pid, _ in seats]
            for (pid, _), [after] in zip(seats, model.rate(teams, ranks=ranks), strict=True):
                ratings[pid] = after
                games[pid] = games.get(pid, 0) + 1
    return {names[pid]: (r.mu, r.sigma, games[pid]) for pid, r in ratings.items()}


class TestLeaderboard:
    async def test_after_twenty_rated_games_the_board_equals_the_model_over_the_stored_games(self, server, tmp_path):
        names = ["Anna", "Bram", "Carla", "Daan", "Eva", "Frits"]
        tokens: dict[str, str] = {}
        for game in range(20):
            group = [names[(game + k) % 6] for k in (0, 1, 2, 4)]
            people = []
            for name in group:
                p = await server.connect(name, token=tokens.get(name))
                tokens[name] = p.welcome["player_token"]
                await p.send("play_now", options=SHORT)
                assert (await answer(p, "joined"))["type"] == "joined"
                people.append(p)
            await play_together(people)
            await server.settled()
            for p in people:
                await p.ws.close()
        expected = expected_ratings(str(tmp_path / "hearts.db"))
        status, board = await get_json(server, "/api/leaderboard/classic/all", tokens["Carla"])
        assert status == 200 and board["min_games"] == 5 and board["players"] == 6
        order = sorted(expected, key=lambda n: -(expected[n][0] - 3 * expected[n][1]))
        assert [e["name"] for e in board["top"]] == order
        for e in board["top"]:
            mu, sigma, games = expected[e["name"]]
            assert (e["rating"], e["uncertainty"], e["games"]) == (round(40 * mu), round(40 * sigma), games)
            assert e["score"] == round(40 * (mu - 3 * sigma))
        assert board["you"]["name"] == "Carla" and board["you"]["place"] == order.index("Carla") + 1
        week = (await get_json(server, "/api/leaderboard/classic/week", ""))[1]
        assert [e["name"] for e in week["top"]] == order and week["you"] is None
        assert (await get_json(server, "/api/leaderboard/dutch/all", ""))[1]["top"] == []
        assert (await get_json(server, "/api/leaderboard/poker/all", ""))[0] == 404

    async def test_a_person_who_leaves_a_rated_game_loses_as_if_last_and_the_computer_is_not_rated(
        self, server, tmp_path
    ):
        people = await press_play_now(server, ["Anna", "Bram", "Carla", "Daan"])
        await people[0].wait(lambda: people[0].table["status"] == "playing")
        await people[3].send("leave")
        await answer(people[3], "left")
        await play_together(people[:3])
        await server.settled()
        with sqlite3.connect(tmp_path / "hearts.db") as con:
            rows = dict(
                con.execute(
                    "SELECT p.name, rc.place * 10 + rc.left_early FROM rating_changes rc "
                    "JOIN players p ON p.id = rc.player_id"
                )
            )
        assert rows["Daan"] == 41 and set(rows) == {"Anna", "Bram", "Carla", "Daan"}
        assert all(v // 10 < 4 and v % 10 == 0 for n, v in rows.items() if n != "Daan")


def test_the_rating_model_starts_newcomers_at_the_shown_prior_and_the_offline_table_needs_no_rating_library():
    from openskill.models import BradleyTerryFull

    from hartenjagen.server.table import bundle as engine_bundle
    from hartenjagen.server.table import ratings

    default = BradleyTerryFull()
    assert ratings.PRIOR == (default.mu, default.sigma)
    assert ratings.shown(*ratings.PRIOR, 0) == {"rating": 1000, "uncertainty": 333, "score": 0, "games": 0}
    bundled = engine_bundle.server_files()
    assert "hartenjagen/server/table/ratings.py" in bundled
    assert not any(b"from openskill" in text or b"import openskill" in text for text in bundled.values())
