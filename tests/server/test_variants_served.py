"""Every variant is playable end to end through the server: created with its options, filled with
computer players, played to game over by a person, recorded, and counted in that person's stats."""

from __future__ import annotations

import json

import pytest

from .test_full_game import play_out

# Each variant with options that keep the game short. Easy and medium take turns; the hard player (about 80 ms
# a decision) plays the one-hand chips game here, and every level plays every variant in tests/bots.
SHORT = {
    "classic": {"end_score": 25, "gentleman_3": True, "gentleman_4": True},
    "dutch": {"turn_score": 25},
    "omnibus": {"end_score": 25},
    "spot_hearts": {"end_score": 25, "spot_form": 3},
    "hooligan": {"end_score": 25, "passing": "scatter"},
    "black_maria": {"end_score": 25},
    "parker_brothers": {"end_score": 25, "passing": "left_right"},
    "belgian": {"end_score": 25},
    "achterhoeks": {"end_score": 25},
    "achterhoeks_bar": {"end_score": 25},
    "chips": {"hand_limit": 1},
    "dutch52": {"turn_score": 25},
    "three": {"end_score": 25},
    "three_kitty": {"end_score": 25, "kitty": "first_points"},
    "five": {"end_score": 25},
    "five_kitty": {"end_score": 25, "kitty": "first_two"},
    "dutch5": {"turn_score": 25},
    "three_jokers": {"end_score": 25},
    "cancellation": {"end_score": 25, "seats": 6},
    "extreme": {"end_score": 25},
}
LEVELS = ("easy", "medium")
SEATS = {"three": 3, "three_kitty": 3, "three_jokers": 3, "five": 5, "five_kitty": 5, "dutch5": 5, "cancellation": 6}
SEATS["extreme"] = 8


@pytest.mark.parametrize("variant", list(SHORT))
async def test_a_person_plays_the_variant_to_game_over_and_it_is_recorded(make_server, variant):
    server = await make_server(bot_workers=0, inline_bots=True)
    level = "hard" if variant == "chips" else LEVELS[list(SHORT).index(variant) % 2]
    options = {"variant": variant, **SHORT[variant]}
    p = await server.host("Anna", options=options)
    assert p.table["options"]["variant"] == variant
    await p.send("fill_computers", level=level)
    await p.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
    await p.send("start")
    final = await play_out(p)
    view = final["view"]
    assert view["game_over"] and view["winners"], view
    assert {k: final["options"][k] for k in options} == options  # the host's options, as the core checked them
    status, _, body = await server.get("/api/stats", {"X-Player-Token": p.welcome["player_token"]})
    stats = json.loads(body)
    assert status == 200 and stats["games_played"] == 1 and stats["hands"] == len(view["history"])
    if variant == "achterhoeks":
        assert view["teams"] == [0, 1, 0, 1]
    seats = view["seats"]
    assert seats == SEATS.get(variant, 4) and len(final["seats"]) == seats and len(view["totals"]) == seats
    # "My games" names the variant with its options, and a chips game's seats with their final chips
    status, _, body = await server.get("/api/games", {"X-Player-Token": p.welcome["player_token"]})
    (listed,) = json.loads(body)["games"]
    assert listed["variant"] == variant and listed["options"] == final["options"]
    assert len(listed["seats"]) == seats
    if variant == "chips":
        assert sum(view["chips"]) + view["pot"] == 4 * final["options"]["start_chips"]  # chips are conserved
        assert [s["chips"] for s in listed["seats"]] == view["chips"]
    else:
        assert not any("chips" in s for s in listed["seats"])
