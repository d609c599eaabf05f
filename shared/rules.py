"""Rules as data: a variant is a deck, a point table, a passing cycle, a lead, moon and end rule.

``make_rules`` (``shared/variants.py``) builds them from a host's options:

>>> from hartenjagen.shared.variants import make_rules
>>> r = make_rules({"variant": "dutch"})
>>> r.moon_total, r.hand_size, r.pass_cycle
(15, 8, ())
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from .cards import CLUBS, HEARTS, JOKER, QS, SUIT_MASKS, Mask, mask_cards, parse_card
from .multiset import count, layers

JC = parse_card("JC")
TS = parse_card("TS")
JD = parse_card("JD")

#: Offsets of the passing directions at four seats: the receiver of a card passed by seat ``s`` is ``(s + offset) % 4``.
PASS_OFFSETS = {"hold": 0, "left": 1, "across": 2, "right": 3}
PASS_NAMES = {v: k for k, v in PASS_OFFSETS.items()}
#: Passing forms: the offset each passed card goes to, in the order the passing seat lists them; a negative offset
#: counts to the right (at n seats ``-1`` is ``n - 1``), and ``across`` (``None``) is half way round an even table.
#: ``pot``: every seat puts its cards in the middle; they are shuffled and dealt back.
PASS_FORMS: dict[str, tuple[int | None, ...]] = {
    "hold": (),
    "left": (1, 1, 1),
    "right": (-1, -1, -1),
    "across": (None, None, None),
    "left2": (2, 2, 2),  # to the second player on the left (five and more seats)
    "right2": (-2, -2, -2),
    "scatter": (1, -1, None),  # one card each: left, right, across
    "left_right": (1, 1, -1, -1),  # two cards left, two right
    "pot": (0, 0, 0),
}
#: The ``passing`` option: the form of each hand, by hand number, repeating.
PASSING_CYCLES: dict[str, tuple[str, ...]] = {
    "cycle": ("left", "right", "across", "hold"),
    "off": (),
    "left": ("left",),
    "right": ("right",),
    "scatter": ("left", "right", "across", "scatter", "hold"),
    "left_right": ("left", "right", "across", "left_right"),
    "achterhoeks": ("left", "right", "scatter", "pot"),
}
#: The ``cycle`` of tables without an across: three seats pass left, right, hold; five go two seats far as well.
SEAT_CYCLES: dict[int, tuple[str, ...]] = {
    3: ("left", "right", "hold"),
    5: ("left", "right", "left2", "right2", "hold"),
    # six to twelve: left, right, and across where the table has an across
    **{n: ("left", "right", "across", "hold") if n % 2 == 0 else ("left", "right", "hold") for n in range(6, 13)},
}
#: Kitty rules: who takes the face-down cards left over after the deal.
KITTY_RULES = ("first_trick", "first_points", "first_two")
MOON_RULES = ("others", "self", "choose")
TIE_RULES = ("share", "play_on")
DUTCH_ENDS = ("at_or_below_zero", "exactly_zero")


class RulesError(ValueError):
    """A table option that is unknown, out of range, or not for this variant.

    ``problem`` and ``params`` say what is wrong as a code and its values (the server's ``bad_option`` error); the
    client words them in the person's language. ``message`` is for logs and tracebacks only.
    """

    def __init__(self, option: str, message: str, problem: str, **params: Any) -> None:
        super().__init__(f"option {option!r}: {message}")
        self.option = option
        self.code = "bad_option"
        self.problem = problem
        self.params = params


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to know about a variant and its options."""

    variant: str
    deck: Mask
    point_groups: tuple[tuple[Mask, int], ...]
    pass_cycle: tuple[str, ...]  # passing form names (PASS_FORMS), by hand number, repeating
    pass_count: int
    lead: str  # "lowest_club": holder of the lowest club leads it; "left_of_dealer": any card
    hearts_must_break: bool
    queen_breaks_hearts: bool
    first_trick_points: bool
    moon: str  # "others", "self", "choose", or "none" (no moon rule)
    end: str  # "reach": ends when someone reaches end_score; "dutch": turns, then ends at 0; "chips"
    end_score: int
    turn_score: int
    exact_zero: bool
    tie: str
    options: Mapping[str, Any] = field(compare=False)
    # Rule features that variants switch on (all off by default).
    queen_waits: bool = False  # Q♠ may not be played before a heart has been, unless nothing else is possible
    queen_must_go: bool = False  # gentleman's rule 3: Q♠ goes at the first chance not to take her
    no_pass: Mask = 0  # gentleman's rule 4: cards that may not be passed
    heart_doubler: int = -1  # a card that doubles its taker's points in its own suit (Parker Brothers Q♥)
    cancel: tuple[int, ...] = ()  # (canceller, cancelled): taking both cancels the second's points (Q♣, Q♠)
    trick_doubler: int = -1  # a rank (0 = 2 .. 12 = A) that doubles its trick when it follows the led suit
    teams: tuple[int, ...] = ()  # the team of each seat (partners across), or () for every seat alone
    sun: int = 0  # points each opposing side gets when one side takes every trick (0: no such rule)
    end_over: bool = False  # the end score must be passed, not only reached
    start_chips: int = 0  # chips: chips each player starts with (0: no chips)
    ante: int = 0  # chips: chips each player puts in the pot every hand
    hand_limit: int = 0  # chips: the game ends after this many hands (0: only when one holds every chip)
    seats: int = 4  # players round the table
    kitty: int = 0  # cards dealt face down to the middle, not to a player
    kitty_rule: str = "first_trick"  # who takes the kitty (KITTY_RULES)
    decks: int = 1  # copies of each card (the deck is a layered mask, see multiset.py)
    jokers: int = 0  # jokers in the deck: hearts, the first played above the ace, the second below the 2
    identical: str = ""  # two identical cards in a trick: "cancel" (both rank lowest) or "first_wins"
    spade_ten: bool = False  # the 10♠ doubles its taker's points, or takes 5 off a taker without points
    # Derived, filled in __post_init__.
    hand_size: int = 0
    penalty_mask: Mask = 0
    moon_total: int = 0
    card_points: tuple[int, ...] = ()
    first_lead: int = -1
    special_mask: Mask = 0  # cards whose worth is more than their points (doublers, cancellers)
    counting_mask: Mask = 0  # cards that change their taker's score: worth points (bonus cards too), or by their role
    counted: bool = False  # a card may appear more than once (decks, jokers): hands are layered masks
    suit_masks: tuple[Mask, ...] = ()  # the cards of each suit (the joker is a heart)
    hearts_mask: Mask = 0
    groups: tuple[tuple[Mask, int], ...] = ()  # point_groups over every copy of their cards in the deck
    scoring: frozenset[str] = frozenset()  # the scoring features (``scoring_features``), for the fast scorers
    sides: tuple[int, ...] = ()  # the side of each seat (``side_of``): its team, or the seat itself
    passes: tuple[tuple[str, tuple[int, ...], int], ...] = ()  # ``passing`` of each hand of the cycle
    breaking: Mask = 0  # the cards that break hearts when played: the hearts, and Q♠ where she breaks them

    def __post_init__(self) -> None:
        counted = self.decks > 1 or self.jokers > 0
        copies = max(self.decks, self.jokers, 1)
        points = [0] * 53
        for m, v in self.point_groups:
            for c in mask_cards(m):
                points[c] += v
        penalty = 0
        for c in range(53):
            if points[c] > 0:
                penalty |= layers(1 << c, copies) & self.deck
        groups = self.point_groups
        if counted:
            groups = tuple((layers(m, copies) & self.deck, v) for m, v in self.point_groups)
        suits = SUIT_MASKS[:HEARTS] + (SUIT_MASKS[HEARTS] | (1 << JOKER),) if self.jokers else SUIT_MASKS
        clubs = self.deck & SUIT_MASKS[CLUBS]
        special = 0
        for c in ((self.heart_doubler,) if self.heart_doubler >= 0 else ()) + self.cancel:
            special |= 1 << c
        counting = special | (1 << TS if self.spade_ten else 0)
        for c in range(53):
            if points[c]:
                counting |= 1 << c
        if self.trick_doubler >= 0:
            special |= sum(1 << (13 * s + self.trick_doubler) for s in range(4)) & self.deck
        set_ = object.__setattr__
        set_(self, "counted", counted)
        set_(self, "groups", groups)
        set_(self, "suit_masks", suits)
        set_(self, "hearts_mask", suits[HEARTS])
        set_(self, "hand_size", (self.deck.bit_count() - self.kitty) // self.seats)
        set_(self, "card_points", tuple(points))
        set_(self, "penalty_mask", penalty)
        set_(self, "special_mask", special)
        set_(self, "counting_mask", layers(counting, copies) & self.deck)
        set_(self, "moon_total", self.penalty_points(penalty))
        set_(self, "first_lead", (clubs & -clubs).bit_length() - 1 if self.lead == "lowest_club" else -1)
        set_(self, "scoring", scoring_features(self))
        set_(self, "sides", tuple(self.teams[: self.seats]) if self.teams else tuple(range(self.seats)))
        set_(self, "breaking", suits[HEARTS] | (1 << QS if self.queen_breaks_hearts else 0))
        set_(self, "passes", tuple(_passing(form, self.seats) for form in self.pass_cycle or ("hold",)))

    def passing(self, hand_no: int) -> tuple[str, tuple[int, ...], int]:
        """Return a hand's ``pass_form``, ``pass_targets`` and ``pass_offset`` (worked out once per cycle)."""
        passes = self.passes
        return passes[hand_no % len(passes)]

    def pass_form(self, hand_no: int) -> str:
        """Return the passing form of a hand: "hold", "left", "right", "across", "scatter", "left_right" or "pot"."""
        return self.passing(hand_no)[0]

    def pass_targets(self, hand_no: int) -> tuple[int, ...]:
        """Return the offset each passed card of a hand goes to, in the order a seat lists them (0: the pot)."""
        return self.passing(hand_no)[1]

    def pass_offset(self, hand_no: int) -> int:
        """Return the one passing offset of a hand (at four seats 1 left, 2 across, 3 right); 0 when cards go apart."""
        return self.passing(hand_no)[2]

    def dealer(self, hand_no: int) -> int:
        """Return the dealer's seat of a hand: the last seat (East at four) deals the first, then it rotates."""
        return (self.seats - 1 + hand_no) % self.seats

    def points_of(self, taken: Mask) -> int:
        """Return the face points of a set of cards (no doubling, no cancelling, no moon)."""
        if not taken:
            return 0
        points = 0
        for m, v in self.groups:
            points += v * (taken & m).bit_count()
        return points

    def penalty_points(self, taken: Mask, doubled: Mask = 0) -> int:
        """Return one seat's points from its penalty cards: ``doubled`` holds the cards of its doubled tricks.

        The heart doubler doubles the points of its suit taken by the same seat; a canceller taken
        with the card it cancels takes that card's points away again.
        """
        pen = self.penalty_mask
        points = self.points_of(taken & pen)
        if doubled:
            points += self.points_of(doubled & pen)
        d = self.heart_doubler
        if d >= 0 and taken >> d & 1:
            suit = SUIT_MASKS[d // 13] & pen
            points += self.points_of(taken & suit) + self.points_of(doubled & suit)
        if self.cancel:
            by, gone = self.cancel
            if taken >> by & 1 and taken >> gone & 1:
                g = 1 << gone
                points -= self.points_of(taken & g) + self.points_of(doubled & g)
        if self.spade_ten:
            for _ in range(count(taken, TS)):  # each 10♠ taken: points doubled, or 5 off when there are none
                points = points * 2 if points > 0 else points - 5
        return points

    def bonus_points(self, taken: Mask, doubled: Mask = 0) -> int:
        """Return one seat's points from cards that are no penalty cards (the -10 jack, the -5 queen)."""
        bonus = self.counting_mask & ~self.penalty_mask  # every card worth points is in counting_mask
        if not bonus:
            return 0
        return self.points_of(taken & bonus) + self.points_of(doubled & bonus)

    def side_of(self, seat: int) -> int:
        """Return the side a seat plays for: its team, or the seat itself when everyone plays alone."""
        return self.teams[seat] if self.teams else seat

    def to_json(self) -> dict[str, Any]:
        """Return the host's options, enough to rebuild these rules with make_rules."""
        return dict(self.options)


#: The fields of ``Rules`` that change neither a hand's scores nor when a game ends: how the cards are dealt,
#: passed and played, the end scores' numbers, and the fields worked out from the others. Every other field is a
#: scoring feature (``scoring_features``): a field added to Rules counts as one until it is listed here.
UNSCORED = frozenset(
    {
        "variant", "options", "deck", "decks", "jokers", "seats", "kitty", "kitty_rule", "pass_cycle", "pass_count",
        "no_pass", "lead", "hearts_must_break", "queen_breaks_hearts", "first_trick_points", "queen_waits",
        "queen_must_go", "identical", "end_score", "turn_score",
        # worked out in __post_init__
        "hand_size", "penalty_mask", "moon_total", "card_points", "first_lead", "special_mask", "counting_mask",
        "counted", "suit_masks", "hearts_mask", "groups", "scoring", "sides", "passes", "breaking",
    }
)  # fmt: skip


def scoring_features(rules: Rules) -> frozenset[str]:
    """Return the features of ``rules`` that bear on scoring a hand or ending a game, by name.

    Read from the fields of ``Rules`` themselves: a field with a default is a feature (its name) when it is not
    at its default (``teams``, ``sun``, ``trick_doubler``); a field without one is named with its value
    (``moon=self``, ``end=dutch``); the point table is ``bonus_cards`` when a card outside the penalty cards is
    worth points. A fast scorer names the features it scores and refuses rules with any other.

    >>> from hartenjagen.shared.variants import make_rules
    >>> sorted(scoring_features(make_rules({"variant": "dutch"})))
    ['end=dutch', 'exact_zero=False', 'moon=choose', 'tie=share']
    """
    found = set()
    for f in fields(rules):
        if f.name in UNSCORED:
            continue
        value = getattr(rules, f.name)
        if f.name == "point_groups":
            if any(m & ~rules.penalty_mask for m, _ in value):
                found.add("bonus_cards")
        elif f.default is MISSING:
            found.add(f"{f.name}={value}")
        elif value != f.default:
            found.add(f.name)
    return frozenset(found)


def _passing(form: str, seats: int) -> tuple[str, tuple[int, ...], int]:
    """A passing form at a table of ``seats``: the form, each card's offset (0 to ``seats - 1``), the one offset."""
    targets = tuple((seats // 2 if t is None else t) % seats for t in PASS_FORMS[form])
    return form, targets, targets[0] if targets and len(set(targets)) == 1 else 0
