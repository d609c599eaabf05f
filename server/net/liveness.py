"""Which connections still read what they are sent: pings they answer, and a clean cut-off for those that do not.

A websocket client answers a ping only after it has read every frame sent before it, so an answered ping tells
how much of what was sent has been read. Sending alone tells nothing: on a fast network the kernel's buffers take
megabytes for a client that reads nothing. So each connection is pinged now and then (soon after it was sent
something, otherwise as a keepalive), and one that does not answer within ``read_timeout`` seconds is closed with
1008 "not reading" (as is one with more than ``client.WRITE_BUFFER_LIMIT`` bytes waiting in the server, at once). Its
seat then counts as disconnected: the grace period and the computer stand-in apply, and the table no longer waits
for it. The same sweep closes a connection that said no ``hello`` within ``hello_timeout`` seconds (1008 "no hello").
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from ..connection.client import Client
from ..connection.closing import Close

log = logging.getLogger("hearts.server")

#: a write buffer this full already (bytes waiting in the server, the kernel's buffers full): no ping is queued
#: behind it; the connection counts as having a ping outstanding from now on
STALLED_BUFFER = 16 * 1024
SLICE = 200  # a sweep looks at the connections this many at a time, one slice per tick, ...
MIN_SLICES = 10  # ... in at least this many ticks, so pings never come in one burst


class ReadWatch:
    """Every little while: ping the connections that are due, and close those that stopped reading."""

    def __init__(self, clients: set[Any], read_timeout: float) -> None:
        self.clients = clients
        self.read_timeout = read_timeout
        self.probe_every = read_timeout / 2  # a connection sent something is pinged at most this often
        self.keepalive = read_timeout * 2  # an idle one this often (its network may have gone away)
        self.sweep = min(1.0, read_timeout / 4)  # each connection is looked at once per sweep, a slice per tick
        self.cut_off = 0  # connections closed for not reading
        self.unnamed = 0  # connections closed for saying no hello in time (``Client.hello_by``)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        """Start sweeping."""
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop sweeping."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        round_: list[Any] = []
        at = per_tick = 0
        tick = self.sweep / MIN_SLICES
        while True:
            await asyncio.sleep(tick)
            if at >= len(round_):  # a new round: every connection there is now, in slices of at most SLICE
                round_, at = list(self.clients), 0
                slices = max(MIN_SLICES, -(-len(round_) // SLICE))
                per_tick, tick = -(-len(round_) // slices), self.sweep / slices
            await self._look_at(round_[at : at + per_tick], loop.time())
            at += per_tick

    async def _look_at(self, clients: list[Client], now: float) -> None:
        """Check a slice of a round (a method of its own: a loop variable here would keep a closed connection).

        Most connections are not due for anything: that is told by a plain call, and only a ping is awaited.
        """
        for client in clients:
            try:
                if self.due(client, now):
                    await self.check(client, now)
            except Exception:  # one odd connection must not stop the watch of the others
                log.exception("checking whether a connection reads failed")

    def due(self, client: Client, now: float) -> bool:
        """True when ``check`` has something to do for ``client`` now: a close, a pong to take, or a ping to send."""
        if client.closing is not None:
            return False
        if client.pong is not None or client.player_id is None:
            return True
        return self._ping_due(client, now)

    def _ping_due(self, client: Client, now: float) -> bool:
        """True when ``client`` is due a ping: soon after it was sent something, otherwise as a keepalive."""
        since = now - client.ping_at
        return (client.sent > client.read and since >= self.probe_every) or since >= self.keepalive

    async def check(self, client: Client, now: float) -> None:
        """Close ``client`` if it said no hello in time or its ping went unanswered too long; ping it if it is due."""
        if client.closing is not None:
            return
        if client.player_id is None and now > client.hello_by:  # a socket held open without a word costs us
            self.unnamed += 1
            client.close_soon(Close.NO_HELLO)
            return
        pong = client.pong
        if pong is not None:
            if pong.done():
                client.read = client.ping_mark  # everything sent before the ping has been read
                client.pong = None
            elif now - client.ping_at > self.read_timeout:
                self.cut_off += 1
                client.close_soon(Close.NOT_READING)
                return
            else:
                if client.stalled and client.socket.transport.get_write_buffer_size() <= STALLED_BUFFER:
                    client.stalled = False  # the backlog went out: now the ping (its clock kept running)
                    client.ping_mark, client.pong = client.sent, await _ping(client.socket)
                return
        if not self._ping_due(client, now):
            return
        ws = client.socket
        if ws.protocol.state is not State.OPEN:
            return
        client.ping_mark, client.ping_at = client.sent, now
        if ws.transport.get_write_buffer_size() > STALLED_BUFFER:
            client.stalled = True  # the ping waits for the backlog to go out; the clock runs from now
            client.pong = asyncio.get_running_loop().create_future()
        else:
            client.pong = await _ping(ws)  # the buffer has room: written at once, no wait


async def _ping(ws: ServerConnection) -> asyncio.Future[float]:
    """Send a ping; return the future of its pong (websockets returns a Future, annotated as an Awaitable)."""
    return cast("asyncio.Future[float]", await ws.ping())
