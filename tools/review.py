"""``hearts review GAME_ID SEAT``: the hand review of a stored finished game, and ``hearts bench review``.

The bench plays hands of four medium players and of one hard player against three medium ones,
reviews seat 0 in every hand, and prints the mean reviewed cost per hand of each: a check that
the review finds more to fault in medium's play than in hard's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from hartenjagen.shared.bots import make_player
from hartenjagen.shared.cards import SEAT_NAMES
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.review import card_text, review_hand
from hartenjagen.shared.variants import VARIANTS, make_rules
from hartenjagen.shared.view import view_for


async def load_game(db: str, game_id: int) -> dict[str, Any] | None:
    """Return the stored row of finished game ``game_id`` (options, seats and events), or None."""
    from hartenjagen.server.storage.opening import open_store

    store = await open_store(db)
    try:
        return await store.finished_game(game_id)
    finally:
        await store.close()


def _cards(chosen: list[str] | str) -> str:
    return " ".join(card_text(c) for c in chosen) if isinstance(chosen, list) else card_text(chosen)


def _reason(reason: dict[str, Any]) -> str:
    """A reason as the terminal shows it: its code and parameters (the browser words it in a sentence)."""
    params = ", ".join(f"{name} {' '.join(value) if isinstance(value, list) else value}"
                       for name, value in reason["params"].items())  # fmt: skip
    return f"{reason['code']} ({params})" if params else reason["code"]


def format_review(review: dict[str, Any]) -> str:
    """Return one hand's review as lines for the terminal."""
    lines = [f"hand {review['hand_no'] + 1}: about {review['total_cost']:.1f} points given away"]
    for d in review["decisions"]:
        where = "pass" if d["kind"] == "pass" else f"trick {d['trick'] + 1}.{d['position'] + 1}"
        line = (
            f"  {where:<10} {_cards(d['chosen']):<12} expected {d['expected']['chosen']:6.2f}"
            f"  best {_cards(d['best']):<12} {d['expected']['best']:6.2f}  cost {d['cost']:5.2f}"
        )
        if d["mark"]:
            line += f"  {d['mark'].upper()}: {_reason(d['reason'])}"
        lines.append(line)
    return "\n".join(lines)


def _review_command(args: argparse.Namespace) -> int:
    """Run ``hearts review`` from parsed arguments."""
    if not 0 <= args.seat < 4:
        print("SEAT is 0 (south), 1 (west), 2 (north) or 3 (east)", file=sys.stderr)
        return 2
    if not args.db.startswith(("postgresql://", "postgres://")) and not Path(args.db).exists():
        print(f"no database file {args.db}", file=sys.stderr)
        return 2
    row = asyncio.run(load_game(args.db, args.game_id))
    if row is None:
        print(f"no finished game {args.game_id} in {args.db}", file=sys.stderr)
        return 2
    rules = make_rules(json.loads(row["options"]))
    events = json.loads(row["events"])
    seats = {s["seat"]: s.get("name") or SEAT_NAMES[s["seat"]] for s in json.loads(row["seats"])}
    names = [seats.get(s, SEAT_NAMES[s]) for s in range(4)]
    hands = sum(1 for e in events if e["type"] == "deal")
    wanted = range(hands) if args.hand is None else [args.hand - 1]
    if args.hand is not None and not 1 <= args.hand <= hands:
        print(f"game {args.game_id} has hands 1 to {hands}", file=sys.stderr)
        return 2
    reviews = [review_hand(rules, events, args.seat, h, args.budget_ms, names) for h in wanted]
    total = round(sum(r["total_cost"] for r in reviews), 2)
    if args.json:
        print(json.dumps({"game_id": args.game_id, "seat": args.seat, "budget_ms": args.budget_ms,
                          "hands": reviews, "total_cost": total}, ensure_ascii=False))  # fmt: skip
        return 0
    print(
        f"game {args.game_id}, seat {args.seat} ({SEAT_NAMES[args.seat]}, {names[args.seat]}),"
        f" {rules.variant}, budget {args.budget_ms:g} ms per decision; expected points of the hand, lower is better"
    )
    for r in reviews:
        print(format_review(r))
    print(f"in all: about {total:.1f} points given away")
    return 0


def play_hand(players: list[str], hand: int, seed: int, variant: str, hard_ms: float) -> Game:
    """Play deal ``hand`` of ``seed`` as a fresh game (so no totals steer play) and return the game."""
    rules = make_rules({"variant": variant})
    bots = [make_player(p, seed * 1_000_003 + hand * 4 + s, **({"budget_ms": hard_ms} if p == "hard" else {}))
            for s, p in enumerate(players)]  # fmt: skip
    game = Game(rules)
    game.deal(seeded_deal(rules, seed, hand))
    while game.phase in (PASSING, PLAYING, MOON_CHOICE):
        for s in game.to_act():
            game.apply({**bots[s].decide(view_for(game, s)), "seat": s})
    return game


