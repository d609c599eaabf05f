"""Arena-only hard players that measure how much room today's hard player leaves: two ceilings.

- ``hard-oracle`` (the information ceiling) is told the true deal: every sampled deal is the real one, so its
  look-ahead knows every hand. It bounds what any inference or sampling work can gain. It is a cheat, and lives
  here in tools/ only: the arena hands it the game (``peek``); no server or browser ever builds it.
  ``hard-oracle-queen``, ``hard-oracle-spades`` and ``hard-oracle-hearts`` are told only where some cards lie (Q♠;
  the spades above the jack; the hearts), the rest sampled as today: they split that ceiling by what a reader
  would have to find out.
- ``hard-own1`` and ``hard-own2`` (the own-future ceiling) keep today's sampling, but in each playout the player's
  own next one (or two) cards are not the rule of thumb's: each is chosen by a small search from the player's own
  information at that point (its view there: the deal re-sampled, a few dozen playouts a card, cached per
  information set). It bounds what nested or recursive PIMC and depth-limited postponed reasoning can gain. It reads
  the game only for its mechanics: each playout copies it and replaces every other hand by the sampled one, and the
  small search sees only the view of its own seat.

Both pass by the tips, as today's player does; only the play differs.
"""

from __future__ import annotations

import copy
import random
from itertools import cycle
from typing import Any

from hartenjagen.shared.bots.hard import (
    DRAWS,
    MIN_SAMPLES,
    PLAYS_PER_MS,
    WHIM,
    HardComputerPlayer,
    Rows,
    _halving,
    candidates,
)
from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.bots.rollout import big_bits, first_shooter, moon_threat, rollout, thumb_follow, thumb_lead
from hartenjagen.shared.bots.sampling import Sampler, floats
from hartenjagen.shared.bots.value import value_spec, valuer
from hartenjagen.shared.cards import HEARTS_MASK, QS_BIT, SUIT_MASKS, Mask, mask_names, parse_mask
from hartenjagen.shared.game import Game
from hartenjagen.shared.view import View, view_for

#: The small search's budget at each of the player's own future cards (nominal ms: 3,600 plays, a few dozen
#: playouts a candidate over its two or three halving rounds).
SUB_MS = 3.0

#: What a partial oracle is told: where these cards lie (every card, for the whole information ceiling).
TOLD: dict[str, Mask] = {
    "all": (1 << 64) - 1,
    "queen": QS_BIT,
    "spades": parse_mask(["QS", "KS", "AS"]),
    "hearts": HEARTS_MASK,
}


class OracleHard(HardComputerPlayer):
    """The hard player told the true deal: an arena-only cheat that bounds what inference or sampling can gain."""

    def __init__(self, seed: int | None = None, told: str = "all", **options: Any) -> None:
        super().__init__(seed, **options)
        self.game: Game | None = None
        self.cards = TOLD[told]  # the cards whose places it is told; the others are sampled as today

    def peek(self, game: Game) -> None:
        """Take the game before each decision (the arena calls it): its hidden hands are this player's cheat."""
        self.game = game

    def told(self, view: View) -> Knowledge:
        """What the view says, and where every unseen card lies: the sampler then deals only the true deal."""
        assert self.game is not None, "the arena peeks before each decision"
        k = Knowledge(view)
        if not k.rules.counted:
            for s in range(k.seats):
                if s != k.seat:
                    k.known[s] |= self.game.hands[s] & k.unseen & self.cards
        return k

    def choose_play(self, view: View) -> str:
        """Today's choice, but every sampled deal is the true one."""
        k = self.told(view)
        cands = candidates(k)
        if len(cands) == 1 or k.rules.counted:
            return super().choose_play(view)
        values = self.evaluate(k, cands, self.rng_for(view))
        best = max(range(len(cands)), key=lambda i: (values[i], -i))
        return mask_names(1 << cands[best])[0]


