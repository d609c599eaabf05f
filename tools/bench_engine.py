"""Engine benchmark: random complete hands through the public API and through the simulation path."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from shared.game import PASSING, PLAYING, Game
from shared.rules import Rules
from shared.sim import pick, random_hand


def api_hand(rules: Rules, seed: int, rng: random.Random) -> Game:
    """Play one hand through the engine API the server uses: seeded deal, passes, legal plays."""
    game = Game(rules)
    game.deal_seeded(seed)
    rand = rng.random
    if game.phase == PASSING:
        for seat in range(4):
            hand, chosen = game.hands[seat], 0
            for _ in range(rules.pass_count):
                b = pick(hand, rand)
                hand ^= b
                chosen |= b
            game.pass_cards(seat, chosen)
    while game.phase == PLAYING:
        seat = game.turn
        game.play(seat, pick(game.legal(seat), rand).bit_length() - 1)
    return game


def _rate(step, seconds: float, rounds: int) -> float:
    """Return the median hands per second over ``rounds`` timed slices of ``seconds / rounds``."""
    rates = []
    n = 0
    for _ in range(rounds):
        start = time.perf_counter()
        end = start + seconds / rounds
        count = 0
        while True:
            for _ in range(50):
                step(n)
                n += 1
                count += 1
            now = time.perf_counter()
            if now >= end:
                break
        rates.append(count / (now - start))
    return statistics.median(rates)


def bench_engine(rules: Rules, seconds: float = 5.0, seed: int = 1, rounds: int = 5) -> dict[str, Any]:
    """Measure both paths for ``seconds`` each (median of ``rounds`` slices); return the figures."""
    rng = random.Random(seed)
    api = _rate(lambda n: api_hand(rules, seed + n, rng), seconds, rounds)
    sim = _rate(lambda n: random_hand(rules, rng), seconds, rounds)
    return {
        "variant": rules.variant,
        "seconds_per_path": seconds,
        "rounds": rounds,
        "api_hands_per_s": round(api, 1),
        "playout_hands_per_s": round(sim, 1),
        "playout_over_api": round(sim / api, 2),
    }
