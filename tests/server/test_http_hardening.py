"""Before the public internet: large files streamed (the server's memory bounded whatever its readers do), the
security headers on every answer, ``/ws`` only for the site's own pages and ``--origin``'s, dot paths refused."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from hartenjagen.server.net import files
from hartenjagen.server.net.app import ROUTES
from hartenjagen.server.net.security import SECURITY_HEADERS, origin_allowed, parse_origins
from hartenjagen.server.storage.opening import open_store
from hartenjagen.server.storage.store import StoreUnavailable
from hartenjagen.server.storage.urls import redacted, scrubbed
from hartenjagen.server.table.bundle import bundle_bytes

from .conftest import start_server, wait_for
from .crashkit import ServerProcess
from .test_http_db_cli import http_call, raw_request
from .test_store_restore import http_json

MB = 1024 * 1024
BIG = "/runtime/v1/big.wasm"


def client_folder(tmp_path: Path, size: int) -> tuple[Path, bytes]:
    """A client folder with an index.html and a runtime file of ``size`` random bytes; return it and those bytes."""
    root = tmp_path / "client"
    (root / "runtime" / "v1").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>H</title>")
    data = os.urandom(size)
    (root / BIG.lstrip("/")).write_bytes(data)
    return root, data


def not_reading(port: int, path: str = BIG) -> socket.socket:
    """A socket that asks for ``path`` and never reads (a small receive buffer: the kernel keeps little for it)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def read_all(sock: socket.socket) -> bytes:
    """Every byte until the server closes (or resets) the connection."""
    sock.settimeout(10)
    chunks = []
    try:
        while chunk := sock.recv(MB):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def vm_rss(pid: int) -> int:
    """The resident memory of process ``pid``, in bytes."""
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024


class TestStreaming:
    async def test_a_large_file_and_the_engine_come_whole_with_their_length_types_and_caching(self, server, tmp_path):
        root, data = client_folder(tmp_path, 3 * MB)
        server.app.root = root
        status, headers, body = await server.get(BIG)
        assert status == 200 and hashlib.sha256(body).digest() == hashlib.sha256(data).digest()
        assert headers["Content-Length"] == str(len(data)) and headers["Content-Type"] == "application/wasm"
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        raw = await asyncio.to_thread(raw_request, server.http, f"HEAD {BIG} HTTP/1.1")
        head, _, rest = raw.partition(b"\r\n\r\n")
        assert rest == b"" and f"Content-Length: {len(data)}".encode() in head  # HEAD: the length, no body
        status, headers, body = await server.get("/engine/python.json")  # bytes every reader shares, in chunks
        assert status == 200 and body == bundle_bytes() and len(body) > files.STREAM_ABOVE
        assert server.app.downloads.counts() == {"sending": 0, "waiting": 0}

    async def test_a_download_outlasts_the_handshake_limit_and_a_reader_that_takes_nothing_is_cut_off(
        self, server, tmp_path, monkeypatch
    ):
        monkeypatch.setattr(files, "OPEN_TIMEOUT", 0.5)  # a handshake's limit, kept from the first byte
        root, data = client_folder(tmp_path, 8 * MB)
        server.app.root = root
        downloads = server.app.downloads
        port = int(server.http.rsplit(":", 1)[1])
        slow = await asyncio.to_thread(not_reading, port)
        idle = await asyncio.to_thread(socket.create_connection, ("127.0.0.1", port))  # says nothing at all
        try:
            await wait_for(lambda: downloads.counts() == {"sending": 1, "waiting": 1})
            assert await asyncio.to_thread(read_all, idle) == b""  # the handshake's limit closed the silent one
            got = await asyncio.to_thread(read_all, slow)  # ... while the download only waited for its reader
            head, _, body = got.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200 ") and body == data
        finally:
            slow.close()
            idle.close()

        downloads.stall = 0.3  # a reader that takes nothing this long is cut off
        stuck = await asyncio.to_thread(not_reading, port)
        try:
            await wait_for(lambda: downloads.counts()["waiting"] == 1)
            await wait_for(lambda: downloads.counts()["sending"] == 0)
            assert len(await asyncio.to_thread(read_all, stuck)) < len(data)
        finally:
            stuck.close()

    async def test_the_server_stops_at_once_with_a_download_waiting_for_its_reader(self, tmp_path):
        srv = await start_server(tmp_path)
        root, _ = client_folder(tmp_path, 8 * MB)
        srv.app.root = root
        stuck = await asyncio.to_thread(not_reading, int(srv.http.rsplit(":", 1)[1]))
        try:
            await wait_for(lambda: srv.app.downloads.counts()["waiting"] == 1)
            await asyncio.wait_for(srv.app.stop(), 5)  # not after the reader's 10 s of nothing
        finally:
            stuck.close()

    async def test_ten_readers_that_read_nothing_cost_a_real_server_little_memory_and_health_answers(self, tmp_path):
        root, data = client_folder(tmp_path, 16 * MB)
        srv = ServerProcess(
            tmp_path / "h.db", tmp_path, "files", extra=["--read-timeout", "120"], env={"HEARTS_CLIENT_DIR": str(root)}
        ).start()
        readers: list[socket.socket] = []
        try:
            whole = await asyncio.to_thread(read_all, await asyncio.to_thread(not_reading, srv.port))
            assert whole.partition(b"\r\n\r\n")[2] == data  # warm: one whole download first
            before = vm_rss(srv.pid)
            for _ in range(10):
                readers.append(await asyncio.to_thread(not_reading, srv.port))
            while (await asyncio.to_thread(http_json, srv, "/healthz"))["downloads"] != {"sending": 10, "waiting": 10}:
                pass  # /healthz answers all along
            grown = vm_rss(srv.pid) - before
            assert grown < 50 * MB, f"the server grew by {grown / MB:.0f} MB for 10 readers of a 16 MB file"
            for sock in readers:
                sock.close()
            while (await asyncio.to_thread(http_json, srv, "/healthz"))["downloads"]["sending"]:
                pass
            assert await srv.signal(signal.SIGTERM) == 0
        finally:
            for sock in readers:
                sock.close()
            srv.cleanup()


