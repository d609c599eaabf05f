"""Server settings from command-line flags, falling back to HEARTS_* environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hartenjagen.shared.bots.base import DEFAULT_MS


def client_dir() -> Path:
    """Return the folder of the browser client (``HEARTS_CLIENT_DIR`` or ``client/`` in the checkout)."""
    env = os.environ.get("HEARTS_CLIENT_DIR")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "client"


@dataclass
class Config:
    """Everything ``hearts serve`` can be told."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "hearts.db"
    bot_delay: float = 0.6
    grace: float = 30.0
    idle_timeout: float = 600.0
    bot_workers: int = 2
    max_frame: int = 4096
    msg_rate: float = 20.0
    msg_burst: float = 40.0
    code_failures: int = 10  # unknown codes or wrong seat tokens per connection and window
    address_failures: int = 60  # the same per address (a household or a cafe shares one): real guessing rates
    code_window: float = 60.0
    timer_min: int = 5
    hard_ms: float = DEFAULT_MS  # the hard player's budget per decision (nominal ms) when nothing queues
    hard_floor_ms: float = 10.0  # ... and the least it shrinks to when decisions queue
    bot_target: float = 1.0  # seconds within which queued hard decisions should be done (budgets shrink to fit)
    decision_timeout: float = 5.0  # a computer decision that takes longer gets a simple legal move instead
    compression: str = "large"  # large: only messages of 1 KiB or more, no state kept; all: library default; off
    allocator: str = "pymalloc"  # Python's own; jemalloc (server.allocator); auto: jemalloc where installed
    redis: str = ""  # redis://... joins a cluster (needs a postgresql:// --db)
    node: str = ""  # this node's name in the cluster (default: hostname-pid)
    redis_prefix: str = "hearts:"  # every Redis key starts with it
    lease_ms: int = 10_000  # a table lease lives this long unless renewed (renewed every third of it)
    review_ms: float = 500.0  # the review's budget per decision (nominal ms; 500 is about 1 s of CPU here)
    review_wait: float = 4.0  # seconds an HTTP review request waits before answering 202 (websockets cuts at 10 s)
    trusted_proxies: str = ""  # comma list of proxy addresses/networks whose X-Forwarded-For names the client
    origin: str = ""  # comma list of origins (https://host[:port]) whose pages may open /ws besides the site's own
    inline_bots: bool = True  # easy and medium decide on the event loop (cheaper than a trip to a worker)
    read_timeout: float = 10.0  # seconds a connection may leave a ping unanswered before 1008 "not reading"
    blocked_names: str = ""  # a file of more words no name may hold, one per line (added to server.players.names' list)
    play_now_rate: float = 6.0  # "Play now" presses per connection and minute (then rate_limited)
    # limits per client address (an IPv6 /64 counts as one) and per table: docs/protocol.md, Limits
    hello_timeout: float = 10.0  # seconds a new connection may take to say hello (then 1008 "no hello")
    sockets_per_address: int = 32  # websockets open at once from one address (more: 429 at the upgrade)
    new_players_per_minute: int = 20  # new players per address and minute (then players_limited)
    new_tables_per_minute: int = 10  # new tables per address and minute (then tables_limited)
    chat_window: float = 10.0  # seconds over which chat lines are counted, per connection, address and table
    chat_per_address: int = 20  # chat lines per address within the chat window (then chat_limited_address)
    chat_per_table: int = 30  # chat lines a table takes within the chat window from everyone (then chat_busy)
    reports_per_address: int = 10  # reports per address and hour (then reports_limited)
    prune_days: float = 7.0  # players who never finished a game and tables never started go after this (0: kept)
    prune_every: float = 3600.0  # seconds between two prunes of this node (its first at a random moment within)
