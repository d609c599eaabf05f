"""The baseline for ``hearts bench server``: bare ``websockets`` with rooms of four and a broadcast per move.

It speaks a tiny JSON protocol: ``hello`` gets ``welcome``, ``join {room, seat}`` gets ``joined``, and
each ``move`` is broadcast to the room's members as one message padded to a given size (optionally built
around a sample of the real server's messages, so it compresses alike). Same ``serve`` settings as the
real server (its permessage-deflate mode, ``max_size``); SIGTERM closes every connection with 1012.

    python -m hartenjagen.tools.bare_server --port 8765 [--size 2500] [--sample sample.json] [--compression large]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import signal
import sys
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from hartenjagen.server.net.compression import MODES, serve_options
from hartenjagen.server.net.sockets import raise_fd_limit

MAX_FRAME = 4096  # as server.config.Config.max_frame
CLOSE_RESTART = 1012


class Rooms:
    """Rooms of up to four connections and the message each move broadcasts."""

    def __init__(self, size: int, sample: str | None) -> None:
        self.rooms: dict[str, dict[int, ServerConnection]] = {}
        self.connections = 0
        self.moves = 0
        body = sample if sample is not None else "{}"
        pad = "x" * max(0, size - len('{"type":"move","seat":0,"n":000000,"body":,"pad":""}') - len(body))
        self.template = '{"type":"move","seat":%d,"n":%d,"body":' + body.replace("%", "%%") + ',"pad":"' + pad + '"}'

    def health(self) -> dict[str, Any]:
        """Return the ``/healthz`` body."""
        return {"status": "ok", "rooms": len(self.rooms), "connections": self.connections}

    async def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer ``/healthz``; let everything else through to the websocket handshake."""
        if request.path.split("?", 1)[0] != "/healthz":
            return None
        body = json.dumps(self.health()).encode()
        headers = Headers([("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, body)

    async def handler(self, ws: ServerConnection) -> None:
        """Serve one connection: hello, join a room, then broadcast every move to the room."""
        self.connections += 1
        room: dict[int, ServerConnection] | None = None
        seat = -1
        try:
            async for frame in ws:
                msg = json.loads(frame)
                kind = msg.get("type")
                if kind == "move" and room is not None:
                    self.moves += 1
                    broadcast(list(room.values()), self.template % (seat, self.moves))
                elif kind == "hello":
                    token = msg.get("player_token") or secrets.token_urlsafe(24)
                    await ws.send(json.dumps({"type": "welcome", "version": 1, "player_token": token}))
                elif kind == "join":
                    name, seat = str(msg["room"]), int(msg["seat"])
                    room = self.rooms.setdefault(name, {})
                    room[seat] = ws
                    await ws.send(json.dumps({"type": "joined", "room": name, "seat": seat}))
                elif kind == "ping":
                    await ws.send('{"type":"pong"}')
        except ConnectionClosed:
            pass
        finally:
            self.connections -= 1
            if room is not None and room.get(seat) is ws:
                del room[seat]


async def run(host: str, port: int, size: int, sample: str | None, compression: str = "large") -> None:
    """Serve until SIGTERM or SIGINT, then close every connection with 1012."""
    loop = asyncio.get_running_loop()
    stop = loop.create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: stop.done() or stop.set_result(None))
    rooms = Rooms(size, sample)
    server = await serve(
        rooms.handler,
        host,
        port,
        process_request=rooms.process_request,
        max_size=MAX_FRAME,
        **serve_options(compression),  # exactly our server's settings for the mode
    )
    print(f"bare websockets serving on http://{host}:{port}/", flush=True)
    await stop
    server.close(code=CLOSE_RESTART, reason="service restart")
    await server.wait_closed()


def main(argv: list[str] | None = None) -> int:
    """Parse the flags and serve."""
    parser = argparse.ArgumentParser(prog="bare_server", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--size", type=int, default=2500, help="bytes of each broadcast move message")
    parser.add_argument("--sample", help="a file holding one JSON object to build the move message around")
    parser.add_argument("--compression", default="large", choices=MODES, help="as hearts serve's")
    args = parser.parse_args(argv)
    sample = None
    if args.sample:
        with open(args.sample, encoding="utf-8") as f:
            sample = json.dumps(json.load(f), separators=(",", ":"))
    raise_fd_limit()  # as our server does at start: one descriptor per connection (--idle 8000 and more)
    asyncio.run(run(args.host, args.port, args.size, sample, args.compression))
    return 0


if __name__ == "__main__":
    sys.exit(main())