class TestHeaders:
    async def test_every_answer_carries_the_security_headers_the_websocket_handshake_too(self, server, tmp_path):
        anna = await server.host("Anna")
        examples = {"{id}": "1", "{hand}": "0", "{family}": "classic", "{period}": "all", "{date}": "2026-12-01",
                    "{file}": "js/main.js", "{share}": "abcdefgh", "{code}": anna.joined["code"]}  # fmt: skip
        asked = []
        for route in ROUTES:
            path = route.path
            for key, value in examples.items():
                path = path.replace(key, value)
            for method in ("GET", "HEAD", "DELETE"):
                asked.append((method, path))
        asked += [("GET", "/missing.css"), ("GET", "/api/nothing"), ("GET", "/.hidden"), ("GET", "/../x")]
        statuses = set()
        for method, path in asked:
            status, headers, _ = await asyncio.to_thread(http_call, server.http + path, method)
            statuses.add(status)
            for name, value in SECURITY_HEADERS:
                assert headers.get(name) == value, (method, path, status, name)
        assert {200, 404, 405, 426} <= statuses  # 426: /ws asked without an upgrade
        async with connect(server.url, open_timeout=10) as ws:
            assert all(ws.response.headers[name] == value for name, value in SECURITY_HEADERS)
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url, origin="https://evil.example", open_timeout=10)
        assert refused.value.response.status_code == 403
        assert all(refused.value.response.headers[name] == value for name, value in SECURITY_HEADERS)

    async def test_a_path_with_a_part_that_begins_with_a_dot_is_not_found(self, server, tmp_path):
        root = tmp_path / "client"
        for folder in ("js", ".git", ".well-known"):
            (root / folder).mkdir(parents=True)
        for name in ("index.html", ".hidden", "js/.x", "js/app.js", ".git/config", ".well-known/security.txt"):
            (root / name).write_text("x")
        server.app.root = root
        for path in ("/.hidden", "/js/.x", "/.git/config", "/.well-known/security.txt", "/js/./app.js"):
            status, _, body = await server.get(path)
            assert status == 404 and body == b"not found\n", path
        assert (await server.get("/js/app.js"))[0] == 200


