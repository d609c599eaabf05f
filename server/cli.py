"""The ``hearts`` command: ``hearts bench engine`` (more subcommands join as they are built)."""

from __future__ import annotations

import argparse
import json
import sys

from shared.rules import RulesError, make_rules


def _bench_engine(args: argparse.Namespace) -> int:
    from .bench import bench_engine

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


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for every ``hearts`` subcommand."""
    parser = argparse.ArgumentParser(prog="hearts", description="Hartenjagen: multiplayer Hearts.")
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench", help="benchmarks that print figures")
    bench_sub = bench.add_subparsers(dest="what", required=True)
    engine = bench_sub.add_parser("engine", help="random complete hands per second, API and playout paths")
    engine.add_argument("--seconds", type=float, default=5.0, help="time per path (default 5)")
    engine.add_argument("--variant", default="classic", choices=["classic", "dutch"])
    engine.add_argument("--seed", type=int, default=1)
    engine.add_argument("--json", action="store_true", help="print one JSON object")
    engine.set_defaults(func=_bench_engine)
    from .serve_cli import add_serve_parser

    add_serve_parser(sub)
    from .arena import add_arena_parser

    add_arena_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``hearts`` command line."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
