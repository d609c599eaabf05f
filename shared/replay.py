"""The replay of a finished game: every hand with every seat's cards open, built by folding the game's events.

Only for a game that is over: while a game runs, this would show hidden cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .game import GAME_OVER, Game
from .multiset import from_cards
from .rules import Rules

#: The fields of a hand's result a replay shows beside its tricks.
RESULT_KEYS = (
    "points", "scores", "totals", "moon", "moon_choice", "sun", "chips_won", "chips", "pot", "kitty_takers", "voided",
)  # fmt: skip


class NotFinished(ValueError):
    """The events do not end a game: no replay is given of a game in progress."""


def replay_hands(rules: Rules, events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Return every hand of a finished game open, with totals, winners, losers and toppers; else raise NotFinished."""
    game = Game(rules)
    hands: list[dict[str, Any]] = []
    for event in events:
        game.apply(event)
        if event["type"] == "deal":
            hands.append(
                {
                    "hand_no": game.hand_no,
                    "pass_direction": game.pass_form,
                    "pass_targets": list(game.pass_targets),
                    "dealt": [game.names(h) for h in game.dealt],
                    "passes": [None] * game.seats,
                    "tricks": [],
                }
            )
            if game.kitty:  # the kitty is shown where every hand is: in the replay of a finished game
                hands[-1]["kitty"] = game.names(from_cards(game.kitty))
        elif event["type"] == "pass":
            hands[-1]["passes"][event["seat"]] = list(event["cards"])
            if game.phase != "passing":  # the exchange is done: what each seat got (a pot's cards included)
                hands[-1]["received"] = [game.names(r) for r in game.received]
        if len(game.history) == len(hands) and hands and "totals" not in hands[-1]:
            result = game.history[-1]
            hands[-1]["tricks"] = [t.to_json() for t in game.tricks]
            for key in RESULT_KEYS:
                if key in result:
                    hands[-1][key] = result[key]
    if game.phase != GAME_OVER:
        raise NotFinished("the game is not over")
    return {
        "hands": hands,
        "totals": list(game.totals),
        "winners": list(game.winners),
        "losers": list(game.losers),
        "toppers": [dict(t) for t in game.toppers],
    }
