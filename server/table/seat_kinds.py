"""Who holds a seat: the wire's words, the older words stored logs and finished games keep, and computer names."""

from __future__ import annotations

from enum import StrEnum


class SeatKind(StrEnum):
    """Who holds a seat, in the wire's words."""

    EMPTY = "empty"
    PERSON = "person"
    COMPUTER = "computer"


#: The words stored logs and finished games keep for who holds a seat: still written, so an older server reads them.
STORED_KIND = {SeatKind.EMPTY: "empty", SeatKind.PERSON: "human", SeatKind.COMPUTER: "bot"}
_READ_KIND = {**{word: kind for kind, word in STORED_KIND.items()}, **{kind.value: kind for kind in SeatKind}}

#: The computer players' names, one per chair.
COMPUTER_NAMES = (
    "Joost", "Ellen", "Ruud", "Sanne", "Bram", "Noor", "Pieter", "Fleur", "Daan", "Lotte", "Kees", "Mirjam",
)  # fmt: skip


def seat_kind(word: str) -> SeatKind:
    """Return who holds a seat from a stored word (``"human"``, ``"bot"``) or a wire word; KeyError for others."""
    return _READ_KIND[word]


def stored_kind(word: str) -> str:
    """Return the word a stored log or finished game keeps for who holds a seat."""
    return STORED_KIND[seat_kind(word)]


def computer_name(seat: int) -> str:
    """Return the display name of the computer player on ``seat`` (one name per chair, never twice)."""
    return COMPUTER_NAMES[seat]
