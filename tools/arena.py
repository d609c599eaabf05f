"""The arena: computer players against each other on duplicate deals, with points per hand and confidence intervals.

Every deal is played once with each rotation of the players over the seats (as many as the
variant seats), so card luck cancels. Deals come in matches of consecutive hands played as real games
(totals carry over, a game ends at the end score and the next one starts on the next
deal); a game counts for the win rate when it finishes inside its match. Where the compiled look-ahead is
installed, each process loads it before its first timed decision, so the decision times are the decisions' own.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from hartenjagen.shared.bots import kernel, make_player
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import GAME_OVER, MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .table_options import add_table_flags, table_options

#: Variants of the hard player the arena can seat beside the default one, to measure a change.
HARD_TRIALS: dict[str, dict[str, Any]] = {
    "hard0": {"learned": False},  # the hard player with the rule-of-thumb rollouts (today's default, kept by name)
    "hard-learned": {"learned": True},  # with the learned rollout policy (``hearts train``)
    "hard-pass-search": {"pass_search": True},
    "hard-read": {"read": True},  # deals weighed by how well the learned policy explains the others' plays
    "hard-counted-nomoon": {"counted_moon": False},  # with jokers, rollouts that stop no moon (as before they did)
}
#: The hard player's ceilings (tools/ceilings.py): arena-only players that the arena hands the game before each
#: decision. ``hard-oracle`` is told the true deal (a cheat); ``hard-own1`` and ``hard-own2`` choose their own next
#: one or two cards inside each playout by a small search from their own view there.
CEILINGS: dict[str, dict[str, Any]] = {
    "hard-oracle": {},
    "hard-oracle-queen": {"told": "queen"},  # told only where Q♠ lies
    "hard-oracle-spades": {"told": "spades"},  # where Q♠, K♠ and A♠ lie
    "hard-oracle-hearts": {"told": "hearts"},  # where the hearts lie
    "hard-own1": {"depth": 1},
    "hard-own2": {"depth": 2},
}
#: Deals per match: consecutive hands that form games with running totals.
HANDS_PER_MATCH = 20
Z95 = 1.96


def play_match(task: dict[str, Any]) -> dict[str, Any]:
    """Play one match (a run of deals) with one rotation of the players; return per-deal scores and timings."""
    rules = make_rules({**task.get("options", {}), "variant": task["variant"]})
    names: list[str] = task["players"]
    rot = task["rotation"]
    n = len(names)
    seat_names = [names[(s + rot) % n] for s in range(n)]
    bots = []
    for s in range(n):
        name, budget = split_budget(seat_names[s])
        level = "hard" if name in HARD_TRIALS or name in CEILINGS else name
        options = {"budget_ms": budget or task["hard_ms"]} if level == "hard" and (budget or task["hard_ms"]) else {}
        options.update(HARD_TRIALS.get(name, {}))
        seed = task["seed"] * 1_000_003 + task["match"] * n * n + rot * n + s
        bots.append(_ceiling(name, seed, options) if name in CEILINGS else make_player(level, seed, **options))
    if any(b.level == "hard" for b in bots):
        kernel.warm()  # load the compiled look-ahead (once per process, about a second) before any timed decision
    times: dict[str, list[float]] = {n: [] for n in set(seat_names)}
    deals, games, moons = [], [], {n: 0 for n in set(seat_names)}
    game = Game(rules)
    for d in task["deals"]:
        if game.phase == GAME_OVER:
            game = Game(rules)
        chips = list(game.chips)
        game.deal(seeded_deal(rules, task["seed"], d))
        while game.phase in (PASSING, PLAYING, MOON_CHOICE):
            for seat in game.to_act():
                view = view_for(game, seat)
                peek = getattr(bots[seat], "peek", None)
                if peek is not None:  # a ceiling player (arena only) takes the game
                    peek(game)
                start = time.perf_counter()
                intent = bots[seat].decide(view)
                times[seat_names[seat]].append((time.perf_counter() - start) * 1000.0)
                game.apply({**intent, "seat": seat})
        last = game.history[-1]
        if last["moon"] is not None:
            moons[seat_names[last["moon"]]] += 1
        scores = last["scores"]
        if rules.start_chips:  # what a chips game is played for: chips lost this hand (the ante less the pot won)
            scores = [before - after for before, after in zip(chips, game.chips, strict=True)]
        deals.append({"deal": d, "rotation": rot, "seats": seat_names, "scores": scores})
        if game.phase == GAME_OVER:
            games.append({"seats": seat_names, "winners": list(game.winners)})
    return {"deals": deals, "games": games, "moons": moons, "times": times}


def split_budget(player: str) -> tuple[str, float | None]:
    """A player's name and its own budget: ``hard0@20`` is ``hard0`` at 20 nominal ms whatever ``--hard-ms`` says."""
    name, _, ms = player.partition("@")
    try:
        return name, float(ms) if ms else None
    except ValueError:
        raise ValueError(f"{player}: a budget after @ is a number of nominal ms") from None


