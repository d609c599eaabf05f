"""The hand review's search: expected hand points of candidate plays and passes, from one seat's view only.

The hard player's machinery (deals sampled consistent with the view, the rule-of-thumb rollout)
valued by points alone: the seat's score change for the hand by the variant's own scoring (a moon
included; in a chips game, minus the chips the seat takes). Lower is better. The budget is counted
in simulated card plays, never in wall-clock time, so a view and a budget give one answer.
"""

from __future__ import annotations

import random
from itertools import cycle

from .bots import kernel
from .bots.base import ComputerPlayer
from .bots.counted import CountedSampler, counted_rollout
from .bots.hard import COUNTED_WHIM, DRAWS, PLAYS_PER_MS, WHIM, candidates
from .bots.knowledge import Knowledge, start_taken
from .bots.passing import choose_pass
from .bots.rollout import rollout
from .bots.sampling import Sampler, floats, seed_from
from .bots.value import Valuer, value_spec
from .cards import SUIT_MASKS, Mask, mask_cards
from .exchange import exchange
from .multiset import LAYER0, remove_card
from .rules import Rules
from .scoring import chip_shares
from .sim import score_hand
from .view import View

#: The seed of the reviewer's random choices (with the position, as the hard player seeds its own).
REVIEW_SEED = 13
MIN_SAMPLES, MAX_SAMPLES = 8, 20_000
#: What scoring one outcome costs, counted as simulated plays (so a late decision does not buy endless deals).
SCORE_PLAYS = 26


def rng_for(view: View, budget_ms: float) -> random.Random:
    """Return the reviewer's random generator for this view and budget (nothing else goes in)."""
    seed = ComputerPlayer(REVIEW_SEED).rng_for(view).getrandbits(64)
    return random.Random(f"review:{seed}:{budget_ms!r}")


def samples_for(budget_ms: float, plays_per_sample: int) -> int:
    """Return how many sampled deals a budget buys, at ``plays_per_sample`` simulated plays per deal."""
    return max(MIN_SAMPLES, min(MAX_SAMPLES, int(budget_ms * PLAYS_PER_MS / max(1, plays_per_sample))))


def points_valuer(rules: Rules, seat: int, counting_down: bool, pot: int) -> Valuer:
    """Return the seat's points for one outcome (cards taken, cards of doubled tricks): lower is better."""
    memo: dict[tuple[int, ...], float] = {}  # outcomes repeat, above all late in a hand

    def value(taken: list[Mask], doubled: list[Mask]) -> float:
        """Return the seat's points for this outcome."""
        key = (*taken, *doubled)
        v = memo.get(key)
        if v is None:
            if rules.start_chips:
                v = -float(chip_shares(rules, taken, pot)[seat])
            else:
                v = float(score_hand(rules, taken, counting_down, doubled=doubled)[seat])
            memo[key] = v
        return v

    return value


