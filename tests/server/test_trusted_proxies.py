"""Behind a reverse proxy every connection comes from the proxy: ``--trusted-proxies`` lets the per-address guess
limits see the client's own address (the nearest untrusted hop of ``X-Forwarded-For``), and nothing else does."""

from __future__ import annotations

import subprocess
import sys

from websockets.asyncio.client import connect

from hartenjagen.server.net.addresses import client_address, parse_proxies

from .conftest import Player
from .crashkit import ROOT


async def guess_http(server, forwarded: str) -> int:
    status, _, _ = await server.get("/api/tables/QQQQQQ", {"X-Forwarded-For": forwarded})
    return status


async def ws_join(server, forwarded: str, code: str) -> str:
    ws = await connect(server.url, additional_headers={"X-Forwarded-For": forwarded})
    p = Player(ws)
    server.clients.append(p)
    await p.send("hello", version=1, name="Gast")
    await p.expect("welcome")
    await p.send("join", code=code)
    msg = await p.recv()
    return msg.get("code") if msg["type"] == "error" else msg["type"]


class TestTrustedProxies:
    async def test_a_guesser_behind_the_proxy_is_limited_and_the_other_players_are_not(self, make_server):
        server = await make_server(address_failures=3, trusted_proxies="127.0.0.1")
        anna = await server.host("Anna")
        code = anna.joined["code"]
        for _ in range(3):
            assert await guess_http(server, "198.51.100.7") == 404
        assert await guess_http(server, "198.51.100.7") == 429  # the guesser
        assert await guess_http(server, "203.0.113.5") == 404  # someone else behind the same proxy
        assert await ws_join(server, "198.51.100.7", code) == "rate_limited"
        assert await ws_join(server, "203.0.113.5", code) == "joined"

    async def test_without_trusted_proxies_the_header_is_ignored(self, make_server):
        server = await make_server(address_failures=3)
        for _ in range(3):
            assert await guess_http(server, "198.51.100.7") == 404
        assert await guess_http(server, "203.0.113.5") == 429  # one address: the peer's

    def test_only_the_trusted_hops_are_skipped_and_a_forged_first_hop_is_never_believed(self):
        from websockets.datastructures import Headers

        proxies = parse_proxies("10.0.0.0/8, 127.0.0.1")
        headers = Headers({"X-Forwarded-For": "1.2.3.4, 198.51.100.7, 10.1.1.1"})
        assert client_address(("127.0.0.1", 1), headers, proxies) == "198.51.100.7"
        assert client_address(("192.0.2.1", 1), headers, proxies) == "192.0.2.1"  # not a proxy: its own address

    def test_a_bad_network_is_refused_at_start(self):
        done = subprocess.run(
            [sys.executable, "-m", "hartenjagen.server.cli", "serve", "--trusted-proxies", "10.0.0.0/8,nonsense"],
            cwd=ROOT, capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert done.returncode == 2 and "--trusted-proxies: not an address or network: 'nonsense'" in done.stderr
