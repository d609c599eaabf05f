"""The computer-player interface and the simple legal player that stands in for every level."""

from __future__ import annotations

import random
from typing import Any

LEVELS = ("easy", "medium", "hard")


class Player:
    """A computer player: ``decide(view)`` returns one intent for the seat the view belongs to.

    Intents are the same plain data a browser sends: ``{"type": "pass", "cards": [...]}``,
    ``{"type": "play", "card": "QS"}`` or ``{"type": "moon", "choice": "others"}``.
    A player sees only the view (and what it remembers of earlier views).
    """

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def decide(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """Return the intent for this view, or None when the seat has nothing to do."""
        seat = view["seat"]
        if seat not in view["to_act"]:
            return None
        phase = view["phase"]
        if phase == "passing":
            return {"type": "pass", "cards": self.choose_pass(view)}
        if phase == "playing":
            return {"type": "play", "card": self.choose_play(view)}
        if phase == "moon_choice":
            return {"type": "moon", "choice": self.choose_moon(view)}
        return None

    def choose_pass(self, view: dict[str, Any]) -> list[str]:
        """Return the cards to pass (uniformly random here)."""
        return self.rng.sample(sorted(view["hand"]), view["pass_count"])

    def choose_play(self, view: dict[str, Any]) -> str:
        """Return the card to play (uniformly random among the legal cards here)."""
        return self.rng.choice(sorted(view["legal"]))

    def choose_moon(self, view: dict[str, Any]) -> str:
        """Return "others" or "self" for a moon: both keep the same gap, so hasten the end when leading."""
        seat, totals = view["seat"], view["totals"]
        total = sum(view["points_taken"])
        leading = totals[seat] - total <= min(t for s, t in enumerate(totals) if s != seat)
        return "others" if leading else "self"


def make_player(level: str, seed: int | None = None) -> Player:
    """Return a computer player of ``level`` ("easy", "medium", "hard", or "random")."""
    if level not in LEVELS and level != "random":
        raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
    return Player(seed)
