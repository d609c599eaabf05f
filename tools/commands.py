"""The tools' subcommands of ``hearts``: ``bench engine``, ``bench store`` and ``arena``."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from shared.rules import RulesError, make_rules


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
    result = asyncio.run(
        bench_store(sizes, args.seconds, args.pace_seconds, args.restore_tables, seed=args.seed)
    )
    print(json.dumps(result) if args.json else format_store_report(result))
    return 0


def add_tool_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``bench`` and ``arena`` to the ``hearts`` subcommands."""
    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="what", required=True)
    engine = bench_sub.add_parser("engine", help="random complete hands per second, API and playout paths")
    engine.add_argument("--seconds", type=float, default=5.0, help="time per path (default 5)")
    engine.add_argument("--variant", default="classic", choices=["classic", "dutch"])
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
    from .arena import add_arena_parser

    add_arena_parser(sub)
