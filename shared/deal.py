"""Deals: reproducible from a numbered seed on every machine, or from a secure random source.

>>> from hartenjagen.shared.rules import CLASSIC
>>> seeded_deal(CLASSIC, 7, 0) == seeded_deal(CLASSIC, 7, 0)
True
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Callable, Iterator
from functools import lru_cache

from .cards import Mask
from .multiset import cards, from_cards
from .rules import Rules

_WORDS = struct.Struct(">8I")  # a SHA-256 digest as eight big-endian 32-bit numbers


def _stream(key: str) -> Iterator[int]:
    """Yield 32-bit numbers from SHA-256 of ``key`` in counter mode: the same on every Python."""
    counter = 0
    while True:
        yield from _WORDS.unpack(hashlib.sha256(f"hartenjagen:{key}:{counter}".encode()).digest())
        counter += 1


def _shuffle(cards: list[int], below: Callable[[int], int]) -> list[int]:
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _hands(rules: Rules, order: list[int]) -> list[Mask]:
    """Deal ``order`` round the table: card i to seat i % n; the last ``rules.kitty`` cards are the kitty.

    The list holds one hand per seat and, where the variant has a kitty, the kitty's mask last.
    """
    n = rules.seats
    dealt = order[: len(order) - rules.kitty]
    hands = []
    for seat in range(n):
        if rules.counted:  # two of a card may land in one hand
            hands.append(from_cards(dealt[seat::n]))
            continue
        hand = 0
        for c in dealt[seat::n]:
            hand |= 1 << c
        hands.append(hand)
    if rules.kitty:
        hands.append(from_cards(order[len(dealt) :]))
    return hands


@lru_cache(maxsize=64)
def _deck(deck: Mask) -> tuple[int, ...]:
    """The cards of a deck, low to high, each as often as the deck holds it (worked out once per deck)."""
    return tuple(cards(deck))


def seeded_deal(rules: Rules, seed: int, hand_no: int) -> list[Mask]:
    """Return the hands (and kitty) of hand ``hand_no`` of numbered deal ``seed``."""
    return _hands(rules, keyed_shuffle(list(_deck(rules.deck)), f"{seed}:{hand_no}"))


def keyed_shuffle(cards: list[int], key: str) -> list[int]:
    """Shuffle ``cards`` in place by SHA-256 of ``key`` (the same order on every machine) and return them.

    A Fisher-Yates shuffle drawing from ``_stream(key)``: each draw below ``n`` rejects the numbers past the last
    whole multiple of ``n`` (no bias). Written out rather than through ``_stream``: a deal is on every hand's path.
    """
    words: list[int] = []
    at = counter = 0
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 32) // n * n
        while True:
            if at == len(words):
                words.extend(_WORDS.unpack(hashlib.sha256(f"hartenjagen:{key}:{counter}".encode()).digest()))
                counter += 1
            v = words[at]
            at += 1
            if v < limit:
                break
        j = v % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


_LIMITS = [0] + [(1 << 32) // n * n for n in range(1, 160)]  # per n: draws from this on are rejected


def secure_deal(rules: Rules) -> list[Mask]:
    """Return the hands (and kitty) shuffled from the operating system's secure random source."""
    return _hands(rules, _shuffle(list(_deck(rules.deck)), secrets.randbelow))
