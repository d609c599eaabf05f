"""The scripted people of ``hearts bench chaos``: they play on through every fault and record what they were shown.

A ``Person`` holds one websocket at a time and acts as the browser does (``client/js/socket.js``,
``client/js/update.js``): after any close it tries again after 0.25 s, then twice as long each time up to 4 s (the
pauses start short again once a connection stayed open 10 s), says ``hello`` with its player token and ``resume``s
its seat with the last event number it saw (a watcher ``watch``es again); a ``moved`` sends it straight to the
table's node through the proxy (``/n/NODE/ws``), and its next try after that connection closes is the site's ``/ws``
again. ``server_busy`` is answered by the server closing the connection (1013): the person just tries again.
People who came in through the proxy come back through it; the others come back to a node drawn at random among
those whose process runs.

Every event of every ``table`` message (updates folded as the browser folds them) is recorded by table code and event
number; an event shown twice with different contents is a fork seen by one person. The finished games a seat was
told of (``table.replay``) are kept for the checker, and so are the person's outages (from a close to the first
``table`` of the seat on a new connection) and moves that waited long (from sending one to the first table message
that no longer asks for it).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect

from .wsclient import ScriptedClient, next_intent

FIRST_RETRY = 0.25  # the browser's pauses between tries: 0.25 s, doubling, at most 4 s
LONGEST_RETRY = 4.0
STEADY = 10.0  # a connection open this long was a good one: the pauses start short again
HELLO_WAIT = 10.0  # seconds to wait for the welcome
AGAIN = 20.0  # seconds before a move that changed nothing is sent again (counted: a connection lost it silently)
SLOW_MOVE = 0.5  # moves that took longer than this are kept (from sending to the table changing)


class Recorder(ScriptedClient):
    """One connection of a person: every message it receives is handed to the person as it arrives."""

    def __init__(self, ws: Any, person: Person) -> None:
        self.person = person  # before the reader starts
        super().__init__(ws, person.label)

    def received(self, msg: dict[str, Any]) -> None:
        """Record the message's events as it arrives, in order."""
        self.person.received(self, msg)


