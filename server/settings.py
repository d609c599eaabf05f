"""Every setting of ``hearts serve`` written once: its flag, its HEARTS_* variable, its default, its bounds, its help.

``Config`` holds the defaults; ``SETTINGS`` says for each field whether it is a flag (and an environment variable)
and how it is checked. The parser, the environment fallback, the clamping and docs/server.md's synopsis and table all
come from here (``synopsis`` and ``markdown``; a test keeps docs/server.md equal to them).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .allocator import CHOICES as ALLOCATORS
from .config import Config
from .net.compression import MODES
from .table.messages import TIMER_MAX

DEFAULTS = Config()


@dataclass(frozen=True)
class Setting:
    """One ``Config`` field as ``hearts serve`` offers it."""

    name: str
    help: str
    low: float | None = None  # values below are raised to it (None: no bound)
    high: float | None = None  # values above are lowered to it
    choices: tuple[str, ...] | None = None
    metavar: str | None = None  # how the synopsis shows the value (default: the default)

    @property
    def flag(self) -> str:
        """The command-line flag, ``--bot-delay`` for ``bot_delay``."""
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        """The environment variable, ``HEARTS_BOT_DELAY`` for ``bot_delay``."""
        return "HEARTS_" + self.name.upper()

    @property
    def kind(self) -> type:
        """The field's type: ``str``, ``int`` or ``float``."""
        return type(getattr(DEFAULTS, self.name))

    @property
    def default(self) -> Any:
        """The field's default in ``Config``."""
        return getattr(DEFAULTS, self.name)

    def parse(self, text: str) -> Any:
        """Read a value given as text (a flag or a variable); raise ValueError for one of the wrong kind."""
        try:
            value = self.kind(text)
        except ValueError:
            raise ValueError(f"{self.env}={text!r} is not a valid {self.kind.__name__}") from None
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"{self.env}={text!r} is not one of {', '.join(self.choices)}")
        return value

    def clamp(self, value: Any) -> Any:
        """Keep ``value`` within the bounds."""
        if self.low is not None and value < self.low:
            value = self.kind(self.low)
        if self.high is not None and value > self.high:
            value = self.kind(self.high)
        return value

    def shown_default(self) -> str:
        """The default as the help and docs/server.md show it."""
        value = self.default
        return f"{value:g}" if isinstance(value, float) else str(value) if value != "" else "none"


#: The flags of ``hearts serve``, in the order the synopsis shows them. Every one is also a HEARTS_* variable.
SETTINGS: tuple[Setting, ...] = (
    Setting("host", "address to listen on"),
    Setting("port", "port; 0 picks a free one (0..65535)"),
    Setting(
        "db",
        "SQLite file, or a postgresql://user@host/db URL (needs '.[cluster]')",
        metavar="hearts.db|postgresql://...",
    ),  # fmt: skip
    Setting("bot_delay", "seconds a computer player waits before it moves", low=0.0),
    Setting("grace", "seconds play waits for a disconnected person before a computer stands in", low=0.0),
    Setting("idle_timeout", "seconds before a table with nobody connected closes", low=1.0),
    Setting("bot_workers", "processes for the hard computer player (0: threads)", low=0),
    Setting("hard_ms", "the hard computer player's budget per decision, nominal ms", low=5.0, high=20_000.0),
    Setting("hard_floor_ms", "the least that budget shrinks to when decisions queue", low=5.0, high=20_000.0),
    Setting(
        "bot_target",
        "seconds within which the hard decisions waiting should be done (budgets shrink to fit)",
        low=0.1,
        high=10.0,
    ),  # fmt: skip
    Setting(
        "decision_timeout", "seconds a computer decision may take before a simple legal move is played", low=0.1
    ),  # fmt: skip
    Setting("timer_min", "shortest turn timer a host may set, in seconds", low=1, high=TIMER_MAX),
    Setting(
        "read_timeout",
        "seconds a connection may leave a ping unanswered before it is closed (not reading)",
        low=1.0,
        high=300.0,
    ),  # fmt: skip
    Setting("compression", "permessage-deflate: large (messages of 1 KiB or more), all, or off", choices=MODES),
    Setting(
        "allocator",
        "memory allocator: pymalloc (Python's own), jemalloc (gives more freed memory back), or auto",
        choices=ALLOCATORS,
    ),  # fmt: skip
    Setting(
        "trusted_proxies",
        "reverse proxies (addresses or networks) whose X-Forwarded-For names the client",
        metavar="10.0.0.0/8",
    ),  # fmt: skip
    Setting(
        "origin",
        "origins of other web pages that may open /ws (comma list); the site's own may always",
        metavar="https://example.com",
    ),  # fmt: skip
    Setting(
        "review_ms", "the hard player's budget per decision when it reviews a hand, nominal ms", low=5.0, high=10_000.0
    ),  # fmt: skip
    Setting(
        "review_wait",
        "seconds GET /api/games/{id}/review/{hand} waits for a review before answering 202",
        low=0.0,
        high=8.0,
    ),  # fmt: skip
    Setting(
        "redis", "join a cluster through Redis at this redis:// URL (needs a postgresql:// --db)", metavar="redis://..."
    ),  # fmt: skip
    Setting("node", "this node's name in the cluster (default: hostname-pid)", metavar="NAME"),
    Setting("redis_prefix", "prefix of every Redis key"),
    Setting("lease_ms", "milliseconds a table lease lives unless renewed", low=300),
    Setting("blocked_names", "file of more words no player name may hold, one per line", metavar="FILE"),
    Setting("play_now_rate", "Play now presses a connection may make per minute", low=1.0),
    Setting(
        "hello_timeout", "seconds a new connection may take to say hello before it is closed", low=0.1, high=300.0
    ),  # fmt: skip
    Setting("msg_rate", "messages a second one connection may send, sustained, before it is closed", low=1.0),
    Setting("msg_burst", "messages one connection may send at once above that rate", low=1.0),
    Setting("sockets_per_address", "websocket connections open at once from one client address", low=1),
    Setting("new_players_per_minute", "new players one client address may make per minute", low=1),
    Setting("new_tables_per_minute", "new tables one client address may open per minute", low=1),
    Setting("chat_window", "seconds over which chat lines are counted (per connection, address and table)", low=0.1),
    Setting("chat_per_address", "chat lines one client address may send within the chat window", low=1),
    Setting("chat_per_table", "chat lines a table takes within the chat window, from everyone at it", low=1),
    Setting("reports_per_address", "reports one client address may send per hour", low=1),
    Setting(
        "prune_days",
        "days after which players who never finished a game and tables never started are deleted (0: never)",
        low=0.0,
    ),  # fmt: skip
)
BY_NAME = {s.name: s for s in SETTINGS}

