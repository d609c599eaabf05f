"""The computer-player interface, the uniformly random player and the hard player's options and default budget."""

from __future__ import annotations

import random
from typing import Literal, TypedDict

from ..view import View
from .knowledge import rules_of

LEVELS = ("easy", "medium", "hard")


class PassIntent(TypedDict):
    """Pass these cards (names, in the seat's order)."""

    type: Literal["pass"]
    cards: list[str]


class PlayIntent(TypedDict):
    """Play this card."""

    type: Literal["play"]
    card: str


class MoonIntent(TypedDict):
    """Choose how a shot moon scores: "others" or "self"."""

    type: Literal["moon"]
    choice: str


#: A move a computer player makes, as the table receives it from a browser.
Intent = PassIntent | PlayIntent | MoonIntent


def moon_choice(view: View) -> str:
    """Return "others" or "self" for a moon: end the game when that wins it, else hasten the end only when leading."""
    rules, seat, totals = rules_of(view), view["seat"], view["totals"]
    total = rules.moon_total
    outcomes = {}
    for choice in ("others", "self"):
        new = [
            t + (total if s != seat and choice == "others" else 0) - (total if s == seat and choice == "self" else 0)
            for s, t in enumerate(totals)
        ]
        over = rules.end == "reach" and max(new) >= rules.end_score
        if over:
            low = min(new)
            outcomes[choice] = 2 if new[seat] == low else -2
        else:
            outcomes[choice] = 0
    if outcomes["others"] != outcomes["self"]:
        return max(outcomes, key=outcomes.__getitem__)
    leading = totals[seat] <= min(t for s, t in enumerate(totals) if s != seat)
    return "others" if leading else "self"


class ComputerPlayer:
    """A computer player: ``decide(view)`` returns one intent for the seat the view belongs to.

    Intents are the same plain data a browser sends: ``{"type": "pass", "cards": [...]}``,
    ``{"type": "play", "card": "QS"}`` or ``{"type": "moon", "choice": "others"}``.
    A player sees only the view. Its random choices come from a generator seeded by its
    own seed and the position, so the same view always gets the same decision.
    """

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else random.getrandbits(63)

    def rng_for(self, view: View) -> random.Random:
        """Return the random generator for this position: the player's seed and the position, nothing else."""
        trick = view.get("trick") or {"cards": []}
        played = len(view.get("tricks") or []) * view.get("seats", 4) + len(trick["cards"])
        return random.Random(f"{self.level}:{self.seed}:{view['hand_no']}:{view['phase']}:{played}:{view['seat']}")

    def decide(self, view: View) -> Intent | None:
        """Return the intent for this view, or None when the seat has nothing to do."""
        seat = view["seat"]
        if seat not in view["to_act"]:
            return None
        phase = view["phase"]
        if phase == "passing":
            return {"type": "pass", "cards": self.choose_pass(view)}
        if phase == "playing":
            legal = view["legal"]
            card = legal[0] if len(legal) == 1 else self.choose_play(view)
            return {"type": "play", "card": card}
        if phase == "moon_choice":
            return {"type": "moon", "choice": self.choose_moon(view)}
        return None

    def choose_pass(self, view: View) -> list[str]:
        """Return the cards to pass (uniformly random here)."""
        passable = sorted(c for c in view["hand"] if c not in view.get("pass_refusals", {}))
        return sorted(self.rng_for(view).sample(passable, view["pass_count"]))

    def choose_play(self, view: View) -> str:
        """Return the card to play (uniformly random among the legal cards here)."""
        legal: list[str] = sorted(view["legal"])
        return self.rng_for(view).choice(legal)

    def choose_moon(self, view: View) -> str:
        """Return "others" or "self" for a moon this seat shot."""
        return moon_choice(view)


#: The hard player's default thinking budget per decision (nominal milliseconds on the reference machine).
DEFAULT_MS = 80.0


class HardOptions(TypedDict, total=False):
    """What a hard player may be told beside its seed (the other levels take nothing more)."""

    budget_ms: float  # nominal milliseconds of simulated plays: the same decision on any machine
    max_ms: float  # a wall-clock safety stop
    pass_search: bool  # search the likely passes on sampled deals, instead of passing by the tips
    use_kernel: bool  # the compiled look-ahead where the fast extra is installed
    learned: bool  # the learned rollout policy (False: the rule of thumb, the arena's hard0)
    read: bool  # weigh each sampled deal by how well the learned policy explains the others' plays
