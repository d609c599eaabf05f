"""File descriptors: the most the system allows, headroom before they run out, and one log line instead of a flood.

Every connection costs one file descriptor. When they run out, ``accept()`` fails; asyncio then logs a traceback
for every failed accept of a batch and retries each one a second later, which floods the log and keeps a core busy.
So the server raises its soft limit to the hard one at start, answers new websocket upgrades with 503 "server full"
while enough descriptors are left to say so, accepts in small batches, and logs running out once per interval.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

from websockets.asyncio.server import ServerConnection

from .cycles import let_go

log = logging.getLogger("hearts.server")

ACCEPT_BATCH = 64  # connections accepted per wake-up of the listening socket (asyncio retries each failed one)
LISTEN_BACKLOG = 1024  # the kernel's queue of connections not yet accepted (a restart brings thousands at once)
LOG_EVERY = 10.0  # seconds between two lines about descriptors running out
OUT_OF_RESOURCE = "socket.accept() out of system resource"
#: an event loop's exception handler (``loop.set_exception_handler``)
ExceptionHandler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object]

try:
    import resource
except ImportError:  # not on every system: then the limit is what it is
    resource = None  # type: ignore[assignment]


def raise_fd_limit() -> int:
    """Raise the soft limit of open files to the hard limit where the system allows; return the soft limit."""
    if resource is None:
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def open_fds() -> int:
    """Return how many file descriptors this process has open (0 where the system does not tell)."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return 0


class Headroom:
    """Counts the open connections and says when a new one must be refused to keep descriptors in reserve."""

    def __init__(self) -> None:
        self.open = 0
        self.limit = 0  # connections allowed at once (set by ``measure``)
        self.fd_limit = 0
        self.refused = 0  # upgrades answered 503 "server full"
        self.accept_failures = 0  # accepts that failed for lack of descriptors (the reserve ran out anyway)
        self._logged_at = 0.0
        self._unlogged = 0

    def measure(self, quiet: bool = False) -> None:
        """Set the connection limit: the soft limit, less what the process holds besides connections, less a reserve."""
        self.fd_limit = raise_fd_limit()
        held = open_fds() - self.open
        reserve = max(32, self.fd_limit // 20)
        self.limit = max(1, self.fd_limit - held - reserve)
        if self.limit < 1000 and not quiet:
            log.warning(
                "only %d connections fit in the open-file limit (%d; raise it with ulimit -n or LimitNOFILE)",
                self.limit,
                self.fd_limit,
            )

    def full(self) -> bool:
        """True when a new websocket must be refused (503) to keep descriptors for answering at all."""
        if self.open <= self.limit:
            return False
        self.refused += 1
        return True

    def connection_class(self) -> type[ServerConnection]:
        """A ``ServerConnection`` that counts itself in and out of ``open``."""
        headroom = self

        class Counted(ServerConnection):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                headroom.open += 1
                super().connection_made(transport)

            def connection_lost(self, exc: Exception | None) -> None:
                headroom.open -= 1
                super().connection_lost(exc)
                let_go(self)

            def set_connection_exc(self, exc: BaseException | None) -> None:
                super().set_connection_exc(exc)
                if self.connection_lost_waiter.done():  # lost already (a download's write failed): let go again
                    let_go(self)

        return Counted

    def exception_handler(self, fallback: ExceptionHandler | None) -> ExceptionHandler:
        """An event-loop exception handler that logs running out of descriptors once per ``LOG_EVERY`` seconds."""

        def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            if context.get("message") != OUT_OF_RESOURCE:
                if fallback is not None:
                    fallback(loop, context)
                else:
                    loop.default_exception_handler(context)
                return
            self.accept_failures += 1
            self._unlogged += 1
            now = time.monotonic()
            if now - self._logged_at >= LOG_EVERY:
                log.error(
                    "out of file descriptors (limit %d, %d connections open): %d connections could not be "
                    "accepted since the last such line: %s",
                    self.fd_limit,
                    self.open,
                    self._unlogged,
                    context.get("exception"),
                )
                self._logged_at, self._unlogged = now, 0

        return handle


def listen_deeper(sockets: Iterable[socket.socket], backlog: int = LISTEN_BACKLOG) -> None:
    """Give the listening sockets a deep kernel queue (``serve`` listened with the small accept batch)."""
    for sock in sockets:
        raw = sock.dup()  # a socket of our own on the same listening socket (asyncio's wrapper has no listen)
        try:
            raw.listen(backlog)
        finally:
            raw.close()
