"""The hard player: determinized Monte Carlo over the hands the others could hold, scored for the whole game.

For each decision it deals the unseen cards to the other seats many times, consistent
with what the view shows (cards played, voids shown, cards it passed, hand sizes),
plays every candidate card in each deal, finishes the hand with the rule-of-thumb
rollout, and keeps the card with the best average outcome. Outcomes are scored with
the game in mind: its own points, the rival's points, and who wins if the hand ends
the game (the Dutch second half, where everyone wants points, included).

The budget is counted in simulated card plays, not wall-clock time, so the same seed
and view give the same decision on any machine; ``budget_ms`` is nominal milliseconds of
``PLAYS_PER_MS`` plays each (the pure-Python rate on the reference machine), and ``max_ms``
is a wall-clock safety stop. With the optional compiled twin (``kernel``, the fast extra) the
same plays, and so the same decision, cost about a fortieth of the time. With ``learned`` the rollouts draw their
cards from the learned policy (``policy.py``, at the tables of one deck); measured no stronger, it is off by default.
With ``read`` each deal is weighed by how well that policy explains the others' plays (``inference.py``); off too.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from itertools import cycle
from math import exp

from .. import multiset
from ..cards import mask_names
from ..view import View
from . import kernel, policy
from .base import ComputerPlayer
from .counted import CountedSampler, counted_rollout
from .inference import Play, log_likelihood, plays_of
from .knowledge import Knowledge, start_taken
from .pass_search import search_pass
from .passing import choose_pass
from .policy import covers_learned
from .rollout import rollout
from .sampling import Sampler, floats, seed_from
from .value import value_spec, valuer

#: Default thinking budget per decision (nominal milliseconds on the reference machine).
DEFAULT_MS = 80.0
#: Simulated card plays per nominal millisecond (measured on the 2-core reference machine).
PLAYS_PER_MS = 1200.0
#: The same for decks where a card may appear twice (``counted.py``): a trick costs more to play out.
COUNTED_PLAYS_PER_MS = 300.0
#: Wall-clock stop, whatever the budget: looked at before each candidate's rollout, once the least number of deals
#: (``MIN_SAMPLES``, two where a card may appear twice) is played, so one slow deal does not run past it.
MAX_MS = 800.0
#: A pass searches with this many decisions' budget (it sets up the whole hand) ...
PASS_BUDGET = 2.0
#: ... counted at this rate: playing out whole hands from the deal runs about half as many plays per ms.
PASS_PLAYS_PER_MS = 600.0
#: Samples per round of sequential halving, at least and at most.
MIN_SAMPLES = 8
MAX_SAMPLES = 4000
#: Random draws prepared per sampled deal, shared by the rollouts of every candidate (cycled when used up).
DRAWS = 64
#: The chance of a random legal card at each play of a rollout, at the tables of one deck. With the moon threshold
#: (``rollout.moon_threat``) 0.16 leads medium by about 0.16 a hand more than 0.08 at five and at classic.
WHIM = 0.16
#: The same where a card may appear twice (two or three decks, jokers): measured at 0.08, and kept there.
COUNTED_WHIM = 0.08
#: Taken off the mean of a candidate dropped in an early round (below any real outcome).
DROPPED = 1000.0
HALVING = True
#: With ``read``: a deal weighs its likelihood (``inference.log_likelihood``) to this power (1: Bayes' rule, were
#: the model exact; less trusts it less).
INFER_POWER = 0.2


class HardComputerPlayer(ComputerPlayer):
    """Monte Carlo search over consistent deals with heuristic rollouts; passes by the tips."""

    level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float = DEFAULT_MS,
        max_ms: float = MAX_MS,
        pass_search: bool = False,
        use_kernel: bool = True,
        learned: bool = False,
        read: bool = False,
    ) -> None:
        super().__init__(seed)
        model = policy.learned_weights() if learned or read else None
        self.weights = model if learned else None  # the learned rollout policy, or the rule of thumb
        self.reader = model if read else None  # the same model, to weigh each deal by how well it explains the play
        self.budget_ms = budget_ms
        self.max_ms = max_ms
        self.pass_search = pass_search
        self.kernel = use_kernel

    def choose_pass(self, view: View) -> list[str]:
        """Pass by the tips, or (``pass_search``) search the likely passes on sampled deals.

        The tips: high unprotected spades, Q♠ when short, short suits, high hearts. The search tries
        those and the other passes of the most dangerous cards; a pass whose cards go to several seats
        goes by the tips. Over 2,000 duplicate hands the search gained nothing measurable (-0.08 +- 0.43 points
        per hand at 40 ms, for two decisions' budget), so the tips stay the default.
        """
        k = Knowledge(view)
        targets = set(view.get("pass_targets") or [])
        offset = targets.pop() if len(targets) == 1 else 0
        dealer = view["dealer"]  # set in every passing phase
        if not self.pass_search or not offset or k.seats != 4 or k.rules.kitty or dealer is None:  # four hands
            return mask_names(choose_pass(k.rules, k.hand, view["pass_count"]))
        plays = self.budget_ms * PASS_BUDGET * PASS_PLAYS_PER_MS
        first_leader = (dealer + 1) % k.seats
        chosen = search_pass(k, view["pass_count"], offset, first_leader, plays, valuer(k), self.rng_for(view))
        return mask_names(chosen)

    def choose_play(self, view: View) -> str:
        """Return the legal card with the best average outcome over sampled deals."""
        k = Knowledge(view)
        cands = candidates(k)
        if len(cands) == 1:
            return mask_names(1 << cands[0])[0]
        history = plays_of(k.rules, view) if self.reader is not None and covers_learned(k.rules) else None
        values = self.evaluate(k, cands, self.rng_for(view), history)
        best = max(range(len(cands)), key=lambda i: (values[i], -i))
        return mask_names(1 << cands[best])[0]

    def evaluate(
        self, k: Knowledge, cands: list[int], rng: random.Random, history: list[Play] | None = None
    ) -> list[float]:
        """Return the mean game-aware value of each candidate card over the sampled deals (higher is better).

        Sequential halving: the budget is split over rounds; each round plays every candidate still in
        the running on the same fresh deals, with the same random draws for the rollouts of one deal
        (common random numbers, so two cards are compared on equal luck), and keeps the better half.
        Candidates dropped early get their mean minus ``DROPPED`` so that a survivor is chosen.
        Each deal and its draws come from one seed; the compiled twin (``kernel``), when installed,
        plays a whole round in one call and gives the same values. With ``history`` (``read``: the hand's plays so
        far) each deal is weighed by how well it explains the others' plays (``inference.log_likelihood``, raised to
        ``INFER_POWER``).
        """
        rules, seat = k.rules, k.seat
        if rules.counted:
            return self._evaluate_counted(k, cands, rng)
        sampler = Sampler(k)
        left = max(1, sum(k.sizes))
        plays = self.budget_ms * PLAYS_PER_MS
        trick = k.trick_bits()
        taken0 = start_taken(k, 0)  # a kitty's cards count for whoever the view says took them
        owed = any(t >= 0 for t in k.kitty_owed)  # unseen kitty cards another seat took: counted per deal
        doubled0 = k.doubled
        totals = [0.0] * len(cands)
        counts: list[float] = [0] * len(cands)  # weighted: a deal inference doubts counts less
        greedy = k.counting_down
        spec = value_spec(k)
        value = valuer(k, spec)
        alive = list(range(len(cands)))
        rounds = max(1, (len(cands) - 1).bit_length()) if HALVING else 1
        compiled = kernel.AVAILABLE and self.kernel and kernel.covers(rules)
        weights = self.weights if covers_learned(rules) else None
        # nothing to read before another seat has played (every deal explains that as well), nor where the rollouts
        # play for points (the Dutch second half) and not by the policy; choose_play reads only where it covers
        others_played = any(p[0] != seat for p in history or ())
        reader = self.reader if others_played and not greedy else None
        ref: float | None = None  # the log-likelihood that weighs 1: the first deal's
        plan = kernel.Plan(k, sampler, spec, DRAWS, WHIM, weights) if compiled else None
        deadline = time.perf_counter() + self.max_ms / 1000.0  # counted once the kernel is loaded
        used = 0.0
        for r in range(rounds):
            share = (plays - used) / (rounds - r)
            n = max(MIN_SAMPLES, min(MAX_SAMPLES, int(share / (left * len(alive)))))
            seeds = [seed_from(rng) for _ in range(n)]
            if plan is not None:
                vals, outs = plan.run(seeds, [1 << cands[i] for i in alive])
                ws = [1.0] * n
                if reader is not None and history:
                    ll = plan.likelihoods(seeds, history, reader)
                    ref = ll[0] if ref is None else ref
                    ws = [exp(INFER_POWER * (x - ref)) for x in ll]
                for m in range(n):
                    w = ws[m]
                    if vals is not None:
                        row = vals[m]
                        for j, i in enumerate(alive):
                            totals[i] += w * row[j]
                            counts[i] += w
                    else:
                        for j, i in enumerate(alive):
                            taken, doubled = outs[m][j]
                            totals[i] += w * value(taken, doubled)
                            counts[i] += w
                used += left * len(alive) * n
            else:
                for m in range(n):
                    hands, kitty, x = sampler.sample_with_kitty(seeds[m])
                    taken_m = start_taken(k, kitty) if owed else taken0
                    w = 1.0
                    if reader is not None and history:
                        ll1 = log_likelihood(rules, reader, hands, history, seat)
                        ref = ll1 if ref is None else ref
                        w = exp(INFER_POWER * (ll1 - ref))
                    draws = floats(x, DRAWS)[0]
                    late = False
                    for i in alive:
                        if m >= MIN_SAMPLES and time.perf_counter() > deadline:  # the stop holds inside a deal too
                            late = True
                            break
                        b = 1 << cands[i]
                        hs = list(hands)
                        hs[seat] ^= b
                        doubled = list(doubled0)
                        taken = rollout(
                            rules,
                            hs,
                            list(taken_m),
                            k.leader,
                            trick + [b],
                            k.first_trick,
                            k.hearts_broken,
                            cycle(draws).__next__,
                            greedy,
                            WHIM,
                            doubled=doubled,
                            weights=weights,
                        )
                        totals[i] += w * value(taken, doubled)
                        counts[i] += w
                    if late:
                        break
                    used += left * len(alive)
                    if m >= MIN_SAMPLES - 1 and time.perf_counter() > deadline:
                        break
            if len(alive) > 1 and r < rounds - 1:
                alive = _better_half(alive, totals, counts)
            if time.perf_counter() > deadline:
                break
        return _values(totals, counts, alive)

    def _evaluate_counted(self, k: Knowledge, cands: list[int], rng: random.Random) -> list[float]:
        """``evaluate`` where a card may appear more than once: the same halving over sampled layered deals.

        The budget is counted in plays at ``COUNTED_PLAYS_PER_MS`` per nominal millisecond (a layered hand's
        trick costs more to play out), so the same view still gets the same decision on any machine. Each deal and
        its draws come from one seed, so the compiled twin (``kernel.CountedPlan``) samples, plays and values a whole
        round in one call and gives the same values.
        """
        rules, seat, n = k.rules, k.seat, k.seats
        sampler = CountedSampler(k)
        left = max(1, sum(k.sizes))
        plays = self.budget_ms * COUNTED_PLAYS_PER_MS
        spec = value_spec(k)
        value = valuer(k, spec)
        played = [c for _, c in k.trick]
        taken0 = start_taken(k, 0)  # a kitty's cards count for whoever the view says took them
        owed = any(t >= 0 for t in k.kitty_owed)
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        alive = list(range(len(cands)))
        rounds = max(1, (len(cands) - 1).bit_length())
        plan = kernel.CountedPlan(k, sampler, spec, DRAWS, COUNTED_WHIM) if kernel.AVAILABLE and self.kernel else None
        deadline = time.perf_counter() + self.max_ms / 1000.0  # counted once the kernel is loaded
        used = 0.0
        for r in range(rounds):
            share = (plays - used) / (rounds - r)
            samples = max(2, min(MAX_SAMPLES, int(share / (left * len(alive)))))
            seeds = [seed_from(rng) for _ in range(samples)]
            if plan is not None:
                vals, outs = plan.run(seeds, [cands[i] for i in alive])
                for m in range(samples):
                    for j, i in enumerate(alive):
                        totals[i] += vals[m][j] if vals is not None else value(outs[m][j], [0] * n)
                        counts[i] += 1
                used += left * len(alive) * samples
            else:
                for m in range(samples):
                    hands, kitty, x = sampler.sample_with_kitty(seeds[m])
                    taken_m = start_taken(k, kitty) if owed else taken0
                    draws = floats(x, DRAWS)[0]
                    late = False
                    for i in alive:
                        if m >= 2 and time.perf_counter() > deadline:  # the stop holds inside a deal too
                            late = True
                            break
                        hs = list(hands)
                        hs[seat] = multiset.remove_card(hs[seat], cands[i])
                        taken = counted_rollout(
                            rules, hs, list(taken_m), k.leader, played + [cands[i]], k.first_trick, k.hearts_broken,
                            cycle(draws).__next__, k.pending, k.jokers_played, k.counting_down, COUNTED_WHIM,
                        )  # fmt: skip
                        totals[i] += value(taken, [0] * n)
                        counts[i] += 1
                    if late:
                        break
                    used += left * len(alive)
                    if m >= 1 and time.perf_counter() > deadline:
                        break
            if len(alive) > 1 and r < rounds - 1:
                alive = _better_half(alive, totals, counts)
            if time.perf_counter() > deadline:
                break
        return _values(totals, counts, alive)


def _better_half(alive: list[int], totals: Sequence[float], counts: Sequence[float]) -> list[int]:
    """The candidates of the better half by mean so far (sequential halving), in their first order."""
    alive = sorted(alive, key=lambda i: (-totals[i] / counts[i], i))
    return sorted(alive[: (len(alive) + 1) // 2])


def _values(totals: Sequence[float], counts: Sequence[float], alive: list[int]) -> list[float]:
    """Each candidate's mean; one dropped in an early round gets its mean less ``DROPPED``, so a survivor wins."""
    means = [totals[i] / counts[i] if counts[i] else -DROPPED for i in range(len(totals))]
    survivors = set(alive)
    return [means[i] if i in survivors else means[i] - DROPPED for i in range(len(totals))]


def candidates(k: Knowledge) -> list[int]:
    """Return one legal card per group of equal cards (same suit and points, nothing out or in the trick between)."""
    out: list[int] = []
    points = k.rules.card_points
    special = k.rules.special_mask  # a doubling 9, the doubling Q♥, the cancelling Q♣: never "the same" card
    # cards still out, and the cards of the current trick, tell two of our cards apart
    gaps = k.unseen | sum(1 << c for _, c in k.trick)
    for s in range(4):
        m = k.legal & k.rules.suit_masks[s]  # the joker with the hearts
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
