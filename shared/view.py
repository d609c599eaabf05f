"""The one filter: everything a seat may know of a game, as JSON-ready data, and nothing more.

Browsers and computer players both receive exactly this structure. It never holds
another seat's unplayed cards, the cards another seat chose to pass, a seed, or a
deck order.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES, mask_names
from .game import GAME_OVER, PASSING, PLAYING, Game
from .reasons import reason

VIEW_VERSION = 1


def view_for(game: Game, seat: int) -> dict[str, Any]:
    """Return what ``seat`` (0 South, 1 West, 2 North, 3 East) may know of ``game`` now."""
    rules = game.rules
    phase = game.phase
    hand = game.hands[seat]
    passed = game.passes[seat] if game.hand_no >= 0 else None
    all_passed = game.phase != PASSING
    legal = game.legal(seat)
    refusals = {}
    if phase == PLAYING:
        refusals = {CARD_NAMES[c]: reason(code, **params) for c, (code, params) in game.refusals(seat).items()}
    offset = game.pass_offset
    return {
        "version": VIEW_VERSION,
        "seat": seat,
        "rules": rules.to_json(),
        "phase": phase,
        "hand_no": game.hand_no,
        "dealer": rules.dealer(game.hand_no) if game.hand_no >= 0 else None,
        "pass_direction": game.pass_direction,
        "pass_to": (seat + offset) % 4 if offset else None,
        "pass_from": (seat - offset) % 4 if offset else None,
        "pass_count": rules.pass_count if offset else 0,
        "hand": mask_names(hand),
        "hand_sizes": [h.bit_count() for h in game.hands],
        "passed": mask_names(passed) if passed is not None else None,
        "received": mask_names(game.received[seat]) if offset and all_passed else None,
        "has_passed": [p is not None for p in game.passes] if phase == PASSING else None,
        "tricks": [t.to_json() for t in game.tricks],
        "trick": game.trick.to_json() if phase == PLAYING else None,
        "turn": game.turn if phase == PLAYING else None,
        "to_act": game.to_act(),
        "hearts_broken": game.hearts_broken,
        "points_taken": game.points_taken() if game.hand_no >= 0 else [0, 0, 0, 0],
        "history": [dict(h) for h in game.history],
        "totals": list(game.totals),
        "counting_down": game.counting_down,
        "turned": game.turned,
        "moon_seat": game.moon_seat if game.moon_seat >= 0 else None,
        "moon_choices": ["others", "self"] if game.moon_seat == seat else [],
        "legal": mask_names(legal),
        "refusals": refusals,
        "game_over": phase == GAME_OVER,
        "winners": list(game.winners),
    }
