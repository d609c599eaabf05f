"""What a seat knows, read from its view: its hand, cards gone, voids shown, cards it passed, totals.

Everything here is derived from the JSON view alone, so a computer player built on it
cannot see more than a browser does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .. import multiset
from ..cards import CARD_NAMES, JOKER, QS_BIT, SPADES, SUIT_MASKS, SUIT_OF, Mask, mask_cards, parse_card, parse_mask
from ..multiset import LAYER0
from ..rules import Rules
from ..scoring import seat_points
from ..variants import make_rules
from ..view import View

SPADES_MASK = SUIT_MASKS[SPADES]
_CARD = {name: parse_card(name) for name in CARD_NAMES}


@lru_cache(maxsize=64)
def _rules_cached(key: tuple[tuple[str, Any], ...]) -> Rules:
    return make_rules(dict(key))


def rules_of(view: View) -> Rules:
    """Return the Rules of the table a view belongs to (cached: views repeat the same options)."""
    return _rules_cached(tuple(sorted(view["rules"].items())))


class Knowledge:
    """The facts one seat may use, as masks: hand, played, voids, known cards of others, taken cards."""

    __slots__ = (
        "rules",
        "seat",
        "hand",
        "legal",
        "played",
        "voids",
        "known",
        "taken",
        "doubled",
        "pot",
        "trick",
        "leader",
        "first_trick",
        "hearts_broken",
        "sizes",
        "totals",
        "counting_down",
        "unseen",
        "tricks_done",
        "seats",
        "kitty_out",
        "hand_all",
        "unseen_all",
        "pending",
        "jokers_played",
        "kitty_mine",
        "kitty_owed",
    )

    def __init__(self, view: View) -> None:
        rules = self.rules = rules_of(view)
        seat = self.seat = view["seat"]
        if rules.counted:
            self._counted(view)
            return
        self.hand: Mask = parse_mask(view["hand"])
        self.legal: Mask = parse_mask(view["legal"])
        self.totals: list[int] = list(view["totals"])
        self.counting_down: bool = bool(view["counting_down"])
        self.hearts_broken: bool = bool(view["hearts_broken"])
        self.sizes: list[int] = list(view["hand_sizes"])
        n = self.seats = rules.seats
        voids = [0] * n
        taken = [0] * n
        doubled = [0] * n
        played = 0
        tricks = view["tricks"] or []
        for t in tricks:
            cards = [(c["seat"], _CARD[c["card"]]) for c in t["cards"]]
            m = _note_trick(cards, voids)
            played |= m
            taken[t["winner"]] |= m
            if t.get("doubled"):
                doubled[t["winner"]] |= m
        current = view.get("trick") or {"leader": view.get("turn"), "cards": []}
        trick = [(c["seat"], _CARD[c["card"]]) for c in current["cards"]]
        played |= _note_trick(trick, voids)
        self.trick: list[tuple[int, int]] = trick
        self.leader: int = current["leader"] if current["leader"] is not None else seat
        self.tricks_done = len(tricks)
        self.first_trick: bool = not tricks
        self.played: Mask = played
        self.voids: list[Mask] = voids
        self.taken: list[Mask] = taken
        self.doubled: list[Mask] = doubled
        self.pot: int = view.get("pot") or 0
        known = [0] * n
        passed = view.get("passed")
        passed_to = view.get("passed_to")
        if passed and view.get("received") is not None and passed_to is not None:
            for name, to in zip(passed, passed_to, strict=True):
                known[to] |= (1 << _CARD[name]) & ~played
        self.known: list[Mask] = known
        mine = parse_mask(view.get("kitty") or [])  # the kitty cards this seat took and has seen
        self.unseen: Mask = rules.deck & ~self.hand & ~played & ~mine
        self.kitty_out: int = rules.kitty - mine.bit_count()  # kitty cards nobody holds in hand, unseen here
        self.kitty_mine: Mask = mine
        self.kitty_owed: list[int] = _kitty_owed(view, seat)
        self.hand_all, self.unseen_all, self.pending, self.jokers_played = self.hand, self.unseen, 0, 0

    def _counted(self, view: View) -> None:
        """The same facts where a card may appear more than once (two decks, jokers).

        ``hand``, ``unseen`` and ``played`` say which cards (one layer: what the tips look at); ``hand_all`` and
        ``unseen_all`` count the copies (layered, see multiset.py), and ``taken`` is layered for the scoring.
        Cards of undecided tricks (``pending``) go to the next decided trick's winner.
        """
        rules, seat = self.rules, self.seat
        n = self.seats = rules.seats
        self.hand_all = multiset.parse(view["hand"])
        self.hand = self.hand_all & LAYER0
        self.legal = parse_mask(view["legal"])
        self.totals = list(view["totals"])
        self.counting_down = bool(view["counting_down"])
        self.hearts_broken = bool(view["hearts_broken"])
        self.sizes = list(view["hand_sizes"])
        self.voids = [0] * n
        self.taken = [0] * n
        self.doubled = [0] * n
        played = pending = jokers = 0
        by_seat = [0] * n  # what each seat played this hand (layered)
        tricks = view["tricks"] or []
        for t in tricks + [view.get("trick") or {"cards": []}]:
            for c in t["cards"]:
                by_seat[c["seat"]] = multiset.add_card(by_seat[c["seat"]], _CARD[c["card"]])
        for t in tricks:
            cards = [(c["seat"], _CARD[c["card"]]) for c in t["cards"]]
            _note_trick(cards, self.voids)
            m = multiset.from_cards(c for _, c in cards)
            played = multiset.add(played, m)
            jokers += sum(1 for _, c in cards if c == JOKER)
            if t["winner"] is None:  # undecided: its cards wait for the next decided trick
                pending = multiset.add(pending, m)
            else:
                self.taken[t["winner"]] = multiset.add(self.taken[t["winner"]], multiset.add(m, pending))
                pending = 0
        current = view.get("trick") or {"leader": view.get("turn"), "cards": []}
        self.trick = [(c["seat"], _CARD[c["card"]]) for c in current["cards"]]
        _note_trick(self.trick, self.voids)
        played = multiset.add(played, multiset.from_cards(c for _, c in self.trick))
        self.leader = current["leader"] if current["leader"] is not None else seat
        self.tricks_done = len(tricks)
        self.first_trick = not tricks
        self.played = played & LAYER0
        self.pending, self.jokers_played = pending, jokers
        self.pot = view.get("pot") or 0
        mine = multiset.parse(view.get("kitty") or [])
        self.unseen_all = multiset.subtract(rules.deck, multiset.add(multiset.add(self.hand_all, played), mine))
        self.unseen = self.unseen_all & LAYER0
        self.kitty_out = rules.kitty - mine.bit_count()
        self.kitty_mine = mine
        self.kitty_owed = _kitty_owed(view, seat)
        self.known = [0] * n
        passed, passed_to = view.get("passed"), view.get("passed_to")
        if passed and view.get("received") is not None and passed_to is not None:
            for name, to in zip(passed, passed_to, strict=True):
                c = _CARD[name]
                if multiset.count(by_seat[to], c):  # the receiver played one: take it to be ours
                    by_seat[to] = multiset.remove_card(by_seat[to], c)
                else:
                    self.known[to] = multiset.add_card(self.known[to], c)

    def points_taken(self) -> list[int]:
        """Return the points each seat has taken so far this hand (before any moon)."""
        return seat_points(self.rules, self.taken, self.doubled)

    def trick_bits(self) -> list[Mask]:
        """Return the current trick as single-card bits in play order."""
        return [1 << c for _, c in self.trick]

    def unseen_in(self, suit: int) -> Mask:
        """Return the cards of ``suit`` that are neither played nor in this hand."""
        return self.unseen & SUIT_MASKS[suit]

    def winning(self) -> tuple[int, int]:
        """Return (seat, card) currently winning the trick, or (-1, -1) when the trick is empty."""
        if not self.trick:
            return -1, -1
        suit = SUIT_OF[self.trick[0][1]]
        seat, card = self.trick[0]
        for s, c in self.trick[1:]:
            if SUIT_OF[c] == suit and c > card:
                seat, card = s, c
        return seat, card

    def trick_points(self) -> int:
        """Return the points already in the current trick."""
        m = 0
        for _, c in self.trick:
            m |= 1 << c
        return self.rules.points_of(m)

    def qs_out(self) -> bool:
        """Return True when Q♠ is in the deck and still in another seat's hand."""
        return bool(self.unseen & QS_BIT)


