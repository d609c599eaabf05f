"""A leaderboard lists the players who have not played the minimum of rated games yet as provisional, after the ranked
ones and without a place, so a new board is not empty; the week's board counts the week's games alike."""

from __future__ import annotations

import time

from .conftest import both_stores
from .test_replays import get_json
from .test_rerate import CLASSIC, record


def recent(n: int, ids: list[int], seated: tuple, totals: tuple) -> dict:
    """A rated classic game of ``seated`` (numbers into ``ids``) that finished a moment ago."""
    return {**record(n, ids, CLASSIC, seated, totals, set()), "finished_at": time.time() - 60 + n}


@both_stores
async def test_players_below_the_minimum_of_games_are_listed_as_provisional_after_the_ranked(server):
    db = server.app.db
    players = [await db.player(f"P{n}", None) for n in range(6)]
    ids = [p[0] for p in players]
    status, board = await get_json(server, "/api/leaderboard/classic/all", players[0][1])
    assert status == 200 and board["top"] == [] and board["provisional"] == []

    await db.record_game(recent(0, ids, (4, 5, 1, 2), (3, 10, 20, 30)))
    status, board = await get_json(server, "/api/leaderboard/classic/all", players[4][1])
    assert board["top"] == [] and board["you"] is None and board["players"] == 0  # nobody has five games yet
    assert [e["name"] for e in board["provisional"]] == ["P4", "P5", "P1", "P2"]  # by score, as the ranked are
    assert all(e["provisional"] is True and e["place"] is None and e["games"] == 1 for e in board["provisional"])

    for n in range(1, 5):  # P0..P3 reach five rated games; P4 and P5 stay at one
        await db.record_game(recent(n, ids, (0, 1, 2, 3), (n, 10, 20, 30)))
    for period in ("all", "week"):
        status, board = await get_json(server, f"/api/leaderboard/classic/{period}", players[4][1])
        assert [e["name"] for e in board["top"]] == ["P1", "P2"], period  # five games each (P0 and P3: four)
        assert [e["place"] for e in board["top"]] == [1, 2]
        assert {e["name"] for e in board["provisional"]} == {"P0", "P3", "P4", "P5"}
        assert [e["games"] for e in board["provisional"] if e["name"] in ("P4", "P5")] == [1, 1]
    assert (await get_json(server, "/api/leaderboard/dutch/all", ""))[1]["provisional"] == []
