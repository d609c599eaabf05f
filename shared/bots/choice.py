"""One decision of a computer player from a seat's view, checked: the server and the browser's worker both use it."""

from __future__ import annotations

import random
from typing import TypeGuard

from ..game import Phase
from ..view import View
from .base import HardOptions, Intent
from .make import make_player


def decide(
    level: str, seed: int, view: View, budget_ms: float | None = None, max_ms: float | None = None
) -> Intent | None:
    """Return the intent a fresh computer player of ``level`` makes from ``view`` with ``seed``.

    A hard player may be given its budget (nominal milliseconds of simulated plays) and its wall-clock stop.
    """
    options: HardOptions = {}
    if level == "hard" and budget_ms:
        options["budget_ms"] = budget_ms
    if level == "hard" and max_ms:
        options["max_ms"] = max_ms
    return make_player(level, seed, **options).decide(view)


def fallback(view: View) -> Intent | None:
    """Return a simple legal intent from ``view``: used when a computer player fails or errs."""
    return make_player("random", random.randrange(2**32)).decide(view)


def fits(intent: object, view: View) -> TypeGuard[Intent]:
    """Return True if ``intent`` is a move the game accepts from the seat of ``view`` (its own cards only)."""
    if not isinstance(intent, dict):
        return False
    kind, phase = intent.get("type"), view.get("phase")
    if kind == "pass" and phase == Phase.PASSING:
        cards = intent.get("cards")
        hand = view["hand"]
        return (
            isinstance(cards, list)
            and len(cards) == view["pass_count"]
            and all(isinstance(c, str) and c in hand for c in cards)
            and len(set(cards)) == len(cards)
        )
    if kind == "play" and phase == Phase.PLAYING:
        return isinstance(intent.get("card"), str) and intent["card"] in view["legal"]
    if kind == "moon" and phase == Phase.MOON_CHOICE:
        return intent.get("choice") in view["moon_choices"]
    return False


def checked(level: str, seed: int, view: View, budget_ms: float | None = None) -> Intent | None:
    """Return ``decide``'s intent if the game accepts it from this seat, else a simple legal one."""
    try:
        intent = decide(level, seed, view, budget_ms)
    except Exception:  # a broken computer player must never stall a table
        return fallback(view)
    return intent if fits(intent, view) else fallback(view)
