"""One websocket connection: who it is, its id, and its write buffer (cut off when it stops reading).

A table knows a connection by its id only (``table.presence.ConnectionId``, numbered here); which table it is at is
the registry's (``live.registry.Tables.place``), where it sits there the table's presence's.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Literal

from websockets.asyncio.server import ServerConnection, broadcast

from ..config import Config
from ..metrics import IDLE, NO_METRICS, Counting, Metrics
from ..table.errors import LIMITED, ProtocolError
from ..table.jsontext import compact
from ..table.presence import ConnectionId
from .closing import Close
from .ratelimit import FailureLimiter, TokenBucket, address_key

REPORTS_PER_HOUR = 5  # reports of other players one connection may send an hour
SILENT_CLOSE_TIMEOUT = 1.0  # seconds a socket closed for saying no hello gets to answer the close, then it is cut
WRITE_BUFFER_LIMIT = 256 * 1024  # bytes waiting in the server for a client that does not read (its kernel buffers full)
_IDS = itertools.count(1)  # the ids of this process's connections, never given twice


class Budgets:
    """The limits a connection seldom spends (code guesses, chat lines, "Play now" presses, reports).

    Made on first use, not with every connection: an idle one never needs them. Made at once they cost 3.1 KiB
    per connection (tracemalloc, 2,000 clients): the deque and the three limiters about 1.2 KiB, and their four
    attributes made 30, past the 29 instance attributes CPython 3.11 keeps in one shared key table, so every
    ``Client`` got a dict of its own (1,648 bytes against about 330). Now a ``Client`` takes 0.6 KiB.
    ``tests/server/test_client_memory.py`` keeps it there: add an attribute to ``Client`` only under 30.
    """

    __slots__ = ("guesses", "chat_sent", "play_now", "reports")

    def __init__(self, config: Config) -> None:
        self.guesses = FailureLimiter(config.code_failures, config.code_window)
        self.chat_sent: deque[float] = deque()
        self.play_now = TokenBucket(config.play_now_rate / 60, config.play_now_rate)
        self.reports = TokenBucket(REPORTS_PER_HOUR / 3600, REPORTS_PER_HOUR)


class Client:
    """One websocket connection: who it is, its id; messages go straight into its write buffer, in order."""

    def __init__(self, ws: ServerConnection | None, address: str, config: Config) -> None:
        self.id = ConnectionId(next(_IDS))  # what a table knows it by
        self.ws = ws  # None: a connection relayed from another node (cluster.relay.RemoteClient sends through it)
        self.address = address
        self.address_key = address_key(address)  # what the limits per address count it under (connection.limits)
        self.hello_by = time.monotonic() + config.hello_timeout  # closed (1008 no hello) if still nobody then
        self.player_id: int | None = None
        self.name: str | None = None
        self.bucket = TokenBucket(config.msg_rate, config.msg_burst)
        self.config = config
        self._budgets: Budgets | None = None  # made on first use (``budgets``): an idle connection never needs them
        self.closing: asyncio.Task | Literal[True] | None = None  # the close under way (True: the edge closes it)
        self.remote: str | None = None  # in a cluster: the node that owns the table this connection plays at
        self.edge: str | None = None  # in a cluster: the node that holds this connection (relay.RemoteClient)
        self.cid = ""  # the relay's id of this connection while it is relayed
        self.route: str | None = None  # the proxy's path to one node (net.addresses.route_template), if it has one
        self.origin = ""  # the page's origin from the handshake (its headers are let go): a device link's site
        # what it reads (server.net.liveness): characters sent, characters known read (answered pings), the ping out
        self.sent = self.read = self.ping_mark = 0
        self.ping_at = time.monotonic()
        self.pong: asyncio.Future | None = None
        self.stalled = False
        self.gone: Callable[[Client], None] | None = None  # the hub's ``disconnected``: at once when cut off
        self.token_hash: str | None = None  # the hash of the player token it greeted with (which device this is)
        self.frames_sent: Counting = IDLE  # the node's hearts_frames_sent_total (set by the app)
        self.metrics: Metrics = NO_METRICS  # the node's, for the limits' refusals (set by the app and the relay)

    def budgets(self) -> Budgets:
        """The limits this connection seldom spends, made the first time one is asked for."""
        if self._budgets is None:
            self._budgets = Budgets(self.config)
        return self._budgets

    @property
    def guesses(self) -> FailureLimiter:
        """Unknown codes and wrong seat tokens of this connection (``handlers.services``)."""
        return self.budgets().guesses

    @property
    def chat_sent(self) -> deque[float]:
        """When this connection's recent chat lines went out (``connection.limits``)."""
        return self.budgets().chat_sent

    @property
    def play_now(self) -> TokenBucket:
        """The "Play now" presses of this connection."""
        return self.budgets().play_now

    @property
    def reports(self) -> TokenBucket:
        """The reports of other players this connection sent."""
        return self.budgets().reports

    @property
    def socket(self) -> ServerConnection:
        """The websocket (every connection has one but a relayed one, whose messages go through the relay)."""
        if self.ws is None:
            raise RuntimeError("a relayed connection has no websocket here")
        return self.ws

    def push(self, message: dict[str, Any] | str) -> None:
        """Write one message (or its JSON text) now, in order; a client that stops reading is cut off."""
        if self.closing is not None:
            return  # nothing goes out after the close
        transport = self.socket.transport
        if transport is not None and transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            self.close_soon(Close.NOT_READING)
            return
        text = message if type(message) is str else compact(message)
        self.sent += len(text)
        broadcast((self.socket,), text)
        self.frames_sent.inc()

    def refuse(self, message: dict[str, Any], why: Close) -> None:
        """Write a refusal, then close the connection for ``why`` (``server_busy``: the client comes back by itself)."""
        self.push(message)
        self.close_soon(why)

    def tell_error(self, exc: ProtocolError) -> None:
        """Answer a message the server refused; ``server_busy`` also closes (the client comes back by itself)."""
        if exc.code in LIMITED:
            self.count_refusal(exc.code)
        if exc.code == "server_busy":  # the database does not answer
            self.refuse(exc.to_message(), Close.BUSY)
        else:
            self.push(exc.to_message())

    def count_refusal(self, limit: str | None) -> None:
        """Count one refusal by ``limit`` (a limit's error code or close) in the node's metrics; None counts nothing."""
        if limit is not None:
            self.metrics.refused(limit).inc()

    def close_soon(self, why: Close) -> None:
        """Close the connection for ``why`` after the messages written before (and none after).

        A client cut off for not reading leaves its seat at once: its closing handshake, which it will not read,
        would otherwise hold the seat for the library's close timeout.
        """
        if self.closing is None:
            self.count_refusal(why.limit)
            loop = asyncio.get_running_loop()
            if why is Close.NO_HELLO:  # silent so far: it may never answer the close either (1,000 such held 20 s)
                self.socket.close_timeout = SILENT_CLOSE_TIMEOUT
            self.closing = loop.create_task(self.socket.close(why.code, why.reason))
            if why is Close.NOT_READING and self.gone is not None:
                loop.call_soon(self.gone, self)
