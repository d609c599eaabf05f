"""Replays of finished games: GET /api/games, /api/games/{id} and /api/replays/{share}, checked against the game."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from hartenjagen.shared.cards import mask_names
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.variants import make_rules

from .conftest import Player, both_stores, events_of, move_once, my_move, seat_four
from .test_full_game import act

DEAL = 1234  # with every seat playing the first legal card this classic game to 25 lasts three hands
OPTIONS = {"variant": "classic", "end_score": 25}
NOT_FOUND = (404, {"error": "not_found"})


def finished(t: dict[str, Any]) -> bool:
    return t["status"] == "finished"


async def get_json(server, path: str, token: str | None = None) -> tuple[int, Any]:
    """GET ``path`` (with ``X-Player-Token`` when a token is given): status and JSON body."""
    status, _, body = await server.get(path, {"X-Player-Token": token} if token is not None else None)
    return status, json.loads(body)


async def drive(p: Player, stop: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
    """Make this client's moves (first legal choice) and say ready between hands until ``stop(table)`` holds."""
    for _ in range(limit):
        t = p.table
        if stop(t):
            return t
        view = t["view"]
        if my_move(t):
            await move_once(p)
        elif t["status"] == "playing" and view["phase"] == "hand_over" and t["you"] not in t["ready"]:
            await act(p, "ready", "ready")
        else:
            await p.until(lambda t2, n=t["seq"]: t2["seq"] > n)
    raise AssertionError("the condition never held")


async def drive_all(players: list[Player], stop: Callable[[dict[str, Any]], bool] = finished) -> list[dict[str, Any]]:
    """Every client plays its own seat at once until ``stop`` holds for each."""
    return list(await asyncio.gather(*(drive(p, stop) for p in players)))


def tables_of(p: Player) -> list[dict[str, Any]]:
    return [m for m in p.inbox if m["type"] == "table"]


def plays_by_hand(p: Player) -> list[list[tuple[int, str]]]:
    """The cards this client saw played, per hand, in order (from the events it received)."""
    hands: list[list[tuple[int, str]]] = []
    for e in events_of(p):
        if e["type"] == "deal":
            assert e["hand_no"] == len(hands)
            hands.append([])
        elif e["type"] == "play":
            hands[-1].append((e["seat"], e["card"]))
    return hands


def check_consistent_with_what_the_client_saw(p: Player, replay: dict[str, Any]) -> None:
    """Its cards at every deal, its passes, what it received, and every card it saw played are in the replay."""
    seat = p.table["you"]
    hands = replay["hands"]
    deals = [m for m in tables_of(p) if any(e["type"] == "deal" for e in m["events"])]
    assert [m["view"]["hand_no"] for m in deals] == list(range(len(hands)))
    for m in deals:  # the view sent with a deal shows the hand just dealt, before any passing
        assert m["view"]["hand"] == hands[m["view"]["hand_no"]]["dealt"][seat]
    exchanged = [m for m in tables_of(p) if any(e["type"] == "exchanged" for e in m["events"])]
    assert len(exchanged) == sum(h["pass_direction"] != "hold" for h in hands)
    for m in exchanged:
        view, hand = m["view"], hands[m["view"]["hand_no"]]
        assert view["passed"] == hand["passes"][seat]
        assert view["received"] == hand["passes"][view["pass_from"]]
    seen = plays_by_hand(p)
    assert seen == [[(c["seat"], c["card"]) for t in h["tricks"] for c in t["cards"]] for h in hands]


def check_replay_shape(replay: dict[str, Any], p: Player) -> None:
    """All four hands open in every hand, 13 tricks, and the scores, moons, totals and winners ``p`` was shown."""
    view = p.table["view"]
    assert len(replay["hands"]) == len(view["history"])
    for k, (hand, result) in enumerate(zip(replay["hands"], view["history"], strict=True)):
        assert hand["hand_no"] == k
        dealt = hand["dealt"]
        assert [len(h) for h in dealt] == [13, 13, 13, 13]
        assert len({c for h in dealt for c in h}) == 52
        if hand["pass_direction"] == "hold":
            assert hand["passes"] == [None, None, None, None]
        else:
            assert all(len(p) == 3 and set(p) <= set(dealt[s]) for s, p in enumerate(hand["passes"]))
        assert len(hand["tricks"]) == 13
        assert all(len(t["cards"]) == 4 and t["winner"] in range(4) for t in hand["tricks"])
        for key in ("points", "scores", "totals", "moon", "moon_choice"):
            assert hand[key] == result[key], (k, key)
    assert replay["totals"] == view["totals"]
    assert replay["winners"] == view["winners"]
    (over,) = [e for e in events_of(p) if e["type"] == "game_over"]
    assert (over["winners"], over["totals"]) == (replay["winners"], replay["totals"])


