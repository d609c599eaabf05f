"""A connection that closes is freed when it closes: no reference cycle keeps it for the garbage collector.

The server runs the collector seldom (``app.keep_gc_off_the_hot_path``), so a connection left in a cycle stayed in
memory long after it closed: 1,000 sockets that never said hello, in waves, grew the server by 2 to 5 MiB a wave.
Here the collector is off while connections come and go; what reference counting does not free would stay.
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import subprocess
import sys
import urllib.parse

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.server import ServerProtocol

from hartenjagen.server.config import Config, client_dir

from .conftest import Server, wait_for
from .test_http_db_cli import raw_request
from .test_limits import closed


def left_behind(server: Server) -> tuple[int, int]:
    """The server's connections still in memory: websockets' protocols, and asyncio's transports on its port."""
    port = urllib.parse.urlsplit(server.http).port
    protocols = transports = 0
    for obj in gc.get_objects():
        kind = type(obj)  # never isinstance: a weak proxy to an object gone raises
        if issubclass(kind, ServerProtocol):
            protocols += 1
        elif issubclass(kind, asyncio.Transport) and (obj.get_extra_info("sockname") or ("", 0))[1] == port:
            transports += 1
    return protocols, transports


async def test_sockets_closed_for_no_hello_and_answered_requests_are_freed_without_the_collector(make_server):
    server = await make_server(hello_timeout=0.5)
    gc.collect()
    gc.disable()
    try:
        assert left_behind(server) == (0, 0)
        silent = [await server.connect(None) for _ in range(5)]
        greeted = await server.connect("Anna")
        await wait_for(lambda: left_behind(server) == (6, 6))
        for p in silent:
            assert await closed(p) == (1008, "no hello")
        answer = await asyncio.to_thread(raw_request, server.http, "GET /healthz HTTP/1.1")
        assert answer.startswith(b"HTTP/1.1 200 ")
        await wait_for(lambda: left_behind(server) == (1, 1))  # only the greeted one, open
        await greeted.close()
        await wait_for(lambda: left_behind(server) == (0, 0))
    finally:
        gc.enable()


async def test_sockets_refused_at_the_handshake_are_freed_without_the_collector(make_server):
    """A flood past the per-address cap (429) or from another site's page (403) leaves nothing behind either."""
    server = await make_server(sockets_per_address=1)
    held = await server.connect("Anna")  # the address's one socket: every other one is refused
    gc.collect()
    gc.disable()
    try:
        await wait_for(lambda: left_behind(server) == (1, 1))
        for _ in range(5):
            with pytest.raises(InvalidStatus) as refused:
                await connect(server.url, open_timeout=10)
            assert refused.value.response.status_code == 429
        await held.close()
        for _ in range(5):
            with pytest.raises(InvalidStatus) as refused:
                await connect(server.url, open_timeout=10, origin="https://evil.example")
            assert refused.value.response.status_code == 403
        await wait_for(lambda: left_behind(server) == (0, 0))
    finally:
        gc.enable()


async def test_sockets_whose_client_vanishes_without_a_closing_handshake_are_freed_without_the_collector(make_server):
    """A tab killed or a phone gone: the TCP connection ends with no websocket close, greeted, silent or halfway
    through the opening handshake."""
    server = await make_server()
    gc.collect()
    gc.disable()
    try:
        greeted = [await server.connect(name) for name in ("Anna", "Bram")]
        silent = [await connect(server.url, open_timeout=10) for _ in range(3)]
        await wait_for(lambda: left_behind(server) == (5, 5))
        for ws in [p.ws for p in greeted] + silent:
            ws.transport.close()  # the end of the TCP stream (FIN), no websocket close frame
        await wait_for(lambda: left_behind(server) == (0, 0))
        port = urllib.parse.urlsplit(server.http).port
        halfway = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
        for sock in halfway:
            sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the opening handshake, cut off
        await wait_for(lambda: left_behind(server)[0] == 3)
        for sock in halfway:
            sock.close()
        await wait_for(lambda: left_behind(server) == (0, 0))
    finally:
        gc.enable()


async def test_a_download_whose_reader_goes_away_is_freed_without_the_collector(make_server):
    """A reader of the offline runtime's largest file who closes the page halfway: its connection goes at once."""
    server = await make_server()
    port = urllib.parse.urlsplit(server.http).port
    runtime = next(p for p in client_dir().glob("runtime/*/*.wasm"))
    path = "/" + runtime.relative_to(client_dir()).as_posix()
    gc.collect()
    gc.disable()
    try:
        readers = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
        for reader, writer in readers:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 200 ")
            await reader.read(65536)  # a first part of the body, then the reader is gone
        await wait_for(lambda: server.app.downloads.counts()["sending"] == 3)
        for _, writer in readers:
            writer.close()
        await wait_for(lambda: left_behind(server) == (0, 0))
    finally:
        gc.enable()


def bench_silent(*flags: str) -> dict:
    """Run ``hearts bench silent`` with ``flags`` (two waves, no settling) and return its JSON report."""
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "bench", "silent", "--waves", "2", "--settle", "0"]
    done = subprocess.run([*argv, *flags, "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["rss_before_mib"] > 0 and len(report["waves"]) == 2
    return report


def test_hearts_bench_silent_sees_every_wave_closed_for_no_hello_and_the_server_answering():
    report = bench_silent("--sockets", "30", "--hello-timeout", "0.5")
    for wave in report["waves"]:
        assert wave["codes"] == {"1008": 30}
        assert wave["longest_s"] < 0.5 + 3  # the sweep looks every second; the closing handshake on a busy machine
        assert wave["healthz_worst_ms"] > 0 and wave["peak_mib"] >= report["rss_before_mib"] - 1


def test_hearts_bench_silent_keep_limits_is_one_address_held_to_the_servers_cap():
    cap = Config().sockets_per_address
    report = bench_silent("--sockets", str(cap + 8), "--hello-timeout", "0.5", "--keep-limits")
    assert report["keep_limits"] is True
    for wave in report["waves"]:
        assert wave["codes"] == {"429": 8, "1008": cap}  # past the cap refused at the upgrade, the rest closed unheard
        assert wave["longest_s"] < 0.5 + 3


def test_hearts_bench_silent_vanish_ends_every_stream_without_a_close_frame_and_the_server_lets_go():
    report = bench_silent("--sockets", "30", "--vanish")
    assert report["vanish"] is True
    for wave in report["waves"]:
        assert wave["codes"] == {"1006": 30}  # no close frame either way: the stream just ended
        assert wave["longest_s"] < 10  # well before the server's own 10 s hello timeout would have closed them


def test_hearts_bench_silent_abandon_gives_up_downloads_after_their_first_chunk_and_the_server_lets_go():
    report = bench_silent("--sockets", "20", "--abandon")
    assert report["abandon"] is True
    for wave in report["waves"]:
        assert wave["codes"] == {"200": 20}  # each download began, and was given up after its first chunk
