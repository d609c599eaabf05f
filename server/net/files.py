"""Large answers sent as the reader takes them: a body goes out in chunks, never whole into memory per reader.

``websockets`` answers a plain HTTP request with one ``Response`` and writes its whole body at once; asyncio keeps
what the socket does not take in that connection's write buffer: a copy per reader. Ten downloads of the runtime's
9.6 MB .wasm by readers that read nothing took the server from 43 MB to 204 MB, and a download slower than the
handshake's 10 s was cut off. A body larger than ``STREAM_ABOVE`` is a ``Streamed`` response instead: the library
writes its status line and headers (``Content-Length`` the whole size), then the connection (``Downloads``'
``connection_class``) writes the body ``CHUNK`` by ``CHUNK``, each when the last has left the write buffer
(asyncio's flow control), and ends the answer as the library ends any other (half-close, then wait for the reader's
close). A reader that takes nothing for ``stall`` seconds is cut off; a slow one that keeps reading is not.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Response
from websockets.protocol import State

CHUNK = 64 * 1024  # bytes read from the file (or the bytes) and written at a time
STREAM_ABOVE = CHUNK  # a body larger than this is streamed; a smaller one goes out with the headers
OPEN_TIMEOUT = 10.0  # seconds from the TCP connection to the handshake's answer (the library's own default)


@dataclasses.dataclass
class Streamed(Response):
    """A response whose body (a file, or bytes every reader shares) follows its headers in chunks."""

    source: Path | bytes = b""


def chunks(source: Path | bytes, size: int) -> Iterator[bytes | memoryview]:
    """Yield ``size`` bytes of ``source`` ``CHUNK`` at a time; raise EOFError when a file is shorter than that."""
    if isinstance(source, bytes):
        view = memoryview(source)
        for at in range(0, size, CHUNK):
            yield view[at : at + CHUNK]
        return
    with source.open("rb") as file:
        left = size
        while left > 0:
            data = file.read(min(CHUNK, left))
            if not data:
                raise EOFError(f"{source.name} got shorter while it was sent")
            left -= len(data)
            yield data


class Downloads:
    """The streamed answers being sent: what the connections count in, how many wait for their reader, the stop."""

    def __init__(self, stall: float) -> None:
        self.stall = stall  # seconds a reader may take nothing before it is cut off
        self.sending: set[ServerConnection] = set()
        self.stopped = False

    def counts(self) -> dict[str, int]:
        """How many answers are being sent, and how many of them wait for their reader (its buffers full)."""
        return {"sending": len(self.sending), "waiting": sum(1 for c in self.sending if c.paused)}

    def stop(self) -> None:
        """Cut off every answer being sent, and any that would start from now (the server stops)."""
        self.stopped = True
        for connection in list(self.sending):
            connection.transport.abort()

    def connection_class(self, base: type[ServerConnection]) -> type[ServerConnection]:
        """A ``base`` that sends a ``Streamed`` body in chunks, its handshake limited to ``OPEN_TIMEOUT`` seconds.

        The server runs with no ``open_timeout`` of the library's: that limit would cut off a download, so the
        handshake here keeps it until a streamed body starts; then ``stall`` applies instead.
        """
        downloads = self

        class Streaming(base):  # type: ignore[valid-type, misc]
            opening: asyncio.Timeout | None = None
            eof_held = False  # the library's end of the answer, written after the body
            started = False

            async def handshake(self, *args: Any, **kwargs: Any) -> None:
                async with asyncio.timeout(OPEN_TIMEOUT) as self.opening:
                    await super().handshake(*args, **kwargs)

            def send_data(self) -> None:
                streaming = isinstance(self.response, Streamed) and self.protocol.state is State.CONNECTING
                if self.started or not streaming:
                    super().send_data()
                    return
                for data in self.protocol.data_to_send():
                    if data:
                        self.transport.write(data)  # the status line and the headers
                    else:
                        self.eof_held = True

            async def drain(self) -> None:
                if self.eof_held and not self.started:
                    self.started = True
                    await self.send_body()
                await super().drain()

            async def send_body(self) -> None:
                response = self.response
                assert isinstance(response, Streamed)
                if self.opening is not None:
                    self.opening.reschedule(None)  # a long download is no slow handshake
                downloads.sending.add(self)
                self.transport.pause_reading()  # a reader's early end is seen once its answer is out
                try:
                    for data in chunks(response.source, int(response.headers["Content-Length"])):
                        if downloads.stopped or self.transport.is_closing():
                            raise ConnectionAbortedError("the download was cut off")
                        self.transport.write(data)
                        async with asyncio.timeout(downloads.stall):
                            await super().drain()
                finally:
                    downloads.sending.discard(self)
                self.transport.resume_reading()  # the library discards what comes, and sees the reader's close
                if self.transport.can_write_eof():
                    self.transport.write_eof()
                if self.close_timeout is not None:  # the reader's close is awaited from the body's end on
                    self.close_deadline = self.loop.time() + self.close_timeout

        return Streaming