LINEUPS = {"medium": ["medium"] * 4, "hard": ["hard", "medium", "medium", "medium"]}


def _play_and_review(task: tuple[str, int, int, str, float, float]) -> tuple[str, float, int, int]:
    """Play one hand of a line-up and review seat 0: (line-up, cost, points, marks)."""
    name, hand, seed, variant, hard_ms, budget = task
    game = play_hand(LINEUPS[name], hand, seed, variant, hard_ms)
    review = review_hand(game.rules, game.events, 0, 0, budget)
    marks = sum(1 for d in review["decisions"] if d["mark"])
    return name, review["total_cost"], game.history[-1]["scores"][0], marks


def bench_review(hands: int, budget_ms: float, seed: int, variant: str, jobs: int, hard_ms: float) -> dict[str, Any]:
    """Play and review the two line-ups; return mean cost, points and marks per hand of seat 0 for each."""
    began = time.perf_counter()
    tasks = [(name, h, seed, variant, hard_ms, budget_ms) for name in LINEUPS for h in range(hands)]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done = list(pool.map(_play_and_review, tasks, chunksize=4))
    else:
        done = [_play_and_review(t) for t in tasks]
    out: dict[str, Any] = {"hands": hands, "budget_ms": budget_ms, "hard_ms": hard_ms, "seed": seed,
                           "variant": variant, "jobs": jobs}  # fmt: skip
    for name in LINEUPS:
        costs = [c for n, c, _, _ in done if n == name]
        out[name] = {
            "cost_per_hand": round(statistics.fmean(costs), 3),
            "ci95": round(1.96 * statistics.stdev(costs) / len(costs) ** 0.5, 3),
            "points_per_hand": round(statistics.fmean(p for n, _, p, _ in done if n == name), 3),
            "marks_per_hand": round(statistics.fmean(m for n, _, _, m in done if n == name), 3),
        }
    out["seconds"] = round(time.perf_counter() - began, 1)
    return out


def _bench_review_command(args: argparse.Namespace) -> int:
    """Run ``hearts bench review`` from parsed arguments."""
    if args.hands < 2 or args.budget_ms <= 0:
        print("--hands needs at least 2 and --budget-ms more than 0", file=sys.stderr)
        return 2
    res = bench_review(args.hands, args.budget_ms, args.seed, args.variant, max(1, args.jobs), args.hard_ms)
    if args.json:
        print(json.dumps(res))
        return 0
    print(
        f"review bench: {res['variant']}, {res['hands']} hands per line-up, seed {res['seed']}, review budget"
        f" {res['budget_ms']:g} ms per decision, hard player's budget {res['hard_ms']:g} ms, seat 0 reviewed,"
        f" {res['jobs']} job(s), {res['seconds']:g} s"
    )
    for name, label in (("medium", "medium (4 medium)"), ("hard", "hard (hard + 3 medium)")):
        r = res[name]
        print(
            f"  {label:<24} reviewed cost {r['cost_per_hand']:.3f} ± {r['ci95']:.3f} per hand,"
            f" marks {r['marks_per_hand']:.2f} per hand, hand score {r['points_per_hand']:.2f} per hand"
        )
    verdict = "higher" if res["medium"]["cost_per_hand"] > res["hard"]["cost_per_hand"] else "NOT higher"
    print(f"medium's reviewed cost per hand is {verdict} than hard's")
    return 0


def add_review_parsers(sub: argparse._SubParsersAction, bench_sub: argparse._SubParsersAction) -> None:
    """Add ``review`` to the ``hearts`` subcommands and ``review`` to ``hearts bench``."""
    review = sub.add_parser("review", help="the hard player's review of one seat's decisions in a finished game")
    review.add_argument("game_id", type=int, metavar="GAME_ID")
    review.add_argument("seat", type=int, metavar="SEAT", help="0 south, 1 west, 2 north, 3 east")
    review.add_argument("--hand", type=int, help="only hand N (1 is the first hand)")
    review.add_argument(
        "--db", default=os.environ.get("HEARTS_DB", "hearts.db"), help="SQLite file or postgresql:// URL"
    )
    review.add_argument(
        "--budget-ms", type=float, default=500.0, help="review budget per decision, as hearts serve's (default 500)"
    )
    review.add_argument("--json", action="store_true", help="print one JSON object")
    review.set_defaults(func=_review_command)
    bench = bench_sub.add_parser("review", help="reviewed cost per hand: 4 medium against 1 hard + 3 medium")
    bench.add_argument("--hands", type=int, default=200, help="hands per line-up (default 200)")
    bench.add_argument("--budget-ms", type=float, default=50.0, help="review budget per decision (default 50)")
    bench.add_argument("--hard-ms", type=float, default=50.0, help="the hard player's budget in play (default 50)")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--variant", default="classic", choices=list(VARIANTS))
    bench.add_argument("--jobs", type=int, default=1, help="processes to spread the reviews over")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(func=_bench_review_command)
