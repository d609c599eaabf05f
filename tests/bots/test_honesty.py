"""Computer players decide from the JSON view alone, and the same seed gives the same decisions."""

from __future__ import annotations

import json
import pickle

import pytest

from hartenjagen.shared.bots import make_player
from hartenjagen.shared.variants import make_rules

from .table import bot, play_game, play_hands

LEVELS = ["random", "easy", "medium", "hard"]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "dutch"},
        {"variant": "three_kitty"},
        {"variant": "five_kitty", "kitty": "first_two"},
        {"variant": "cancellation"},
        {"variant": "three_jokers"},
    ],
    ids=["classic", "dutch", "three_kitty", "five_kitty", "cancellation", "three_jokers"],
)
def test_json_round_tripped_views_get_the_same_decisions(level, options):
    twin = {}
    checked = []

    def compare(seat, view, intent):
        other = twin.setdefault(seat, bot(level, 1000 + seat))
        if seat == 0:
            assert other.decide(json.loads(json.dumps(view))) == intent
            checked.append(intent["type"])

    # the seat-0 player is seeded 1000 like its twin, so its decisions must match the twin's
    players = [bot(level, 1000)] + [bot("medium", s) for s in range(1, make_rules(options).seats)]
    play_hands(players, options, deal_seed=77, hands=2, on_view=compare)
    assert "play" in checked
    if options.get("variant") != "dutch":
        assert "pass" in checked


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level):
    def record(log):
        return lambda seat, view, intent: log.append((seat, json.dumps(intent)))

    first, second = [], []
    play_game([level] * 4 if level != "hard" else ["hard", "easy", "easy", "easy"], {}, 9, 2, record(first))
    play_game([level] * 4 if level != "hard" else ["hard", "easy", "easy", "easy"], {}, 9, 2, record(second))
    assert first == second
    assert len(first) > 50


@pytest.mark.parametrize("level", LEVELS)
def test_players_are_small_and_picklable(level):
    player = make_player(level, 3)
    copy = pickle.loads(pickle.dumps(player))
    assert len(pickle.dumps(player)) < 400
    assert type(copy) is type(player)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown computer level"):
        make_player("expert", 1)
