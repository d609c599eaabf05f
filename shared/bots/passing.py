"""Choosing the cards to pass (the passing tips for computer players): dangerous spades, short suits, high hearts."""

from __future__ import annotations

from ..cards import CLUBS, DIAMONDS, HEARTS, JOKER, QS, SPADES, SUIT_MASKS, SUIT_OF, Mask, mask_cards
from ..rules import Rules

AS, KS = QS + 2, QS + 1


def is_moon_hand(rules: Rules, hand: Mask) -> bool:
    """Return True for a hand worth shooting the moon with (tip 8): top hearts, high long suits, control of Q♠."""
    hearts = hand & SUIT_MASKS[HEARTS]
    top3 = (SUIT_MASKS[HEARTS] >> 10 << 10) & rules.deck  # A, K, Q of hearts
    if hearts & top3 != top3 or hearts.bit_count() < rules.hand_size // 3:
        return False
    spade_ok = hand >> QS & 1 or hand >> AS & 1 and hand >> KS & 1
    if not spade_ok:
        return False
    high = sum(1 for c in mask_cards(hand) if c % 13 >= 9)
    lows = sum(1 for c in mask_cards(hand & ~SUIT_MASKS[HEARTS]) if c % 13 < 6)
    return high >= rules.hand_size * 0.55 and lows <= 1


def choose_pass(rules: Rules, hand: Mask, count: int) -> Mask:
    """Return ``count`` cards to pass from ``hand`` following tips 1, 2, 3 and 8 (never a card the rules keep)."""
    passable = hand & ~rules.no_pass
    if is_moon_hand(rules, hand):
        return _lowest(rules, passable, count)
    chosen = 0
    spades = hand & SUIT_MASKS[SPADES]
    low_spades = (spades & ((1 << QS) - 1)).bit_count()
    has_qs = bool(hand >> QS & 1)
    # tip 2: Q♠ goes when short in spades (one to three other low spades cannot hold her)
    if has_qs and low_spades <= 2 and passable >> QS & 1:
        chosen |= 1 << QS
    # tip 1: A♠ and K♠ without enough low spades to protect them
    if low_spades <= 2 and not (has_qs and not chosen):
        for c in (AS, KS):
            if passable >> c & 1 and chosen.bit_count() < count:
                chosen |= 1 << c
    # tip 3: empty a short side suit when it fits in the remaining slots (highest cards first)
    room = count - chosen.bit_count()
    shorts = []
    for s in (CLUBS, DIAMONDS):
        m = hand & SUIT_MASKS[s]
        if 0 < m.bit_count() <= room and not m & rules.no_pass:
            shorts.append((m.bit_count(), -_top_rank(m), m))
    if shorts:
        shorts.sort()
        chosen |= shorts[0][2]
    # the rest: the most dangerous cards left
    rest = passable & ~chosen
    ranked = sorted(mask_cards(rest), key=lambda c: _danger(c, hand, has_qs and not chosen >> QS & 1), reverse=True)
    for c in ranked[: count - chosen.bit_count()]:
        chosen |= 1 << c
    return chosen


def _danger(c: int, hand: Mask, keeping_qs: bool) -> float:
    """Return how much a card hurts its holder: high cards, high hearts, A♠/K♠ while Q♠ is out."""
    if c == JOKER:
        return 15.0  # the first joker played takes its trick: as bad as a high heart
    suit, rank = SUIT_OF[c], c % 13
    if suit == SPADES:
        if c == QS:
            return 30.0
        if c > QS:
            return 5.0 if keeping_qs else 20.0 + rank
        return rank - 6.0  # low spades protect against the queen: keep them
    if suit == HEARTS:
        return rank + 2.5
    n = (hand & SUIT_MASKS[suit]).bit_count()
    return rank + (2.0 if n <= 3 else 0.0)


def _lowest(rules: Rules, hand: Mask, count: int) -> Mask:
    """Return the lowest non-heart cards (a moon hand passes its losers)."""
    cards = sorted(mask_cards(hand), key=lambda c: (SUIT_OF[c] == HEARTS, c % 13))
    m = 0
    for c in cards[:count]:
        m |= 1 << c
    return m


def _top_rank(m: Mask) -> int:
    return (m.bit_length() - 1) % 13
