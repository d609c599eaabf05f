"""The ``hearts serve`` subcommand: flags (each with a HEARTS_* environment fallback) and the run loop."""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys

from .addresses import parse_proxies
from .compression import MODES
from .config import Config
from .store import SchemaTooNew, StoreBusy, StoreUnavailable


def add_serve_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``serve`` to the ``hearts`` subcommands."""
    try:
        env = Config.from_env()
    except ValueError as exc:
        env = Config()
        print(f"warning: {exc}; using the default", file=sys.stderr)
    serve = sub.add_parser("serve", help="run the table server (web client, websocket, stats) on one port")
    serve.add_argument("--host", default=env.host, help=f"address to listen on (HEARTS_HOST, default {env.host})")
    serve.add_argument("--port", type=int, default=env.port, help=f"port, 0 for any free one (HEARTS_PORT, {env.port})")
    serve.add_argument(
        "--db",
        default=env.db,
        help=f"SQLite file, or a postgresql://user@host/db URL (needs '.[cluster]') (HEARTS_DB, default {env.db})",
    )
    serve.add_argument(
        "--bot-delay", type=float, default=env.bot_delay, help="seconds a computer player waits before moving"
    )
    serve.add_argument("--grace", type=float, default=env.grace, help="seconds play waits for a disconnected player")
    serve.add_argument(
        "--idle-timeout", type=float, default=env.idle_timeout, help="seconds before a table with nobody on it closes"
    )
    serve.add_argument(
        "--bot-workers", type=int, default=env.bot_workers, help="processes for computer players (0: threads)"
    )
    serve.add_argument(
        "--timer-min",
        type=int,
        default=env.timer_min,
        help=f"shortest turn timer a host may set, in seconds (HEARTS_TIMER_MIN, default {env.timer_min})",
    )
    serve.add_argument(
        "--decision-timeout",
        type=float,
        default=env.decision_timeout,
        help="seconds a computer decision may take before a simple legal move is played "
        f"(HEARTS_DECISION_TIMEOUT, default {env.decision_timeout:g})",
    )
    serve.add_argument(
        "--compression",
        choices=MODES,
        default=env.compression,
        help="permessage-deflate: large (messages of 1 KiB or more, no zlib state kept per connection), "
        f"all (every message, about 40 KiB per connection) or off (HEARTS_COMPRESSION, default {env.compression})",
    )
    serve.add_argument(
        "--redis", default=env.redis, help="join a cluster through Redis at this redis:// URL (HEARTS_REDIS)"
    )
    serve.add_argument("--node", default=env.node, help="this node's name in the cluster (default: hostname-pid)")
    serve.add_argument(
        "--redis-prefix", default=env.redis_prefix, help=f"prefix of every Redis key (default {env.redis_prefix})"
    )
    serve.add_argument(
        "--lease-ms",
        type=int,
        default=env.lease_ms,
        help=f"milliseconds a table lease lives unless renewed (HEARTS_LEASE_MS, default {env.lease_ms})",
    )
    serve.add_argument(
        "--trusted-proxies",
        default=env.trusted_proxies,
        help="comma list of reverse-proxy addresses or networks (e.g. 10.0.0.0/8) whose X-Forwarded-For names the "
        "client, for the per-address limits (HEARTS_TRUSTED_PROXIES; default none: the peer address counts)",
    )
    serve.add_argument(
        "--hard-ms",
        type=float,
        default=env.hard_ms,
        help=f"the hard computer player's budget per decision, nominal ms (HEARTS_HARD_MS, default {env.hard_ms:g})",
    )
    serve.add_argument(
        "--hard-floor-ms",
        type=float,
        default=env.hard_floor_ms,
        help="the least the hard budget shrinks to when decisions queue "
        f"(HEARTS_HARD_FLOOR_MS, default {env.hard_floor_ms:g})",
    )
    serve.add_argument(
        "--bot-target",
        type=float,
        default=env.bot_target,
        help="seconds within which the hard decisions waiting should be done: budgets shrink to fit "
        f"(HEARTS_BOT_TARGET, default {env.bot_target:g})",
    )
    serve.add_argument(
        "--review-ms",
        type=float,
        default=env.review_ms,
        help="the hard player's budget per decision when it reviews a hand, in nominal milliseconds "
        f"(HEARTS_REVIEW_MS, default {env.review_ms:g})",
    )
    serve.add_argument(
        "--review-wait",
        type=float,
        default=env.review_wait,
        help="seconds GET /api/games/{id}/review/{hand} waits for a review being computed before it answers 202 "
        f"(ask again) (HEARTS_REVIEW_WAIT, default {env.review_wait:g}; keep it under your proxy's read timeout)",
    )
    serve.set_defaults(func=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    """Run the server until SIGTERM or SIGINT."""
    from .app import run
    from .messages import TIMER_MAX

    if not 0 <= args.port <= 65535:
        print(f"--port {args.port}: choose 0..65535", file=sys.stderr)
        return 2
    if args.redis:
        from .stores import is_postgres_url

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
    config = Config(
        host=args.host,
        port=args.port,
        db=args.db,
        bot_delay=max(0.0, args.bot_delay),
        grace=max(0.0, args.grace),
        idle_timeout=max(1.0, args.idle_timeout),
        bot_workers=max(0, args.bot_workers),
        timer_min=min(max(1, args.timer_min), TIMER_MAX),
        decision_timeout=max(0.1, args.decision_timeout),
        compression=args.compression,
        redis=args.redis,
        node=args.node or f"{socket.gethostname()}-{os.getpid()}",
        redis_prefix=args.redis_prefix,
        lease_ms=max(300, args.lease_ms),
        trusted_proxies=args.trusted_proxies,
        review_ms=min(max(5.0, args.review_ms), 10_000.0),
        review_wait=min(max(0.0, args.review_wait), 8.0),
        hard_ms=min(max(5.0, args.hard_ms), 20_000.0),
        hard_floor_ms=min(max(5.0, args.hard_floor_ms), 20_000.0),
        bot_target=min(max(0.1, args.bot_target), 10.0),
    )
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