#: Variables read outside ``Config``: where the installed files are, and a switch for the compiled look-ahead.
ENVIRONMENT_ONLY: tuple[tuple[str, str], ...] = (
    ("HEARTS_CLIENT_DIR", "serve the browser client from this folder instead of the one installed with the package"),
    ("HEARTS_MIGRATIONS_DIR", "apply the migrations in this folder instead of the ones installed with the package"),
    ("HEARTS_KERNEL", "0: the hard player uses its pure-Python look-ahead even where numba is installed"),
)

#: ``Config`` fields that are not flags: limits the protocol documents, tuned by tests and benchmarks only.
INTERNAL = frozenset({"max_frame", "code_failures", "address_failures", "code_window",
                      "inline_bots", "prune_every"})  # fmt: skip

#: The limits per client address raised so far that a load from one address never meets them: the benchmarks and
#: the tests' servers, whose every connection comes from loopback, start with these (``one_address_flags``).
ONE_ADDRESS: dict[str, int] = {
    "sockets_per_address": 1_000_000,
    "new_players_per_minute": 1_000_000,
    "new_tables_per_minute": 1_000_000,
    "chat_per_address": 1_000_000,
    "reports_per_address": 1_000_000,
}


#: The flood limit raised for the tests' servers, whose scripted people answer at machine speed (a whole hand in a
#: fraction of a second); the flood limit itself is tested with its default.
MACHINE_PACE: dict[str, float] = {"msg_rate": 100_000.0, "msg_burst": 100_000.0}


def serve_flags(values: Mapping[str, float]) -> list[str]:
    """The ``hearts serve`` flags that set these settings (``{"msg_rate": 5}``: ``--msg-rate 5``)."""
    return [arg for name, value in values.items() for arg in (BY_NAME[name].flag, str(value))]


def one_address_flags() -> list[str]:
    """The ``hearts serve`` flags of ``ONE_ADDRESS``: every per-address limit out of a load test's way."""
    return serve_flags(ONE_ADDRESS)


def from_env(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Return the settings the HEARTS_* variables give (unset or empty ones are left out); raise ValueError."""
    env = os.environ if env is None else env
    found: dict[str, Any] = {}
    for s in SETTINGS:
        raw = env.get(s.env)
        if raw:
            found[s.name] = s.parse(raw)
    return found


def config_from_env(env: Mapping[str, str] | None = None) -> Config:
    """Return the defaults overridden by the HEARTS_* variables; raise ValueError for one of the wrong kind."""
    return dataclasses.replace(DEFAULTS, **from_env(env))


def add_arguments(parser: argparse.ArgumentParser, env: Mapping[str, str] | None = None) -> list[str]:
    """Add a flag per setting, each defaulting to its variable and then to ``Config``; return the variables' errors."""
    source = os.environ if env is None else env
    errors = []
    given: dict[str, Any] = {}
    for s in SETTINGS:  # one by one: one bad variable must not hide the others
        try:
            given.update(from_env({s.env: source.get(s.env, "")}))
        except ValueError as exc:
            errors.append(f"{exc}; using the default")
    for s in SETTINGS:
        default = given.get(s.name, s.default)
        parser.add_argument(
            s.flag,
            type=s.parse if s.choices is None else str,
            choices=s.choices,
            default=default,
            help=f"{s.help} ({s.env}, default {s.shown_default()})",
        )
    return errors


def config_from(args: argparse.Namespace, **extra: Any) -> Config:
    """Return the ``Config`` the parsed flags give, every value clamped to its bounds."""
    values = {s.name: s.clamp(getattr(args, s.name)) for s in SETTINGS}
    values.update(extra)
    return dataclasses.replace(DEFAULTS, **values)


def synopsis() -> str:
    """The ``hearts serve`` synopsis line, as docs/server.md shows it."""
    parts = []
    for s in SETTINGS:
        shown = s.metavar or ("|".join(s.choices) if s.choices else s.shown_default())
        parts.append(f"[{s.flag} {shown}]")
    return ".venv/bin/hearts serve " + " ".join(parts)


def markdown() -> str:
    """docs/server.md's table of every setting and variable."""
    rows = ["| flag | environment | default | what |", "|---|---|---|---|"]
    for s in SETTINGS:
        bounds = ""
        if s.low is not None or s.high is not None:
            low = f"{s.low:g}" if s.low is not None else ""
            high = f"{s.high:g}" if s.high is not None else ""
            bounds = f" (kept within {low}..{high})" if low and high else f" (at least {low})" if low else ""
        rows.append(f"| `{s.flag}` | `{s.env}` | `{s.shown_default()}` | {s.help}{bounds} |")
    for env, what in ENVIRONMENT_ONLY:
        rows.append(f"| | `{env}` | | {what} |")
    return "\n".join(rows)
