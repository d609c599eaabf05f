"""Cards as ints, hands as masks: names, parsing and the deck constants."""

import pytest

from hartenjagen.shared.cards import (
    CARD_NAMES,
    FULL_DECK,
    RANKS_FROM_7,
    SUIT_MASKS,
    card_name,
    mask_cards,
    mask_names,
    mask_of,
    parse_card,
    parse_mask,
    rank_of,
    suit_of,
)


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("2C", 0, 0),
        ("AC", 0, 12),
        ("TD", 1, 8),
        ("10D", 1, 8),
        ("QS", 2, 10),
        ("qs", 2, 10),
        (" ah ", 3, 12),
        ("7H", 3, 5),
    ],
)
def test_a_card_name_parses_to_its_suit_and_rank(text, suit, rank):
    c = parse_card(text)
    assert (suit_of(c), rank_of(c)) == (suit, rank)


@pytest.mark.parametrize("text", ["", "1C", "QX", "Q", "QSS", "11D", "10", "♠Q", None, 12, ["QS"]])
def test_anything_that_is_not_a_card_name_is_refused_with_its_value(text):
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_every_card_round_trips_through_its_name():
    assert [parse_card(card_name(c)) for c in range(53)] == list(range(53))  # the joker too: "JK"
    assert len(set(CARD_NAMES)) == 53 and card_name(52) == "JK"


def test_within_a_suit_a_higher_rank_is_a_higher_int():
    for suit in "CDSH":
        ranks = [parse_card(r + suit) for r in "23456789TJQKA"]
        assert ranks == sorted(ranks)


def test_mask_names_lists_clubs_first_and_aces_last_in_each_suit():
    assert mask_names(parse_mask(["AH", "2H", "QS", "2C", "TD"])) == ["2C", "TD", "QS", "2H", "AH"]


def test_parse_mask_refuses_a_card_named_twice_even_under_two_spellings():
    with pytest.raises(ValueError, match="duplicate card"):
        parse_mask(["TD", "10D"])


def test_mask_of_and_mask_cards_are_inverse():
    cards = [0, 12, 25, 36, 51]
    assert list(mask_cards(mask_of(cards))) == cards


def test_the_full_deck_holds_52_cards_in_four_suits_of_13():
    assert FULL_DECK.bit_count() == 52
    assert [m.bit_count() for m in SUIT_MASKS] == [13, 13, 13, 13]
    assert sum(SUIT_MASKS) == FULL_DECK


def test_the_dutch_deck_is_seven_to_ace_of_every_suit():
    assert RANKS_FROM_7.bit_count() == 32
    assert mask_names(RANKS_FROM_7 & SUIT_MASKS[3]) == ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]
    assert not RANKS_FROM_7 & parse_mask(["6C", "2D", "5S", "6H"])
