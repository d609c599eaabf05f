"""The variants as data (the house rules our players know): a point table, rule features and the options offered.

>>> from hartenjagen.shared.variants import make_rules
>>> make_rules({"variant": "hooligan"}).moon_total
33
>>> make_rules({"variant": "parker_brothers"}).moon_total
52
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import FULL_DECK, HEARTS_MASK, JOKER, QS, RANKS_FROM_7, Mask, parse_card, parse_mask
from .multiset import layers
from .rules import DUTCH_ENDS, JC, KITTY_RULES, MOON_RULES, PASSING_CYCLES, SEAT_CYCLES, TIE_RULES, Rules, RulesError

Groups = tuple[tuple[Mask, int], ...]
Option = str | int | bool  # the value of one option a host may set (True and 1 differ: their types are compared)
NINE = 7  # the rank index of the 9


def _card(name: str) -> Mask:
    return 1 << parse_card(name)


def _hearts(values: Mapping[str, int], other: int = 1) -> Groups:
    """Hearts worth ``other`` each, except the named ones (e.g. ``{"AH": 5}``)."""
    named = parse_mask(values)
    return ((HEARTS_MASK & ~named, other),) + tuple((_card(n), v) for n, v in values.items())


def _spot(form: int) -> Groups:
    """Spot hearts: form 1 J2 Q3 K4 A5; form 2 every heart its pips (J 11 .. A 14); form 3 J..A 10 each."""
    if form == 1:
        return _hearts({"JH": 2, "QH": 3, "KH": 4, "AH": 5}) + ((_card("QS"), 13),)
    pips = {r + "H": i + 2 for i, r in enumerate("23456789TJQKA")}
    if form == 3:
        pips.update({r + "H": 10 for r in "JQKA"})
    return tuple((_card(n), v) for n, v in pips.items()) + ((_card("QS"), 25),)


def _dutch_points(c: dict[str, Any], deck: Mask) -> Groups:
    groups: Groups = ((HEARTS_MASK & deck, 1), (1 << QS, c["queen_value"]))
    if c["jack_of_clubs"]:
        groups += ((1 << JC, c["jack_of_clubs"]),)
    return groups


#: The passing cycles of a table without an across: ``cycle`` is the seat count's own (see ``SEAT_CYCLES``).
FEW_PASSING = ("cycle", "off", "left", "right")
#: Dutch Hearts for five: the 32 piquet cards and the sixes of spades, diamonds and clubs (7 cards each).
DUTCH5_DECK: Mask = RANKS_FROM_7 | parse_mask(["6S", "6D", "6C"])
#: Hearts for three: the card left out so that 51 share out (named in words: an option never names a card).
REMOVABLE = {"two_of_diamonds": "2D", "three_of_clubs": "3C"}
CLASSIC_POINTS: Groups = ((HEARTS_MASK, 1), (1 << QS, 13))
_GENTLEMEN = {"gentleman_3": False, "gentleman_4": False}
CLASSIC_OPTIONS: dict[str, Any] = {
    "passing": "cycle",
    "queen_breaks_hearts": False,
    "end_score": 100,
    "moon": "others",
    "jack_of_diamonds": 0,
    "tie": "share",
    "first_trick_points": False,
    **_GENTLEMEN,
}
DUTCH_OPTIONS: dict[str, Any] = {
    "passing": "off",
    "turn_score": 50,
    "dutch_end": "at_or_below_zero",
    "queen_value": 5,
    "jack_of_clubs": 2,
    "moon": "choose",
    "jack_of_diamonds": 0,
    "tie": "share",
    "first_trick_points": True,
    **_GENTLEMEN,
}


def _without(options: dict[str, Any], *names: str, **more: Any) -> dict[str, Any]:
    out = {k: v for k, v in options.items() if k not in names}
    out.update(more)
    return out


@dataclass(frozen=True)
class Variant:
    """One variant: its deck, its points (from the chosen options), fixed rule features and offered options."""

    options: dict[str, Any]  # the options a host may set, with their defaults
    points: Callable[[dict[str, Any]], Groups]
    fixed: Mapping[str, Any]  # Rules fields this variant always has
    deck: Mask = FULL_DECK
    dutch: bool = False  # the Dutch family: free lead left of the dealer, two halves
    seats: int = 4
    kitty: int = 0  # cards dealt face down to the middle
    choices: Mapping[str, tuple[Option, ...]] | None = None  # options whose choices differ from the usual ones here
    decks: int = 1  # 0: as many as the ``seats`` option needs (two, three from eleven seats)
    jokers: int = 0


VARIANTS: dict[str, Variant] = {
    "classic": Variant(CLASSIC_OPTIONS, lambda c: CLASSIC_POINTS, {}),
    "dutch": Variant(DUTCH_OPTIONS, lambda c: _dutch_points(c, RANKS_FROM_7), {}, deck=RANKS_FROM_7, dutch=True),
    "omnibus": Variant(
        _without(CLASSIC_OPTIONS, "jack_of_diamonds", bonus_card="jack"),
        lambda c: CLASSIC_POINTS + ((_card({"jack": "JD", "ten": "TD"}[c["bonus_card"]]), -10),),
        {},
    ),
    "spot_hearts": Variant({**CLASSIC_OPTIONS, "spot_form": 1}, lambda c: _spot(c["spot_form"]), {}),
    "hooligan": Variant(CLASSIC_OPTIONS, lambda c: CLASSIC_POINTS + ((_card("7C"), 7),), {}),
    "black_maria": Variant(
        _without(CLASSIC_OPTIONS, "passing", "queen_breaks_hearts"),
        lambda c: _hearts({"JH": 2, "QH": 3, "KH": 4, "AH": 5}) + ((_card("QS"), 15),),
        {"pass_cycle": PASSING_CYCLES["right"], "hearts_must_break": False},
    ),
    "parker_brothers": Variant(
        _without(CLASSIC_OPTIONS, "jack_of_diamonds"),
        lambda c: ((HEARTS_MASK, 1), (_card("QS"), 26), (_card("QD"), -10)),
        {"heart_doubler": parse_card("QH"), "cancel": (parse_card("QC"), QS)},
    ),
    "belgian": Variant(
        _without(CLASSIC_OPTIONS, "passing", "queen_breaks_hearts", "gentleman_4"),  # nobody passes: no rule 4
        lambda c: CLASSIC_POINTS,
        {"pass_cycle": (), "queen_breaks_hearts": True, "queen_waits": True},
    ),
    "achterhoeks": Variant(
        {
            "passing": "achterhoeks",
            "end_score": 100,
            "doubling_nine": True,
            "tie": "share",
            "first_trick_points": False,
            "gentleman_4": False,  # Q♠ carries no points here: rule 3 has nothing to do
        },
        lambda c: ((HEARTS_MASK, 1), (_card("JC"), 7), (_card("KS"), 5), (_card("QD"), -5)),
        {"teams": (0, 1, 0, 1), "sun": 52, "moon": "others"},
    ),
    "achterhoeks_bar": Variant(
        {
            "passing": "achterhoeks",
            "end_score": 50,
            "doubling_nine": True,
            "tie": "share",
            "first_trick_points": False,
            "gentleman_4": False,  # Q♠ carries no points here: rule 3 has nothing to do
        },
        lambda c: ((HEARTS_MASK, 1), (_card("JS"), 8)),
        {"sun": 16, "moon": "none", "end_over": True},
    ),
    "chips": Variant(
        {"start_chips": 20, "ante": 1, "hand_limit": 20, "tie": "share", "first_trick_points": False},  # no Q♠, no pass
        lambda c: ((HEARTS_MASK, 1),),
        {"pass_cycle": (), "moon": "none", "end": "chips"},
    ),
    "dutch52": Variant(DUTCH_OPTIONS, lambda c: _dutch_points(c, FULL_DECK), {}, dutch=True),
    # Three and five players: one deck, without the cards that do not share out, or with a kitty.
    "three": Variant(
        {**_without(CLASSIC_OPTIONS, "jack_of_diamonds"), "removed": "two_of_diamonds"},
        lambda c: CLASSIC_POINTS,
        {},
        seats=3,
        choices={"passing": FEW_PASSING},
    ),
    "three_kitty": Variant(
        {**_without(CLASSIC_OPTIONS, "jack_of_diamonds"), "kitty": "first_trick"},
        lambda c: CLASSIC_POINTS,
        {"lead": "left_of_dealer"},
        seats=3,
        kitty=1,
        choices={"passing": FEW_PASSING, "kitty": ("first_trick", "first_points")},
    ),
    "five": Variant(
        _without(CLASSIC_OPTIONS, "jack_of_diamonds"),
        lambda c: CLASSIC_POINTS,
        {},
        deck=FULL_DECK & ~(_card("2D") | _card("3C")),
        seats=5,
        choices={"passing": FEW_PASSING},
    ),
    "five_kitty": Variant(
        {**_without(CLASSIC_OPTIONS, "jack_of_diamonds"), "kitty": "first_trick"},
        lambda c: CLASSIC_POINTS,
        {"lead": "left_of_dealer"},
        seats=5,
        kitty=2,
        choices={"passing": FEW_PASSING, "kitty": ("first_trick", "first_two")},
    ),
    "three_jokers": Variant(
        _without(CLASSIC_OPTIONS, "jack_of_diamonds"),
        lambda c: ((HEARTS_MASK | 1 << JOKER, 1), (_card("QS"), 15)),
        {},
        seats=3,
        jokers=2,
        choices={"passing": FEW_PASSING},
    ),
    # Six to twelve players: two decks (three from eleven), identical cards in a trick cancel.
    "cancellation": Variant(
        {
            "seats": 6,
            "passing": "cycle",
            "queen_breaks_hearts": False,
            "end_score": 100,
            "moon": "others",
            "tie": "share",
            "first_trick_points": False,
            "kitty": "first_trick",
            "spade_ten": False,
        },
        lambda c: CLASSIC_POINTS,
        {"identical": "cancel"},
        decks=0,
        choices={"passing": FEW_PASSING, "kitty": ("first_trick", "first_points")},
    ),
    # Eight players, two decks: of two identical cards in a trick the first played ranks higher.
    "extreme": Variant(
        _without(CLASSIC_OPTIONS, "jack_of_diamonds"),
        lambda c: CLASSIC_POINTS,
        {"identical": "first_wins"},
        seats=8,
        decks=2,
        choices={"passing": FEW_PASSING},
    ),
    "dutch5": Variant(
        DUTCH_OPTIONS,
        lambda c: _dutch_points(c, DUTCH5_DECK),
        {},
        deck=DUTCH5_DECK,
        dutch=True,
        seats=5,
        choices={"passing": FEW_PASSING},
    ),
}

#: Each variant's name in English and in Dutch, for sentences.
NAMES: dict[str, tuple[str, str]] = {
    "classic": ("classic Hearts", "klassiek hartenjagen"),
    "dutch": ("Dutch Hearts", "Nederlands hartenjagen"),
    "omnibus": ("Omnibus Hearts", "Omnibus-hartenjagen"),
    "spot_hearts": ("spot hearts", "hartenjagen met puntwaarden"),
    "hooligan": ("Hooligan Hearts", "Hooligan-hartenjagen"),
    "black_maria": ("Black Maria", "Black Maria (Brits hartenjagen)"),
    "parker_brothers": ("Parker Brothers Hearts", "hartenjagen van Parker Brothers"),
    "belgian": ("Belgian Hearts", "Belgisch hartenjagen"),
    "achterhoeks": ("Achterhoeks Hearts", "Achterhoeks hartenjagen"),
    "achterhoeks_bar": ("Achterhoeks Hearts, bar form", "Achterhoeks hartenjagen, kroegvorm"),
    "chips": ("traditional Hearts with chips", "traditioneel hartenjagen met fiches"),
    "dutch52": ("Dutch Hearts with 52 cards", "Nederlands hartenjagen met 52 kaarten"),
    "three": ("Hearts for three", "hartenjagen met drie"),
    "three_kitty": ("Hearts for three with a kitty", "hartenjagen met drie en een kitty"),
    "five": ("Hearts for five", "hartenjagen met vijf"),
    "five_kitty": ("Hearts for five with two kitties", "hartenjagen met vijf en twee kitty's"),
    "dutch5": ("Dutch Hearts for five", "Nederlands hartenjagen met vijf"),
    "three_jokers": ("Hearts for three with two jokers", "hartenjagen met drie en twee jokers"),
    "cancellation": ("Cancellation Hearts (six to twelve)", "Cancellation-hartenjagen (zes tot twaalf)"),
    "extreme": ("Extreme Hearts (eight)", "Extreem hartenjagen (acht)"),
}

_CHOICES: dict[str, tuple[Option, ...]] = {
    "passing": tuple(PASSING_CYCLES),
    "queen_breaks_hearts": (False, True),
    "moon": MOON_RULES,
    "jack_of_diamonds": (0, -10),
    "tie": TIE_RULES,
    "first_trick_points": (False, True),
    "dutch_end": DUTCH_ENDS,
    "queen_value": (5, 13),
    "jack_of_clubs": (2, 0),
    "bonus_card": ("jack", "ten"),
    "spot_form": (1, 2, 3),
    "doubling_nine": (False, True),
    "gentleman_3": (False, True),
    "gentleman_4": (False, True),
    "removed": tuple(REMOVABLE),
    "spade_ten": (False, True),
    "kitty": KITTY_RULES,
}
_RANGES = {
    "end_score": (25, 500),
    "turn_score": (25, 200),
    "start_chips": (4, 200),
    "ante": (1, 20),
    "hand_limit": (0, 500),
    "seats": (6, 12),
}


def _check(option: str, value: object, choices: Mapping[str, tuple[Option, ...]] | None = None) -> Option:
    if option in _RANGES:
        lo, hi = _RANGES[option]
        if type(value) is not int or not lo <= value <= hi:
            raise RulesError(
                option, f"must be a whole number from {lo} to {hi}, got {value!r}", "int_range", low=lo, high=hi
            )
        return value
    allowed = (choices or {}).get(option) or _CHOICES[option]
    for choice in allowed:
        if value == choice and type(value) is type(choice):
            return choice  # the same value as ``value``, of the same type
    raise RulesError(option, f"must be one of {list(allowed)!r}, got {value!r}", "one_of", choices=list(allowed))


def build(options: Mapping[str, Any] | None) -> Rules:
    """Build validated Rules from a host's options: the variant's table entry plus the chosen options."""
    options = dict(options or {})
    variant = options.pop("variant", "classic")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RulesError(
            "variant", f"must be one of {list(VARIANTS)!r}, got {variant!r}", "one_of", choices=list(VARIANTS)
        )
    spec = VARIANTS[variant]
    chosen = dict(spec.options)
    for key, value in options.items():
        if key not in chosen:
            raise RulesError(key, f"unknown option for {NAMES[variant][0]}", "unknown_option", variant=variant)
        chosen[key] = _check(key, value, spec.choices)
    seats = chosen.get("seats", spec.seats)
    decks = spec.decks or (3 if seats >= 11 else 2)
    deck = layers(spec.deck & ~(_card(REMOVABLE[chosen["removed"]]) if "removed" in chosen else 0), decks)
    deck |= layers(1 << JOKER, spec.jokers)
    kitty = spec.kitty if spec.decks else deck.bit_count() % seats  # a remainder goes to kitties
    cycle = PASSING_CYCLES[chosen["passing"]] if "passing" in chosen else ()
    if chosen.get("passing") == "cycle" and seats in SEAT_CYCLES:
        cycle = SEAT_CYCLES[seats]
    groups = spec.points(chosen)
    if chosen.get("jack_of_diamonds"):
        groups += ((_card("JD"), chosen["jack_of_diamonds"]),)
    fields: dict[str, Any] = {
        "variant": variant,
        "deck": deck,
        "point_groups": groups,
        "pass_cycle": cycle,
        "pass_count": 3,
        "lead": "left_of_dealer" if spec.dutch else "lowest_club",
        "hearts_must_break": not spec.dutch,
        "queen_breaks_hearts": chosen.get("queen_breaks_hearts", False),
        "first_trick_points": chosen["first_trick_points"],
        "moon": chosen.get("moon", "others"),
        "end": "dutch" if spec.dutch else "reach",
        "end_score": chosen.get("end_score", 0),
        "turn_score": chosen.get("turn_score", 0),
        "exact_zero": chosen.get("dutch_end") == "exactly_zero",
        "tie": chosen["tie"],
        "queen_must_go": chosen.get("gentleman_3", False),
        "no_pass": (_card("2C") | _card("QS")) & deck if chosen.get("gentleman_4") else 0,
        "trick_doubler": NINE if chosen.get("doubling_nine") else -1,
        "start_chips": chosen.get("start_chips", 0),
        "ante": chosen.get("ante", 0),
        "hand_limit": chosen.get("hand_limit", 0),
        "seats": seats,
        "kitty": kitty,
        "kitty_rule": chosen.get("kitty", "first_trick"),
        "decks": decks,
        "jokers": spec.jokers,
        "spade_ten": chosen.get("spade_ten", False),
        "options": {"variant": variant, **chosen},
    }
    fields.update(spec.fixed)
    rules = Rules(**fields)
    _check_sense(rules, variant)
    return rules


def _check_sense(rules: Rules, variant: str) -> None:
    """Refuse options that make no sense together with the variant's own rules."""
    if rules.no_pass and not rules.pass_cycle:
        raise RulesError(
            "gentleman_4",
            f"nobody passes cards in {NAMES[variant][0]} with these options",
            "no_passing",
            variant=variant,
        )


def make_rules(options: Mapping[str, Any] | None = None) -> Rules:
    """Build validated Rules from a host's options (missing ones take the variant's default)."""
    return build(options)


CLASSIC = make_rules()  # the default rules: classic Black Lady
DUTCH = make_rules({"variant": "dutch"})
