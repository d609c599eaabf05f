"""Deals: reproducible from a numbered seed on every machine, or from a secure random source.

>>> from hartenjagen.shared.rules import CLASSIC
>>> seeded_deal(CLASSIC, 7, 0) == seeded_deal(CLASSIC, 7, 0)
True
"""

from __future__ import annotations

import hashlib
import secrets

from .cards import Mask, mask_cards
from .rules import Rules


def _stream(key: str):
    """Yield 32-bit numbers from SHA-256 of ``key`` in counter mode: the same on every Python."""
    counter = 0
    while True:
        digest = hashlib.sha256(f"hartenjagen:{key}:{counter}".encode()).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        counter += 1


def _shuffle(cards: list[int], below) -> list[int]:
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _hands(rules: Rules, order: list[int]) -> list[Mask]:
    hands = [0, 0, 0, 0]
    for i, c in enumerate(order):
        hands[i % 4] |= 1 << c
    return hands


def seeded_deal(rules: Rules, seed: int, hand_no: int) -> list[Mask]:
    """Return the four hands of hand ``hand_no`` of numbered deal ``seed``."""
    return _hands(rules, keyed_shuffle(list(mask_cards(rules.deck)), f"{seed}:{hand_no}"))


def keyed_shuffle(cards: list[int], key: str) -> list[int]:
    """Shuffle ``cards`` in place by SHA-256 of ``key`` (the same order on every machine) and return them."""
    stream = _stream(key)

    def below(n: int) -> int:
        limit = (1 << 32) // n * n
        while True:
            v = next(stream)
            if v < limit:
                return v % n

    return _shuffle(cards, below)


def secure_deal(rules: Rules) -> list[Mask]:
    """Return four hands shuffled from the operating system's secure random source."""
    return _hands(rules, _shuffle(list(mask_cards(rules.deck)), secrets.randbelow))
