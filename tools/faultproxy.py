"""A TCP proxy that injects network faults between a node and its PostgreSQL or Redis (``hearts bench chaos``).

Each named proxy listens on a loopback port and passes every connection on to its target, in one of four modes:

- ``pass``: bytes go through as they come;
- ``blackhole``: connections stay open but nothing goes through any more (what arrives is read and dropped) and new
  connections are accepted and never reach the target, as in a network partition; when the mode changes again every
  connection that lost bytes is reset, as a partition that lasted is reset by the peers' time-outs;
- ``delay N``: each chunk from the node waits N ms before it is passed on (so every round trip takes N ms longer;
  chunks keep their order, and the answers pass at once);
- ``reset``: every open connection is closed at once (an RST), then the proxy passes again.

One process (``python -m hartenjagen.tools.faultproxy NAME=PORT ...``) runs every proxy of a bench, so their
forwarding never waits for the bench's own work; it prints one JSON line, ``{"control": port, "proxies": {name:
port}}``, and takes one command a line on the control port: ``NAME pass``, ``NAME blackhole``, ``NAME delay MS``,
``NAME reset``, ``NAME held TEXT SECONDS`` (answers once a chunk from the node holding TEXT is being delayed, or
``timeout``), ``NAME last TEXT`` (the monotonic time, system-wide, at which a chunk from the node holding TEXT was
last passed on; 0 if none) and ``quit``. ``Proxies`` is the bench's side of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Iterable
from typing import Any

CHUNK = 65536


class Pipe:
    """One proxied connection: the node's side and the target's, and whether bytes were lost on it."""

    def __init__(self, node: asyncio.StreamWriter) -> None:
        self.node = node
        self.target: asyncio.StreamWriter | None = None
        self.lost = False  # a blackhole dropped bytes of it: the stream is broken, reset it when the mode changes

    def abort(self) -> None:
        """Close both sides at once (an RST)."""
        for writer in (self.node, self.target):
            if writer is not None and writer.transport is not None:
                writer.transport.abort()

    def close(self) -> None:
        """Close both sides after what was written (a FIN): the target still reads the last request."""
        for writer in (self.node, self.target):
            if writer is not None:
                writer.close()


class FaultProxy:
    """One listening port in front of ``target`` (a loopback port) with a fault mode that can change at any time."""

    def __init__(self, name: str, target: int) -> None:
        self.name, self.target = name, target
        self.port = 0
        self.mode = "pass"
        self.delay = 0.0  # seconds, in ``delay`` mode
        self.pipes: set[Pipe] = set()
        self.server: asyncio.Server | None = None
        self.watch: dict[bytes, float] = {}  # text -> monotonic time a chunk from the node holding it last passed
        self.held: dict[bytes, asyncio.Event] = {}  # text -> set while a chunk holding it is being delayed

    async def start(self) -> None:
        """Listen on a free loopback port."""
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    def set_mode(self, mode: str, delay_ms: float = 0.0) -> None:
        """Change the mode; leaving a blackhole resets the connections that lost bytes in it."""
        if mode == "reset":
            for pipe in list(self.pipes):
                pipe.abort()
            self.pipes.clear()
            mode = "pass"
        if self.mode == "blackhole" and mode != "blackhole":
            for pipe in [p for p in self.pipes if p.lost or p.target is None]:
                pipe.abort()
                self.pipes.discard(pipe)
        self.mode, self.delay = mode, delay_ms / 1000

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pipe = Pipe(writer)
        self.pipes.add(pipe)
        try:
            if self.mode == "blackhole":
                pipe.lost = True
                while await reader.read(CHUNK):  # accepted, and never heard of again
                    pass
                return
            try:
                up_reader, pipe.target = await asyncio.open_connection("127.0.0.1", self.target)
            except OSError:
                return  # the target is down: the node sees its connection closed
            await asyncio.gather(self._up(reader, pipe), self._down(up_reader, pipe))
        finally:
            self.pipes.discard(pipe)
            pipe.close()

    def _mark(self, data: bytes) -> None:
        now = time.monotonic()
        for text in self.watch:
            if text in data:
                self.watch[text] = now

    async def _up(self, reader: asyncio.StreamReader, pipe: Pipe) -> None:
        """Node to target: dropped in a blackhole, each chunk held ``delay`` after it came in ``delay`` mode."""
        queue: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
        sender = asyncio.get_running_loop().create_task(self._send_up(queue, pipe))
        try:
            while data := await reader.read(CHUNK):
                if self.mode == "blackhole":
                    pipe.lost = True
                    continue
                queue.put_nowait((time.monotonic(), data))
        except OSError:
            pass
        finally:
            queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender
            pipe.close()  # the node closed (or died): the target still gets what was sent before

    async def _send_up(self, queue: asyncio.Queue[tuple[float, bytes] | None], pipe: Pipe) -> None:
        assert pipe.target is not None
        while (item := await queue.get()) is not None:
            came, data = item
            if self.mode == "delay" and self.delay > 0:
                holding = [event for text, event in self.held.items() if text in data]
                for event in holding:
                    event.set()
                await asyncio.sleep(max(0.0, came + self.delay - time.monotonic()))
                for event in holding:
                    event.clear()
            if self.mode == "blackhole":
                pipe.lost = True
                continue
            self._mark(data)
            try:
                pipe.target.write(data)
                await pipe.target.drain()
            except OSError:
                return

    async def _down(self, reader: asyncio.StreamReader, pipe: Pipe) -> None:
        """Target to node: dropped in a blackhole, else passed at once."""
        try:
            while data := await reader.read(CHUNK):
                if self.mode == "blackhole":
                    pipe.lost = True
                    continue
                pipe.node.write(data)
                await pipe.node.drain()
        except OSError:
            pass
        finally:
            if not pipe.lost:
                pipe.close()

    async def wait_held(self, text: bytes, seconds: float) -> bool:
        """Wait until a chunk from the node holding ``text`` is being delayed; False after ``seconds``."""
        event = self.held.setdefault(text, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), seconds)
            return True
        except TimeoutError:
            return False

    async def close(self) -> None:
        """Stop listening and reset every connection."""
        if self.server is not None:
            self.server.close()
        for pipe in list(self.pipes):
            pipe.abort()


async def _control(proxies: dict[str, FaultProxy], line: str) -> str:
    words = line.split()
    if not words:
        return "error empty"
    if words[0] == "quit":
        return "bye"
    proxy = proxies.get(words[0])
    if proxy is None or len(words) < 2:
        return f"error unknown proxy or no command: {line!r}"
    command = words[1]
    if command in ("pass", "blackhole", "reset"):
        proxy.set_mode(command)
    elif command == "delay" and len(words) == 3:
        proxy.set_mode("delay", float(words[2]))
    elif command == "held" and len(words) == 4:
        return "held" if await proxy.wait_held(words[2].encode(), float(words[3])) else "timeout"
    elif command == "last" and len(words) == 3:
        text = words[2].encode()
        proxy.watch.setdefault(text, 0.0)
        return repr(proxy.watch[text])
    else:
        return f"error bad command: {line!r}"
    return "ok"


async def serve(targets: dict[str, int]) -> None:
    """Run one proxy per ``name -> target port`` and the control port until ``quit``; print the ports first."""
    proxies = {name: FaultProxy(name, port) for name, port in targets.items()}
    for proxy in proxies.values():
        await proxy.start()
    done = asyncio.get_running_loop().create_future()

    async def session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                answer = await _control(proxies, line.decode().strip())
                writer.write(answer.encode() + b"\n")
                await writer.drain()
                if answer == "bye" and not done.done():
                    done.set_result(None)
        except (OSError, ValueError):
            pass
        finally:
            writer.close()

    control = await asyncio.start_server(session, "127.0.0.1", 0)
    ports = {name: proxy.port for name, proxy in proxies.items()}
    print(json.dumps({"control": control.sockets[0].getsockname()[1], "proxies": ports}), flush=True)
    await done
    control.close()
    for proxy in proxies.values():
        await proxy.close()


class Proxies:
    """The bench's side: the proxy process, each proxy's port, and its commands."""

    def __init__(self, targets: dict[str, int]) -> None:
        self.targets = dict(targets)
        self.proc: subprocess.Popen[bytes] | None = None
        self.ports: dict[str, int] = {}
        self.control = 0
        self.modes: dict[str, str] = {name: "pass" for name in targets}

    def start(self, log: Any = None) -> Proxies:
        """Start the proxy process; learn its ports from its first line."""
        argv = [sys.executable, "-m", "hartenjagen.tools.faultproxy", *(f"{n}={p}" for n, p in self.targets.items())]
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log, start_new_session=True)
        assert self.proc.stdout is not None
        first = json.loads(self.proc.stdout.readline())
        self.control, self.ports = first["control"], first["proxies"]
        return self

    async def command(self, name: str, *words: object) -> str:
        """Send one command to proxy ``name``; return the answer."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.control)
        try:
            writer.write((" ".join([name, *map(str, words)]) + "\n").encode())
            await writer.drain()
            answer = (await reader.readline()).decode().strip()
        finally:
            writer.close()
        if answer.startswith("error"):
            raise RuntimeError(f"faultproxy: {answer}")
        if words and words[0] in ("pass", "blackhole", "delay", "reset"):
            self.modes[name] = "pass" if words[0] == "reset" else str(words[0])
        return answer

    async def heal(self, names: Iterable[str] | None = None) -> None:
        """Every proxy (or those named) back to passing."""
        for name in list(names if names is not None else self.modes):
            if self.modes.get(name) != "pass":
                await self.command(name, "pass")

    def stop(self) -> None:
        """End the proxy process."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def main(argv: list[str]) -> None:
    """``python -m hartenjagen.tools.faultproxy NAME=PORT ...``."""
    targets = {}
    for arg in argv:
        name, _, port = arg.partition("=")
        targets[name] = int(port)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(targets))


if __name__ == "__main__":
    main(sys.argv[1:])
