"""Which cards a seat may play, and the reason given for every other card, as a table of positions."""

import pytest

from hartenjagen.shared.cards import CLUBS, DIAMONDS, HEARTS, SPADES, mask_cards, mask_names
from hartenjagen.shared.legal import legal_mask, refusal
from hartenjagen.shared.variants import make_rules

from .scripts import hand, names

LEAD = -1
# (why, options, hand, led suit or LEAD, first trick, hearts broken, legal cards, {refused card: reason code})
POSITIONS = [
    (
        "the holder of 2C must lead it to the first trick",
        {},
        "2C 9C QS 2H AH",
        LEAD,
        True,
        False,
        "2C",
        {"9C": "must_lead_first", "QS": "must_lead_first", "2H": "must_lead_first", "AH": "must_lead_first"},
    ),
    (
        "follow suit when you can",
        {},
        "3C 9C 5D QS 2H",
        CLUBS,
        False,
        False,
        "3C 9C",
        {"5D": "must_follow_suit", "QS": "must_follow_suit", "2H": "must_follow_suit"},
    ),
    (
        "void in the led suit: any card after the first trick, points included",
        {},
        "5D QS 2H",
        CLUBS,
        False,
        False,
        "5D QS 2H",
        {},
    ),
    (
        "void in clubs on the first trick: no heart and no QS while holding anything else",
        {},
        "5D KS QS 2H AH",
        CLUBS,
        True,
        False,
        "5D KS",
        {"QS": "no_points_first_trick", "2H": "no_points_first_trick", "AH": "no_points_first_trick"},
    ),
    (
        "void in clubs on the first trick holding only hearts and QS: any of them",
        {},
        "QS 2H AH",
        CLUBS,
        True,
        False,
        "QS 2H AH",
        {},
    ),
    (
        "the option 'points on the first trick' lifts the restriction",
        {"first_trick_points": True},
        "5D QS 2H",
        CLUBS,
        True,
        False,
        "5D QS 2H",
        {},
    ),
    (
        "hearts may not be led before they are broken",
        {},
        "4C QS 2H AH",
        LEAD,
        False,
        False,
        "4C QS",
        {"2H": "hearts_not_broken", "AH": "hearts_not_broken"},
    ),
    (
        "a leader holding only hearts plus QS must lead QS",
        {},
        "QS 2H AH",
        LEAD,
        False,
        False,
        "QS",
        {"2H": "hearts_not_broken", "AH": "hearts_not_broken"},
    ),
    (
        "a leader holding only hearts may lead one before they are broken",
        {},
        "2H 9H AH",
        LEAD,
        False,
        False,
        "2H 9H AH",
        {},
    ),
    (
        "once hearts are broken they may be led",
        {},
        "4C QS 2H",
        LEAD,
        False,
        True,
        "4C QS 2H",
        {},
    ),
    (
        "following with hearts is always allowed after the first trick, broken or not",
        {},
        "2H AH",
        DIAMONDS,
        False,
        False,
        "2H AH",
        {},
    ),
    (
        "dutch: the first lead is free, hearts, QS and JC included",
        {"variant": "dutch"},
        "7C JC QS 7H AH",
        LEAD,
        True,
        False,
        "7C JC QS 7H AH",
        {},
    ),
    (
        "dutch: no hearts-breaking rule",
        {"variant": "dutch"},
        "7C 7H",
        LEAD,
        False,
        False,
        "7C 7H",
        {},
    ),
    (
        "dutch: follow suit as usual",
        {"variant": "dutch"},
        "7C JC QS 7H",
        SPADES,
        True,
        False,
        "QS",
        {"7C": "must_follow_suit", "JC": "must_follow_suit", "7H": "must_follow_suit"},
    ),
    (
        "dutch with points forbidden on the first trick: no JC, QS or heart to lead it",
        {"variant": "dutch", "first_trick_points": False},
        "7C JC QS 7H",
        LEAD,
        True,
        False,
        "7C",
        {"JC": "no_points_first_trick", "QS": "no_points_first_trick", "7H": "no_points_first_trick"},
    ),
    (
        "following suit beats the first-trick restriction: the only spade is QS",
        {"variant": "dutch", "first_trick_points": False},
        "7C QS 7H",
        SPADES,
        True,
        False,
        "QS",
        {"7C": "must_follow_suit", "7H": "must_follow_suit"},
    ),
    (
        "the minus-ten jack of diamonds is no point card on the first trick",
        {"jack_of_diamonds": -10},
        "JD QS 2H",
        CLUBS,
        True,
        False,
        "JD",
        {"QS": "no_points_first_trick", "2H": "no_points_first_trick"},
    ),
    (
        "a single card is always playable",
        {},
        "AH",
        SPADES,
        True,
        False,
        "AH",
        {},
    ),
]


@pytest.mark.parametrize(
    ("options", "cards", "led", "first", "broken", "legal", "refused"),
    [pytest.param(*row[1:], id=row[0]) for row in POSITIONS],
)
def test_legal_cards_and_the_reason_for_every_other_card(options, cards, led, first, broken, legal, refused):
    rules = make_rules(options)
    h = hand(cards)
    got = legal_mask(rules, h, led, first, broken)
    assert mask_names(got) == names(legal)
    reasons = {mask_names(1 << c)[0]: refusal(rules, h, led, first, broken, c)[0] for c in mask_cards(h & ~got)}
    assert reasons == refused


def test_the_follow_suit_reason_names_the_led_suit():
    rules = make_rules({})
    assert refusal(rules, hand("3C 5D"), CLUBS, False, False, hand("5D").bit_length() - 1) == (
        "must_follow_suit",
        {"suit": CLUBS},
    )


def test_the_first_lead_reason_names_the_card():
    rules = make_rules({})
    code, params = refusal(rules, hand("2C 2H"), LEAD, True, False, hand("2H").bit_length() - 1)
    assert (code, params) == ("must_lead_first", {"first": "2C"})


def test_a_legal_set_is_never_empty_and_never_leaves_the_hand():
    import random

    rng = random.Random(5)
    for options in (
        {},
        {"variant": "dutch"},
        {"first_trick_points": True},
        {"variant": "dutch", "first_trick_points": False},
    ):
        rules = make_rules(options)
        deck = list(mask_cards(rules.deck))
        for _ in range(300):
            h = sum(1 << c for c in rng.sample(deck, rng.randint(1, rules.hand_size)))
            for led in (LEAD, CLUBS, DIAMONDS, SPADES, HEARTS):
                for first in (True, False):
                    for broken in (True, False):
                        got = legal_mask(rules, h, led, first, broken)
                        assert got and not got & ~h
