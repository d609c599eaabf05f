"""The hard player: determinized Monte Carlo over the hands the others could hold, scored for the whole game.

For each decision it deals the unseen cards to the other seats many times, consistent
with what the view shows (cards played, voids shown, cards it passed, hand sizes),
plays every candidate card in each deal, finishes the hand with the rule-of-thumb
rollout, and keeps the card with the best average outcome. Outcomes are scored with
the game in mind: its own points, the rival's points, and who wins if the hand ends
the game (the Dutch second half, where everyone wants points, included).

The budget is counted in simulated card plays, not wall-clock time, so the same seed
and view give the same decision on any machine; ``budget_ms`` converts at the rate
this machine's rollouts run, and ``max_ms`` is a wall-clock safety stop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import cycle
from typing import Any

from ..cards import SUIT_MASKS, mask_names
from ..rules import QS
from ..scoring import chip_shares, is_over
from ..sim import hand_scorer
from .base import Player
from .knowledge import Knowledge, kept_qs
from .pass_search import search_pass
from .passing import choose_pass
from .rollout import rollout
from .sampling import Sampler

QS_BIT = 1 << QS
#: Default thinking budget per decision (nominal milliseconds on the reference machine).
DEFAULT_MS = 80.0
#: Simulated card plays per nominal millisecond (measured on the 2-core reference machine).
PLAYS_PER_MS = 1200.0
#: Wall-clock stop, whatever the budget.
MAX_MS = 800.0
#: Worth of winning (or cost of losing) the game when this hand ends it, in points.
GAME_WORTH = 10.0
#: A pass searches with this many decisions' budget (it sets up the whole hand) ...
PASS_BUDGET = 2.0
#: ... counted at this rate: playing out whole hands from the deal runs about half as many plays per ms.
PASS_PLAYS_PER_MS = 600.0
#: Samples per round of sequential halving, at least and at most.
MIN_SAMPLES = 8
MAX_SAMPLES = 4000
#: Random draws prepared per sampled deal, shared by the rollouts of every candidate (cycled when used up).
DRAWS = 128
#: Taken off the mean of a candidate dropped in an early round (below any real outcome).
DROPPED = 1000.0
HALVING = True
#: With ``infer``: the weight of a sampled deal per discard its Q♠ holder made instead of dropping her.
#: Off by default: over 2,000 duplicate hands at 40 ms against three mediums it changed nothing measurable
#: (-0.93 +- 0.33 points per hand with it, -0.89 +- 0.34 without, the same deals).
KEPT_QS_WEIGHT = 0.25
CRN = True
#: Share of the points of the rival with the lowest total (when lower than ours) counted in our favour.
RIVAL_SHARE = 0.1


class HardPlayer(Player):
    """Monte Carlo search over consistent deals with heuristic rollouts; passes by the tips."""

    level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float = DEFAULT_MS,
        max_ms: float = MAX_MS,
        pass_search: bool = False,
        infer: bool = False,
    ) -> None:
        super().__init__(seed)
        self.budget_ms = budget_ms
        self.max_ms = max_ms
        self.pass_search = pass_search
        self.infer = infer

    def choose_pass(self, view: dict[str, Any]) -> list[str]:
        """Pass by the tips, or (``pass_search``) search the likely passes on sampled deals.

        The tips: high unprotected spades, Q♠ when short, short suits, high hearts. The search tries
        those and the other passes of the most dangerous cards; a pass whose cards go to several seats
        goes by the tips. Over 2,000 duplicate hands the search gained nothing measurable (-0.08 +- 0.43 points
        per hand at 40 ms, for two decisions' budget), so the tips stay the default.
        """
        k = Knowledge(view)
        targets = set(view.get("pass_targets") or [])
        offset = targets.pop() if len(targets) == 1 else 0
        if not self.pass_search or not offset:
            return mask_names(choose_pass(k.rules, k.hand, view["pass_count"]))
        plays = self.budget_ms * PASS_BUDGET * PASS_PLAYS_PER_MS
        first_leader = (view["dealer"] + 1) % 4
        chosen = search_pass(k, view["pass_count"], offset, first_leader, plays, _valuer(k), self.rng_for(view))
        return mask_names(chosen)

    def choose_play(self, view: dict[str, Any]) -> str:
        """Return the legal card with the best average outcome over sampled deals."""
        k = Knowledge(view)
        cands = candidates(k)
        if len(cands) == 1:
            return mask_names(1 << cands[0])[0]
        kept = kept_qs(view) if self.infer else None
        values = self.evaluate(k, cands, self.rng_for(view), kept)
        best = max(range(len(cands)), key=lambda i: (values[i], -i))
        return mask_names(1 << cands[best])[0]

    def evaluate(self, k: Knowledge, cands: list[int], rng: Any, kept: list[int] | None = None) -> list[float]:
        """Return the mean game-aware value of each candidate card over the sampled deals (higher is better).

        Sequential halving: the budget is split over rounds; each round plays every candidate still in
        the running on the same fresh deals, with the same random draws for the rollouts of one deal
        (common random numbers, so two cards are compared on equal luck), and keeps the better half.
        Candidates dropped early get their mean minus ``DROPPED`` so that a survivor is chosen.
        """
        rules, seat = k.rules, k.seat
        sampler = Sampler(k)
        left = max(1, sum(k.sizes))
        plays = self.budget_ms * PLAYS_PER_MS
        deadline = time.perf_counter() + self.max_ms / 1000.0
        trick = k.trick_bits()
        taken0 = k.taken
        doubled0 = k.doubled
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        greedy = k.counting_down
        value = _valuer(k)
        alive = list(range(len(cands)))
        rounds = max(1, (len(cands) - 1).bit_length()) if HALVING else 1
        # inference: a deal where Q♠ sits with a seat that discarded something else instead counts less
        if not (kept and k.unseen & QS_BIT and any(kept)):
            kept = None  # nothing to infer: every deal counts the same
        budget = [0.0]
        for r in range(rounds):
            share = (plays - budget[0]) / (rounds - r)
            n = max(MIN_SAMPLES, min(MAX_SAMPLES, int(share / (left * len(alive)))))
            for m in range(n):
                hands = sampler.sample(rng)
                w = 1.0
                if kept is not None:
                    for s in range(4):
                        if hands[s] & QS_BIT:
                            w = KEPT_QS_WEIGHT ** kept[s]
                if CRN:
                    draws = [rng.random() for _ in range(DRAWS)]
                for i in alive:
                    b = 1 << cands[i]
                    hs = list(hands)
                    hs[seat] ^= b
                    doubled = list(doubled0)
                    rand = cycle(draws).__next__ if CRN else rng.random
                    taken = rollout(
                        rules,
                        hs,
                        list(taken0),
                        k.leader,
                        trick + [b],
                        k.first_trick,
                        k.hearts_broken,
                        rand,
                        greedy,
                        doubled=doubled,
                    )
                    totals[i] += w * value(taken, doubled)
                    counts[i] += w
                budget[0] += left * len(alive)
                if m >= MIN_SAMPLES - 1 and time.perf_counter() > deadline:
                    break
            if len(alive) > 1 and r < rounds - 1:
                alive.sort(key=lambda i: (-totals[i] / counts[i], i))
                alive = sorted(alive[: (len(alive) + 1) // 2])
            if time.perf_counter() > deadline:
                break
        means = [totals[i] / counts[i] if counts[i] else -DROPPED for i in range(len(cands))]
        survivors = set(alive)
        return [means[i] if i in survivors else means[i] - DROPPED for i in range(len(cands))]


def candidates(k: Knowledge) -> list[int]:
    """Return one legal card per group of equal cards (same suit and points, nothing out or in the trick between)."""
    out: list[int] = []
    points = k.rules.card_points
    special = k.rules.special_mask  # a doubling 9, the doubling Q♥, the cancelling Q♣: never "the same" card
    # cards still out, and the cards of the current trick, tell two of our cards apart
    gaps = k.unseen | sum(1 << c for _, c in k.trick)
    for s in range(4):
        m = k.legal & SUIT_MASKS[s]
        prev = -1
        while m:
            b = m & -m
            c = b.bit_length() - 1
            m ^= b
            same = prev >= 0 and points[prev] == points[c] and not (special >> prev | special >> c) & 1
            if same and not (gaps >> (prev + 1)) & ((1 << (c - prev - 1)) - 1):
                prev = c
                continue
            out.append(c)
            prev = c
    return out


def _valuer(k: Knowledge) -> Callable[[list[int], list[int]], float]:
    """Return a function valuing one hand's outcome (cards taken, cards of doubled tricks) for this seat.

    The outcome is scored by the variant's own scoring (``hand_scorer``), so the doubling queen, the
    cancelling Q♣, the doubling 9, team totals and the sun count as the game will count them; in a
    chips game the worth is the chips this seat would take from the pot.
    """
    rules, seat, totals = k.rules, k.seat, k.totals
    down = k.counting_down
    if rules.start_chips:
        pot = k.pot

        def chips(taken: list[int], doubled: list[int]) -> float:
            """Return the chips this seat takes from the pot."""
            return float(chip_shares(rules, taken, pot)[seat])

        return chips
    mine = rules.side_of(seat)
    others = [s for s in range(4) if rules.side_of(s) != mine]
    rival = min(others, key=lambda s: totals[s])
    share = RIVAL_SHARE if totals[rival] < totals[seat] else 0.0  # only a rival ahead of us is worth feeding
    exact = rules.exact_zero
    reach = rules.end == "reach"
    worst = max(rules.moon_total, rules.sun)
    near = max(totals) + worst >= rules.end_score if reach else down
    score_hand = hand_scorer(rules, down)

    def value(taken: list[int], doubled: list[int]) -> float:
        """Return the worth of one outcome for this seat."""
        scores = score_hand(taken, doubled)
        u = -scores[seat] + share * scores[rival]
        if near:
            new = [totals[s] + scores[s] for s in range(4)]
            if exact and down:
                new = [-t if t < 0 else t for t in new]
            over = is_over(rules, new, down)
            if over:
                low = min(new)
                if new[seat] == low:
                    u += GAME_WORTH / sum(1 for t in new if t == low)
                else:
                    u -= GAME_WORTH
        return u

    return value