class TestReplayOfAFinishedGame:
    @both_stores
    async def test_four_people_get_the_whole_game_open_and_it_matches_what_each_of_them_saw(self, server):
        players = await seat_four(server, {**OPTIONS, "deal": DEAL})
        host = players[0]
        tokens = [p.welcome["player_token"] for p in players]
        await host.send("start")

        # while the game runs: no replay on the table, nothing in anyone's list of games
        mid = await drive_all(players, lambda t: t["status"] == "playing" and t["view"]["phase"] == "hand_over")
        assert all(t["replay"] is None for t in mid)
        for token in tokens:
            assert await get_json(server, "/api/games", token) == (200, {"games": []})

        finals = await drive_all(players)
        ref = finals[0]["replay"]
        assert isinstance(ref["id"], int) and isinstance(ref["share"], str) and len(ref["share"]) >= 16
        assert all(t["replay"] == ref for t in finals)
        for p in players:  # no table message before game over carries a replay; the game-over one does
            for m in tables_of(p):
                if m["status"] != "finished":
                    assert m["replay"] is None
            over = next(m for m in tables_of(p) if any(e["type"] == "game_over" for e in m["events"]))
            assert over["replay"] == ref

        # every player who sat in it gets the same replay at once (it was stored before game over was shown)
        bodies = [await get_json(server, f"/api/games/{ref['id']}", token) for token in tokens]
        assert all(status == 200 for status, _ in bodies)
        replay = bodies[0][1]
        assert all(body == replay for _, body in bodies)
        assert replay["id"] == ref["id"] and replay["share"] == ref["share"]
        assert replay["code"] == finals[0]["code"]
        assert replay["deal"] == DEAL and replay["options"] == finals[0]["options"]
        assert [(s["seat"], s["name"], s["kind"]) for s in replay["seats"]] == [
            (0, "Anna", "person"),
            (1, "Bram", "person"),
            (2, "Cor", "person"),
            (3, "Dirk", "person"),
        ]
        assert replay["started_at"] <= replay["finished_at"]
        check_replay_shape(replay, host)
        rules = make_rules(OPTIONS)
        for k, hand in enumerate(replay["hands"]):  # a numbered deal: hand k is seeded_deal(rules, DEAL, k)
            assert hand["dealt"] == [mask_names(h) for h in seeded_deal(rules, DEAL, k)]
            assert hand["pass_direction"] == ("left", "right", "across", "hold")[k % 4]
        for p in players:
            check_consistent_with_what_the_client_saw(p, replay)

        # the share key works without a token; anything else is the same 404 as a game that does not exist
        assert await get_json(server, f"/api/replays/{ref['share']}") == (200, replay)
        stranger = await server.connect("Eva")
        outsider = stranger.welcome["player_token"]
        assert await get_json(server, f"/api/games/{ref['id']}", outsider) == NOT_FOUND
        assert await get_json(server, f"/api/games/{ref['id']}") == NOT_FOUND
        assert await get_json(server, f"/api/games/{ref['id']}", "not-a-player-token") == NOT_FOUND
        assert await get_json(server, f"/api/games/{ref['id'] + 1}", tokens[0]) == NOT_FOUND
        assert await get_json(server, "/api/games/123456789012345", tokens[0]) == NOT_FOUND
        wrong = ("A" if ref["share"][0] != "A" else "B") + ref["share"][1:]
        assert await get_json(server, f"/api/replays/{wrong}") == NOT_FOUND
        assert await get_json(server, "/api/replays/short") == NOT_FOUND
        assert await get_json(server, "/api/games", outsider) == (200, {"games": []})

        # each player's list: this game, with their own seat
        for seat, token in enumerate(tokens):
            status, listing = await get_json(server, "/api/games", token)
            assert status == 200
            (item,) = listing["games"]
            view = finals[0]["view"]
            assert item == {
                "id": ref["id"],
                "code": finals[0]["code"],
                "variant": "classic",
                "options": finals[0]["options"],
                "deal": DEAL,
                "daily": None,  # not a daily deal
                "finished_at": replay["finished_at"],
                "hands": len(view["history"]),
                "you": seat,
                "share": ref["share"],
                "seats": [
                    {
                        "seat": s,
                        "name": name,
                        "kind": "person",
                        "final_total": view["totals"][s],
                        "won": s in view["winners"],
                    }
                    for s, name in enumerate(("Anna", "Bram", "Cor", "Dirk"))
                ],
            }

        # a second game at the table: no replay while it runs, then listed first; same deal and moves, same game
        await host.send("new_game")
        await host.until(lambda t: t["status"] == "waiting")
        await host.send("start")
        started = await host.until(lambda t: t["status"] == "playing")
        assert started["replay"] is None
        assert len((await get_json(server, "/api/games", tokens[1]))[1]["games"]) == 1
        for p in players[1:]:
            await p.until(lambda t: t["status"] == "playing")
        finals2 = await drive_all(players)
        ref2 = finals2[0]["replay"]
        assert ref2["id"] != ref["id"] and ref2["share"] != ref["share"]
        for token in tokens:
            status, listing = await get_json(server, "/api/games", token)
            assert status == 200 and [g["id"] for g in listing["games"]] == [ref2["id"], ref["id"]]
            assert listing["games"][0]["finished_at"] >= listing["games"][1]["finished_at"]
        status, replay2 = await get_json(server, f"/api/replays/{ref2['share']}")
        assert status == 200
        assert replay2["hands"] == replay["hands"] and replay2["totals"] == replay["totals"]
        assert (await get_json(server, f"/api/games/{ref['id']}", tokens[2])) == (200, replay)

    @both_stores
    async def test_a_player_who_left_mid_game_still_gets_the_replay(self, server):
        host = await server.host("Anna", options=OPTIONS, computer_level="easy")
        bram = await server.connect("Bram")
        await bram.send("join", code=host.joined["code"])
        await bram.expect("joined")
        await host.until(lambda t: t["seats"][1]["kind"] == "person")
        await host.send("fill_computers", level="easy")
        await host.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        await host.send("start")
        await bram.until(lambda t: t["status"] == "playing")
        await bram.send("leave")
        await bram.expect("left")
        await host.until(lambda t: t["seats"][1]["kind"] == "computer")

        final = await drive(host, finished)
        ref = final["replay"]
        anna, bram_token = host.welcome["player_token"], bram.welcome["player_token"]
        status, replay = await get_json(server, f"/api/games/{ref['id']}", anna)
        assert status == 200
        assert await get_json(server, f"/api/games/{ref['id']}", bram_token) == (200, replay)
        assert replay["seats"][1]["kind"] == "computer"  # a computer player took the seat and finished the game
        check_replay_shape(replay, host)

        status, listing = await get_json(server, "/api/games", bram_token)
        assert status == 200
        (item,) = listing["games"]
        assert item["id"] == ref["id"] and item["share"] == ref["share"]
        assert item["you"] is None  # no seat of his at the end
        assert [s["kind"] for s in item["seats"]] == ["person", "computer", "computer", "computer"]
        status, listing = await get_json(server, "/api/games", anna)
        assert status == 200 and listing["games"][0]["you"] == 0

    @both_stores
    async def test_the_list_of_games_needs_a_known_player_token(self, server):
        assert await get_json(server, "/api/games") == (400, {"error": "missing_token"})
        assert await get_json(server, "/api/games", "") == (400, {"error": "missing_token"})
        assert await get_json(server, "/api/games", "no-such-player") == (404, {"error": "unknown_player"})
        p = await server.connect("Anna")
        assert await get_json(server, "/api/games", p.welcome["player_token"]) == (200, {"games": []})
        assert await get_json(server, "/api/games/1", p.welcome["player_token"]) == NOT_FOUND