def _note_trick(cards: list[tuple[int, int]], voids: list[Mask]) -> Mask:
    """Record the voids a trick shows (a seat that did not follow suit) and return its cards as a mask."""
    m = 0
    if not cards:
        return m
    suit = SUIT_OF[cards[0][1]]
    for s, c in cards:
        m |= 1 << c
        if SUIT_OF[c] != suit:
            voids[s] |= SUIT_MASKS[suit]
    return m


def top(mask: Mask) -> int:
    """Return the highest card of a mask (highest suit first; use within one suit), or -1."""
    return mask.bit_length() - 1


def low(mask: Mask) -> int:
    """Return the lowest card of a mask, or -1."""
    return (mask & -mask).bit_length() - 1


def rank_top(mask: Mask) -> int:
    """Return the card of highest rank in a mask over all suits (ties: the higher suit), or -1."""
    best, best_rank = -1, -1
    for s in range(4):
        m = mask & SUIT_MASKS[s]
        if m:
            c = m.bit_length() - 1
            if c % 13 >= best_rank:
                best, best_rank = c, c % 13
    return best


def rank_low(mask: Mask) -> int:
    """Return the card of lowest rank in a mask over all suits, or -1."""
    best, best_rank = -1, 99
    for s in range(4):
        m = mask & SUIT_MASKS[s]
        if m:
            c = (m & -m).bit_length() - 1
            if c % 13 < best_rank:
                best, best_rank = c, c % 13
    return best


