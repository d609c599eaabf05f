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
from collections.abc import Callable, Sequence
from itertools import cycle
from math import exp
from typing import Any, Protocol

from .. import multiset
from ..cards import Mask, mask_names
from ..view import View
from . import kernel, policy
from .base import DEFAULT_MS, ComputerPlayer
from .counted import CountedSampler, counted_rollout
from .inference import Play, log_likelihood, plays_of
from .knowledge import Knowledge, start_taken
from .pass_search import search_pass
from .passing import choose_pass
from .policy import covers_learned
from .rollout import rollout
from .sampling import Sampler, floats, seed_from
from .value import value_spec, valuer

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
#: The same where a card may appear twice (two or three decks, jokers): measured at 0.08, and kept there (again with
#: the moon rule of the rollouts with jokers: docs/players.md).
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
        counted_moon: bool = True,
    ) -> None:
        super().__init__(seed)
        model = policy.learned_weights() if learned or read else None
        self.weights = model if learned else None  # the learned rollout policy, or the rule of thumb
        self.reader = model if read else None  # the same model, to weigh each deal by how well it explains the play
        self.budget_ms = budget_ms
        self.max_ms = max_ms
        self.pass_search = pass_search
        self.kernel = use_kernel
        self.counted_moon = counted_moon  # the counted rollouts' moon rule (off: as before it, for the arena)

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

        Sequential halving (``_halving``): the budget is split over rounds; each round plays every candidate still in
        the running on the same fresh deals, with the same random draws for the rollouts of one deal
        (common random numbers, so two cards are compared on equal luck), and keeps the better half.
        Candidates dropped early get their mean minus ``DROPPED`` so that a survivor is chosen.
        Each deal and its draws come from one seed; the compiled twin (``kernel``), when installed,
        plays a whole round in one call and gives the same values. With ``history`` (``read``: the hand's plays so
        far) each deal is weighed by how well it explains the others' plays (``inference.log_likelihood``, raised to
        ``INFER_POWER``). Where a card may appear more than once the rounds deal layered hands (``counted.py``) and
        the budget is counted at ``COUNTED_PLAYS_PER_MS``, so the same view still gets the same decision anywhere.
        """
        if k.rules.counted:
            rounds, rate = self._counted_rounds(k, cands), COUNTED_PLAYS_PER_MS
        else:
            rounds, rate = self._deck_rounds(k, cands, history), PLAYS_PER_MS
        deadline = time.perf_counter() + self.max_ms / 1000.0  # counted once the kernel is loaded
        return _halving(rounds, len(cands), self.budget_ms * rate, max(1, sum(k.sizes)), rng, deadline)

    def _deck_rounds(self, k: Knowledge, cands: list[int], history: list[Play] | None) -> Rounds:
        """The rounds at a table of one deck: the compiled twin's where it is installed, else pure Python's."""
        rules, seat = k.rules, k.seat
        sampler = Sampler(k)
        greedy = k.counting_down
        spec = value_spec(k)
        value = valuer(k, spec)
        weights = self.weights if covers_learned(rules) else None
        # nothing to read before another seat has played (every deal explains that as well), nor where the rollouts
        # play for points (the Dutch second half) and not by the policy; choose_play reads only where it covers
        others_played = any(p[0] != seat for p in history or ())
        reader = self.reader if others_played and not greedy else None
        reading = _Reading() if reader is not None and history else None
        if kernel.AVAILABLE and self.kernel and kernel.covers(rules):
            plan = kernel.Plan(k, sampler, spec, DRAWS, WHIM, weights)

            def likelihoods(seeds: list[int]) -> list[float]:
                """Each deal's weight by how well it explains the others' plays."""
                assert reading is not None and history is not None and reader is not None
                return [reading.weight(x) for x in plan.likelihoods(seeds, history, reader)]

            read = likelihoods if reading else None
            return CompiledRounds(plan.run, [1 << c for c in cands], lambda out: value(*out), MIN_SAMPLES, read)
        trick = k.trick_bits()
        doubled0 = k.doubled

        def outcome(hands: list[Mask], taken: list[Mask], draws: list[float], card: int) -> float:
            """Play ``card`` on the deal and the rest by the rollout; the outcome's value."""
            b = 1 << card
            hs = list(hands)
            hs[seat] ^= b
            doubled = list(doubled0)
            got = rollout(
                rules, hs, list(taken), k.leader, trick + [b], k.first_trick, k.hearts_broken, cycle(draws).__next__,
                greedy, WHIM, doubled=doubled, weights=weights,
            )  # fmt: skip
            return value(got, doubled)

        def weigh(hands: list[Mask]) -> float:
            """The deal's weight by how well it explains the others' plays."""
            assert reading is not None and history is not None and reader is not None
            return reading.weight(log_likelihood(rules, reader, hands, history, seat))

        return PythonRounds(k, sampler, cands, outcome, MIN_SAMPLES, weigh if reading else None)

    def _counted_rounds(self, k: Knowledge, cands: list[int]) -> Rounds:
        """The rounds where a card may appear more than once: layered deals, ``CountedPlan`` where installed.

        A layered hand's trick costs more to play out, so a round plays at least two deals (not ``MIN_SAMPLES``).
        """
        rules, seat, n = k.rules, k.seat, k.seats
        sampler = CountedSampler(k)
        spec = value_spec(k)
        value = valuer(k, spec)
        if kernel.AVAILABLE and self.kernel:
            plan = kernel.CountedPlan(k, sampler, spec, DRAWS, COUNTED_WHIM, self.counted_moon)
            return CompiledRounds(plan.run, cands, lambda taken: value(taken, [0] * n), 2)
        played = [c for _, c in k.trick]

        def outcome(hands: list[Mask], taken: list[Mask], draws: list[float], card: int) -> float:
            """Play ``card`` on the layered deal and the rest by the counted rollout; the outcome's value."""
            hs = list(hands)
            hs[seat] = multiset.remove_card(hs[seat], card)
            got = counted_rollout(
                rules, hs, list(taken), k.leader, played + [card], k.first_trick, k.hearts_broken,
                cycle(draws).__next__, k.pending, k.jokers_played, k.counting_down, COUNTED_WHIM, self.counted_moon,
            )  # fmt: skip
            return value(got, [0] * n)

        return PythonRounds(k, sampler, cands, outcome, 2)


