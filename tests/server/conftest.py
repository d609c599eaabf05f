"""A real server on port 0 per test, and a small websocket client for driving it."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from hartenjagen.server.config import Config
from hartenjagen.server.net.app import App
from hartenjagen.server.net.node import build_node
from hartenjagen.server.settings import MACHINE_PACE, ONE_ADDRESS
from hartenjagen.server.storage.opening import open_store
from hartenjagen.tools.wsclient import ClientClosed, ScriptedClient

from . import pg

TIMEOUT = 10.0


def http_get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


class Player(ScriptedClient):
    """The shared scripted client (``tools/wsclient.py``) on an in-process server; ``drain`` waits for no clock."""

    server: Server | None = None

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        try:
            return await super().recv(timeout)
        except ClientClosed:
            raise self.ws.protocol.close_exc from None  # as the library itself says it

    async def drain(self) -> None:
        """Read everything the server sends until it has nothing under way (no computer move, no commit waiting)."""
        if self.server is not None:
            await self.server.settled()
        await self.sync()

    async def error(self, type: str, **fields: Any) -> dict[str, Any]:
        """Send a message and return the error it must provoke."""
        await self.send(type, **fields)
        return await self.expect("error")


class Server:
    """A running App with helpers to open clients."""

    def __init__(self, app: App, url: str) -> None:
        self.app = app
        self.url = url
        self.http = url.replace("ws://", "http://").removesuffix("/ws")
        self.clients: list[Player] = []

    async def connect(self, name: str | None = "Anna", token: str | None = None) -> Player:
        ws = await connect(self.url, open_timeout=TIMEOUT)
        p = Player(ws, name or "")
        p.server = self
        self.clients.append(p)
        if name is not None:
            hello: dict[str, Any] = {"version": 1, "name": name}
            if token:
                hello["player_token"] = token
            await p.send("hello", **hello)
            await p.expect("welcome")
        return p

    async def host(self, name: str = "Anna", options: dict | None = None, **extra: Any) -> Player:
        p = await self.connect(name)
        await p.send("create", options=options or {"variant": "classic", "end_score": 25}, **extra)
        await p.expect("joined")
        await p.expect("table")
        return p

    def table(self, code: str):
        return self.app.hub.tables.by_code[code]

    async def settled(self, timeout: float = TIMEOUT) -> None:
        """Wait until nothing is under way: no computer move being made, no change waiting for its commit."""
        tables = self.app.hub.tables
        await wait_for(lambda: tables.quiet() == {"computer_moves": 0, "waiting_commits": 0}, timeout)

    async def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        """GET over plain HTTP (in a thread, so the server in this loop keeps running)."""
        return await asyncio.to_thread(http_get, self.http + path, headers)


async def start_server(tmp_path, **overrides: Any) -> Server:
    settings = {"port": 0, "db": str(tmp_path / "hearts.db"), "bot_delay": 0.0, "grace": 30.0, "bot_workers": 0}
    settings.update(MACHINE_PACE)
    # every client comes from loopback: the limits per address have their own tests with the defaults
    settings.update(ONE_ADDRESS)
    settings.update(overrides)
    config = Config(**settings)
    db = await open_store(config.db)
    app = build_node(config, db)
    await app.start()
    host, port = app.address()
    return Server(app, f"ws://{host}:{port}/ws")


@pytest.fixture
async def db_url(request, tmp_path):
    """The database of ``server`` and ``make_server``: an SQLite file, or (``indirect`` parameter "postgresql")
    a fresh PostgreSQL database, dropped after the test."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield str(tmp_path / "hearts.db")
        return
    url = await pg.create_database()
    try:
        yield url
    finally:
        await pg.drop_database(url)


both_stores = pytest.mark.parametrize("db_url", pg.STORES, indirect=True)


@pytest.fixture
async def server(tmp_path, db_url):
    srv = await start_server(tmp_path, db=db_url)
    yield srv
    for c in srv.clients:
        await c.ws.close()
    await srv.app.stop()


@pytest.fixture
async def make_server(tmp_path, db_url):
    """Start servers with custom settings; all stopped at the end of the test."""
    started: list[Server] = []

    async def make(**overrides: Any) -> Server:
        srv = await start_server(tmp_path, **{"db": db_url, **overrides})
        started.append(srv)
        return srv

    yield make
    for srv in started:
        for c in srv.clients:
            await c.ws.close()
        await srv.app.stop()


def state_of(table) -> tuple:
    """Everything that matters about a table, to check that a refused message changed nothing."""
    game = table.game.to_json() if table.game is not None else None
    return (table.seq, table.status, table.host, [s.public() for s in table.seats], game, sorted(table.ready))


async def seat_four(server, options: dict | None = None, people: int = 4) -> list[Player]:
    """A host and friends who join by code, one per seat (four unless said); returns the clients (seat order)."""
    host = await server.host("Anna", options=options)
    code = host.joined["code"]
    players = [host]
    for name in ("Bram", "Cor", "Dirk", "Eva")[: people - 1]:
        p = await server.connect(name)
        await p.send("join", code=code)
        await p.expect("joined")
        await p.expect("table")
        players.append(p)
    await host.until(lambda t: all(s["kind"] == "person" for s in t["seats"]))
    return players


def events_of(p: Player) -> list[dict[str, Any]]:
    """Every table event this client has received so far, oldest first, each once."""
    seen: dict[int, dict[str, Any]] = {}
    for msg in p.inbox:
        if msg["type"] == "table":
            for e in msg["events"]:
                seen.setdefault(e["seq"], e)
    return [seen[k] for k in sorted(seen)]


def my_move(t: dict[str, Any]) -> bool:
    """True when the table waits for this client's own pass, play or moon choice."""
    view = t["view"]
    return t["status"] == "playing" and view is not None and view["seat"] in view["to_act"]


async def move_once(p: Player, choice: str = "others") -> None:
    """Make this client's pending move with the first legal choice and read until the table shows it."""
    view = p.table["view"]
    if view["phase"] == "passing":
        kind = "passed"
        await p.send("pass", cards=view["hand"][: view["pass_count"]])
    elif view["phase"] == "playing":
        kind = "play"
        await p.send("play", card=view["legal"][0])
    else:
        kind = "moon"
        await p.send("moon", choice=choice)
    while True:  # a table sent before the server saw this move does not count
        msg = await p.recv()
        assert msg["type"] != "error", msg
        if msg["type"] == "table" and any(e["type"] == kind and e.get("seat") == view["seat"] for e in msg["events"]):
            return


async def play_until(p: Player, stop: Callable[[dict[str, Any]], bool], limit: int = 2000) -> dict[str, Any]:
    """Answer this client's moves with the first legal choice until ``stop(table)`` holds; return that table."""
    for _ in range(limit):
        t = p.table
        if stop(t):
            return t
        if my_move(t):
            await move_once(p)
        else:
            await p.until(lambda t2, n=t["seq"]: t2["seq"] > n)
    raise AssertionError("the condition never held")


async def wait_for(cond: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Wait until ``cond()`` holds (for server-side state no message announces)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        assert loop.time() < deadline, "timed out waiting for a condition"
        await asyncio.sleep(0.02)


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Any]:
    """Cluster nodes of one test (``test_cluster.Cluster``): its own PostgreSQL database and Redis key prefix."""
    from . import pg
    from .test_cluster import Cluster

    url = await pg.create_database()
    scene = Cluster(tmp_path, url)
    try:
        yield scene
    finally:
        await scene.cleanup()
        await pg.drop_database(url)
