"""A trick: who led it, the cards in play order, its winner, and whether a 9 doubled it."""

from __future__ import annotations

from typing import Any

from .cards import CARD_NAMES, JOKER, SUIT_OF
from .multiset import add_card


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


class CountedTrick(Trick):
    """A trick where a card may appear more than once (two decks, two jokers), ranked by the variant's rule.

    Identical cards cancel (both rank lowest) or the first played ranks higher; a joker ranks above the ace
    when it is the hand's first joker played, below the 2 when it is the second. ``top_at`` is -1 once every
    card of the led suit is cancelled: the trick is undecided (it stays on the table).
    """

    __slots__ = ("identical", "jokers_before", "cancelled")

    def __init__(self, leader: int, seats: int, identical: str, jokers_before: int) -> None:
        super().__init__(leader, seats)
        self.identical = identical  # "cancel", "first_wins" or "" (one deck with jokers)
        self.jokers_before = jokers_before  # jokers played in this hand's earlier tricks
        self.cancelled: list[bool] = []

    def add(self, card: int) -> None:
        """Put ``card`` into the trick and work out again which cards cancel and which one is highest."""
        cards = self.cards
        if not cards:
            self.led = SUIT_OF[card]
        cards.append(card)
        self.bits = add_card(self.bits, card)
        cancelled = [False] * len(cards)
        if self.identical == "cancel":  # the first two identical cards cancel; a third keeps its rank
            first: dict[int, int] = {}
            for i, c in enumerate(cards):
                if c in first and not cancelled[first[c]]:
                    cancelled[first[c]] = cancelled[i] = True
                elif c not in first:
                    first[c] = i
        self.cancelled = cancelled
        jokers = self.jokers_before
        best, top, top_at = -2, -1, -1
        for i, c in enumerate(cards):
            if c == JOKER:
                rank = 13 if jokers == 0 else -1
                jokers += 1
            else:
                rank = c % 13
            if not cancelled[i] and SUIT_OF[c] == self.led and rank > best:  # equal rank: the first played stays
                best, top, top_at = rank, c, i
        self.top, self.top_at = top, top_at
        self._json = None

    def jokers(self) -> int:
        """Return how many jokers are in this trick."""
        return self.cards.count(JOKER)

    def to_json(self) -> dict[str, Any]:
        """The trick as plain data, with ``cancelled`` (a flag per card) and ``undecided`` where they apply."""
        data = super().to_json()
        if any(self.cancelled):
            for entry, gone in zip(data["cards"], self.cancelled, strict=True):
                if gone:
                    entry["cancelled"] = True
        if len(self.cards) == self.seats and self.top_at < 0:
            data["undecided"] = True
        return data