#: One round's outcomes: per deal, its weight and the value of each candidate still in the running, in order (a deal
#: the clock stopped has fewer values and does not count as played).
Rows = list[tuple[float, list[float]]]


class Rounds(Protocol):
    """The look-ahead's rounds on one backend: it plays the candidates still in the running on the deals of seeds."""

    least: int  #: deals a round plays at least, and before the clock may stop one

    def play(self, seeds: list[int], alive: list[int], deadline: float) -> Rows:
        """Play each candidate of ``alive`` (indexes of the candidates) on the deal of each seed."""
        ...


def _halving(rounds: Rounds, ncands: int, plays: float, left: int, rng: random.Random, deadline: float) -> list[float]:
    """Sequential halving over ``rounds``: each round's deals share out what is left of ``plays`` (card plays).

    A round plays ``left`` cards a candidate and deal; it keeps the better half of the candidates for the next. The
    clock (``deadline``) stops it once a round has played its least number of deals.
    """
    totals = [0.0] * ncands
    counts = [0.0] * ncands  # weighted: a deal inference doubts counts less
    alive = list(range(ncands))
    steps = max(1, (ncands - 1).bit_length()) if HALVING else 1
    used = 0.0
    for r in range(steps):
        share = (plays - used) / (steps - r)
        n = max(rounds.least, min(MAX_SAMPLES, int(share / (left * len(alive)))))
        played = 0
        for w, values in rounds.play([seed_from(rng) for _ in range(n)], alive, deadline):
            for i, v in zip(alive, values, strict=False):
                totals[i] += w * v
                counts[i] += w
            played += len(values) == len(alive)
        used += left * len(alive) * played
        if len(alive) > 1 and r < steps - 1:
            alive = _better_half(alive, totals, counts)
        if time.perf_counter() > deadline:
            break
    return _values(totals, counts, alive)


