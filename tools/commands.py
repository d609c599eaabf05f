"""The tools' subcommands of ``hearts``: ``bench engine|store|server|failover|chaos|review``, ``arena``, ``review``."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from hartenjagen.server.config import Config
from hartenjagen.server.net.compression import MODES
from hartenjagen.shared.bots.base import LEVELS
from hartenjagen.shared.rules import RulesError
from hartenjagen.shared.variants import VARIANTS, make_rules

from .table_options import add_table_flags, table_options

if TYPE_CHECKING:
    from .bench_server import Settings


def _bench_engine(args: argparse.Namespace) -> int:
    from .bench_engine import bench_engine

    try:
        rules = make_rules({"variant": args.variant})
    except RulesError as exc:
        print(exc, file=sys.stderr)
        return 2
    result = bench_engine(rules, seconds=args.seconds, seed=args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"variant {result['variant']}, {args.seconds:g} s per path, median of {result['rounds']} slices")
        print(f"  api      {result['api_hands_per_s']:>10,.0f} hands/s  (deal, pass, 13 tricks via Game)")
        print(f"  playout  {result['playout_hands_per_s']:>10,.0f} hands/s  (shared.sim fast path)")
        print(f"  ratio    {result['playout_over_api']:>10.2f} x")
        print(f"  lookahead {result['lookahead_hands_per_s']:>9,.0f} hands/s  (the hard player's rollout and scoring)")
        print(f"  search    {result['search_python_hands_per_s']:>9,.0f} hands/s  (hard's search, pure Python)")
        if result["search_kernel_hands_per_s"]:
            print(
                f"  search    {result['search_kernel_hands_per_s']:>9,.0f} hands/s  (the same, compiled kernel: "
                f"{result['kernel_over_python']:.1f} x)"
            )
        if result["openspiel_hands_per_s"]:
            print(
                f"  openspiel {result['openspiel_hands_per_s']:>9,.0f} hands/s  (random hands; playout "
                f"{result['playout_over_openspiel']:.2f} x, lookahead {result['lookahead_over_openspiel']:.2f} x)"
            )
    return 0


def _bench_review_speed(args: argparse.Namespace) -> int:
    from .review_speed import bench_review_speed, format_review_speed

    result = bench_review_speed(hands=args.hands, budget_ms=args.budget_ms, variant=args.variant)
    print(json.dumps(result) if args.json else format_review_speed(result))
    return 0


def _bench_offline(args: argparse.Namespace) -> int:
    from .bench_offline import bench_offline, format_offline

    result = bench_offline(loads=args.loads, medium=args.medium, hard=args.hard, phone=args.phone)
    print(json.dumps(result) if args.json else format_offline(result))
    return 0


def _bench_store(args: argparse.Namespace) -> int:
    from .bench_store import bench_store, format_store_report

    try:
        sizes = [int(n) for n in args.tables.split(",")]
    except ValueError:
        print("--tables takes comma-separated whole numbers, e.g. 10,100,1000", file=sys.stderr)
        return 2
    if not sizes or min(sizes) < 1:
        print("--tables needs at least one table count of 1 or more", file=sys.stderr)
        return 2
    result = asyncio.run(bench_store(sizes, args.seconds, args.pace_seconds, args.restore_tables, seed=args.seed))
    print(json.dumps(result) if args.json else format_store_report(result))
    return 0


def _bench_server(args: argparse.Namespace) -> int:
    from .bench_server import PHASES, Settings, bench_server, format_server_report

    try:
        lo, hi = (float(x) for x in args.think.split(","))
    except ValueError:
        print("--think takes two seconds figures, e.g. 1,2", file=sys.stderr)
        return 2
    if args.bots:
        return _bench_bots(args, (lo, hi))
    if args.variant != "classic" or args.option:  # the scripted people of the other runs play classic Hearts
        print("--variant and --option go with --bots", file=sys.stderr)
        return 2
    try:
        args.tables = int(args.tables) if args.tables is not None else 300 if args.nodes else 1000
    except ValueError:
        print("--tables takes one count (a comma list only with --bots)", file=sys.stderr)
        return 2
    if args.seconds is None:
        args.seconds = 30.0 if args.nodes else 60.0
    skip = frozenset(x.strip() for x in args.skip.split(",") if x.strip())
    if skip - set(PHASES) or not 0 <= lo <= hi or args.tables < 1 or args.workers < 1:
        print(
            f"--skip takes phases from {','.join(PHASES)}; --think lo,hi with 0 <= lo <= hi; "
            "--tables and --workers at least 1",
            file=sys.stderr,
        )
        return 2
    settings = Settings(
        tables=args.tables,
        seconds=args.seconds,
        think=(lo, hi),
        workers=args.workers,
        idle_connections=max(1, args.idle_connections),
        idle=max(0, args.idle),
        memory_tables=max(1, args.memory_tables),
        rounds=max(1, args.rounds),
        warmup=max(0.0, args.warmup),
        concurrency=max(3, args.concurrency),
        settle=max(0.0, args.settle),
        compression=args.compression or Config().compression,
        skip=skip,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers and load processes on the way out
    if args.nodes:
        return _bench_cluster(args, settings)
    try:
        result = bench_server(settings)
    except KeyboardInterrupt:
        print("interrupted; servers and load processes stopped", file=sys.stderr)
        return 130
    print(json.dumps(result) if args.json else format_server_report(result))
    return 0


def _bench_bots(args: argparse.Namespace, think: tuple[float, float]) -> int:
    from .bench_bots import CLASSIC, BotSettings, format_bots, run_bots

    try:
        counts = [int(x) for x in (args.tables or "20,50,100").split(",")]
        others = {lvl: int(n) for lvl, n in (x.split(":") for x in args.with_tables.split(",") if x)}
    except ValueError:
        print(
            "--tables takes counts like 20,50,100; --with takes level:count pairs like medium:5,easy:5", file=sys.stderr
        )
        return 2
    if min(counts) < 0 or args.bots not in LEVELS or any(lvl not in LEVELS for lvl in others):
        print(f"levels are {', '.join(LEVELS)}; table counts at least 0", file=sys.stderr)
        return 2
    try:
        options = table_options(args.variant, args.option)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    game = {"variant": args.variant, **options} if args.variant != "classic" or options else dict(CLASSIC)
    settings = BotSettings(
        tables=counts,
        options=game,
        level=args.bots,
        others=others,
        seconds=args.seconds or 60.0,
        warmup=max(0.0, args.warmup),
        think=think,
        bot_delay=args.bot_delay,
        reviews=max(0, args.reviews),
        review_ms=args.review_ms,
        server_args=args.server_args.split() if args.server_args else [],
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    result = run_bots(settings)
    print(json.dumps(result) if args.json else format_bots(result))
    return 0


def _bench_cluster(args: argparse.Namespace, settings: Settings) -> int:
    from .bench_cluster import bench_cluster, format_cluster_report, missing_packages, missing_proxy

    try:
        counts = [int(x) for x in args.nodes.split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        print("--nodes takes node counts of at least 1, e.g. 1,2,3", file=sys.stderr)
        return 2
    missing = missing_packages() or (None if args.no_proxy else missing_proxy())
    if missing:
        print(missing, file=sys.stderr)
        return 2
    logs = Path(args.logs) if args.logs else None
    try:
        result = bench_cluster(settings, counts, logs, proxy=not args.no_proxy)
    except KeyboardInterrupt:
        print("interrupted; nodes and load processes stopped", file=sys.stderr)
        return 130
    print(json.dumps(result) if args.json else format_cluster_report(result))
    return 0


def _bench_failover(args: argparse.Namespace) -> int:
    from .bench_cluster import missing_packages

    missing = missing_packages()
    if missing:
        print(missing, file=sys.stderr)
        return 2
    if args.kills < 1 or args.tables < 1:
        print("--kills and --tables need at least 1", file=sys.stderr)
        return 2
    from .bench_failover import format_failover_report, run

    result = run(args.kills, args.tables, args.lease_ms, args.logs)
    print(json.dumps(result) if args.json else format_failover_report(result))
    return 0


def _bench_chaos(args: argparse.Namespace) -> int:
    from .bench_cluster import missing_packages
    from .chaos_services import missing
    from .nginx import nginx_binary

    lacking = missing_packages() or missing() or (None if nginx_binary() else "no nginx: run tools/ensure_services.sh")
    if lacking:
        print(lacking, file=sys.stderr)
        return 2
    if args.seconds <= 0 or args.lease_ms < 500 or args.sets < 1:
        print("--seconds above 0, --lease-ms at least 500, --sets at least 1", file=sys.stderr)
        return 2
    from .bench_chaos import Settings, format_report, run

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop every process the bench started on the way out
    settings = Settings(args.seconds, args.seed, args.lease_ms, args.sets, each=args.each, logs=args.logs)
    result, outcome = run(settings)
    print(format_report(result, outcome))
    if args.json:
        print(json.dumps(result))
    return 0 if result["clean"] else 1


def _add_server_parser(bench_sub: argparse._SubParsersAction) -> None:
    server = bench_sub.add_parser(
        "server", help="capacity: latency, CPU per message, seating, restart, memory; beside bare websockets"
    )
    server.add_argument(
        "--tables", help="tables of four scripted people (default 1000; 300 with --nodes); with --bots a comma list"
    )
    server.add_argument("--seconds", type=float, help="measured play window (default 60; 30 with --nodes)")
    server.add_argument("--think", default="1,2", help="think time range in seconds before a move (default 1,2)")
    server.add_argument("--warmup", type=float, default=5.0, help="seconds of play before the window (default 5)")
    server.add_argument("--workers", type=int, default=2, help="load-generator processes (default 2)")
    server.add_argument(
        "--idle-connections", type=int, default=2000, help="idle connections for memory per connection (default 2000)"
    )
    server.add_argument(
        "--idle",
        type=int,
        default=0,
        help="more connections that say hello after the ramp and stay idle through play and the restart, on both "
        "servers; RSS with them minus without per connection (default 0; the 10,000 connections run: "
        "--tables 500 --idle 8000)",
    )
    server.add_argument("--memory-tables", type=int, default=500, help="tables per memory round (default 500)")
    server.add_argument("--rounds", type=int, default=3, help="memory rounds (default 3)")
    server.add_argument(
        "--concurrency", type=int, default=128, help="connections each load process opens at once (default 128)"
    )
    server.add_argument(
        "--compression",
        choices=MODES,
        help="permessage-deflate mode of both servers (default: hearts serve's own default)",
    )
    server.add_argument("--settle", type=float, default=2.0, help="seconds before memory is read (default 2)")
    server.add_argument("--skip", default="", help="comma list of phases to skip: ramp,play,restart,idle,memory,bare")
    server.add_argument(
        "--nodes",
        help="cluster run instead: comma list of node counts, e.g. 1,3; each count gets real nodes on a fresh "
        "PostgreSQL database and Redis prefix behind the shipped deploy/nginx.conf (needs '.[cluster]' and nginx); "
        "the ramp, restart, idle, memory and bare phases are skipped (defaults then: --tables 300 --seconds 30)",
    )
    server.add_argument(
        "--no-proxy",
        action="store_true",
        help="with --nodes: no nginx; each person connects to a node drawn at random (moves cross over the relay)",
    )
    server.add_argument("--logs", help="with --nodes: keep the nodes' logs in this folder (default: deleted)")
    server.add_argument(
        "--bots",
        help="instead: tables of one scripted person and computer players of this level in every other seat (classic "
        "Hearts unless --variant/--option say otherwise), one fresh server per --tables count (default 20,50,100); "
        "prints how soon computer moves come",
    )
    add_table_flags(server)  # with --bots: the game of the tables
    server.add_argument("--with", dest="with_tables", default="", help="with --bots: more tables, e.g. medium:5,easy:5")
    server.add_argument("--bot-delay", type=float, default=0.6, help="with --bots: the server's --bot-delay (0.6)")
    server.add_argument(
        "--reviews",
        type=int,
        default=0,
        help="with --bots: people who ask for 3 hand reviews each after the first window",
    )
    server.add_argument("--review-ms", type=float, default=500.0, help="with --reviews: the server's --review-ms")
    server.add_argument(
        "--server-args", default="", help="with --bots: more hearts serve flags, e.g. '--bot-workers 2'"
    )
    server.add_argument("--json", action="store_true", help="print one JSON object")
    server.set_defaults(func=_bench_server)


def add_tool_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``bench`` and ``arena`` to the ``hearts`` subcommands."""
    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="what", required=True)
    engine = bench_sub.add_parser("engine", help="random complete hands per second, API and playout paths")
    engine.add_argument("--seconds", type=float, default=5.0, help="time per path (default 5)")
    engine.add_argument("--variant", default="classic", choices=list(VARIANTS))
    engine.add_argument("--seed", type=int, default=1)
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    engine.set_defaults(func=_bench_engine)
    store = bench_sub.add_parser("store", help="table-log appends/s, commit latency, restore time (SQLite)")
    store.add_argument("--tables", default="10,100,1000", help="busy table counts (default 10,100,1000)")
    store.add_argument("--seconds", type=float, default=5.0, help="time per busy measurement (default 5)")
    store.add_argument("--pace-seconds", type=float, default=10.0, help="time at human pace (default 10)")
    store.add_argument("--restore-tables", type=int, default=1000, help="open tables to restore (default 1000)")
    store.add_argument("--seed", type=int, default=1)
    store.add_argument("--json", action="store_true", help="print one JSON object")
    store.set_defaults(func=_bench_store)
    _add_server_parser(bench_sub)
    failover = bench_sub.add_parser(
        "failover", help="kill -9 a cluster node again and again: seconds until its tables play on, moves lost"
    )
    failover.add_argument("--kills", type=int, default=10, help="kills, one node after another (default 10)")
    failover.add_argument("--tables", type=int, default=6, help="tables on the victim node each round (default 6)")
    failover.add_argument("--lease-ms", type=int, default=10_000, help="the nodes' --lease-ms (default 10000)")
    failover.add_argument("--logs", help="keep the nodes' logs in this folder (default: deleted)")
    failover.add_argument("--json", action="store_true", help="print one JSON object")
    failover.set_defaults(func=_bench_failover)
    chaos = bench_sub.add_parser(
        "chaos", help="three cluster nodes play on under random faults (seeded); check that nothing shown was lost"
    )
    chaos.add_argument("--seconds", type=float, default=600.0, help="seconds of faults (default 600)")
    chaos.add_argument("--seed", type=int, default=1, help="the nemesis's random seed: the same seed, the same faults")
    chaos.add_argument("--lease-ms", type=int, default=3000, help="the nodes' --lease-ms (default 3000)")
    chaos.add_argument("--sets", type=int, default=1, help="sets of tables and people (default 1: 17 people)")
    chaos.add_argument("--each", type=int, default=0, help="go on until each kind of fault came this often (default 0)")
    chaos.add_argument("--logs", help="keep every log (nodes, PostgreSQL, Redis, nginx) in this folder")
    chaos.add_argument("--json", action="store_true", help="print the figures, then one JSON object as the last line")
    chaos.set_defaults(func=_bench_chaos)
    speed = bench_sub.add_parser("review-speed", help="seconds per hand review, compiled and pure Python")
    speed.add_argument("--hands", type=int, default=6, help="hands reviewed per path (default 6)")
    speed.add_argument("--budget-ms", type=float, default=500.0, help="review budget per decision (default 500)")
    speed.add_argument("--variant", default="classic", choices=list(VARIANTS))
    speed.add_argument("--json", action="store_true", help="print one JSON object")
    speed.set_defaults(func=_bench_review_speed)
    offline = bench_sub.add_parser(
        "offline", help="the offline game in Chromium: first visit, engine ready offline, decision times, page stalls"
    )
    offline.add_argument("--loads", type=int, default=5, help="offline page loads timed (default 5)")
    offline.add_argument("--medium", type=int, default=40, help="medium decisions timed (default 40)")
    offline.add_argument("--hard", type=int, default=12, help="hard decisions timed at each table size (default 12)")
    offline.add_argument(
        "--phone", type=float, default=None, metavar="SLOWDOWN",
        help="run the browser on 1/SLOWDOWN of one core, as a phone (4: a quarter; needs root, Linux's CPU cgroup)",
    )  # fmt: skip
    offline.add_argument("--json", action="store_true", help="print one JSON object")
    offline.set_defaults(func=_bench_offline)
    from .arena import add_arena_parser
    from .review import add_review_parsers

    add_arena_parser(sub)
    from .train import add_train_parser

    add_train_parser(sub)
    add_review_parsers(sub, bench_sub)
    from .silent_sockets import add_silent_parser

    add_silent_parser(bench_sub)
    from .bench_step import add_step_parser

    add_step_parser(bench_sub)
    from . import runtime_fetch

    fetch = sub.add_parser("fetch-runtime", help="fetch the offline game's Python runtime (Pyodide) once, checked")
    runtime_fetch.add_arguments(fetch)
    fetch.set_defaults(func=runtime_fetch.run)
    from . import reports

    shown = sub.add_parser("reports", help="the players' reports of one another, newest first, with the chat lines")
    reports.add_arguments(shown)
    shown.set_defaults(func=reports.run)
