"""The replay of a finished game: every hand with all four hands open, built by folding the game's events.

Only for a game that is over: while a game runs, this would show hidden cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import mask_names
from .game import GAME_OVER, Game
from .rules import Rules


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
                    "dealt": [mask_names(h) for h in game.dealt],
                    "passes": [None, None, None, None],
                    "tricks": [],
                }
            )
        elif event["type"] == "pass":
            hands[-1]["passes"][event["seat"]] = list(event["cards"])
            if game.phase != "passing":  # the exchange is done: what each seat got (a pot's cards included)
                hands[-1]["received"] = [mask_names(r) for r in game.received]
        if len(game.history) == len(hands) and hands and "totals" not in hands[-1]:
            result = game.history[-1]
            hands[-1]["tricks"] = [t.to_json() for t in game.tricks]
            for key in ("points", "scores", "totals", "moon", "moon_choice", "sun", "chips_won", "chips", "pot"):
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
