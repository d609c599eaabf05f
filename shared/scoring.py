"""Scoring a finished hand: penalty points, bonus cards, the moon and the Dutch count-down.

>>> from shared.rules import CLASSIC
>>> from shared.cards import parse_mask, SUIT_MASKS, HEARTS
>>> hearts = SUIT_MASKS[HEARTS]
>>> hand_deltas(CLASSIC, [hearts | parse_mask(["QS"]), 0, 0, 0], False, "others")
[0, 26, 26, 26]
"""

from __future__ import annotations

from .cards import Mask
from .rules import Rules


def shooter_of(rules: Rules, taken: list[Mask]) -> int:
    """Return the seat that took every penalty card (shot the moon), or -1."""
    penalty = rules.penalty_mask
    for seat in range(4):
        if taken[seat] & penalty == penalty:
            return seat
    return -1


def hand_deltas(rules: Rules, taken: list[Mask], counting_down: bool, choice: str | None) -> list[int]:
    """Return each seat's score change for a hand; ``choice`` ("others"/"self") scores a moon.

    Bonus cards (the jack of diamonds at -10) always count the same way; penalty points
    are added, or subtracted once a Dutch game counts down (where a moon needs no choice).
    """
    penalty = rules.penalty_mask
    bonus = [rules.points_of(t & ~penalty) for t in taken]
    shooter = shooter_of(rules, taken) if choice else -1
    if shooter < 0 or counting_down:
        sign = -1 if counting_down else 1
        return [b + sign * rules.points_of(t & penalty) for b, t in zip(bonus, taken, strict=True)]
    total = rules.moon_total
    if choice == "self":
        return [b - (total if s == shooter else 0) for s, b in enumerate(bonus)]
    return [b + (0 if s == shooter else total) for s, b in enumerate(bonus)]
