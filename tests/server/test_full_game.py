"""A whole game: one person and three computer players, to game over, with stats written."""

from __future__ import annotations

import asyncio
import json

import pytest

from hartenjagen.shared.view import view_for

from .conftest import TIMEOUT


async def stats_of(server, token: str) -> tuple[int, dict]:
    status, _, body = await server.get("/api/stats", {"X-Player-Token": token})
    return status, json.loads(body)


async def act(p, type: str, kind: str, **fields) -> None:
    """Send one intent and read until the table shows it (a stale table sent before it does not count)."""
    seat = p.table["you"]
    await p.send(type, **fields)
    while True:
        msg = await p.recv()
        assert msg["type"] == "table", msg
        if any(e["type"] == kind and e.get("seat") == seat for e in msg["events"]):
            return


async def play_out(p, max_messages: int = 5000) -> dict:
    """Answer every decision with the first legal choice until the game is over."""
    for _ in range(max_messages):
        t = p.table
        if t["status"] == "finished":
            return t
        view = t["view"]
        if view and view["seat"] in view["to_act"]:
            if view["phase"] == "passing":
                may = [c for c in sorted(view["hand"]) if c not in (view.get("pass_refusals") or {})]
                await act(p, "pass", "passed", cards=may[: view["pass_count"]])
            elif view["phase"] == "playing":
                await act(p, "play", "play", card=view["legal"][0])
            elif view["phase"] == "moon_choice":
                await act(p, "moon", "moon", choice="others")
        elif view and view["phase"] == "hand_over" and t["you"] not in t["ready"]:
            await act(p, "ready", "ready")
        else:
            msg = await p.recv()
            assert msg["type"] == "table", msg
    raise AssertionError("the game did not finish")


class TestFullGame:
    @pytest.mark.parametrize(
        "workers,inline", [(0, True), (0, False), (1, False)], ids=["inline", "threads", "processes"]
    )
    async def test_one_person_three_computers_play_to_game_over_and_stats_are_written(
        self, make_server, workers, inline
    ):
        server = await make_server(bot_workers=workers, inline_bots=inline)
        p = await server.host("Anna", options={"variant": "classic", "end_score": 25})
        token = p.welcome["player_token"]
        await p.send("fill_computers", level="easy")
        await p.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        await p.send("start")
        final = await play_out(p)
        view = final["view"]
        assert view["game_over"] and view["winners"]
        assert max(view["totals"]) >= 25
        kinds = [e["type"] for m in p.inbox if m["type"] == "table" for e in m["events"]]
        assert kinds.count("game_over") == 1 and kinds.count("deal") == len(view["history"]), kinds
        # the view each seat got is exactly the core's filter for that seat
        game = server.table(final["code"]).game
        assert view == view_for(game, 0)
        deadline = asyncio.get_running_loop().time() + TIMEOUT  # the game is written right after game over
        status, stats = await stats_of(server, token)
        while not stats.get("games_played") and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
            status, stats = await stats_of(server, token)
        assert status == 200
        assert stats["games_played"] == 1
        assert stats["games_won"] == (1 if 0 in view["winners"] else 0)
        assert stats["lowest_score"] == view["totals"][0]
        assert stats["hands"] == len(view["history"])
        won = 0 in view["winners"]
        assert (stats["current_streak"], stats["best_streak"]) == ((1, 1) if won else (0, 0))
        scored = sum(h["scores"][0] for h in view["history"])
        assert stats["avg_points_per_hand"] == round(scored / len(view["history"]), 2)
