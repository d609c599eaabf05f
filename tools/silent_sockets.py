"""Waves of websockets that never say hello against a real ``hearts serve``: closed in time, others served, memory back.

    .venv/bin/hearts bench silent [--sockets 1000] [--waves 5] [--hello-timeout 10] [--settle 1] [--allocator pymalloc]
                                  [--keep-limits] [--vanish | --abandon] [--json]

Starts ``hearts serve`` on a free loopback port with a database of its own (``--sockets-per-address`` raised to fit a
wave, as if each socket came from an address of its own, unless ``--keep-limits``; the computer players' workers
off), reads its resident memory (VmRSS), then per wave: opens ``--sockets``
websockets from 127.0.0.1, a batch at a time, and waits until the server has closed every one, while 127.0.0.2 asks
``/healthz`` every 0.1 s (from a process of its own, so that the time is the server's); once ``/healthz`` counts no
connection it waits ``--settle`` seconds and reads VmRSS and the live memory (``/healthz``) again. One line per
wave: how long the longest socket lived, the close codes, the slowest ``/healthz``, the highest VmRSS during the wave
and the VmRSS and live memory after it. ``--allocator`` is passed to the server (``server.allocator``). With
``--vanish`` the sockets do not wait to be closed: once a wave is open, each one's TCP stream is ended with no
websocket close frame (a tab killed, a phone out of reach), and the wave is over when the server counts none. With
``--abandon`` a wave is plain HTTP readers instead: each asks for the offline runtime's largest file, reads its first
64 KiB and closes (a page closed halfway through a download); the wave is over when the server sends none. With
``--keep-limits`` the server keeps its own cap on sockets per address, so a wave is what one address can do: the
sockets past the cap are refused at the upgrade, and their HTTP status (429) is counted with the close codes.
docs/benchmarks.md has this machine's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from hartenjagen.server.allocator import CHOICES, live_figure
from hartenjagen.server.config import client_dir
from hartenjagen.server.net.files import CHUNK
from hartenjagen.server.net.sockets import raise_fd_limit

from .bench_server import Proc
from .nginx import free_port

HOST = "127.0.0.1"  # where the silent sockets come from
OTHER = "127.0.0.2"  # another address, asking /healthz meanwhile
BATCH = 100  # sockets opened at once
POLL = 0.1  # seconds between two /healthz of the other address


@dataclass
class Wave:
    """What one wave of silent sockets saw."""

    longest_s: float  # the longest a socket lived, from its handshake to the server's close (or to its own end)
    codes: dict[str, int]  # close codes: how many sockets got each (``1006`` with ``--vanish``; the HTTP status
    # of each download with ``--abandon``)
    healthz_worst_ms: float  # the slowest /healthz answer to the other address during the wave
    peak_mib: float  # the server's highest VmRSS seen during the wave (read with every /healthz)
    rss_mib: float  # the server's VmRSS once the wave is gone and ``settle`` seconds passed
    live: int  # live memory then, as ``/healthz`` counts it (jemalloc's bytes, or the interpreter's blocks)


@dataclass
class Report:
    """The server's memory before the first wave, and every wave."""

    sockets: int
    hello_timeout: float
    vanish: bool  # the sockets end their TCP streams themselves, with no close frame
    keep_limits: bool  # the server's own cap on sockets per address held (those past it: refused at the upgrade)
    abandon: bool  # downloads given up halfway instead of websockets
    allocator: str  # what the server runs on (``server.allocator``)
    live_unit: str  # ``bytes`` (jemalloc) or ``blocks`` (pymalloc)
    rss_before_mib: float
    live_before: int
    waves: list[Wave] = field(default_factory=list)


async def healthz(port: int) -> tuple[dict[str, Any], float]:
    """``GET /healthz`` from ``OTHER``: the body and the milliseconds it took."""
    began = time.perf_counter()
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(OTHER, 0))
    try:
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = await reader.read()
    finally:
        writer.close()
    took = (time.perf_counter() - began) * 1000
    return json.loads(answer.partition(b"\r\n\r\n")[2]), took


async def silent(url: str, lifetimes: list[float], codes: Counter[str]) -> ClientConnection | None:
    """One socket that says nothing; its lifetime and close code are noted when the server closes it.

    An upgrade the server refuses is noted at once, with its HTTP status as the code, and gives None.
    """
    try:
        ws = await connect(url, open_timeout=60, ping_interval=None, close_timeout=30)
    except InvalidStatus as refused:
        lifetimes.append(0.0)
        codes[str(refused.response.status_code)] += 1
        return None
    opened = time.monotonic()

    def closed(_: object) -> None:
        lifetimes.append(time.monotonic() - opened)
        codes[str(ws.close_code)] += 1

    asyncio.ensure_future(ws.wait_closed()).add_done_callback(closed)
    return ws


