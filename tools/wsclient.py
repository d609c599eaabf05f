"""A scripted client of the table protocol: the one tests, checks and benchmarks drive a server with.

It reads in the background (a server never waits on it), folds every ``update`` into the last ``table`` message as
the browser does (``server.table.changes.fold``), keeps every message in ``inbox`` (and as sent in ``raw``), and hands
them out in order to ``recv``/``expect``/``until``. ``sync`` is a barrier without a clock: a ``ping`` is answered
after everything the server sent before it, so once the ``pong`` is read nothing sent earlier is still on its way.
``next_intent`` is the scripted person's move: the first cards, the first legal card, ready between hands.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from hartenjagen.server.table.changes import fold

TIMEOUT = 10.0


class ClientClosed(ConnectionError):
    """The connection closed before the message waited for came."""


class ScriptedClient:
    """One websocket connection to a table server, read in the background, messages handed out in order."""

    def __init__(self, ws: Any, label: str = "") -> None:
        self.ws = ws
        self.label = label
        self.inbox: list[dict[str, Any]] = []  # as the client sees them: updates folded into table messages
        self.raw: list[dict[str, Any]] = []  # as they came over the wire
        self.cursor = 0  # messages before this index have been handed out
        self.table: dict[str, Any] | None = None
        self.joined: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.closed = False
        self._arrived = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str, name: str | None = None, token: str | None = None, **options: Any) -> ScriptedClient:
        """Connect to ``url``; with a ``name``, say hello (with ``token``: as that player) and wait for welcome."""
        ws = await connect(url, open_timeout=TIMEOUT, max_size=2**20, **options)
        client = cls(ws, name or "")
        if name is not None:
            hello: dict[str, Any] = {"version": 1, "name": name}
            if token is not None:
                hello["player_token"] = token
            await client.send("hello", **hello)
            await client.expect("welcome")
        return client

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                msg = json.loads(text)
                self.raw.append(msg)
                kind = msg.get("type")
                if kind == "update":
                    msg = fold(self.table, msg)
                    kind = "table"
                if kind == "table":
                    self.table = msg
                elif kind == "joined":
                    self.joined = msg
                elif kind == "welcome":
                    self.welcome = msg
                self.received(msg)
                self.inbox.append(msg)
                self._arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._arrived.set()

    def received(self, msg: dict[str, Any]) -> None:
        """Called for each message as it arrives (updates already folded): a subclass may time or count them."""

    @property
    def close_code(self) -> int | None:
        """The close code the server sent, once closed."""
        return self.ws.close_code

    async def send(self, type: str, **fields: Any) -> None:
        """Send one message."""
        await self.ws.send(json.dumps({"type": type, **fields}))

    async def wait(self, pred: Callable[[], bool], timeout: float = TIMEOUT, what: str = "a condition") -> None:
        """Wait until ``pred()`` holds (checked whenever a message arrives)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not pred():
            left = deadline - loop.time()
            if left <= 0 or self.closed:
                closed = f"closed={self.closed}" + (f" (code {self.close_code})" if self.closed else "")
                raise TimeoutError(f"{self.label}: waited for {what}; {closed}; last {self.inbox[-3:]}")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), left)
            except TimeoutError:
                pass

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Return the next message not handed out yet; TimeoutError when none comes, ClientClosed after the end."""
        await self.wait(lambda: self.cursor < len(self.inbox) or self.closed, timeout, "the next message")
        if self.cursor >= len(self.inbox):
            raise ClientClosed(f"{self.label}: closed with {self.close_code}")
        msg = self.inbox[self.cursor]
        self.cursor += 1
        return msg

    async def expect(self, type: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Return the next message of ``type``; an ``error`` on the way fails (unless an error is expected)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.0, deadline - loop.time()))
            if msg["type"] == type:
                return msg
            assert msg["type"] != "error" or type == "error", f"{self.label}: {msg}"

    async def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT) -> dict[str, Any]:
        """Return the first table message (the newest arrived, or one to come) for which ``pred`` holds.

        Everything before the table returned counts as read (as if read in order up to it).
        """
        if self.table is not None and pred(self.table):
            skipped = self.inbox[self.cursor :]
            assert not any(m["type"] == "error" for m in skipped), f"{self.label}: {skipped}"
            self.cursor = len(self.inbox)
            return self.table
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            msg = await self.recv(max(0.0, deadline - loop.time()))
            assert msg["type"] != "error", f"{self.label}: {msg}"
            if msg["type"] == "table" and pred(msg):
                return msg

    async def sync(self, timeout: float = TIMEOUT) -> None:
        """Hand out everything the server sent so far: ping, and read up to its pong (errors on the way included)."""
        await self.send("ping")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (await self.recv(max(0.0, deadline - loop.time())))["type"] != "pong":
            pass

    async def close(self) -> None:
        """Close the connection and stop reading."""
        await self.ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)

    def abandon(self) -> None:
        """Stop reading and drop the connection (the server is gone; a closing handshake would only wait)."""
        self._reader.cancel()
        if self.ws.transport is not None:
            self.ws.transport.abort()


def next_intent(table: dict[str, Any] | None) -> dict[str, Any] | None:
    """The scripted person's move for this table message, or None when it waits for nobody here.

    Passes the first cards of the hand, plays the first legal card, lets the others take the moon's points, and
    says ready between hands.
    """
    if table is None or table["status"] != "playing" or not table["view"]:
        return None
    view = table["view"]
    if view["seat"] in view["to_act"]:
        if view["phase"] == "passing":
            return {"type": "pass", "cards": view["hand"][: view["pass_count"]]}
        if view["phase"] == "playing":
            return {"type": "play", "card": view["legal"][0]}
        return {"type": "moon", "choice": "others" if "others" in view["moon_choices"] else view["moon_choices"][0]}
    if view["phase"] == "hand_over" and view["seat"] not in table["ready"]:
        return {"type": "ready"}
    return None
