"""``hearts bench review-speed``: seconds per hand review, through the compiled look-ahead and in pure Python.

It plays hands of four medium players from numbered deals, then reviews one seat of each (the pass and thirteen plays)
at the server's review budget, first with the compiled look-ahead (the ``fast`` extra) and then in pure Python, in
this one process (the kernel loaded first, as the review process has it after its first review); it checks the two
reviews are the same and prints the median wall and CPU seconds of each, and their ratio.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from hartenjagen.shared.bots import kernel
from hartenjagen.shared.bots.choice import decide
from hartenjagen.shared.cards import parse_card
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import Game
from hartenjagen.shared.review import review_hand
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for


def played_hand(options: dict[str, Any], deal: int) -> list[dict[str, Any]]:
    """Return the events of one hand of four medium players from deal number ``deal``."""
    rules = make_rules(options)
    game = Game(rules)
    game.deal(seeded_deal(rules, deal, 0))
    rng = random.Random(deal)
    while game.phase in ("passing", "playing"):
        seat = game.to_act()[0]
        intent = decide("medium", rng.randrange(2**32), view_for(game, seat))
        if intent["type"] == "pass":
            game.pass_cards(seat, [parse_card(c) for c in intent["cards"]])
        else:
            game.play(seat, parse_card(intent["card"]))
    return [dict(e) for e in game.events]


def bench_review_speed(hands: int = 6, budget_ms: float = 500.0, variant: str = "classic") -> dict[str, Any]:
    """Time the review of seat 0 in ``hands`` hands, compiled and pure Python; return the figures."""
    options = {"variant": variant}
    rules = make_rules(options)
    names = ["A", "B", "C", "D"]
    games = [played_hand(options, deal) for deal in range(1, hands + 1)]
    compiled = kernel.AVAILABLE and kernel.covers(rules)
    if compiled:
        kernel.warm()
    out: dict[str, Any] = {"variant": variant, "hands": hands, "budget_ms": budget_ms, "compiled": compiled}
    reviews: dict[str, list[Any]] = {}
    for path, available in (("compiled", kernel.AVAILABLE), ("python", False)):
        saved, kernel.AVAILABLE = kernel.AVAILABLE, available
        walls, cpus, got = [], [], []
        try:
            for events in games:
                wall, cpu = time.perf_counter(), time.process_time()
                got.append(review_hand(rules, events, 0, 0, budget_ms, names))
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
        finally:
            kernel.AVAILABLE = saved
        reviews[path] = got
        out[f"{path}_wall_s"] = round(statistics.median(walls), 2)
        out[f"{path}_cpu_s"] = round(statistics.median(cpus), 2)
    out["same_reviews"] = reviews["compiled"] == reviews["python"]
    out["python_over_compiled"] = round(out["python_cpu_s"] / max(out["compiled_cpu_s"], 1e-9), 1)
    return out


def format_review_speed(r: dict[str, Any]) -> str:
    """Return the figures as lines for people."""
    return "\n".join(
        [
            f"hand review of seat 0, {r['variant']}, budget {r['budget_ms']:g} ms a decision, median of {r['hands']}",
            f"  compiled     {r['compiled_wall_s']:6.2f} s wall  {r['compiled_cpu_s']:6.2f} s CPU"
            + ("" if r["compiled"] else "  (no compiled look-ahead here: pure Python)"),
            f"  pure Python  {r['python_wall_s']:6.2f} s wall  {r['python_cpu_s']:6.2f} s CPU"
            f"  ({r['python_over_compiled']} x); the same reviews: {r['same_reviews']}",
        ]
    )
