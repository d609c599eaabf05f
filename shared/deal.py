"""Deals: reproducible from a numbered seed on every machine, or from a secure random source.

>>> from shared.rules import CLASSIC
>>> seeded_deal(CLASSIC, 7, 0) == seeded_deal(CLASSIC, 7, 0)
True
"""

from __future__ import annotations

import hashlib
import secrets

from .cards import Mask, mask_cards
from .rules import Rules


def _stream(seed: int, hand_no: int):
    """Yield 32-bit numbers from SHA-256 in counter mode: the same on every Python."""
    counter = 0
    while True:
        digest = hashlib.sha256(f"hartenjagen:{seed}:{hand_no}:{counter}".encode()).digest()
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
    stream = _stream(seed, hand_no)

    def below(n: int) -> int:
        limit = (1 << 32) // n * n
        while True:
            v = next(stream)
            if v < limit:
                return v % n

    return _hands(rules, _shuffle(list(mask_cards(rules.deck)), below))


def secure_deal(rules: Rules) -> list[Mask]:
    """Return four hands shuffled from the operating system's secure random source."""
    return _hands(rules, _shuffle(list(mask_cards(rules.deck)), secrets.randbelow))