def group_of(k: Knowledge, card: int) -> int:
    """Return the candidate card standing for ``card`` (``candidates`` keeps one card per group of equal cards)."""
    cands = candidates(k)
    if card in cands:
        return card
    suit = SUIT_MASKS[card // 13]
    below = [c for c in cands if c < card and (1 << c) & suit]
    return max(below) if below else card


def evaluate_plays(view: View, budget_ms: float) -> dict[int, float]:
    """Return the expected hand points of every candidate card (one per group of equal cards) from ``view``."""
    k = Knowledge(view)
    cands = candidates(k)
    value = points_valuer(k.rules, k.seat, k.counting_down, k.pot)
    return dict(zip(cands, _search(k, cands, view, budget_ms, value), strict=True))


def _search(k: Knowledge, cands: list[int], view: View, budget_ms: float, value: Valuer) -> list[float]:
    """Average points of each candidate over the same sampled deals, each rollout with the same random draws.

    As the hard player does: each deal and its draws come from one seed, and the compiled look-ahead (the ``fast``
    extra), where it plays the variant, plays every candidate on every deal in one call; the pure-Python rollout
    plays the same cards, so the review is the same either way.
    """
    rules, seat = k.rules, k.seat
    if rules.counted:
        return _search_counted(k, cands, view, budget_ms, value)
    sampler = Sampler(k)
    rng = rng_for(view, budget_ms)
    n = samples_for(budget_ms, (sum(k.sizes) + SCORE_PLAYS) * len(cands))
    seeds = [seed_from(rng) for _ in range(n)]
    bits = [1 << c for c in cands]
    totals = [0.0] * len(cands)
    if kernel.AVAILABLE and kernel.covers(rules):
        plan = kernel.Plan(k, sampler, value_spec(k), DRAWS, WHIM)
        points = plan.points(seeds, bits)  # scored in the kernel where it scores the variant
        if points is None:
            points = [[value(taken, doubled) for taken, doubled in row] for row in plan.outcomes(seeds, bits)]
        for row in points:  # deal by deal, as the Python path adds them: the same sums to the last digit
            for i, v in enumerate(row):
                totals[i] += v
        return [t / n for t in totals]
    trick = k.trick_bits()
    for seed in seeds:
        hands, kitty, x = sampler.sample_with_kitty(seed)
        taken0 = start_taken(k, kitty)  # a kitty's cards count for whoever the view says took them
        draws = floats(x, DRAWS)[0]
        for i, b in enumerate(bits):
            hs = list(hands)
            hs[seat] ^= b
            doubled = list(k.doubled)
            taken = rollout(rules, hs, list(taken0), k.leader, trick + [b], k.first_trick, k.hearts_broken,
                            cycle(draws).__next__, k.counting_down, WHIM, doubled=doubled)  # fmt: skip
            totals[i] += value(taken, doubled)
    return [t / n for t in totals]


def _search_counted(k: Knowledge, cands: list[int], view: View, budget_ms: float, value: Valuer) -> list[float]:
    """``_search`` where a card may appear twice: layered hands, the counted trick, compiled where installed."""
    rules, seat, seats = k.rules, k.seat, k.seats
    sampler = CountedSampler(k)
    rng = rng_for(view, budget_ms)
    n = samples_for(budget_ms, (sum(k.sizes) + SCORE_PLAYS) * len(cands))
    seeds = [seed_from(rng) for _ in range(n)]
    totals = [0.0] * len(cands)
    if kernel.AVAILABLE:
        plan = kernel.CountedPlan(k, sampler, value_spec(k), DRAWS, COUNTED_WHIM)
        points = plan.points(seeds, cands)  # scored in the kernel where it scores the variant
        if points is None:
            points = [[value(taken, [0] * seats) for taken in row] for row in plan.outcomes(seeds, cands)]
        for row in points:  # deal by deal, as the Python path adds them: the same sums to the last digit
            for i, v in enumerate(row):
                totals[i] += v
        return [t / n for t in totals]
    played = [c for _, c in k.trick]
    for seed in seeds:
        hands, kitty, x = sampler.sample_with_kitty(seed)
        taken0 = start_taken(k, kitty)
        draws = floats(x, DRAWS)[0]
        for i, c in enumerate(cands):
            hs = list(hands)
            hs[seat] = remove_card(hs[seat], c)
            taken = counted_rollout(rules, hs, list(taken0), k.leader, played + [c], k.first_trick, k.hearts_broken,
                                    cycle(draws).__next__, k.pending, k.jokers_played, k.counting_down,
                                    COUNTED_WHIM)  # fmt: skip
            totals[i] += value(taken, [0] * seats)
    return [t / n for t in totals]


def hard_pass(view: View) -> list[int]:
    """Return the hard player's pass for this view, in the order its cards go to the pass targets."""
    k = Knowledge(view)
    return list(mask_cards(choose_pass(k.rules, k.hand, view["pass_count"])))


def evaluate_passes(view: View, passes: list[list[int]], budget_ms: float) -> list[float]:
    """Return the expected hand points of each pass (cards in target order) from a passing view.

    The others' hands are sampled (unknown at pass time), they pass by the hard player's rules,
    the cards are exchanged as the variant does, and the hand is played out with the rollout: every pass on the
    same deals with the same random draws. With one deck the compiled look-ahead, where installed, plays the
    hands out (the same cards as the pure-Python rollout, so the review is the same either way).
    """
    k = Knowledge(view)
    rules, seat = k.rules, k.seat
    targets = rules.pass_targets(view["hand_no"])
    value = points_valuer(rules, seat, k.counting_down, k.pot)
    sampler = CountedSampler(k) if rules.counted else Sampler(k)  # layered hands where a card may appear twice
    rng = rng_for(view, budget_ms)
    n = samples_for(budget_ms, (sum(k.sizes) + SCORE_PLAYS) * len(passes))
    count = len(targets)
    seats = rules.seats
    after = rules.dealer(view["hand_no"]) + 1
    played: list[tuple[list[Mask], int, int]] = []  # one-deck hands to play out: hands, leader, state of the draws
    totals = [0.0] * len(passes)
    for j in range(n):
        dealt = sampler.sample(rng)
        stream = rng.getrandbits(64)
        theirs = {s: list(mask_cards(choose_pass(rules, dealt[s] & LAYER0, count))) for s in range(seats) if s != seat}
        state = stream & 0xFFFFFFFF or 1  # the xorshift state of this deal's draws (``floats``)
        for i, mine in enumerate(passes):
            hands = list(dealt)
            orders = [mine if s == seat else theirs[s] for s in range(seats)]
            exchange(targets, orders, hands, f"review:{j}", rules.counted)
            leader = after % seats  # also where the leading card lies in the kitty
            if rules.first_lead >= 0:
                lead = 1 << rules.first_lead
                leader = next((s % seats for s in range(after, after + seats) if hands[s % seats] & lead), leader)
            if rules.counted:
                taken = counted_rollout(rules, hands, [0] * seats, leader, [], True, False,
                                        random.Random(stream).random, greedy=k.counting_down)  # fmt: skip
                totals[i] += value(taken, [0] * seats)
            else:
                played.append((hands, leader, state))
    if played:
        if kernel.AVAILABLE and kernel.covers(rules):
            outs = kernel.playouts(rules, [h for h, _, _ in played], [x for _, x, _ in played],
                                   [d for _, _, d in played], DRAWS, k.counting_down, WHIM)  # fmt: skip
        else:
            outs = []
            made: dict[int, list[float]] = {}  # the passes of one deal share its draws
            for hands, leader, state in played:
                draws = made.get(state) or made.setdefault(state, floats(state, DRAWS)[0])
                doubled = [0] * seats
                taken = rollout(rules, hands, [0] * seats, leader, [], True, False, cycle(draws).__next__,
                                k.counting_down, WHIM, doubled=doubled)  # fmt: skip
                outs.append([taken, doubled])
        for m, (taken, doubled) in enumerate(outs):  # deal by deal, pass by pass: the same sums either way
            totals[m % len(passes)] += value(taken, doubled)
    return [t / n for t in totals]
