"""The table shows the ratings the statistics show: after every rated game is stored the table reads them again, at
game over with how each person's rating moved, after a rematch, and in the full table message on resume."""

from __future__ import annotations

from .conftest import both_stores
from .test_play_now import play_together, press_play_now
from .test_replays import get_json

NAMES = ["Anna", "Bram", "Carla", "Daan"]


async def stats_ratings(server, people) -> list[dict]:
    """Each person's classic rating as ``/api/stats`` gives it, in seat order of ``people``."""
    out = []
    for p in people:
        status, body = await get_json(server, "/api/stats", p.welcome["player_token"])
        assert status == 200, body
        out.append(body["ratings"]["classic"])
    return out


def by_seat(people, values: list) -> list:
    """``values`` (one per person of ``people``) in the table's seat order."""
    seats = [p.joined["seat"] for p in people]
    return [values[seats.index(s)] for s in range(4)]


@both_stores
async def test_after_each_rated_game_the_table_shows_the_stats_ratings_and_how_they_moved(server):
    people = await press_play_now(server, NAMES)
    await play_together(people)
    await server.settled()
    first = await stats_ratings(server, people)
    assert [r["games"] for r in first] == [1, 1, 1, 1] and len({r["rating"] for r in first}) > 1
    wanted = by_seat(people, first)
    moves = [{"before": 1000, "after": r["rating"]} for r in wanted]
    for p in people:  # everyone at the table sees every seat's new rating, and how it moved in this game
        await p.wait(lambda p=p: p.table["ratings"] == wanted and p.table["rating_moves"] == moves, what="ratings")
        assert p.table["status"] == "finished"

    for p in people:
        await p.send("rematch")
    await people[0].wait(lambda: people[0].table["status"] == "playing", what="the rematch")
    assert people[0].table["rating_moves"] is None and people[0].table["ratings"] == wanted  # the game before's
    await play_together(people)
    await server.settled()
    second = await stats_ratings(server, people)
    assert [r["games"] for r in second] == [2, 2, 2, 2]
    wanted2 = by_seat(people, second)
    moves2 = [{"before": a["rating"], "after": b["rating"]} for a, b in zip(wanted, wanted2, strict=True)]
    for p in people:
        await p.wait(lambda p=p: p.table["ratings"] == wanted2 and p.table["rating_moves"] == moves2, what="again")

    anna = people[0]
    code, seat_token = anna.joined["code"], anna.joined["seat_token"]
    await anna.ws.close()
    back = await server.connect("Anna", token=anna.welcome["player_token"])
    await back.send("resume", code=code, seat_token=seat_token)
    full = await back.expect("table")  # the whole table message, before any update
    assert full["ratings"] == wanted2 and full["rating_moves"] == moves2
