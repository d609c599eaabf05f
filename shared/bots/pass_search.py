"""A search-based pass for the hard player: try the likely passes on sampled deals and keep the best.

The candidates are the tips' pass and every choice of ``count`` cards among the most dangerous
few. Each is tried on the same deals of the unseen cards to the other seats (who pass by the
tips), with the same random draws, played out by the rule-of-thumb rollout and scored for the
game, by sequential halving as in play. Only the seat's own hand and the rules are used.
"""

from __future__ import annotations

import random
from itertools import combinations, cycle

from ..cards import QS, Mask, mask_cards
from .knowledge import Knowledge
from .passing import _danger, choose_pass, is_moon_hand
from .rollout import rollout
from .value import Valuer

#: The most dangerous cards the candidate passes are drawn from.
POOL = 6
MIN_SAMPLES = 8
DRAWS = 128
DROPPED = 1000.0


def candidate_passes(k: Knowledge, count: int) -> list[Mask]:
    """Return the tips' pass first, then every ``count`` of the ``POOL`` most dangerous passable cards."""
    rules, hand = k.rules, k.hand
    tips = choose_pass(rules, hand, count)
    passable = hand & ~rules.no_pass
    has_qs = bool(hand >> QS & 1)
    pool = sorted(mask_cards(passable), key=lambda c: _danger(c, hand, has_qs), reverse=True)[:POOL]
    out = [tips]
    for combo in combinations(pool, count):
        m = sum(1 << c for c in combo)
        if m != tips:
            out.append(m)
    return out


def search_pass(
    k: Knowledge, count: int, offset: int, first_leader: int, plays: float, value: Valuer, rng: random.Random
) -> Mask:
    """Return the pass with the best mean outcome; ``plays`` is the budget in simulated card plays."""
    rules, seat, hand = k.rules, k.seat, k.hand
    if is_moon_hand(rules, hand) or not offset or count <= 0:
        return choose_pass(rules, hand, count)
    cands = candidate_passes(k, count)
    if len(cands) == 1:
        return cands[0]
    others = [s for s in range(4) if s != seat]
    unseen = [1 << c for c in mask_cards(k.unseen)]
    sizes = k.sizes
    to = (seat + offset) % 4
    first = 1 << rules.first_lead if rules.first_lead >= 0 else 0
    left = sum(sizes)
    totals = [0.0] * len(cands)
    counts = [0] * len(cands)
    alive = list(range(len(cands)))
    rounds = max(1, (len(cands) - 1).bit_length())
    spent = 0.0
    for r in range(rounds):
        share = (plays - spent) / (rounds - r)
        n = max(MIN_SAMPLES, int(share / (left * len(alive))))
        for _ in range(n):
            rng.shuffle(unseen)
            dealt = [0, 0, 0, 0]
            i = 0
            for s in others:
                dealt[s] = sum(unseen[i : i + sizes[s]])
                i += sizes[s]
            after = list(dealt)
            for s in others:  # the others pass by the tips, to the same side
                p = choose_pass(rules, dealt[s], count)
                after[s] ^= p
                after[(s + offset) % 4] |= p
            draws = [rng.random() for _ in range(DRAWS)]
            for c in alive:
                hs = list(after)
                hs[seat] = (hs[seat] | hand) & ~cands[c]
                hs[to] |= cands[c]
                if first:
                    leader = next(s for s in range(4) if hs[s] & first)
                else:
                    leader = first_leader
                doubled = [0, 0, 0, 0]
                taken = rollout(
                    rules, hs, [0, 0, 0, 0], leader, [], True, False, cycle(draws).__next__, doubled=doubled
                )
                totals[c] += value(taken, doubled)
                counts[c] += 1
            spent += left * len(alive)
        if len(alive) > 1 and r < rounds - 1:
            alive.sort(key=lambda c: (-totals[c] / counts[c], c))
            alive = sorted(alive[: (len(alive) + 1) // 2])
    best = max(alive, key=lambda c: (totals[c] / counts[c], -c))
    return cands[best]
