"""Rules as data: a variant is a deck, a point table, a passing cycle, a lead, moon and end rule.

>>> r = make_rules({"variant": "dutch"})
>>> r.moon_total, r.hand_size, r.pass_cycle
(15, 8, ())
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    CLUBS,
    FULL_DECK,
    HEARTS,
    RANKS_FROM_7,
    SUIT_MASKS,
    Mask,
    mask_cards,
    parse_card,
)

QS = parse_card("QS")
JC = parse_card("JC")
JD = parse_card("JD")

PASS_OFFSETS = {"hold": 0, "left": 1, "across": 2, "right": 3}
PASS_NAMES = {v: k for k, v in PASS_OFFSETS.items()}
PASSING_CYCLES = {
    "cycle": (1, 3, 2, 0),
    "off": (),
    "left": (1,),
    "right": (3,),
}
MOON_RULES = ("others", "self", "choose")
TIE_RULES = ("share", "play_on")
DUTCH_ENDS = ("at_or_below_zero", "exactly_zero")


class RulesError(ValueError):
    """A table option that is unknown, out of range, or not for this variant."""

    def __init__(self, option: str, message: str, nl: str = "") -> None:
        super().__init__(f"option {option!r}: {message}")
        self.option = option
        self.code = "bad_option"
        self.nl = f"optie {option!r}: {nl or message}"  # the Dutch sentence, for people who read Dutch


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to know about a variant and its options."""

    variant: str
    deck: Mask
    point_groups: tuple[tuple[Mask, int], ...]
    pass_cycle: tuple[int, ...]
    pass_count: int
    lead: str  # "lowest_club": holder of the lowest club leads it; "left_of_dealer": any card
    hearts_must_break: bool
    queen_breaks_hearts: bool
    first_trick_points: bool
    moon: str
    end: str  # "reach": ends when someone reaches end_score; "dutch": turns, then ends at 0
    end_score: int
    turn_score: int
    exact_zero: bool
    tie: str
    options: Mapping[str, Any] = field(compare=False)
    # Derived, filled in __post_init__.
    hand_size: int = 0
    penalty_mask: Mask = 0
    moon_total: int = 0
    card_points: tuple[int, ...] = ()
    first_lead: int = -1

    def __post_init__(self) -> None:
        points = [0] * 52
        for m, v in self.point_groups:
            for c in mask_cards(m):
                points[c] += v
        penalty = 0
        for c in range(52):
            if points[c] > 0 and self.deck >> c & 1:
                penalty |= 1 << c
        clubs = self.deck & SUIT_MASKS[CLUBS]
        set_ = object.__setattr__
        set_(self, "hand_size", self.deck.bit_count() // 4)
        set_(self, "card_points", tuple(points))
        set_(self, "penalty_mask", penalty)
        set_(self, "moon_total", sum(points[c] for c in mask_cards(penalty)))
        set_(self, "first_lead", (clubs & -clubs).bit_length() - 1 if self.lead == "lowest_club" else -1)

    def pass_offset(self, hand_no: int) -> int:
        """Return the passing offset for a hand (0 hold, 1 left, 2 across, 3 right)."""
        if not self.pass_cycle:
            return 0
        return self.pass_cycle[hand_no % len(self.pass_cycle)]

    def dealer(self, hand_no: int) -> int:
        """Return the dealer's seat of a hand: East deals the first, then it rotates."""
        return (3 + hand_no) % 4

    def points_of(self, taken: Mask) -> int:
        """Return the points of a set of taken cards (before any moon)."""
        return sum(v * (taken & m).bit_count() for m, v in self.point_groups)

    def to_json(self) -> dict[str, Any]:
        """Return the host's options, enough to rebuild these rules with make_rules."""
        return dict(self.options)


DEFAULTS: dict[str, dict[str, Any]] = {
    "classic": {
        "passing": "cycle",
        "queen_breaks_hearts": False,
        "end_score": 100,
        "moon": "others",
        "jack_of_diamonds": 0,
        "tie": "share",
        "first_trick_points": False,
    },
    "dutch": {
        "passing": "off",
        "turn_score": 50,
        "dutch_end": "at_or_below_zero",
        "queen_value": 5,
        "jack_of_clubs": 2,
        "moon": "choose",
        "jack_of_diamonds": 0,
        "tie": "share",
        "first_trick_points": True,
    },
}

_CHOICES: dict[str, tuple[Any, ...]] = {
    "passing": tuple(PASSING_CYCLES),
    "queen_breaks_hearts": (False, True),
    "moon": MOON_RULES,
    "jack_of_diamonds": (0, -10),
    "tie": TIE_RULES,
    "first_trick_points": (False, True),
    "dutch_end": DUTCH_ENDS,
    "queen_value": (5, 13),
    "jack_of_clubs": (2, 0),
}
_RANGES = {"end_score": (25, 500), "turn_score": (25, 200)}


def _check(option: str, value: Any) -> Any:
    if option in _RANGES:
        lo, hi = _RANGES[option]
        if type(value) is not int or not lo <= value <= hi:
            raise RulesError(
                option,
                f"must be a whole number from {lo} to {hi}, got {value!r}",
                f"moet een heel getal van {lo} tot en met {hi} zijn, niet {value!r}",
            )
        return value
    choices = _CHOICES[option]
    for choice in choices:
        if value == choice and type(value) is type(choice):
            return value
    raise RulesError(
        option,
        f"must be one of {list(choices)!r}, got {value!r}",
        f"moet een van {list(choices)!r} zijn, niet {value!r}",
    )


def make_rules(options: Mapping[str, Any] | None = None) -> Rules:
    """Build validated Rules from a host's options (missing ones take the variant's default)."""
    options = dict(options or {})
    variant = options.pop("variant", "classic")
    if not isinstance(variant, str) or variant not in DEFAULTS:
        raise RulesError(
            "variant",
            f"must be one of {list(DEFAULTS)!r}, got {variant!r}",
            f"moet een van {list(DEFAULTS)!r} zijn, niet {variant!r}",
        )
    chosen = dict(DEFAULTS[variant])
    for key, value in options.items():
        if key not in chosen:
            raise RulesError(
                key, f"unknown option for the {variant} variant", f"onbekende optie bij de variant {variant}"
            )
        chosen[key] = _check(key, value)
    hearts = SUIT_MASKS[HEARTS]
    jd = ((1 << JD, chosen["jack_of_diamonds"]),) if chosen["jack_of_diamonds"] else ()
    if variant == "classic":
        return Rules(
            variant="classic",
            deck=FULL_DECK,
            point_groups=((hearts, 1), (1 << QS, 13)) + jd,
            pass_cycle=PASSING_CYCLES[chosen["passing"]],
            pass_count=3,
            lead="lowest_club",
            hearts_must_break=True,
            queen_breaks_hearts=chosen["queen_breaks_hearts"],
            first_trick_points=chosen["first_trick_points"],
            moon=chosen["moon"],
            end="reach",
            end_score=chosen["end_score"],
            turn_score=0,
            exact_zero=False,
            tie=chosen["tie"],
            options={"variant": variant, **chosen},
        )
    groups = ((hearts & RANKS_FROM_7, 1), (1 << QS, chosen["queen_value"]))
    if chosen["jack_of_clubs"]:
        groups += ((1 << JC, chosen["jack_of_clubs"]),)
    return Rules(
        variant="dutch",
        deck=RANKS_FROM_7,
        point_groups=groups + jd,
        pass_cycle=PASSING_CYCLES[chosen["passing"]],
        pass_count=3,
        lead="left_of_dealer",
        hearts_must_break=False,
        queen_breaks_hearts=False,
        first_trick_points=chosen["first_trick_points"],
        moon=chosen["moon"],
        end="dutch",
        end_score=0,
        turn_score=chosen["turn_score"],
        exact_zero=chosen["dutch_end"] == "exactly_zero",
        tie=chosen["tie"],
        options={"variant": variant, **chosen},
    )


CLASSIC = make_rules()
DUTCH = make_rules({"variant": "dutch"})
