"""Scoring a finished hand: the one scoring function for every variant, the pot of chips, and the end of a game.

Points come from the rules' card table, doubled for the cards of a trick a 9 doubled, with the
doubling Q♥ and the cancelling Q♣ applied per seat (``Rules.penalty_points``); then one side
(a seat, or a team) taking every trick (the sun, the doormars) or every penalty card (the moon)
changes them; in a team game both partners score their team's points.

>>> from hartenjagen.shared.variants import CLASSIC
>>> from hartenjagen.shared.cards import parse_mask, SUIT_MASKS, HEARTS
>>> hearts = SUIT_MASKS[HEARTS]
>>> hand_deltas(CLASSIC, [hearts | parse_mask(["QS"]), 0, 0, 0], False, "others")
[0, 26, 26, 26]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import HEARTS_MASK, Mask
from .rules import Rules

#: Each seat's points from penalty cards, and from bonus cards (``seat_parts``).
Parts = tuple[list[int], list[int]]


def seat_points(rules: Rules, taken: Sequence[Mask], doubled: Sequence[Mask] | None = None) -> list[int]:
    """Return the points each seat took so far (bonus cards included), before any moon or sun."""
    doubled = doubled or [0] * len(taken)
    return [rules.penalty_points(t, d) + rules.bonus_points(t, d) for t, d in zip(taken, doubled, strict=True)]


def seat_parts(rules: Rules, taken: Sequence[Mask], doubled: Sequence[Mask] | None = None) -> Parts:
    """Return each seat's points from penalty cards and from bonus cards (``seat_points`` adds them up)."""
    doubled = doubled or [0] * len(taken)
    penalty_points, bonus_points = rules.penalty_points, rules.bonus_points
    return (
        [penalty_points(t, d) for t, d in zip(taken, doubled, strict=True)],
        [bonus_points(t, d) for t, d in zip(taken, doubled, strict=True)],
    )


def _sides(rules: Rules, taken: Sequence[Mask]) -> tuple[Sequence[int], Sequence[Mask]]:
    """Return the side of each seat and the cards each side took."""
    side = rules.sides
    if not rules.teams:  # every seat is a side of its own
        return side, taken
    side_taken = [0] * rules.seats
    for s, t in zip(side, taken, strict=True):
        side_taken[s] |= t
    return side, side_taken


def shooter_of(rules: Rules, taken: Sequence[Mask]) -> int:
    """Return the seat (the first seat of the team) that took every penalty card, or -1 (no moon rule: -1)."""
    if rules.moon == "none":
        return -1
    penalty = rules.penalty_mask
    side, side_taken = _sides(rules, taken)
    for seat in range(rules.seats):
        if side_taken[side[seat]] & penalty == penalty:
            return seat
    return -1


def sun_of(rules: Rules, taken: Sequence[Mask]) -> int:
    """Return the seat (the first seat of the team) whose side took every trick when the sun rule is on, or -1."""
    if not rules.sun:
        return -1
    side, side_taken = _sides(rules, taken)
    for seat in range(rules.seats):
        if side_taken[side[seat]] == rules.deck:
            return seat
    return -1


def hand_deltas(
    rules: Rules,
    taken: Sequence[Mask],
    counting_down: bool,
    choice: str | None,
    doubled: Sequence[Mask] | None = None,
    parts: Parts | None = None,
) -> list[int]:
    """Return each seat's score change for a hand; ``choice`` ("others"/"self") scores a moon.

    Bonus cards (the -10 jack, the -5 queen) always count the same way; penalty points
    are added, or subtracted once a Dutch game counts down (where a moon needs no choice).
    A side taking every trick (sun) gives every other side ``rules.sun``, whatever ``choice``.
    ``parts`` is ``seat_parts`` of ``taken`` where the caller has it already.
    """
    seats = rules.seats
    side = rules.sides
    points, bonus = parts or seat_parts(rules, taken, doubled)
    if rules.teams:  # a side's points are its seats' points (else every seat is a side of its own)
        seat_penalty, seat_bonus = points, bonus
        points = [0] * seats
        bonus = [0] * seats
        for s in range(seats):
            points[side[s]] += seat_penalty[s]
            bonus[side[s]] += seat_bonus[s]
    sides = sorted(set(side))
    sun = sun_of(rules, taken)
    shooter = shooter_of(rules, taken) if choice else -1
    if sun >= 0:
        out = {x: bonus[x] + (0 if x == side[sun] else rules.sun) for x in sides}
    elif shooter < 0 or counting_down:
        sign = -1 if counting_down else 1
        out = {x: bonus[x] + sign * points[x] for x in sides}
    elif choice == "self":
        out = {x: bonus[x] - (rules.moon_total if x == side[shooter] else 0) for x in sides}
    else:
        out = {x: bonus[x] + (0 if x == side[shooter] else rules.moon_total) for x in sides}
    return [out[x] for x in side]


def chip_shares(rules: Rules, taken: Sequence[Mask], pot: int) -> list[int]:
    """Return the chips each seat takes from ``pot``: the one seat without hearts, or the two sharing it.

    When everyone took hearts, or one seat took them all, the pot stays (all zero); an odd chip
    of a shared pot stays in it.
    """
    seats = rules.seats
    clean = [s for s in range(seats) if not taken[s] & HEARTS_MASK]
    if len(clean) not in (1, 2):
        return [0] * seats
    share = pot // len(clean)
    return [share if s in clean else 0 for s in range(seats)]


def is_over(rules: Rules, totals: Sequence[int], counting_down: bool) -> bool:
    """Return True when these totals end a points game at the end of a hand (before any tie rule)."""
    if rules.end == "reach":
        if rules.end_over:
            return max(totals) > rules.end_score
        return max(totals) >= rules.end_score
    if rules.end == "dutch" and counting_down:
        return any(t == 0 if rules.exact_zero else t <= 0 for t in totals)
    return False


def passed_end(rules: Rules, total: int) -> bool:
    """Return True when a total has passed (or reached) the end score of a "reach" game."""
    return total > rules.end_score if rules.end_over else total >= rules.end_score


TOPPERS = {(1, True): "nil_game", (2, False): "double_game", (2, True): "double_nil", (3, False): "triple_game"}
TOPPERS[(3, True)] = "triple_nil"


def toppers(rules: Rules, totals: Sequence[int], winners: Sequence[int], hands_played: int) -> list[dict[str, Any]]:
    """Return the toppers (double game, nil game, ...) at the end of a game, one entry per winner and kind.

    A winner (lowest total) while two or three players passed the end score: ``double_game``,
    ``triple_game``; the same with 0 yourself: ``nil_game`` (one passed), ``double_nil``,
    ``triple_nil``; a triple nil in four hands is also the ``absolute_topper``. Only for games
    played to an end score by players on their own.
    """
    if rules.end != "reach" or rules.teams:
        return []
    over = sum(1 for t in totals if passed_end(rules, t))
    out = []
    for seat in winners:
        kind = TOPPERS.get((over, totals[seat] == 0))
        if kind is None or passed_end(rules, totals[seat]):
            continue
        out.append({"seat": seat, "kind": kind})
        if kind == "triple_nil" and hands_played <= 4:
            out.append({"seat": seat, "kind": "absolute_topper"})
    return out
