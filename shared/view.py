"""The one filter: everything a seat may know of a game, as JSON-ready data, and nothing more.

Browsers and computer players both receive exactly this structure. It never holds
another seat's unplayed cards, the cards another seat chose to pass, a seed, or a
deck order.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .cards import CARD_NAMES, mask_names
from .game import GAME_OVER, PASSING, PLAYING, Game
from .reasons import reason

VIEW_VERSION = 1


@lru_cache(maxsize=1 << 12)
def _cached_reason(code: str, params: tuple) -> dict[str, str]:
    return reason(code, **dict(params))


def _reason(code: str, params: dict[str, Any]) -> dict[str, str]:
    """``reason``, remembered for the same code and parameters (the sentences are shared, read-only)."""
    try:
        return _cached_reason(code, tuple(sorted(params.items())))
    except TypeError:  # a parameter that cannot be a key
        return reason(code, **params)


#: The view fields that differ from seat to seat; every other field is the same for all four.
SEAT_FIELDS = (
    "seat", "pass_to", "pass_from", "hand", "passed", "received", "moon_choices", "legal", "refusals", "refusal"
)


def view_for(game: Game, seat: int, common: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return what ``seat`` (0 South, 1 West, 2 North, 3 East) may know of ``game`` now.

    ``common`` is ``common_view(game)`` of this very moment, when the caller builds views for
    several seats at once (it is then built once, not four times).
    """
    return {**(common if common is not None else common_view(game)), **seat_view(game, seat)}


def spectator_view(game: Game, common: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return what someone watching without a seat may know: the shared fields only, no hand, no ``SEAT_FIELDS``."""
    return dict(common if common is not None else common_view(game))


def common_view(game: Game) -> dict[str, Any]:
    """Return the fields of the view that every seat shares: public by nature (no hand, no passed card)."""
    rules = game.rules
    phase = game.phase
    return {
        "version": VIEW_VERSION,
        "rules": rules.to_json(),
        "phase": phase,
        "hand_no": game.hand_no,
        "dealer": rules.dealer(game.hand_no) if game.hand_no >= 0 else None,
        "pass_direction": game.pass_direction,
        "pass_count": rules.pass_count if game.pass_offset else 0,
        "hand_sizes": [h.bit_count() for h in game.hands],
        "has_passed": [p is not None for p in game.passes] if phase == PASSING else None,
        "tricks": [t.to_json() for t in game.tricks],
        "trick": game.trick.to_json() if phase == PLAYING else None,
        "turn": game.turn if phase == PLAYING else None,
        "to_act": game.to_act(),
        "hearts_broken": game.hearts_broken,
        "points_taken": game.points_taken() if game.hand_no >= 0 else [0, 0, 0, 0],
        "history": list(game.history),  # the hand results are never changed once written: shared, read-only
        "totals": list(game.totals),
        "counting_down": game.counting_down,
        "turned": game.turned,
        "moon_seat": game.moon_seat if game.moon_seat >= 0 else None,
        "game_over": phase == GAME_OVER,
        "winners": list(game.winners),
    }


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """Return the fields of the view that belong to ``seat`` alone (``SEAT_FIELDS``): its cards and choices."""
    phase = game.phase
    passed = game.passes[seat] if game.hand_no >= 0 else None
    offset = game.pass_offset
    hand = game.hands[seat]
    whole = game.hand_refusal(seat)
    refusals = {}
    if whole is None:  # the seat's turn: a reason for each card it may not play
        refusals = {CARD_NAMES[c]: _reason(code, params) for c, (code, params) in game.refusals(seat).items()}
    return {
        "seat": seat,
        "pass_to": (seat + offset) % 4 if offset else None,
        "pass_from": (seat - offset) % 4 if offset else None,
        "hand": mask_names(hand),
        "passed": mask_names(passed) if passed is not None else None,
        "received": mask_names(game.received[seat]) if offset and phase != PASSING else None,
        "moon_choices": ["others", "self"] if game.moon_seat == seat else [],
        "legal": mask_names(game.legal(seat)),
        "refusals": refusals,
        "refusal": _reason(*whole) if whole is not None and phase == PLAYING and hand else None,
    }
