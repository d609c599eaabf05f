"""Look-ahead where a card may appear more than once (two or three decks, jokers): sampled deals and rollouts.

The hard player's own sampler and rollout work on single bits; here hands are layered masks
(``multiset``), a trick is the core's ``CountedTrick`` (identical cards cancel or the first ranks
higher, jokers rank by order), and an undecided trick's cards wait for the next decided one. The
rollout policy is the same rule of thumb: lead low, duck under the winner, dump Q♠ and high hearts
when void, and, with one deck and jokers, stop a possible moon as the one-deck rollouts do (``rollout.moon_threat``:
once the only seat that has taken points has a third of the moon's, the others take a trick with points from it and
give it none; with two or three decks nobody takes every point card, and nobody is stopped).
Slower per card than the one-deck path; ``kernel.CountedPlan`` is its compiled twin (the same deals from the same
seeds, the same cards played).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .. import multiset
from ..cards import HEARTS, JOKER, QS, SUIT_MASKS, SUIT_OF, Mask
from ..legal import legal_mask
from ..multiset import LAYER0
from ..rules import Rules
from ..trick import CountedTrick
from .knowledge import Knowledge, moon_threat_points
from .sampling import ATTEMPTS, INV32, M32, RELAX_AT, seed_from, shuffle_from


class CountedSampler:
    """Deals the unseen cards (with their copies) to the other seats: known cards stay, voids hold, sizes match.

    As ``sampling.Sampler``: each deal is drawn from a 32-bit xorshift stream started from one seed, so the
    compiled twin (``kernel.CountedPlan``) draws the very same deal from that seed. The unseen cards are grouped
    by the seats that may hold them, the most constrained group first; within a group they are shuffled and each
    goes to the kitty (unseen kitty cards: no seat holds them) or to a seat in proportion to the cards still
    needed there.
    """

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
        self.others = others
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in multiset.cards(free):  # each copy once, lowest card first
            allowed = tuple(s for s in others if not k.voids[s] & SUIT_MASKS[SUIT_OF[c]])
            groups.setdefault(allowed, []).append(c)
        self.groups = sorted(groups.items(), key=lambda item: len(item[0]))  # most constrained first

    def sample(self, rng: random.Random) -> list[Mask]:
        """Return a layered hand per seat (this seat's own included) drawn among the consistent ones."""
        return self.sample_from(seed_from(rng))[0]

    def sample_from(self, x: int) -> tuple[list[Mask], int]:
        """Return a layered hand per seat drawn from the xorshift stream at state ``x``, and the state after."""
        hands, _, x = self.sample_with_kitty(x)
        return hands, x

    def sample_with_kitty(self, x: int) -> tuple[list[Mask], Mask, int]:
        """``sample_from``, and the unseen kitty cards of the deal (layered; a known taker counts them)."""
        n = self.seats
        for attempt in range(ATTEMPTS):
            relax = attempt >= RELAX_AT
            hands = list(self.fixed) + [0]  # the kitty's unseen cards last
            need = list(self.need)
            kitty = self.kitty
            ok = True
            for allowed, cards in self.groups:
                seats = self.others if relax else allowed
                order = cards[:]
                x = shuffle_from(order, x)
                for c in order:
                    total = kitty
                    for s in seats:
                        total += need[s]
                    if total <= 0:
                        ok = False
                        break
                    x ^= (x << 13) & M32
                    x ^= x >> 17
                    x ^= (x << 5) & M32
                    r = x * INV32 * total
                    if r < kitty:
                        kitty -= 1  # the card lies in the kitty (or in a taker's kitty pile)
                        hands[n] = multiset.add_card(hands[n], c)
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
                if not ok:
                    break
            if ok:
                hands[self.seat] = self.hand
                return hands[:n], hands[n], x
        raise RuntimeError("no deal is consistent with this view")


def _pick(legal: Mask, rand: Callable[[], float]) -> int:
    """A uniformly random card of a one-layer mask."""
    cards = multiset.cards(legal)
    return cards[int(rand() * len(cards))]


def stops_moon(rules: Rules, moon: bool = True) -> bool:
    """Whether the rollouts stop a possible moon here: with a moon rule and one deck (``moon`` off: never)."""
    return moon and rules.moon != "none" and rules.decks == 1  # nobody takes every point card of two or three decks


def _ranked_top(legal: Mask) -> int:
    """The highest-ranked card of a one-layer mask (the higher suit on equal rank)."""
    return max(multiset.cards(legal), key=lambda c: (c % 13, c))


def _choose(
    rules: Rules, hand: Mask, trick: CountedTrick, first: bool, broken: bool, rand: Callable[[], float],
    greedy: bool, whim: float, threat: int = -1,
) -> int:  # fmt: skip
    """The rule-of-thumb card for one seat of a rollout (``threat``: the possible moon shooter to stop, or -1)."""
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
    taking = (trick.leader + trick.top_at) % trick.seats if trick.top_at >= 0 else -1
    stop = threat >= 0 and taking == threat and not greedy  # the trick goes to a possible moon shooter
    if follow:
        if greedy:
            return follow.bit_length() - 1
        if stop and (trick.bits & rules.penalty_mask or led == HEARTS):
            above = follow & ~((2 << top) - 1) & ~(1 << JOKER)
            if above:  # take this trick from it with the lowest card that does
                return (above & -above).bit_length() - 1
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
    if stop and legal & ~rules.penalty_mask:
        return _ranked_top(legal & ~rules.penalty_mask)  # give a possible moon shooter nothing
    if legal >> QS & 1:
        return QS
    hearts = legal & rules.hearts_mask
    if hearts:
        return hearts.bit_length() - 1  # the joker first: it is the highest heart there is
    return _ranked_top(legal)


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
    moon: bool = True,
) -> list[Mask]:
    """Finish a hand with the rule of thumb; return the cards each seat took (layered; ``hands`` changes).

    Without ``moon`` the rule of thumb stops no moon, whatever the table (the arena's measure of that rule).
    """
    n = len(hands)
    trick = CountedTrick(leader, n, rules.identical, jokers_played)
    for c in trick_cards:
        trick.add(c)
    seat = (leader + len(trick_cards)) % n
    hearts = rules.hearts_mask
    penalty = rules.penalty_mask & LAYER0
    need = moon_threat_points(rules)
    # the only seat that has taken points so far, -1 for nobody, -2 for several or no moon to stop (``first_shooter``);
    # the threat once it has a third of the moon's points (``moon_threat``)
    shooter = -1 if stops_moon(rules, moon) else -2
    for s in range(n):
        if taken[s] & penalty:
            shooter = s if shooter == -1 else -2
    threat = shooter if shooter >= 0 and rules.points_of(taken[shooter] & rules.penalty_mask) >= need else -1
    while True:
        while len(trick.cards) < n:
            c = _choose(rules, hands[seat], trick, first_trick, hearts_broken, rand, greedy, whim, threat)
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
            got = multiset.add(trick.bits, pending)
            taken[leader] = multiset.add(taken[leader], got)
            pending = 0
            if got & penalty and shooter != leader:
                shooter = leader if shooter == -1 else -2
            if shooter >= 0 and threat < 0:
                threat = shooter if rules.points_of(taken[shooter] & rules.penalty_mask) >= need else -1
            elif shooter < 0:
                threat = -1
        first_trick = False
        if not hands[leader]:
            return taken
        trick = CountedTrick(leader, n, rules.identical, jokers_played)
        seat = leader