@lru_cache(maxsize=64)
def big_card(rules: Rules) -> tuple[int, int]:
    """The non-heart card worth the most penalty points (Q♠, J♣ in Achterhoeks, J♠ in the bar form), and its suit.

    ``(-1, -1)`` when no card besides the hearts carries points (the chips game).
    """
    best, most = -1, 0
    for c in mask_cards(rules.deck & ~rules.hearts_mask & LAYER0):
        if rules.card_points[c] > most:
            best, most = c, rules.card_points[c]
    return best, (SUIT_OF[best] if best >= 0 else -1)


def moon_threat_points(rules: Rules) -> int:
    """The points a seat that alone has taken points needs before the others try to stop its moon: a third of it."""
    return -(-rules.moon_total // 3)


def _kitty_owed(view: View, seat: int) -> list[int]:
    """Per kitty card this seat has not seen, low to high: the seat that took it, or -1 while it lies there."""
    return [t for t in view.get("kitty_takers") or [] if t != seat]


def start_taken(k: Knowledge, kitty: Mask) -> list[Mask]:
    """Each seat's cards that count so far: its tricks, and the kitty cards it took.

    ``kitty`` is the unseen kitty cards of one sampled deal (layered where a card may appear twice): they go, low to
    high, to the seats the view says took them (``kitty_owed``); those still lying count for nobody. This seat's own
    kitty cards are known.
    """
    taken = list(k.taken)
    if k.kitty_mine:
        taken[k.seat] = multiset.add(taken[k.seat], k.kitty_mine)
    if kitty and any(t >= 0 for t in k.kitty_owed):
        for c, t in zip(multiset.cards(kitty), k.kitty_owed, strict=False):
            if t >= 0:
                taken[t] = multiset.add_card(taken[t], c)
    return taken