class TestOrigins:
    async def test_ws_takes_its_own_origin_listed_ones_and_scripts_without_one_and_refuses_others(self, make_server):
        srv = await make_server(origin="https://play.example, http://localhost:5173")
        own = srv.http  # http://127.0.0.1:PORT: the Host the browser sends is the same host and port
        for origin in (own, "https://play.example", "http://localhost:5173", None):
            async with connect(srv.url, origin=origin, open_timeout=10) as ws:
                await ws.send('{"type": "ping"}')
                assert "pong" in await ws.recv()
        for origin in ("https://evil.example", "http://127.0.0.1:1", "https://play.example:8443", "null"):
            with pytest.raises(InvalidStatus) as refused:
                await connect(srv.url, origin=origin, open_timeout=10)
            assert refused.value.response.status_code == 403, origin
            assert refused.value.response.body == b"origin not allowed\n"

    async def test_behind_a_trusted_proxy_its_forwarded_host_is_the_sites_own(self, make_server):
        srv = await make_server(trusted_proxies="127.0.0.1")
        proxied = {"X-Forwarded-Host": "hearts.example"}
        async with connect(srv.url, origin="https://hearts.example", additional_headers=proxied, open_timeout=10):
            pass
        untrusted = await make_server()  # anyone else's X-Forwarded-Host says nothing
        with pytest.raises(InvalidStatus) as refused:
            await connect(untrusted.url, origin="https://hearts.example", additional_headers=proxied, open_timeout=10)
        assert refused.value.response.status_code == 403

    def test_an_origin_is_its_scheme_host_and_port_with_the_defaults_filled_in(self):
        assert origin_allowed("https://Hearts.Example", "hearts.example")
        assert origin_allowed("https://hearts.example", "hearts.example:443")
        assert origin_allowed("http://[::1]:8000", "[::1]:8000")
        assert not origin_allowed("https://hearts.example", "hearts.example:80")
        assert not origin_allowed("https://hearts.example.evil.example", "hearts.example")
        assert not origin_allowed("https://hearts.example", None)
        assert origin_allowed("https://b.example", "a.example", parse_origins("https://b.example:443/"))
        for bad in ("hearts.example", "ftp://hearts.example", "https://hearts.example/path", "https://u@h.example"):
            with pytest.raises(ValueError):
                parse_origins(bad)
        said = subprocess.run(
            [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--origin", "hearts.example", "--port", "0"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert said.returncode == 2 and "--origin: not an origin" in said.stderr  # refused before it serves


class TestRedaction:
    def test_a_postgresql_url_loses_its_password_in_the_user_part_and_in_the_query(self):
        assert redacted("postgresql://hearts:s3cret@db:5432/hearts") == "postgresql://hearts:***@db:5432/hearts"
        assert (
            redacted("postgresql://hearts@db/hearts?sslmode=require&password=s3cret&sslpassword=k3y")
            == "postgresql://hearts@db/hearts?sslmode=require&password=***&sslpassword=***"
        )
        assert redacted("postgres://:s3cret@db/h?password=again") == "postgres://:***@db/h?password=***"
        assert redacted("postgresql://db/hearts") == "postgresql://db/hearts"
        assert redacted("postgresql://u:s3cret@[db/hearts") == "postgresql://***"  # unreadable: masked whole

    async def test_an_error_opening_the_database_names_no_password(self):
        url = "postgresql://hearts:first%40pw@127.0.0.1:1/hearts?password=second-pw"
        with pytest.raises(StoreUnavailable) as failed:
            await open_store(url)
        said = str(failed.value)
        assert "127.0.0.1:1" in said and "pw" not in said.replace("***", ""), said
        assert scrubbed("password first@pw and first%40pw and second-pw", url) == "password *** and *** and ***"

    async def test_an_error_reaching_redis_names_no_password(self):
        from hartenjagen.server.cluster.node import Cluster

        with pytest.raises(StoreUnavailable) as failed:
            await Cluster.open("redis://:s3cret-pw@127.0.0.1:1/0", "hearts_test:", "node-x", 3000)
        said = str(failed.value)
        assert said.startswith("cannot connect to Redis at redis://:***@127.0.0.1:1/0") and "s3cret" not in said
