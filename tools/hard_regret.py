"""Tuning aids for the hard player: regret against a big-budget oracle, and a profile of arena play.

``python -m hartenjagen.tools.hard_regret regret MS`` deals 120 fixed positions from medium play, values every
candidate card once with a 3,000 ms search (cached in ``--oracle``), then lets the hard player choose at MS with a
few seeds and prints the mean regret: the oracle's value of its best card minus that of the chosen one, points per
decision.
``python -m hartenjagen.tools.hard_regret profile [MS]`` profiles 8 deals of hard against three mediums with cProfile
(``HEARTS_KERNEL=0`` profiles the pure-Python look-ahead).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pickle
import pstats
import statistics
import time
from multiprocessing import Pool
from typing import Any

from hartenjagen.shared.bots import kernel, make_player
from hartenjagen.shared.bots.hard import HardComputerPlayer, candidates
from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.cards import mask_names
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.variants import make_rules

from .arena import play_match

RULES = make_rules({"variant": "classic"})


def positions(n: int, seed: int = 99) -> list[dict[str, Any]]:
    """Return ``n`` play views with two or more candidate cards, one per deal of medium play."""
    import random

    from hartenjagen.shared.view import view_for

    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    d = 0
    while len(out) < n:
        game = Game(RULES)
        game.deal(seeded_deal(RULES, seed, d))
        d += 1
        bots = [make_player("medium", 1000 * d + s) for s in range(4)]
        pick, i = rng.randrange(4, 48), 0
        while game.phase in (PASSING, PLAYING, MOON_CHOICE):
            for s in game.to_act():
                view = view_for(game, s)
                if game.phase == PLAYING:
                    i += 1
                    if i == pick and len(candidates(Knowledge(view))) >= 2:
                        out.append(view)
                game.apply({**bots[s].decide(view), "seat": s})
    return out


def oracle(view: dict[str, Any]) -> dict[str, float]:
    """Return the mean value of every candidate card with a 3,000 ms search."""
    import random

    k = Knowledge(view)
    cands = candidates(k)
    values = HardComputerPlayer(seed=7, budget_ms=3000, max_ms=60_000).evaluate(k, cands, random.Random(12345))
    return {mask_names(1 << c)[0]: v for c, v in zip(cands, values, strict=True)}


def _choose(job: tuple[dict[str, Any], float, int]) -> str:
    view, ms, seed = job
    return HardComputerPlayer(seed=seed, budget_ms=ms).choose_play(view)


def regret(ms: float, n: int, seeds: int, oracle_file: str) -> str:
    """Return a line with the mean regret at ``ms`` over ``n`` positions and ``seeds`` seeds each."""
    pos = positions(n)
    if os.path.exists(oracle_file):
        with open(oracle_file, "rb") as f:
            values = pickle.load(f)
    else:
        with Pool(2) as pool:
            values = pool.map(oracle, pos, chunksize=1)
        with open(oracle_file, "wb") as f:
            pickle.dump(values, f)
    jobs = [(v, ms, s) for v in pos for s in range(seeds)]
    with Pool(2) as pool:
        chosen = pool.map(_choose, jobs, chunksize=4)
    regrets = [max(values[i // seeds].values()) - values[i // seeds][c] for i, c in enumerate(chosen)]
    se = statistics.stdev(regrets) / len(regrets) ** 0.5
    return f"{ms:g} ms: mean regret {statistics.mean(regrets):.3f} (se {se:.3f}) over {n} positions x {seeds} seeds"


def profile(ms: float) -> str:
    """Profile 8 deals of hard against three mediums; return the top of the profile and the decision times."""
    task = {"variant": "classic", "options": {}, "players": ["hard", "medium", "medium", "medium"], "rotation": 0,
            "match": 0, "deals": list(range(8)), "seed": 3, "hard_ms": ms}  # fmt: skip
    kernel.warm()  # the compiled look-ahead's loading is not part of a decision
    prof = cProfile.Profile()
    start = time.perf_counter()
    prof.enable()
    res = play_match(task)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(12)
    times = res["times"]["hard"]
    return (
        f"{len(times)} hard decisions at {ms:g} ms in {time.perf_counter() - start:.1f} s (profiled): "
        f"median {statistics.median(times):.1f} ms"
    )


def main() -> None:
    """Run ``regret`` or ``profile``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["regret", "profile"])
    parser.add_argument("ms", type=float, nargs="?", default=40.0)
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--oracle", default="hard_oracle.pkl", help="where the oracle's values are kept")
    args = parser.parse_args()
    if args.what == "regret":
        print(regret(args.ms, args.positions, args.seeds, args.oracle))
    else:
        print(profile(args.ms))


if __name__ == "__main__":
    main()