class Poller:
    """``poll`` in a process of its own (this one is busy with the sockets), and the server's VmRSS at each answer."""

    def __init__(self, server: Proc) -> None:
        self.server = server
        self.worst = self.peak = 0.0
        self.process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start the poller process; return once it has had its first answer."""
        argv = ["-m", "hartenjagen.server.cli", "bench", "silent", "--poll", str(self.server.port)]
        self.process = await asyncio.create_subprocess_exec(sys.executable, *argv, stdout=asyncio.subprocess.PIPE)
        assert self.process.stdout is not None
        await self.process.stdout.readline()  # the first answer: it polls from now on
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        async for line in self.process.stdout:
            self.worst = max(self.worst, float(line))
            self.peak = max(self.peak, self.server.rss_kib() / 1024)

    def take(self) -> tuple[float, float]:
        """The slowest answer (ms) and the highest VmRSS (MiB) since the last call."""
        taken = (self.worst, self.peak)
        self.worst = self.peak = 0.0
        return taken

    async def stop(self) -> None:
        """End the poller process."""
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


def poll(port: int) -> None:
    """Ask ``/healthz`` from ``OTHER`` every ``POLL`` seconds; print each answer's milliseconds, a line each."""
    request = f"GET /healthz HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode()
    while True:
        began = time.perf_counter()
        with socket.create_connection((HOST, port), timeout=30, source_address=(OTHER, 0)) as sock:
            sock.sendall(request)
            while sock.recv(65536):
                pass
        print(f"{(time.perf_counter() - began) * 1000:.1f}", flush=True)
        time.sleep(POLL)


def largest_download() -> str:
    """The path of the largest file the server sends in chunks: one of the offline runtime's."""
    root = client_dir()
    biggest = max((p for p in root.glob("runtime/**/*") if p.is_file()), key=lambda p: p.stat().st_size)
    return "/" + biggest.relative_to(root).as_posix()


async def abandoned(port: int, path: str, lifetimes: list[float], codes: Counter[str]) -> None:
    """Ask for ``path``, read the answer's first ``CHUNK`` bytes after its headers, and close: a reader gone."""
    began = time.monotonic()
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode())
    head = await reader.readuntil(b"\r\n\r\n")
    codes[head.split(b" ", 2)[1].decode()] += 1
    await reader.read(CHUNK)
    writer.close()
    lifetimes.append(time.monotonic() - began)


async def wave(server: Proc, poller: Poller, sockets: int, settle: float, vanish: bool, abandon: bool) -> Wave:
    """Open ``sockets`` silent sockets, wait until they are closed and the server let go of them; read its memory.

    The server closes them (no hello), or with ``vanish`` each ends its own stream once all are open; with
    ``abandon`` they are downloads, each given up after its first chunk.
    """
    url = f"ws://{HOST}:{server.port}/ws"
    lifetimes: list[float] = []
    codes: Counter[str] = Counter()
    poller.take()
    if abandon:
        path = largest_download()
        for start in range(0, sockets, BATCH):
            batch = range(start, min(sockets, start + BATCH))
            await asyncio.gather(*(abandoned(server.port, path, lifetimes, codes) for _ in batch))
    opened: list[ClientConnection] = []
    for start in range(0, 0 if abandon else sockets, BATCH):
        batch = range(start, min(sockets, start + BATCH))
        opened += [ws for ws in await asyncio.gather(*(silent(url, lifetimes, codes) for _ in batch)) if ws]
    if vanish:
        for ws in opened:
            ws.transport.close()  # the end of the stream, no close frame
    await asyncio.gather(*(ws.wait_closed() for ws in opened))
    del opened
    while len(lifetimes) < sockets:  # the last close callbacks
        await asyncio.sleep(0.01)
    while True:  # until the server holds none of them: no websocket, no download being sent
        body, _ = await healthz(server.port)
        if not body["connections"] and not body["downloads"]["sending"]:
            break
        await asyncio.sleep(POLL)
    await asyncio.sleep(settle)
    worst, peak = poller.take()
    body, _ = await healthz(server.port)
    rss = server.rss_kib() / 1024
    return Wave(
        longest_s=round(max(lifetimes), 1),
        codes=dict(codes),
        healthz_worst_ms=round(worst, 1),
        peak_mib=round(max(peak, rss), 1),  # a wave quicker than the poller's first answer: the RSS after it
        rss_mib=round(rss, 1),
        live=live_figure(body)[0],
    )


