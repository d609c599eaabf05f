"""Look-ahead where a card may appear more than once (two or three decks, jokers): sampled deals and rollouts.

The hard player's own sampler and rollout work on single bits; here hands are layered masks
(``multiset``), a trick is the core's ``CountedTrick`` (identical cards cancel or the first ranks
higher, jokers rank by order), and an undecided trick's cards wait for the next decided one. The
rollout policy is the same rule of thumb: lead low, duck under the winner, dump Q♠ and high hearts
when void. Slower per card than the one-deck path; ``kernel.counted_outcomes`` is its compiled twin.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import multiset
from ..cards import JOKER, QS, SUIT_MASKS, SUIT_OF, Mask
from ..legal import legal_mask
from ..multiset import LAYER0
from ..rules import Rules
from ..trick import CountedTrick
from .knowledge import Knowledge

#: Attempts at a consistent deal; from ``RELAX_AT`` on, shown voids are ignored.
ATTEMPTS = 40
RELAX_AT = 30


class CountedSampler:
    """Deals the unseen cards (with their copies) to the other seats: known cards stay, voids hold, sizes match."""

    def __init__(self, k: Knowledge) -> None:
        n = k.seats
        self.seat, self.hand, self.seats = k.seat, k.hand_all, n
        others = [s for s in range(n) if s != k.seat]
        free = k.unseen_all
        fixed = [0] * n
        for s in others:  # a card this seat passed stays with its receiver while a copy is unseen
            for c in multiset.cards(k.known[s]):
                if multiset.count(free, c) and fixed[s].bit_count() < k.sizes[s]:
                    free = multiset.remove_card(free, c)
                    fixed[s] = multiset.add_card(fixed[s], c)
        self.fixed = fixed
        self.need = [k.sizes[s] - fixed[s].bit_count() if s != k.seat else 0 for s in range(n)]
        self.kitty = k.kitty_out  # unseen kitty cards: no seat holds them
        allowed = {c: [s for s in others if not k.voids[s] & SUIT_MASKS[SUIT_OF[c]]] for c in set(multiset.cards(free))}
        self.allowed = allowed
        self.others = others
        self.cards = sorted(multiset.cards(free), key=lambda c: len(allowed[c]))  # most constrained first

    def sample(self, rng: random.Random) -> list[Mask]:
        """Return a layered hand per seat (this seat's own included) drawn among the consistent ones."""
        for attempt in range(ATTEMPTS):
            relax = attempt >= RELAX_AT
            hands = list(self.fixed)
            need = list(self.need)
            kitty = self.kitty
            order = self.cards[:]
            rng.shuffle(order)
            order.sort(key=lambda c: len(self.allowed[c]))  # stable: random within each group
            for c in order:
                seats = self.others if relax else self.allowed[c]
                total = kitty + sum(need[s] for s in seats)
                if total <= 0:
                    break
                r = rng.random() * total
                if r < kitty:
                    kitty -= 1  # the card lies in the kitty (or in a taker's kitty pile)
                    continue
                r -= kitty
                for s in seats:
                    r -= need[s]
                    if r < 0 and need[s] > 0:
                        break
                else:
                    s = next(y for y in seats if need[y] > 0)
                hands[s] = multiset.add_card(hands[s], c)
                need[s] -= 1
            else:
                hands[self.seat] = self.hand
                return hands
        raise RuntimeError("no deal is consistent with this view")


def _pick(legal: Mask, rand: Callable[[], float]) -> int:
    """A uniformly random card of a one-layer mask."""
    cards = multiset.cards(legal)
    return cards[int(rand() * len(cards))]


def _choose(
    rules: Rules, hand: Mask, trick: CountedTrick, first: bool, broken: bool, rand: Callable[[], float],
    greedy: bool, whim: float,
) -> int:  # fmt: skip
    """The rule-of-thumb card for one seat of a rollout."""
    layer = hand & LAYER0
    led = trick.led if trick.cards else -1
    legal = legal_mask(rules, layer, led, first, broken, trick.top)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if rand() < whim:
        return _pick(legal, rand)
    suits = rules.suit_masks
    if led < 0:  # lead the low card of a random suit (the high one when playing for points), never Q♠ first
        start = int(rand() * 4)
        for i in range(4):
            x = legal & suits[(start + i) & 3] & ~(1 << JOKER)
            if x:
                if greedy:
                    return x.bit_length() - 1
                low = x & -x
                if low == 1 << QS and x != low:
                    x ^= low
                    low = x & -x
                return low.bit_length() - 1
        return _pick(legal, rand)
    follow = legal & suits[led]
    top = trick.top
    if follow:
        if greedy:
            return follow.bit_length() - 1
        below = follow & ((1 << top) - 1) & ~(1 << JOKER) if top >= 0 else 0
        if below:  # duck under the winner with the highest card that stays under
            return below.bit_length() - 1
        if len(trick.cards) == trick.seats - 1 and not trick.bits & rules.penalty_mask:
            x = follow & ~(1 << QS) or follow
            return x.bit_length() - 1  # last to play to a clean trick: take it with the highest
        low = follow & -follow
        return low.bit_length() - 1
    if greedy:
        x = legal & ~rules.penalty_mask or legal
        return (x & -x).bit_length() - 1
    if legal >> QS & 1:
        return QS
    hearts = legal & rules.hearts_mask
    if hearts:
        return hearts.bit_length() - 1  # the joker first: it is the highest heart there is
    ranked = max(multiset.cards(legal), key=lambda c: (c % 13, c))
    return ranked


def counted_rollout(
    rules: Rules,
    hands: list[Mask],
    taken: list[Mask],
    leader: int,
    trick_cards: list[int],
    first_trick: bool,
    hearts_broken: bool,
    rand: Callable[[], float],
    pending: Mask = 0,
    jokers_played: int = 0,
    greedy: bool = False,
    whim: float = 0.08,
) -> list[Mask]:
    """Finish a hand with the rule of thumb; return the cards each seat took (layered; ``hands`` changes)."""
    n = len(hands)
    trick = CountedTrick(leader, n, rules.identical, jokers_played)
    for c in trick_cards:
        trick.add(c)
    seat = (leader + len(trick_cards)) % n
    hearts = rules.hearts_mask
    while True:
        while len(trick.cards) < n:
            c = _choose(rules, hands[seat], trick, first_trick, hearts_broken, rand, greedy, whim)
            hands[seat] = multiset.remove_card(hands[seat], c)
            trick.add(c)
            if hearts >> c & 1 or (c == QS and rules.queen_breaks_hearts):
                hearts_broken = True
            seat = (seat + 1) % n
        jokers_played += trick.cards.count(JOKER)
        if trick.top_at < 0:
            pending = multiset.add(pending, trick.bits)
            leader = trick.leader
        else:
            leader = (trick.leader + trick.top_at) % n
            taken[leader] = multiset.add(taken[leader], multiset.add(trick.bits, pending))
            pending = 0
        first_trick = False
        if not hands[leader]:
            return taken
        trick = CountedTrick(leader, n, rules.identical, jokers_played)
        seat = leader
