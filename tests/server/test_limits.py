"""Limits per address and per table, tried as the abuse would try them, with the settings' defaults.

Every test server of the suite raises the limits per address (all its clients come from loopback); these start
with the defaults again. Another address is 127.0.0.2: the kernel routes all of 127.0.0.0/8 to loopback, and the
server sees the address a client connects from. Behind a trusted proxy the address is ``X-Forwarded-For``'s.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from hartenjagen.server import settings
from hartenjagen.server.config import Config
from hartenjagen.server.connection import limits

from .conftest import TIMEOUT, Player, Server, play_until, seat_four, wait_for
from .test_http_db_cli import raw
from .test_protocol_doc import section
from .wording import worded

DEFAULTS: dict[str, Any] = {name: getattr(Config(), name) for name in settings.ONE_ADDRESS}
OTHER = "127.0.0.2"  # another address on this machine


async def connect_from(server: Server, source: str, name: str | None = "Anna", **options: Any) -> Player:
    """A client from address ``source`` (a loopback address); with a name, greeted."""
    ws = await connect(server.url, open_timeout=TIMEOUT, local_addr=(source, 0), **options)
    p = Player(ws, name or "")
    p.server = server
    server.clients.append(p)
    if name is not None:
        await p.send("hello", version=1, name=name)
        await p.expect("welcome")
    return p


async def closed(p: Player) -> tuple[int, str]:
    """Wait until the server closes ``p``; return the close code and reason."""
    with pytest.raises(ConnectionClosed):
        while True:
            await p.recv()
    return p.ws.close_code, p.ws.close_reason


@pytest.fixture
async def defaults(make_server):
    """A server with every limit at its default."""
    return await make_server(**DEFAULTS)


class TestHello:
    async def test_a_socket_that_says_no_hello_is_closed_with_1008_no_hello_while_a_greeted_one_stays(
        self, make_server
    ):
        server = await make_server(hello_timeout=0.5)
        silent = await server.connect(None)
        greeted = await server.connect("Anna")
        assert await closed(silent) == (1008, "no hello")
        await greeted.send("ping")
        assert (await greeted.expect("pong"))["type"] == "pong"  # still open, long past the timeout
        assert server.app.readers.unnamed == 1

    async def test_a_refused_hello_does_not_keep_a_socket_open(self, make_server):
        server = await make_server(hello_timeout=0.5)
        p = await server.connect(None)
        assert (await p.error("hello", version=2, name="Anna"))["code"] == "bad_version"
        assert await closed(p) == (1008, "no hello")


class TestSockets:
    async def test_a_33rd_socket_from_one_address_gets_429_while_another_address_connects(self, defaults):
        server = defaults
        opened = [await server.connect(None) for _ in range(32)]
        for _ in range(8):  # the 33rd to the 40th
            with pytest.raises(InvalidStatus) as refused:
                await connect(server.url, open_timeout=TIMEOUT)
            response = refused.value.response
            assert response.status_code == 429 and response.headers["Retry-After"] == "30"
            assert b"too many connections from your address" in response.body
        other = await connect_from(server, OTHER, "Bram")  # another address has its own 32
        await other.send("ping")
        await other.expect("pong")
        await opened[0].send("hello", version=1, name="Anna")  # the 32 that got in work as ever
        await opened[0].expect("welcome")
        assert server.app.sockets.refused == 8
        await opened[1].close()  # one closes: room for one more
        await wait_for(lambda: server.app.sockets.open["127.0.0.1"] == 31)
        again = await server.connect("Cor")
        assert again.welcome is not None

    async def test_behind_a_trusted_proxy_the_forwarded_address_counts_an_ipv6_64_as_one(self, make_server):
        server = await make_server(sockets_per_address=2, trusted_proxies="127.0.0.1")

        async def via(address: str) -> Any:
            return await connect(server.url, open_timeout=TIMEOUT, additional_headers={"X-Forwarded-For": address})

        held = [await via("2001:db8:1:2::1"), await via("2001:db8:1:2:ffff::9")]  # one /64
        with pytest.raises(InvalidStatus) as refused:
            await via("2001:db8:1:2::77")
        assert refused.value.response.status_code == 429
        held += [await via("2001:db8:1:3::1"), await via("203.0.113.5"), await via("203.0.113.6")]  # others
        for ws in held:
            await ws.close()


class TestNewPlayersAndTables:
    async def test_the_21st_new_player_from_one_address_in_a_minute_is_refused_and_not_stored(
        self, defaults, tmp_path, monkeypatch
    ):
        clock = [1000.0]
        monkeypatch.setattr(limits, "clock", lambda: clock[0])  # the test's own minute
        server = defaults
        first = await server.connect("P0")
        token = first.welcome["player_token"]
        for n in range(1, 20):
            await server.connect(f"P{n}")
        one_more = await server.connect(None)
        err = await one_more.error("hello", version=1, name="P20")
        assert err == {"type": "error", "code": "players_limited", "count": 20}
        assert "20" in worded(err) and "20" in worded(err, "nl")
        err = await one_more.error("hello", version=1, name="P20", player_token="made-up-token")
        assert err["code"] == "players_limited"  # a token nobody holds would make a new player too
        assert await raw(str(tmp_path / "hearts.db"), "SELECT COUNT(*) FROM players") == [(20,)]
        await one_more.send("hello", version=1, name="P0 again", player_token=token)  # a known player: welcome
        assert (await one_more.expect("welcome"))["player_token"] == token
        elsewhere = await connect_from(server, OTHER, "Eva")  # another address makes its own
        assert elsewhere.welcome is not None
        clock[0] += 60.0  # a minute later the address may again
        assert (await server.connect("P21")).welcome is not None

    async def test_the_11th_new_table_from_one_address_is_refused_sitting_down_is_not(self, defaults, tmp_path):
        server = defaults
        anna = await server.connect("Anna")
        for _ in range(10):
            await anna.send("create", options={"variant": "classic"})
            await anna.expect("joined")
            await anna.send("leave")
            await anna.expect("left")
        err = await anna.error("create", options={"variant": "classic"})
        assert err == {"type": "error", "code": "tables_limited", "count": 10} and "10" in worded(err)
        err = await anna.error("play_now", options={"variant": "classic"})  # no table to join: it would open one
        assert err["code"] == "tables_limited"
        assert await raw(str(tmp_path / "hearts.db"), "SELECT COUNT(*) FROM tables") == [(10,)]
        bram = await connect_from(server, OTHER, "Bram")
        await bram.send("play_now", options={"variant": "classic"})
        await bram.expect("joined")
        await anna.send("play_now", options={"variant": "classic"})  # a table to sit down at: fine
        assert (await anna.expect("joined"))["code"] == bram.joined["code"]
        assert await raw(str(tmp_path / "hearts.db"), "SELECT COUNT(*) FROM tables") == [(11,)]


async def watchers(server: Server, code: str, source: str, count: int) -> list[Player]:
    """``count`` watchers of table ``code`` from address ``source``."""
    out = []
    for n in range(count):
        w = await connect_from(server, source, f"W{source[-1]}{n}")
        await w.send("watch", code=code)
        await w.expect("chat_history")
        out.append(w)
    return out


def lines_at(p: Player) -> list[dict]:
    """The chat lines ``p`` received so far."""
    return [m for m in p.inbox if m["type"] == "chat"]


class TestChatAndReports:
    async def test_ten_watchers_from_one_address_flooding_a_table_get_20_lines_through_in_ten_seconds(
        self, defaults, monkeypatch
    ):
        clock = [1000.0]
        monkeypatch.setattr(limits, "clock", lambda: clock[0])
        server = defaults
        anna = await connect_from(server, OTHER, "Anna")
        await anna.send("create", options={"variant": "classic"})
        code = (await anna.expect("joined"))["code"]
        crowd = await watchers(server, code, "127.0.0.1", 10)
        refused = []
        for w in crowd:
            for n in range(5):  # each within its own five
                await w.send("chat", text=f"spam {n}")
        for w in crowd:
            await w.drain()
            refused += [m["code"] for m in w.inbox if m["type"] == "error"]
        assert len(refused) == 30 and set(refused) == {"chat_limited_address"}
        await anna.drain()
        assert len(lines_at(anna)) == 20  # the address's twenty, not fifty
        await anna.send("chat", text="the host still talks")  # another address, and the table has room
        assert (await anna.expect("chat"))["text"] == "the host still talks"
        clock[0] += 10.0  # ten seconds later the address may talk again
        await crowd[0].send("chat", phrase="oops")
        assert (await anna.expect("chat"))["phrase"] == "oops"

    async def test_a_table_takes_30_lines_in_ten_seconds_from_everyone_together(self, defaults, monkeypatch):
        clock = [1000.0]
        monkeypatch.setattr(limits, "clock", lambda: clock[0])
        server = defaults
        anna = await connect_from(server, OTHER, "Anna")
        await anna.send("create", options={"variant": "classic"})
        code = (await anna.expect("joined"))["code"]
        crowd = await watchers(server, code, "127.0.0.1", 4) + await watchers(server, code, "127.0.0.3", 4)
        for w in crowd:  # 8 watchers from two addresses: 20 from the first, 10 more from the second
            for n in range(5):
                await w.send("chat", text=f"line {n}")
        for w in crowd:
            await w.drain()
        await anna.drain()
        assert len(lines_at(anna)) == 30
        err = await anna.error("chat", text="me too")
        assert err["code"] == "chat_busy" and "30" in worded(err) and "30" in worded(err, "nl")
        clock[0] += 10.0
        await anna.send("chat", text="now")
        assert (await anna.expect("chat"))["text"] == "now"

    async def test_the_11th_report_from_one_address_in_an_hour_is_refused(self, defaults, tmp_path):
        server = defaults
        anna = await connect_from(server, OTHER, "Anna")
        await anna.send("create", options={"variant": "classic"})
        code = (await anna.expect("joined"))["code"]
        reporters = []
        for name in ("Bram", "Cor", "Dirk"):
            p = await server.connect(name)
            await p.send("join", code=code)
            await p.expect("joined")
            reporters.append(p)
        sent = 0
        for p in reporters[:2]:
            for _ in range(5):
                await p.send("report", seat=0, reason="rude")
                await p.expect("reported")
                sent += 1
        err = await reporters[2].error("report", seat=0, reason="rude")  # its own first, the address's 11th
        assert err["code"] == "reports_limited"
        assert sent == 10 and await raw(str(tmp_path / "hearts.db"), "SELECT COUNT(*) FROM reports") == [(10,)]


class TestNormalJourney:
    async def test_four_people_from_one_address_create_chat_and_play_a_hand_within_the_defaults(self, defaults):
        people = await seat_four(defaults)
        for p in people:
            await p.send("chat", phrase="good_luck")
        await people[0].send("start")

        def hand_over(t: dict) -> bool:
            return t["view"] is not None and t["view"]["phase"] in ("hand_over", "game_over")

        await asyncio.gather(*(play_until(p, hand_over) for p in people))
        for p in people:
            await p.drain()
        assert all(not [m for m in p.inbox if m["type"] == "error"] for p in people)
        assert all(len(lines_at(p)) == 4 for p in people)


def limit_rows() -> dict[str, list[str]]:
    """The rows of docs/protocol.md's Limits table, by what is limited."""
    rows = [line.strip().strip("|").split("|") for line in section("## Limits").splitlines() if line.startswith("| ")]
    return {r[0].strip(): [c.strip() for c in r] for r in rows[2:]}


def test_the_limits_section_names_every_limit_setting_with_its_default():
    rows = limit_rows()
    named = {flag: row for row in rows.values() for flag in re.findall(r"`(--[a-z-]+)`", row[1])}
    limit_settings = [*settings.ONE_ADDRESS, "hello_timeout", "chat_per_table", "chat_window", "play_now_rate",
                      "read_timeout"]  # fmt: skip
    for name in limit_settings:
        setting = settings.BY_NAME[name]
        assert setting.flag in named, setting.flag
        assert setting.shown_default() in named[setting.flag][2], (setting.flag, named[setting.flag][2])
