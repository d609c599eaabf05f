"""Deals: reproducible from a numbered seed on every machine, or from a secure random source.

>>> from hartenjagen.shared.variants import CLASSIC
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
_BITS = tuple(1 << c for c in range(53))  # each card's bit


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
    """Deal ``order`` (``_pack``) round the table: item i to seat i % n; the last ``rules.kitty`` are the kitty.

    The list holds one hand per seat and, where the variant has a kitty, the kitty's mask last.
    """
    n = rules.seats
    end = len(order) - rules.kitty
    join: Callable[[list[int]], Mask] = from_cards if rules.counted else sum  # one deck: different bits add up
    hands = [join(order[seat:end:n]) for seat in range(n)]
    if rules.kitty:
        hands.append(join(order[end:]))
    return hands


def _pack(rules: Rules) -> list[int]:
    """The deck to shuffle: each card's bit where the deck holds each card once, else the cards (a card twice)."""
    return list(_deck(rules.deck) if rules.counted else _deck_bits(rules.deck))


@lru_cache(maxsize=64)
def _deck(deck: Mask) -> tuple[int, ...]:
    """The cards of a deck, low to high, each as often as the deck holds it (worked out once per deck)."""
    return tuple(cards(deck))


@lru_cache(maxsize=64)
def _deck_bits(deck: Mask) -> tuple[int, ...]:
    """The bit of each card of a one-deck deck, low to high (worked out once per deck)."""
    return tuple(_BITS[c] for c in cards(deck))


def seeded_deal(rules: Rules, seed: int, hand_no: int) -> list[Mask]:
    """Return the hands (and kitty) of hand ``hand_no`` of numbered deal ``seed``."""
    return _hands(rules, keyed_shuffle(_pack(rules), f"{seed}:{hand_no}"))


def keyed_shuffle(cards: list[int], key: str) -> list[int]:
    """Shuffle ``cards`` in place by SHA-256 of ``key`` (the same order on every machine) and return them.

    A Fisher-Yates shuffle drawing from ``_stream(key)``: each draw below ``n`` rejects the numbers past the last
    whole multiple of ``n`` (no bias). Written out rather than through ``_stream``: a deal is on every hand's path.
    The digests for one draw per card are made at once; a rejected draw (about one in a hundred million) reads on.
    """
    size = len(cards)
    need = (size + 6) // 8  # digests of eight words for the size - 1 draws
    head = hashlib.sha256(f"hartenjagen:{key}:".encode())  # each digest goes on from this one's state
    digests = []
    for counter in range(need):
        h = head.copy()
        h.update(b"%d" % counter)
        digests.append(h.digest())
    words = list(struct.unpack(f">{8 * need}I", b"".join(digests)))
    limits = _LIMITS if size < len(_LIMITS) else [(1 << 32) // n * n if n else 0 for n in range(size + 1)]
    at = 0
    for i in range(size - 1, 0, -1):
        n = i + 1
        v = words[at]
        at += 1
        while v >= limits[n]:  # past the last whole multiple of n: draw again
            if len(words) - at < i:  # a word for this draw and each one after it
                words.extend(_WORDS.unpack(hashlib.sha256(f"hartenjagen:{key}:{len(words) // 8}".encode()).digest()))
            v = words[at]
            at += 1
        j = v % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


_LIMITS = [0] + [(1 << 32) // n * n for n in range(1, 160)]  # per n: draws from this on are rejected


def secure_deal(rules: Rules) -> list[Mask]:
    """Return the hands (and kitty) shuffled from the operating system's secure random source."""
    return _hands(rules, _shuffle(_pack(rules), secrets.randbelow))
