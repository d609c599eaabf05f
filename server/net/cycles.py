"""A closed connection is freed when it closes, not at the collector's next full pass.

Two reference cycles outlive every connection, a plain HTTP request's too: the websockets protocol and its parser (a
generator suspended in a method of the protocol, so its frame holds the protocol), and the asyncio transport and its
read callback (a bound method of the transport, kept in the transport). A third comes with a client that vanishes
without a closing handshake (a tab killed, a phone out of reach), or halfway through its opening one: the parser
ends on the end of the stream, and the protocol keeps that exception, whose traceback holds the parser's frame,
which holds the protocol. So does a download whose reader goes away: the connection keeps its failed write, whose
traceback runs through the body's frames, which hold the connection. Only the cyclic garbage collector frees a
cycle, and the server runs it seldom (``app.keep_gc_off_the_hot_path``); by the time it does, a connection has lived
long enough to reach the oldest generation, which is collected after millions of allocations, so an idle server kept
every connection closed since: waves of 1,000 sockets that never said hello grew it by 2 MiB a wave, and when they
were collected at last, objects made meanwhile kept their memory pinned (Python's allocator gives an arena back only
when all of it is free). Cutting the cycles when the connection is lost lets reference counting free the connection
at once, and the next connections reuse its memory (``hearts bench silent``).
"""

from __future__ import annotations

import asyncio

from websockets.asyncio.connection import Connection


def let_go(connection: Connection) -> None:
    """Cut the cycles a lost connection is in (its protocol's parser and how it ended, its transport's callback)."""
    protocol = connection.protocol
    protocol.parser.close()  # finished or not: its frame and the protocol it holds are let go
    # how the parser ended (EOFError: the client vanished), the handshake with it where that was not done yet, and
    # the connection's own failure (a download's write to a reader gone); the last may come after the loss
    # (``sockets.Headroom`` lets go again then)
    ended: tuple[BaseException | None, ...] = (protocol.parser_exc, protocol.handshake_exc, connection.connection_exc)
    for failure in ended:
        seen: set[int] = set()
        while failure is not None and id(failure) not in seen:
            seen.add(id(failure))
            failure.__traceback__ = None  # its frames, the parser's among them, hold the protocol
            failure = failure.__cause__ or failure.__context__
    transport: asyncio.BaseTransport | None = getattr(connection, "transport", None)
    if transport is not None and getattr(transport, "_read_ready_cb", None) is not None:
        transport._read_ready_cb = None  # type: ignore[attr-defined]  # asyncio's selector transport, closed now
