"""Every level plays whole games of every variant and option set without an illegal move."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hartenjagen.shared.game import GAME_OVER

from .table import play_game

VARIANTS = [
    {"end_score": 50},
    {"end_score": 50, "passing": "right", "queen_breaks_hearts": True, "moon": "choose", "jack_of_diamonds": -10},
    {"end_score": 40, "passing": "off", "moon": "self", "first_trick_points": True, "tie": "play_on"},
    {"variant": "dutch", "turn_score": 25},
    {"variant": "dutch", "turn_score": 25, "passing": "left", "dutch_end": "exactly_zero", "queen_value": 13},
    {"variant": "dutch", "turn_score": 25, "jack_of_clubs": 0, "moon": "others", "jack_of_diamonds": -10},
    # the house-rule variants, with the gentleman's rules and the passing forms where they make sense
    {"variant": "omnibus", "end_score": 50, "bonus_card": "ten", "gentleman_3": True},
    {"variant": "spot_hearts", "end_score": 60, "spot_form": 1, "passing": "scatter"},
    {"variant": "spot_hearts", "end_score": 150, "spot_form": 2, "gentleman_4": True},
    {"variant": "spot_hearts", "end_score": 150, "spot_form": 3, "passing": "left_right"},
    {"variant": "hooligan", "end_score": 50, "passing": "achterhoeks", "gentleman_3": True, "gentleman_4": True},
    {"variant": "black_maria", "end_score": 50, "gentleman_4": True},
    {"variant": "parker_brothers", "end_score": 80, "moon": "choose"},
    {"variant": "belgian", "end_score": 50, "gentleman_3": True},
    {"variant": "achterhoeks", "end_score": 50},
    {"variant": "achterhoeks", "end_score": 50, "passing": "scatter", "doubling_nine": False, "gentleman_4": True},
    {"variant": "achterhoeks_bar", "end_score": 30},
    {"variant": "chips", "hand_limit": 6, "start_chips": 8, "ante": 2},
    {"variant": "dutch52", "turn_score": 25, "passing": "left_right", "gentleman_3": True, "gentleman_4": True},
    # three and five seats, with and without a kitty
    {"variant": "three", "end_score": 50, "gentleman_3": True},
    {"variant": "three", "end_score": 50, "removed": "three_of_clubs", "passing": "right", "moon": "choose"},
    {"variant": "three_kitty", "end_score": 50, "kitty": "first_points"},
    {"variant": "five", "end_score": 40, "gentleman_4": True},
    {"variant": "five_kitty", "end_score": 40, "kitty": "first_two", "moon": "self"},
    {"variant": "dutch5", "turn_score": 25},
    # two and three decks, and jokers
    {"variant": "three_jokers", "end_score": 50, "gentleman_3": True},
    {"variant": "cancellation", "end_score": 40, "seats": 7, "spade_ten": True},
    {"variant": "cancellation", "end_score": 40, "seats": 11, "kitty": "first_points"},
    {"variant": "extreme", "end_score": 40},
]


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@settings(max_examples=3, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_fast_levels_finish_games_legally(level, options, seed):
    game = play_game([level] * 4, options, seed, max_hands=60)
    assert game.phase == GAME_OVER
    assert game.winners


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_hard_plays_every_variant_legally(options, seed):
    # two hard seats with a tiny budget beside medium ones; Game.apply refuses any illegal intent
    game = play_game(["hard", "medium", "hard", "medium"], options, seed, max_hands=3)
    assert game.history
    assert all(sum(h["points"]) for h in game.history)