class OwnFutureHard(HardComputerPlayer):
    """The hard player whose playouts choose its own next ``depth`` cards by a small search from its own view there."""

    def __init__(self, seed: int | None = None, depth: int = 1, sub_ms: float = SUB_MS, **options: Any) -> None:
        super().__init__(seed, **options)
        self.depth = depth
        self.sub = HardComputerPlayer(seed, budget_ms=sub_ms, max_ms=10_000.0)
        self.game: Game | None = None
        self.cache: dict[tuple[int, ...], int] = {}
        self.cache_hand = -1
        self.searches = 0  # small searches run (not found in the cache), for the report

    def peek(self, game: Game) -> None:
        """Take the game before each decision: its mechanics only (each playout replaces the hidden hands)."""
        self.game = game

    def choose_play(self, view: View) -> str:
        """Return the legal card with the best mean over sampled deals, own future cards chosen by small searches."""
        assert self.game is not None, "the arena peeks before each decision"
        k = Knowledge(view)
        cands = candidates(k)
        if len(cands) == 1 or k.rules.counted or k.kitty_out or any(t >= 0 for t in k.kitty_owed):
            return super().choose_play(view)
        if view["hand_no"] != self.cache_hand:
            self.cache, self.cache_hand = {}, view["hand_no"]
        values = self._evaluate_nested(k, cands, self.rng_for(view))
        best = max(range(len(cands)), key=lambda i: (values[i], -i))
        return mask_names(1 << cands[best])[0]

    def _evaluate_nested(self, k: Knowledge, cands: list[int], rng: random.Random) -> list[float]:
        """``hard._halving`` over sampled deals, each playout stepped through a copy of the game."""
        rounds = _NestedRounds(self, k, cands)
        plays = self.budget_ms * PLAYS_PER_MS
        return _halving(rounds, len(cands), plays, max(1, sum(k.sizes)), rng, float("inf"))

    def _playout(
        self, k: Knowledge, hands: list[int], card: int, rand: Any, greedy: bool
    ) -> tuple[list[int], list[int]]:
        """Play ``card`` in the sampled deal, the own next cards by small searches, the rest by the rule of thumb."""
        assert self.game is not None
        rules, seat = k.rules, k.seat
        g = _copy_playing(self.game, hands, seat)
        pending = card
        for _ in range(self.depth):
            if not _step(g, seat, pending):
                break  # the hand's last card: the rollout below plays it
            pending = -1
            if not g.hands[seat]:
                break
            # the others play by the rule of thumb (this playout's draws) until this seat's turn comes again; the
            # hand cannot end before it, as this seat still holds a card
            while g.turn != seat:
                g.play(g.turn, _thumb_card(g, rand, greedy))
            pending = self._search(g, seat)
        hs = list(g.hands)
        trick = [1 << c for c in g.trick.cards]
        if pending >= 0:
            hs[seat] ^= 1 << pending
            trick.append(1 << pending)
        taken, doubled = list(g.taken), list(g.doubled)
        rollout(rules, hs, taken, g.trick.leader, trick, not g.tricks, g.hearts_broken, rand, greedy, WHIM,
                doubled=doubled)  # fmt: skip
        return taken, doubled

    def _search(self, g: Game, seat: int) -> int:
        """The small search's card from this seat's own view of ``g`` (cached per information set)."""
        key = tuple(c for t in g.tricks for c in t.cards) + (-1,) + tuple(g.trick.cards)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        sk = Knowledge(view_for(g, seat))
        cands = candidates(sk)
        if len(cands) == 1:
            c = cands[0]
        else:
            self.searches += 1
            vals = self.sub.evaluate(sk, cands, random.Random(hash(key) ^ (self.seed or 0)))
            c = cands[max(range(len(cands)), key=lambda i: (vals[i], -i))]
        self.cache[key] = c
        return c


class _NestedRounds:
    """The halving's rounds for ``OwnFutureHard``: every candidate on each sampled deal, one playout each."""

    least = MIN_SAMPLES

    def __init__(self, player: OwnFutureHard, k: Knowledge, cands: list[int]) -> None:
        self.player, self.k, self.cands = player, k, cands
        self.sampler = Sampler(k)
        self.value = valuer(k, value_spec(k))

    def play(self, seeds: list[int], alive: list[int], deadline: float) -> Rows:
        """Each alive candidate's value on the deal of each seed (the same rollout draws for every candidate)."""
        rows: Rows = []
        for seed in seeds:
            hands, _kitty, x = self.sampler.sample_with_kitty(seed)
            draws = floats(x, DRAWS)[0]
            values = []
            for i in alive:
                taken, doubled = self.player._playout(self.k, hands, self.cands[i], cycle(draws).__next__,
                                                      self.k.counting_down)  # fmt: skip
                values.append(self.value(taken, doubled))
            rows.append((1.0, values))
        return rows


def _copy_playing(game: Game, hands: list[int], seat: int) -> Game:
    """A copy of ``game`` in its play phase that ``play`` may change, every hand but ``seat``'s the sampled one."""
    g = copy.copy(game)
    g.hands = [hands[s] if s != seat else game.hands[s] for s in range(game.seats)]
    g.taken = list(game.taken)
    g.doubled = list(game.doubled)
    g.tricks = list(game.tricks)
    g.events = list(game.events)
    t = copy.copy(game.trick)
    t.cards = list(game.trick.cards)
    t._json = None
    g.trick = t
    g._legal = -1
    g._points = (-1, [], ([], []))  # worked out again at the next count
    return g


_BIG: dict[int, tuple[int, int]] = {}


def _big(rules: Any) -> tuple[int, int]:
    """``rollout.big_bits`` of ``rules``, remembered by the rules object (one per table)."""
    got = _BIG.get(id(rules))
    if got is None:
        got = _BIG[id(rules)] = big_bits(rules)
    return got


def _thumb_card(g: Game, rand: Any, greedy: bool) -> int:
    """The rule of thumb's card (``rollout.rollout``'s, whim included) for the seat to play in ``g``."""
    rules, seat, trick = g.rules, g.turn, g.trick
    legal = g.legal(seat)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if rand() < WHIM:
        k = int(rand() * legal.bit_count())
        while k:
            legal &= legal - 1
            k -= 1
        return (legal & -legal).bit_length() - 1
    big, big_suit = _big(rules)
    if not trick.cards:
        k = int(rand() * 4)
        rest = 0
        if not greedy:
            for s, h in enumerate(g.hands):
                if s != seat:
                    rest |= h
        b = thumb_lead(legal, rest, k, greedy, big)
    else:
        suit = SUIT_MASKS[trick.led]
        n = g.seats
        threat = moon_threat(rules, g.taken, first_shooter(rules, g.taken))
        winner = (trick.leader + trick.top_at) % n
        b = thumb_follow(legal, g.hands[seat] & suit, greedy, big, big_suit, rules.penalty_mask, suit, 1 << trick.top,
                         trick.bits, winner, threat, len(trick.cards) == n - 1)  # fmt: skip
    return b.bit_length() - 1


def _step(g: Game, seat: int, card: int) -> bool:
    """Play ``card`` for ``seat`` unless it ends the hand (the rollout then finishes it); True when played."""
    if sum(h.bit_count() for h in g.hands) <= 1:
        return False
    g.play(seat, card)
    return True
