"""The ``hearts serve`` subcommand: flags (each with a HEARTS_* environment fallback) and the run loop."""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys

from . import allocator
from .net.addresses import parse_proxies
from .net.security import parse_origins
from .settings import add_arguments, config_from
from .storage.store import SchemaTooNew, StoreBusy, StoreUnavailable


def add_serve_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``serve`` to the ``hearts`` subcommands: one flag per setting (``server.settings``)."""
    serve = sub.add_parser("serve", help="run the table server (web client, websocket, stats) on one port")
    for problem in add_arguments(serve):
        print(f"warning: {problem}", file=sys.stderr)
    serve.set_defaults(func=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    """Run the server until SIGTERM or SIGINT."""
    if not 0 <= args.port <= 65535:
        print(f"--port {args.port}: choose 0..65535", file=sys.stderr)
        return 2
    if args.redis:
        from .storage.opening import is_postgres_url

        if not is_postgres_url(args.db):
            print(
                "--redis needs --db postgresql://...: the nodes of a cluster share one database "
                f"(not the SQLite file {args.db})",
                file=sys.stderr,
            )
            return 2
        try:
            import redis  # noqa: F401
        except ImportError:
            print("--redis needs the redis package: pip install -e '.[cluster]'", file=sys.stderr)
            return 2
    try:
        parse_proxies(args.trusted_proxies)
    except ValueError as exc:
        print(f"--trusted-proxies: {exc}", file=sys.stderr)
        return 2
    try:
        parse_origins(args.origin)
    except ValueError as exc:
        print(f"--origin: {exc}", file=sys.stderr)
        return 2
    try:
        allocator.adopt(args.allocator)  # may start this command again, on jemalloc
    except ValueError as exc:
        print(f"--allocator {args.allocator}: {exc}", file=sys.stderr)
        return 2
    from .net.node import run

    config = config_from(args, node=args.node or f"{socket.gethostname()}-{os.getpid()}")
    try:
        asyncio.run(run(config))
    except SchemaTooNew as exc:
        print(f"refusing to start: {exc}", file=sys.stderr)
        return 3
    except (StoreUnavailable, StoreBusy) as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"cannot serve on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    return 0
