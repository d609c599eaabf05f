"""A trick: who led it, the cards in play order, its winner, and whether a 9 doubled it."""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES


class Trick:
    """A trick: who led it, the cards in play order from the leader, and (once full) the winner."""

    __slots__ = ("leader", "seats", "cards", "bits", "winner", "doubled", "led", "top", "top_at", "_json")

    def __init__(self, leader: int, seats: int = 4) -> None:
        self.leader = leader
        self.seats = seats
        self.cards: list[int] = []
        self.bits = 0  # the cards as a mask
        self.winner = -1
        self.doubled = False  # a 9 of the led suit doubled this trick (where that rule is on)
        self.led = -1  # the led suit, once a card is in
        self.top = -1  # the highest card of the led suit so far, and where it lies in ``cards``
        self.top_at = -1
        self._json: dict[str, Any] | None = None

    def add(self, card: int) -> None:
        """Put ``card`` into the trick (the next seat's card), keeping the led suit's highest card."""
        cards = self.cards
        if not cards:
            self.led = card // 13
            self.top, self.top_at = card, 0
        elif card > self.top and card // 13 == self.led:
            self.top, self.top_at = card, len(cards)
        cards.append(card)
        self.bits |= 1 << card

    def best(self) -> int:
        """Return the highest card of the led suit played so far, or -1 for an empty trick."""
        return self.top

    def to_json(self) -> dict[str, Any]:
        """Return the trick as plain data: leader, ``[{"seat", "card"}]``, winner (and ``doubled`` when it was)."""
        if self._json is not None:
            return self._json
        data = {
            "leader": self.leader,
            "cards": [
                {"seat": (self.leader + i) % self.seats, "card": CARD_NAMES[c]} for i, c in enumerate(self.cards)
            ],
            "winner": self.winner if self.winner >= 0 else None,
        }
        if self.doubled:
            data["doubled"] = True
        if self.winner >= 0:
            self._json = data  # a won trick never changes: every view shares one copy
        return data
