"""Deals: numbered deals are the same everywhere, secure deals are fair partitions of the deck."""

import pytest

from hartenjagen.shared.cards import mask_names
from hartenjagen.shared.deal import secure_deal, seeded_deal
from hartenjagen.shared.variants import CLASSIC, DUTCH


def _is_partition(rules, hands) -> bool:
    union = 0
    for h in hands:
        if h.bit_count() != rules.hand_size or h & union:
            return False
        union |= h
    return union == rules.deck


@pytest.mark.parametrize("rules", [CLASSIC, DUTCH], ids=["classic", "dutch"])
def test_every_deal_splits_the_variants_deck_into_four_equal_hands(rules):
    for seed in range(50):
        assert _is_partition(rules, seeded_deal(rules, seed, seed % 7))
    for _ in range(20):
        assert _is_partition(rules, secure_deal(rules))


def test_a_numbered_deal_is_the_same_every_time_and_differs_by_seed_and_hand_number():
    deals = {tuple(seeded_deal(CLASSIC, seed, n)) for seed in range(20) for n in range(5)}
    assert len(deals) == 100
    assert seeded_deal(CLASSIC, 20, 3) == seeded_deal(CLASSIC, 20, 3)


def test_numbered_deal_1_is_pinned_so_a_deal_number_means_the_same_cards_on_every_machine_and_version():
    # Deals come from SHA-256, not from Python's random module; if this changes, old deal numbers change.
    assert mask_names(seeded_deal(CLASSIC, 1, 0)[0]) == "2C 4C JC 3D 6D KD 3S 8S QS KS 8H TH AH".split()
    assert mask_names(seeded_deal(DUTCH, 1, 0)[3]) == "JC KC 9D AD 9S QS KS 7H".split()


def test_secure_deals_differ_from_each_other():
    assert len({tuple(secure_deal(CLASSIC)) for _ in range(10)}) == 10


def test_each_card_lands_in_each_seat_about_equally_often():
    counts = [[0] * 4 for _ in range(52)]
    n = 800
    for seed in range(n):
        for seat, h in enumerate(seeded_deal(CLASSIC, seed, 0)):
            for c in range(52):
                counts[c][seat] += h >> c & 1
    # Expected 200 per card and seat; 5.5 standard deviations (about 67) either way would be a broken shuffle.
    assert all(130 < x < 270 for row in counts for x in row)
