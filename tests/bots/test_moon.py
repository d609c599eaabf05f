"""The mars / moon choice: every level answers the moon_choice phase, and the choice plays the end score race."""

from __future__ import annotations

import pytest

from hartenjagen.shared.bots import make_player
from hartenjagen.shared.bots.base import moon_choice
from hartenjagen.shared.game import GAME_OVER, HAND_OVER, MOON_CHOICE, PLAYING
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .table import bot, dealt

# Dutch: South (who leads the first hand) holds all eight hearts and takes every trick.
ALL_HEARTS = [
    "7H 8H 9H TH JH QH KH AH",
    "7C 8C 9C TC JC QC KC AC",
    "7D 8D 9D TD JD QD KD AD",
    "7S 8S 9S TS JS QS KS AS",
]


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_every_level_chooses_when_it_shot_the_moon(level):
    game = dealt({"variant": "dutch"}, ALL_HEARTS)
    players = [bot(level, s) for s in range(4)]
    while game.phase == PLAYING:
        seat = game.turn
        game.apply({**players[seat].decide(view_for(game, seat)), "seat": seat})
    assert game.phase == MOON_CHOICE and game.to_act() == [0]
    assert players[1].decide(view_for(game, 1)) is None
    intent = players[0].decide(view_for(game, 0))
    assert intent["type"] == "moon" and intent["choice"] in ("others", "self")
    game.apply({**intent, "seat": 0})
    assert game.phase in (HAND_OVER, GAME_OVER)


def moon_view(totals: list[int]) -> dict:
    """Return a minimal moon_choice view for South with the given totals (classic, taker chooses)."""
    rules = make_rules({"moon": "choose"})
    return {"seat": 0, "rules": rules.to_json(), "totals": totals, "phase": "moon_choice", "to_act": [0]}


def test_moon_choice_ends_the_game_when_that_wins_it():
    # adding 26 to the others ends the game (116) with South lowest: take the win
    assert moon_choice(moon_view([80, 90, 60, 70])) == "others"


def test_moon_choice_avoids_ending_the_game_it_would_lose():
    # adding 26 to the others ends the game but North (86) would beat South (90): subtract from self instead
    assert moon_choice(moon_view([90, 95, 60, 70])) == "self"


def test_hard_player_answers_a_moon_view_too():
    intent = make_player("hard", 1).decide({**moon_view([80, 90, 60, 70]), "hand_no": 3})
    assert intent == {"type": "moon", "choice": "others"}