class Person:
    """One scripted person (or watcher) at one table, for the whole run."""

    def __init__(
        self,
        label: str,
        kind: str,
        route: str,
        first_url: Callable[[], str],
        reconnect_url: Callable[[], str],
        moved_url: Callable[[str], str],
        rng: random.Random,
        think: tuple[float, float] = (0.1, 0.4),
    ) -> None:
        self.label, self.kind, self.route = label, kind, route
        self.first_url, self.reconnect_url, self.moved_url = first_url, reconnect_url, moved_url
        self.rng = rng
        self.think = think
        self.token: str | None = None
        self.code: str | None = None
        self.seat: int | None = None
        self.seat_token: str | None = None
        self.watching = False
        self.first: dict[str, Any] | None = None  # the message that seats it (create, join, play_now, watch)
        self.again: dict[str, Any] | None = None  # a ``moved``'s message to send again on the owner's node
        self.client: Recorder | None = None
        self.shown: dict[str, dict[int, dict[str, Any]]] = {}  # code -> event number -> the event as shown
        self.forks: list[tuple[str, int, dict[str, Any], dict[str, Any]]] = []  # shown twice, differently
        self.games: dict[int, str] = {}  # finished game id -> table code (the seat was told of its replay)
        self.outages: list[list[float | None]] = []  # [closed at, back at (None: not yet)]
        self.slow_moves: list[tuple[float, float]] = []  # (sent at, shown at) of moves that took long
        self.errors: Counter[str] = Counter()
        self.closes: Counter[Any] = Counter()
        self.connects = 0
        self.stopping = False
        self.seated = asyncio.Event()  # set once it holds a seat (or watches)
        self.back_at = 0.0  # the last time a table message of its seat arrived
        self._session_back = False
        self._sent: tuple[Any, ...] | None = None  # the decision a move was sent for
        self._sent_at = 0.0
        self._sent_on: Recorder | None = None  # the connection it was sent on
        self._waiting: tuple[tuple[Any, ...], float] | None = None  # the decision a move was sent for, and when
        self._task: asyncio.Task | None = None
        self.last_table: dict[str, Any] | None = None
        self.trail: list[str] = []  # what happened to its connections, for the bench's logs
        self.began = time.monotonic()  # (the bench sets its own start: the trail's times count from it)

    def mark(self, text: str) -> None:
        """Note one thing that happened (kept in ``trail``)."""
        self.trail.append(f"{time.monotonic() - self.began:.2f} {text}")
        del self.trail[:-2000]

    # ------------------------------------------------------------------ what it was shown

    def received(self, client: Recorder, msg: dict[str, Any]) -> None:
        """Record one message of ``client`` (updates already folded into the table)."""
        kind = msg.get("type")
        now = time.monotonic()
        if kind == "table":
            code = msg["code"]
            shown = self.shown.setdefault(code, {})
            for event in msg.get("events") or ():
                seq = event["seq"]
                before = shown.get(seq)
                if before is None:
                    shown[seq] = event
                elif before != event:
                    self.forks.append((code, seq, before, event))
            replay = msg.get("replay")
            if replay and msg.get("status") == "finished":
                self.games[replay["id"]] = code
            if msg.get("you") is not None or self.watching:
                self.last_table = msg
                self.back_at = now
                if not self._session_back:
                    self._session_back = True
                    if self.outages and self.outages[-1][1] is None:
                        self.outages[-1][1] = now
            if self._waiting is not None and msg.get("you") is not None and self._decide(msg)[1] != self._waiting[0]:
                if now - self._waiting[1] > SLOW_MOVE:  # the move was taken (or the table moved on without it)
                    self.slow_moves.append((self._waiting[1], now))
                self._waiting = None
        elif kind == "joined":
            self.code, self.seat, self.seat_token = msg["code"], msg["seat"], msg["seat_token"] or self.seat_token
            self.watching = False
            self.first = self.again = None
            self.seated.set()
        elif kind == "watching":
            self.code = msg.get("code", self.code)
            self.watching = True
            self.first = self.again = None
            self.seated.set()
        elif kind == "error":
            self.errors[msg.get("code", "?")] += 1
            self.mark(f"error {msg.get('code')} {msg.get('reason') or ''}")
        elif kind == "left":
            self.errors["left:" + str(msg.get("reason"))] += 1

    def events_shown(self) -> int:
        """How many events (table, number) this person was shown."""
        return sum(len(events) for events in self.shown.values())

    @property
    def down(self) -> bool:
        """True while it has no seat connection that showed it its table."""
        return bool(self.outages) and self.outages[-1][1] is None

    # ------------------------------------------------------------------ the loop

    def start(self, first: dict[str, Any]) -> None:
        """Start playing: connect and send ``first`` (it seats the person), then play on until ``stop``."""
        self.first = first
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Close the connection and stop."""
        self.stopping = True
        if self.client is not None:
            self.client.abandon()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        url = self.first_url()
        attempt = 0
        while not self.stopping:
            opened = time.monotonic()
            moved = await self._session(url)
            if self.stopping:
                return
            if moved is not None:
                url = self.moved_url(moved)
                continue
            if self.seated.is_set() and not self.down:
                self.outages.append([time.monotonic(), None])
            if time.monotonic() - opened >= STEADY:
                attempt = 0
            attempt += 1
            await asyncio.sleep(min(FIRST_RETRY * 2 ** (attempt - 1), LONGEST_RETRY))
            url = self.reconnect_url()

    async def _session(self, url: str) -> str | None:
        """One connection, until it closes; return the path of a ``moved``, else None."""
        self._session_back = False
        try:
            ws = await connect(url, open_timeout=5, max_size=2**22)
        except Exception as exc:
            self.closes["connect failed"] += 1
            self.mark(f"connect to {url} failed: {type(exc).__name__}")
            return None
        self.mark(f"connected to {url}")
        self.connects += 1
        client = self.client = Recorder(ws, self)
        try:
            hello: dict[str, Any] = {"version": 1, "name": self.label}
            if self.token:
                hello["player_token"] = self.token
            await client.send("hello", **hello)
            await client.wait(lambda: client.welcome is not None or client.closed or self._refused(client),
                              HELLO_WAIT, "welcome")  # fmt: skip
            if client.welcome is None:
                return await self._closing(client)
            self.token = client.welcome["player_token"]
            if self.seat_token is not None and self.code is not None:
                last = max(self.shown.get(self.code) or {0: None})  # (a table shown with no event yet: 0)
                await client.send("resume", code=self.code, seat_token=self.seat_token, last_seq=last)
            elif self.watching and self.code is not None:
                await client.send("watch", code=self.code)
            elif self.again is not None:
                await client.send(**self.again)
            elif self.first is not None:
                await client.send(**self.first)
            return await self._play(client)
        except Exception as exc:
            if not client.closed:  # (a closed connection is the server's doing; anything else is noted)
                self.mark(f"session ended: {exc!r}")
            return await self._closing(client)

    def _refused(self, client: Recorder) -> bool:
        return any(m["type"] == "error" for m in client.inbox)

    async def _closing(self, client: Recorder) -> str | None:
        """Give the server a moment to close (after ``server_busy``), then drop the connection."""
        try:
            await client.wait(lambda: client.closed, 2.0, "the close")
        except TimeoutError:
            pass
        self.closes[client.close_code] += 1
        self.mark(f"closed {client.close_code} before playing")
        client.abandon()
        return None

    async def _play(self, client: Recorder) -> str | None:
        """Answer the table until the connection closes or a ``moved`` comes."""
        while not self.stopping:
            try:
                msg = await client.recv(timeout=1.0)
            except TimeoutError:
                msg = None
            except Exception:  # closed
                self.closes[client.close_code] += 1
                self.mark(f"closed {client.close_code}")
                client.abandon()
                return None
            if msg is not None and msg["type"] == "moved":
                self.mark(f"moved {msg['path']}")
                self.again = msg.get("again")
                client.abandon()
                return str(msg["path"])
            await self._act(client)
        return None

    async def _act(self, client: Recorder) -> None:
        """Make this seat's move when the table waits for it: once per decision and connection.

        A decision still open on a new connection is answered again at once (the move sent before was lost with its
        connection: never stored, or parked); on the same connection only after ``AGAIN`` (counted: it should not be).
        """
        table = client.table
        if self.watching or table is None or table.get("you") is None:
            return
        intent, key = self._decide(table)
        if intent is None or self._answered(client, key):
            return
        await asyncio.sleep(self.rng.uniform(*self.think))
        table = client.table
        if client.closed or table is None:
            return
        intent, key = self._decide(table)
        if intent is None or self._answered(client, key):
            return
        if key == self._sent and client is self._sent_on:
            self.errors["move sent again"] += 1
            self.mark(f"move sent again: {intent}")
        self._sent, self._sent_on, self._sent_at = key, client, time.monotonic()
        if self._waiting is None or self._waiting[0] != key:
            self._waiting = (key, self._sent_at)
        await client.send(**intent)

    def _answered(self, client: Recorder, key: tuple[Any, ...]) -> bool:
        """True when decision ``key`` was answered on this connection less than ``AGAIN`` ago."""
        return key == self._sent and client is self._sent_on and time.monotonic() - self._sent_at < AGAIN

    def _decide(self, table: dict[str, Any]) -> tuple[dict[str, Any] | None, tuple[Any, ...]]:
        """The move for this table message, and the decision it answers (a move is sent once per decision)."""
        if table["status"] == "finished":
            you = table.get("you")
            if you is not None and you not in (table.get("rematch") or []):
                replay = table.get("replay") or {}
                return {"type": "rematch"}, ("rematch", replay.get("id"))
            return None, ()
        intent = next_intent(table)
        if intent is None:
            return None, ()
        view = table["view"]
        passed = view.get("has_passed") or ()
        key = (intent["type"], view.get("hand_no"), view["phase"], len(view.get("hand") or ()), tuple(passed),
               tuple(table.get("ready") or ()))  # fmt: skip
        return intent, key