async def run(
    sockets: int,
    waves: int,
    hello_timeout: float,
    settle: float,
    allocator: str,
    vanish: bool,
    abandon: bool,
    folder: Path,
    keep_limits: bool = False,
) -> Report:
    """Start the server, measure it before and after every wave, stop it."""
    port = free_port()
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--host", HOST, "--port", str(port)]
    argv += ["--db", str(folder / "silent.db"), "--bot-workers", "0", "--hello-timeout", str(hello_timeout)]
    argv += ["--allocator", allocator]
    if not keep_limits:
        argv += ["--sockets-per-address", str(max(32, 2 * sockets))]
    server = Proc(argv, port, folder / "server.log")
    poller = Poller(server)
    server.start()
    try:
        await asyncio.to_thread(server.wait_healthy)
        await asyncio.sleep(settle)
        body, _ = await healthz(port)
        live, unit = live_figure(body)
        rss = round(server.rss_kib() / 1024, 1)
        report = Report(sockets, hello_timeout, vanish, keep_limits, abandon, body["allocator"], unit, rss, live)
        await poller.start()
        for _ in range(waves):
            report.waves.append(await wave(server, poller, sockets, settle, vanish, abandon))
            server.check()
        return report
    finally:
        await poller.stop()
        await asyncio.to_thread(server.stop)


def format_report(report: Report) -> str:
    """One line for the start and one per wave."""
    lines = [
        f"{report.sockets} {'downloads given up after their first chunk' if report.abandon else 'silent sockets'} a "
        f"wave{', each ending its stream itself' if report.vanish else ''}"
        f"{', one address under the server cap' if report.keep_limits else ''}, "
        f"--hello-timeout {report.hello_timeout:g}, {report.allocator}: "
        f"before the first wave RSS {report.rss_before_mib} MiB, {report.live_before} live {report.live_unit}"
    ]
    kind, codes = ("download", "statuses") if report.abandon else ("socket", "closes")
    for n, w in enumerate(report.waves, 1):
        lines.append(
            f"wave {n}: longest {kind} {w.longest_s} s, {codes} {w.codes}, /healthz worst {w.healthz_worst_ms:.0f} ms, "
            f"RSS at most {w.peak_mib} MiB, then {w.rss_mib} MiB ({w.rss_mib - report.rss_before_mib:+.1f}), "
            f"{w.live} live {report.live_unit} ({w.live - report.live_before:+d})"
        )
    return "\n".join(lines)


def add_silent_parser(bench_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``silent`` to the ``hearts bench`` subcommands."""
    silent = bench_sub.add_parser(
        "silent", help="waves of websockets that never say hello: closed in time, others served, memory back"
    )
    silent.add_argument("--sockets", type=int, default=1000, help="silent sockets a wave (default 1000)")
    silent.add_argument("--waves", type=int, default=5, help="waves, one after the other (default 5)")
    silent.add_argument("--hello-timeout", type=float, default=10.0, help="the server's --hello-timeout (default 10)")
    silent.add_argument("--settle", type=float, default=1.0, help="seconds from a wave gone to reading the memory")
    silent.add_argument("--allocator", choices=CHOICES, default="pymalloc", help="the server's --allocator")
    silent.add_argument(
        "--keep-limits",
        action="store_true",
        help="keep the server's cap on sockets per address (the rest refused with 429), not raise it to fit a wave",
    )
    how = silent.add_mutually_exclusive_group()
    how.add_argument(
        "--vanish", action="store_true", help="each socket ends its stream itself (no close frame) once all are open"
    )
    how.add_argument(
        "--abandon", action="store_true", help="downloads of the runtime's largest file, each closed after 64 KiB"
    )
    silent.add_argument("--json", action="store_true", help="print one JSON object")
    silent.add_argument("--poll", type=int, help=argparse.SUPPRESS)  # the poller process: ``poll`` this port
    silent.set_defaults(func=bench_silent)


def bench_silent(args: argparse.Namespace) -> int:
    """Run the waves, print the report (or, with the hidden ``--poll``, be the poller process)."""
    if args.poll:
        poll(args.poll)
    raise_fd_limit()  # a descriptor per socket, here as in the server
    with tempfile.TemporaryDirectory(prefix="hearts-silent-") as folder:
        report = asyncio.run(
            run(
                args.sockets,
                args.waves,
                args.hello_timeout,
                args.settle,
                args.allocator,
                args.vanish,
                args.abandon,
                Path(folder),
                args.keep_limits,
            )
        )
    print(json.dumps(asdict(report)) if args.json else format_report(report))
    return 0