class _Reading:
    """A deal's weight from its log-likelihood (``INFER_POWER``), relative to the first deal read (which weighs 1)."""

    def __init__(self) -> None:
        self.ref: float | None = None

    def weight(self, ll: float) -> float:
        """Return ``exp(INFER_POWER * (ll - ref))``, ``ref`` the first deal's log-likelihood."""
        if self.ref is None:
            self.ref = ll
        return exp(INFER_POWER * (ll - self.ref))


class CompiledRounds:
    """Rounds in the compiled twin (``kernel.Plan``, ``kernel.CountedPlan``): a whole round in one call."""

    def __init__(
        self,
        run: Callable[[list[int], list[int]], tuple[list[list[float]] | None, Sequence[Sequence[Any]]]],
        cards: list[int],
        score: Callable[[Any], float],
        least: int,
        likelihoods: Callable[[list[int]], list[float]] | None = None,
    ) -> None:
        self.run = run  # values per deal and candidate, or (where the kernel does not score the rules) outcomes
        self.cards = cards  # each candidate as the plan takes it: a bit (one deck) or a card
        self.score = score  # an unscored outcome's value
        self.least = least
        self.likelihoods = likelihoods  # each deal's weight, where the deals are read

    def play(self, seeds: list[int], alive: list[int], deadline: float) -> Rows:
        """Play the round in one call; the clock does not stop it."""
        vals, outs = self.run(seeds, [self.cards[i] for i in alive])
        ws = self.likelihoods(seeds) if self.likelihoods is not None else [1.0] * len(seeds)
        if vals is not None:
            return list(zip(ws, vals, strict=True))
        return [(w, [self.score(out) for out in outs[m]]) for m, w in enumerate(ws)]


class PythonRounds:
    """Rounds in pure Python: deal by deal, each candidate's rollout on the deal's draws; the clock may stop them."""

    def __init__(
        self,
        k: Knowledge,
        sampler: Sampler | CountedSampler,
        cands: list[int],
        outcome: Callable[[list[Mask], list[Mask], list[float], int], float],
        least: int,
        weigh: Callable[[list[Mask]], float] | None = None,
    ) -> None:
        self.k = k
        self.sampler = sampler
        self.cands = cands
        self.outcome = outcome  # (hands, taken, draws, card): the value of playing the card on the deal
        self.least = least
        self.weigh = weigh  # a deal's weight, where the deals are read
        self.taken0 = start_taken(k, 0)  # a kitty's cards count for whoever the view says took them
        self.owed = any(t >= 0 for t in k.kitty_owed)  # unseen kitty cards another seat took: counted per deal

    def play(self, seeds: list[int], alive: list[int], deadline: float) -> Rows:
        """Play deal by deal; past ``deadline`` (once ``least`` deals are played) stop, inside a deal too."""
        rows: Rows = []
        for m, seed in enumerate(seeds):
            hands, kitty, x = self.sampler.sample_with_kitty(seed)
            taken = start_taken(self.k, kitty) if self.owed else self.taken0
            w = self.weigh(hands) if self.weigh is not None else 1.0
            draws = floats(x, DRAWS)[0]
            values: list[float] = []
            rows.append((w, values))
            for i in alive:
                if m >= self.least and time.perf_counter() > deadline:  # the stop holds inside a deal too
                    return rows
                values.append(self.outcome(hands, taken, draws, self.cands[i]))
            if m >= self.least - 1 and time.perf_counter() > deadline:
                break
        return rows


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
