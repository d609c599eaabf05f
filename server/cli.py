"""The ``hearts`` command: ``serve`` (the server) and the tools (``bench engine``, ``bench store``, ``arena``)."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for every ``hearts`` subcommand."""
    from hartenjagen.tools.commands import add_tool_parsers

    from .serve_cli import add_serve_parser

    parser = argparse.ArgumentParser(prog="hearts", description="Hartenjagen: multiplayer Hearts.")
    sub = parser.add_subparsers(dest="command", required=True)
    add_serve_parser(sub)
    add_tool_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``hearts`` command line."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