def _ceiling(name: str, seed: int, options: dict[str, Any]) -> Any:
    """One of the ceiling players (tools/ceilings.py, arena only)."""
    from .ceilings import OracleHard, OwnFutureHard

    if name.startswith("hard-oracle"):
        return OracleHard(seed, **CEILINGS[name], **options)
    return OwnFutureHard(seed, **CEILINGS[name], **options)


def _ci(values: list[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    return mean, Z95 * statistics.stdev(values) / math.sqrt(n)


def run_arena(
    players: list[str],
    hands: int,
    seed: int = 1,
    variant: str = "classic",
    jobs: int = 1,
    hard_ms: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    keep_log: bool = False,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play ``hands`` hands (rounded up to whole deals x one seating per seat) and return the figures as plain data.

    ``players`` names one level per seat of the variant; ``options`` are the variant's table options (as a host
    sets them, e.g. ``{"spot_form": 2}``).
    """
    options = dict(options or {})
    seats = make_rules({**options, "variant": variant}).seats
    if len(players) != seats:
        raise ValueError(f"{variant} seats {seats} players: name {seats} levels, one per seat")
    n_deals = max(1, math.ceil(hands / seats))
    tasks = []
    for m, start in enumerate(range(0, n_deals, HANDS_PER_MATCH)):
        deals = list(range(start, min(n_deals, start + HANDS_PER_MATCH)))
        for rot in range(seats):
            tasks.append(
                {"variant": variant, "options": options, "players": players, "rotation": rot, "match": m,
                 "deals": deals, "seed": seed, "hard_ms": hard_ms}
            )  # fmt: skip
    began = time.perf_counter()
    results: list[dict[str, Any]] = []
    done = 0
    total = n_deals * seats
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for fut in as_completed([pool.submit(play_match, t) for t in tasks]):
                res = fut.result()
                results.append(res)
                done += len(res["deals"])
                if progress:
                    progress(done, total)
    else:
        for task in tasks:
            res = play_match(task)
            results.append(res)
            done += len(res["deals"])
            if progress:
                progress(done, total)
    out = summarize(players, results)
    out.update(
        {"variant": variant, "options": options, "hands": total, "deals": n_deals, "seatings": seats, "seed": seed,
         "hard_ms": hard_ms, "jobs": jobs, "seconds": round(time.perf_counter() - began, 1)}
    )  # fmt: skip
    if keep_log:
        out["log"] = [d for r in results for d in r["deals"]]
    return out


def summarize(players: list[str], results: list[dict[str, Any]]) -> dict[str, Any]:
    """Turn match results into per-player figures: points per hand with a per-deal 95% CI, wins, moons, times."""
    names = list(dict.fromkeys(players))
    per_deal: dict[int, dict[str, list[int]]] = {}
    for r in results:
        for d in r["deals"]:
            slot = per_deal.setdefault(d["deal"], {n: [] for n in names})
            for s, n in enumerate(d["seats"]):
                slot[n].append(d["scores"][s])
    deal_means = {n: [sum(v[n]) / len(v[n]) for v in per_deal.values()] for n in names}
    wins = {n: 0.0 for n in names}
    seats_in_games = {n: 0 for n in names}
    n_games = 0
    for r in results:
        for g in r["games"]:
            n_games += 1
            for s, n in enumerate(g["seats"]):
                seats_in_games[n] += 1
                if s in g["winners"]:
                    wins[n] += 1 / len(g["winners"])
    out_players = []
    for n in names:
        mean, ci = _ci(deal_means[n])
        t = [x for r in results for x in r["times"].get(n, [])]
        out_players.append(
            {
                "name": n,
                "seats": players.count(n),
                "points_per_hand": round(mean, 3),
                "ci95": round(ci, 3),
                "win_rate": round(wins[n] / seats_in_games[n], 3) if seats_in_games[n] else None,
                "wins": round(wins[n], 2),
                "games": seats_in_games[n],
                "moons": sum(r["moons"].get(n, 0) for r in results),
                "decisions": len(t),
                "decision_ms_mean": round(statistics.fmean(t), 3) if t else None,
                "decision_ms_median": round(statistics.median(t), 3) if t else None,
                "decision_ms_max": round(max(t), 3) if t else None,
            }
        )
    diffs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            mean, ci = _ci([x - y for x, y in zip(deal_means[a], deal_means[b], strict=True)])
            diffs.append({"a": a, "b": b, "diff": round(mean, 3), "ci95": round(ci, 3)})
    return {"players": out_players, "differences": diffs, "games": n_games}


def format_report(res: dict[str, Any]) -> str:
    """Return the arena figures as a table for the terminal."""
    budget = f", hard budget {res['hard_ms']:g} ms" if res.get("hard_ms") else ""
    lines = [
        f"arena: {res['variant']}{_options_text(res.get('options'))}, {res['hands']} hands"
        f" ({res['deals']} deals x {res['seatings']} seatings), seed {res['seed']}"
        f"{budget}, {res['jobs']} job(s), {res['seconds']:g} s",
        f"points: score per hand (lower is better), 95% CI over deals; games: {res['games']} finished"
        " inside their match (win = lowest total, ties share)",
        f"{'player':<8} {'seats':>5} {'pts/hand':>9} {'95% CI':>8} {'win rate':>9} {'moons':>6}"
        f" {'ms mean':>8} {'ms median':>9} {'ms max':>8}",
    ]
    for p in res["players"]:
        win = f"{p['win_rate']:.3f}" if p["win_rate"] is not None else "-"
        lines.append(
            f"{p['name']:<8} {p['seats']:>5} {p['points_per_hand']:>9.3f} {'±' + format(p['ci95'], '.3f'):>8}"
            f" {win:>9} {p['moons']:>6} {p['decision_ms_mean']:>8.2f} {p['decision_ms_median']:>9.2f}"
            f" {p['decision_ms_max']:>8.1f}"
        )
    for d in res["differences"]:
        lines.append(f"{d['a']} - {d['b']}: {d['diff']:+.3f} ± {d['ci95']:.3f} points per hand (paired by deal)")
    return "\n".join(lines)


def progress_bar(done: int, total: int) -> None:
    """Draw a one-line progress bar on stderr."""
    width = 40
    fill = int(width * done / total) if total else width
    sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} hands")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _options_text(options: dict[str, Any] | None) -> str:
    """The variant's options for the report's first line, e.g. `` (spot_form=2)``."""
    return f" ({', '.join(f'{k}={v}' for k, v in options.items())})" if options else ""


def _arena_command(args: Any) -> int:
    """Run ``hearts arena`` from parsed arguments."""
    import json

    players = [p.strip() for p in args.players.split(",")] if args.players else []
    for p in players:
        try:
            name, budget = split_budget(p)
            if budget is not None and budget <= 0:
                raise ValueError(f"{p}: a budget after @ is a positive number of nominal ms")
            make_player("hard" if name in HARD_TRIALS or name in CEILINGS else name, 0)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
    try:
        options = table_options(args.variant, args.option)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    seats = make_rules({**options, "variant": args.variant}).seats
    players = players or ["hard"] + ["medium"] * (seats - 1)
    if len(players) != seats:
        example = ",".join(["hard"] + ["medium"] * (seats - 1))
        print(f"--players needs {seats} comma-separated levels for {args.variant}, e.g. {example}", file=sys.stderr)
        return 2
    progress = progress_bar if sys.stderr.isatty() else None
    res = run_arena(
        players, args.hands, args.seed, args.variant, max(1, args.jobs), args.hard_ms, progress, options=options
    )
    print(json.dumps(res) if args.json else format_report(res))
    return 0


def add_arena_parser(sub: Any) -> None:
    """Add the ``arena`` subcommand to the ``hearts`` command's subparsers."""
    arena = sub.add_parser("arena", help="computer players against each other on duplicate deals")
    arena.add_argument(
        "--players",
        default=None,
        help="one level per seat of the variant, comma-separated (default: hard, then medium in every other seat); "
        "also hard0 (the hard player with the rule-of-thumb rollouts, as the default one plays), hard-learned (with "
        "the learned rollout policy), hard-pass-search (the search-based pass), "
        "hard-read (each deal weighed by how well the learned policy explains the others' plays) and "
        "hard-counted-nomoon (with jokers, rollouts that stop no moon, as before they did), to measure them; "
        "and the ceilings (arena only): hard-oracle (told the true deal; hard-oracle-queen, -spades and -hearts told "
        "only where Q♠, the spades above the jack or the hearts lie), hard-own1 and hard-own2 (their own next "
        "one or two cards in each playout chosen by a small search from their own view there); a hard player's name "
        "may end in @MS for its own budget (hard0@20)",
    )
    arena.add_argument("--hands", type=int, default=400, help="hands to play (whole deals x one seating per seat)")
    arena.add_argument("--seed", type=int, default=1)
    add_table_flags(arena)
    arena.add_argument("--jobs", type=int, default=1, help="processes to spread the matches over")
    arena.add_argument("--hard-ms", type=float, default=None, help="the hard player's budget per decision")
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    arena.set_defaults(func=_arena_command)
