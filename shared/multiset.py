"""Hands where a card may appear more than once (two or three decks, two jokers): counts as layered masks.

A layered mask holds up to three copies of each card: bit ``c`` says "at least one", bit ``64 + c`` "at
least two", bit ``128 + c`` "three". A one-deck hand is a layered mask with only the first layer, so every
one-deck mask is already one, and ``bit_count`` is the number of cards either way. The first layer alone
(``m & LAYER0``) is the set of different cards: what the legality rules look at.

>>> from hartenjagen.shared.cards import parse_card
>>> qs = parse_card("QS")
>>> m = add_card(add_card(0, qs), qs)
>>> count(m, qs), m.bit_count(), count(remove_card(m, qs), qs)
(2, 2, 1)
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import CARD_NAMES, Mask, parse_card

LAYER = 64
LAYER0: Mask = (1 << LAYER) - 1


def layers(m: Mask, copies: int) -> Mask:
    """Return the layered mask holding ``copies`` of every card of the one-layer mask ``m``."""
    out = 0
    for k in range(copies):
        out |= m << (LAYER * k)
    return out


def count(m: Mask, c: int) -> int:
    """Return how many copies of card ``c`` the layered mask holds."""
    return (m >> c & 1) + (m >> (LAYER + c) & 1) + (m >> (2 * LAYER + c) & 1)


def add_card(m: Mask, c: int) -> Mask:
    """Return ``m`` with one more copy of ``c`` (at most three)."""
    for k in range(3):
        b = 1 << (LAYER * k + c)
        if not m & b:
            return m | b
    raise ValueError(f"more than three copies of {CARD_NAMES[c]}")


def remove_card(m: Mask, c: int) -> Mask:
    """Return ``m`` with one copy of ``c`` fewer (its highest layer goes); ``m`` must hold ``c``."""
    for k in (2, 1, 0):
        b = 1 << (LAYER * k + c)
        if m & b:
            return m ^ b
    raise ValueError(f"no {CARD_NAMES[c]} to take away")


def add(a: Mask, b: Mask) -> Mask:
    """Return the cards of both layered masks together (counts add up)."""
    if not (a >> LAYER or b >> LAYER or a & b):
        return a | b  # one layer each and no card in both: the one-deck case
    for c in cards(b):
        a = add_card(a, c)
    return a


def subtract(a: Mask, b: Mask) -> Mask:
    """Return ``a`` without the cards of ``b`` (counts subtract; ``a`` must hold them)."""
    if not (a >> LAYER or b >> LAYER):
        return a & ~b
    for c in cards(b):
        a = remove_card(a, c)
    return a


def cards(m: Mask) -> list[int]:
    """Return the cards of a layered mask with their copies, low to high (``["QS", "QS"]`` as two ints)."""
    out = []
    while m:
        low = m & -m
        out.append((low.bit_length() - 1) % LAYER)
        m ^= low
    out.sort()
    return out


def names(m: Mask) -> list[str]:
    """Return the card names of a layered mask with their copies, sorted by suit then rank."""
    return [CARD_NAMES[c] for c in cards(m)]


def parse(names_: Iterable[str]) -> Mask:
    """Return the layered mask of card names, a name as often as it is listed (at most three times)."""
    m = 0
    for name in names_:
        m = add_card(m, parse_card(name))
    return m


def from_cards(cs: Iterable[int]) -> Mask:
    """Return the layered mask of a list of cards, copies counted."""
    m = 0
    for c in cs:
        m = add_card(m, c)
    return m
