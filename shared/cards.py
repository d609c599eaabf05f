"""Cards as small ints and hands as 52-bit masks, with names and parsing.

A card is ``suit * 13 + rank`` with suits clubs, diamonds, spades, hearts
(0..3) and ranks 2..A (0..12), so within a suit a higher card has a higher bit.

>>> card_name(parse_card("QS"))
'QS'
>>> [card_name(c) for c in mask_cards(SUIT_MASKS[HEARTS] & RANKS_FROM_7)][:2]
['7H', '8H']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Card = int
Mask = int

CLUBS, DIAMONDS, SPADES, HEARTS = 0, 1, 2, 3
SUITS = (CLUBS, DIAMONDS, SPADES, HEARTS)
SUIT_LETTERS = "CDSH"
SUIT_SYMBOLS = "♣♦♠♥"
RANK_LETTERS = "23456789TJQKA"
SEAT_NAMES = ("south", "west", "north", "east")

SUIT_MASKS: tuple[Mask, ...] = tuple(0x1FFF << (13 * s) for s in SUITS)
FULL_DECK: Mask = (1 << 52) - 1
#: Ranks 7..A of every suit (the Dutch 32-card deck).
RANKS_FROM_7: Mask = sum(0x1FE0 << (13 * s) for s in SUITS)

#: The joker (two of them in Hearts for three with jokers): a heart by suit, ranked by the order it is played in.
JOKER = 52
CARD_NAMES: tuple[str, ...] = tuple(RANK_LETTERS[c % 13] + SUIT_LETTERS[c // 13] for c in range(52)) + ("JK",)
#: The suit of every card, the joker's included (it counts as a heart).
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52)) + (HEARTS,)
_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}
_BY_NAME.update({("10" + name[1]): c for name, c in _BY_NAME.items() if name[0] == "T"})
#: The masks the rules, the engine and the computer players test again and again: every heart, and the queen of spades.
HEARTS_MASK: Mask = SUIT_MASKS[HEARTS]
QS: Card = _BY_NAME["QS"]
QS_BIT: Mask = 1 << QS


def parse_card(name: str) -> Card:
    """Parse a card name such as ``"QS"``, ``"TD"`` or ``"10D"``; raise ValueError otherwise."""
    c = _BY_NAME.get(name) if type(name) is str else None  # the common case: an exact name
    if c is not None:
        return c
    if isinstance(name, str):
        c = _BY_NAME.get(name.strip().upper())
        if c is not None:
            return c
    raise ValueError(f"not a card: {name!r}")


def card_name(c: Card) -> str:
    """Return the two-letter name of a card (``"QS"``)."""
    return CARD_NAMES[c]


def suit_of(c: Card) -> int:
    """Return the suit (0..3) of a card (the joker's is hearts)."""
    return SUIT_OF[c]


def rank_of(c: Card) -> int:
    """Return the rank (0 for 2 .. 12 for ace) of a card."""
    return c % 13


def bit(c: Card) -> Mask:
    """Return the one-card mask of a card."""
    return 1 << c


def mask_of(cards: Iterable[Card]) -> Mask:
    """Return the mask holding the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def mask_cards(m: Mask) -> Iterator[Card]:
    """Yield the cards of a mask from low to high (clubs first, aces last in a suit)."""
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def mask_list(m: Mask) -> list[Card]:
    """Return the cards of a mask from low to high, as a list (``mask_cards`` without a generator: faster)."""
    cards = []
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    return cards


#: The names of the cards of each byte of a mask: ``_BYTE_NAMES[i][b]`` for byte value ``b`` at bits 8i to 8i + 7.
_BYTE_NAMES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(CARD_NAMES[8 * i + k] for k in range(8) if b >> k & 1) for b in range(1 << min(8, 53 - 8 * i)))
    for i in range(7)
)


_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _BYTE_NAMES


def mask_names(m: Mask) -> list[str]:
    """Return the card names of a mask, sorted by suit then rank."""
    try:  # a byte at a time from a table: every deal and view names its cards
        b0, b1, b2, b3, b4, b5, b6 = m.to_bytes(7, "little")
    except OverflowError:  # negative, or past the seventh byte: as past the joker, no card's bit
        raise IndexError(f"not a mask of cards: {m!r}") from None
    return [*_B0[b0], *_B1[b1], *_B2[b2], *_B3[b3], *_B4[b4], *_B5[b5], *_B6[b6]]


def parse_mask(names: Iterable[str]) -> Mask:
    """Return the mask of a list of card names, refusing duplicates."""
    m = 0
    for name in names:
        b = 1 << parse_card(name)
        if m & b:
            raise ValueError(f"duplicate card: {name!r}")
        m |= b
    return m
