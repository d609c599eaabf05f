"""Load generator for ``hearts bench server``: worker processes, each an asyncio loop of scripted players.

A worker holds its share of the tables (all four players of a table in one worker) and obeys commands
from the orchestrator on a pipe (``seat``, ``play``, ``restart_expected``, ``reconnect``, ``idle``,
``churn``, ``close``, ``quit``), answering each with one dict of figures. Players talk to our server
(``ours``: the real protocol, ``table`` and compact ``update`` messages folded with ``server.table.changes.fold``)
or to ``tools.bare_server`` (``bare``: hello, join a room, moves broadcast to the room).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import json
import math
import multiprocessing
import random
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from hartenjagen.server.net.sockets import raise_fd_limit
from hartenjagen.server.table.changes import fold

TIMEOUT = 10.0  # a move (or a request) not answered within this many seconds is an error
OPTIONS = {"variant": "classic", "end_score": 100}  # long games: they keep going through the window
CLOSE_RESTART = 1012
SAMPLE_EVERY = 53  # keep every 53rd delivered message of the window as a sample text
REFLECTED_BY = {"pass": "passed", "play": "play", "moon": "moon", "ready": "ready", "start": "deal"}


class BenchError(Exception):
    """A refusal, an unexpected close or a timeout seen by a scripted player."""


class Window:
    """What one worker saw during the measured window."""

    def __init__(self, start: float = math.inf, end: float = -math.inf) -> None:
        self.start, self.end = start, end
        self.latencies: list[float] = []
        self.local: list[float] = []  # cluster runs: moves by players on the table's own node
        self.crossing: list[float] = []  # cluster runs: moves by players on another node
        self.messages = 0
        self.sizes: Counter[int] = Counter()
        self.samples: list[str] = []
        self.lags: list[float] = []  # ms this worker's loop woke late, 10 ms ticks through the window

    def count(self, raw: str, now: float) -> None:
        """Count one delivered message if it arrived inside the window."""
        if self.start <= now <= self.end:
            self.messages += 1
            self.sizes[len(raw)] += 1
            if self.messages % SAMPLE_EVERY == 0 and len(self.samples) < 300:
                self.samples.append(raw)

    def moved(self, sent: float, now: float, crossing: bool | None = None) -> None:
        """Record a move's latency if it was sent inside the window (also as local or crossing, when known)."""
        if self.start <= sent <= self.end:
            ms = (now - sent) * 1000
            self.latencies.append(ms)
            if crossing is not None:
                (self.crossing if crossing else self.local).append(ms)


class Player:
    """One scripted person on one connection, to our server (``ours``) or to the bare one (``bare``)."""

    def __init__(self, worker: Worker, target: str, table: int, index: int) -> None:
        self.worker, self.target = worker, target
        self.table, self.index = table, index  # index 0 creates the table (the host)
        self.port: int | None = None  # cluster runs: the node this player connects to
        self.crossing: bool | None = None  # cluster runs: connected to another node than the table's owner
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task | None = None
        self.closing = False
        self.player_token: str | None = None
        self.code: str | None = None  # ours: the table code; bare: the room
        self.seat: int | None = None
        self.seat_token: str | None = None
        self.state: dict[str, Any] | None = None  # ours: the latest table message (updates folded in)
        self.last_seq = 0
        self.pending: tuple[str, float] | None = None  # the intent awaiting its reflection, and when it was sent
        self.think: asyncio.TimerHandle | None = None
        self.waiting: tuple[Callable[[dict[str, Any]], bool], asyncio.Future] | None = None
        self.next_mover = 0  # bare: whose move it is in the room
        self.first = True

    # ------------------------------------------------------------------ connection

    async def open(self, port: int, path: str = "/ws") -> None:
        """Connect (a browser sends no pings of its own) and start reading."""
        self.closing = False
        self.port = port
        self.ws = await connect(f"ws://127.0.0.1:{port}{path}", ping_interval=None, open_timeout=TIMEOUT)
        self.reader = asyncio.get_running_loop().create_task(self._read(self.ws))

    async def close(self) -> None:
        """Close the connection on purpose."""
        self.closing = True
        self.stop_thinking()
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                now = time.monotonic()
                self.worker.window.count(raw, now)
                self._on_message(json.loads(raw), now)
        except ConnectionClosed:
            pass
        except Exception:  # a bug in the script: report it, do not hang the run
            self.worker.error("script: " + traceback.format_exc(limit=3))
        code = ws.close_code
        if not self.closing and not (code == CLOSE_RESTART and self.worker.expect_restart):
            self.worker.error(f"closed {code}")
        self.stop_thinking()
        if self.waiting is not None and not self.waiting[1].done():
            self.waiting[1].set_exception(BenchError(f"closed {code}"))

    def send(self, message: dict[str, Any]) -> None:
        """Send one message without waiting (the reader reports a closed connection)."""
        if self.ws is not None:
            self.worker.spawn(self.ws.send(json.dumps(message)))

    async def request(
        self, message: dict[str, Any], until: Callable[[dict[str, Any]], bool] | set[str]
    ) -> dict[str, Any]:
        """Send ``message``; return the first message for which ``until`` holds (or whose type is in it)."""
        pred = until if callable(until) else (lambda m, types=until: m["type"] in types)
        if not message and pred({"type": ""}):
            return {}  # nothing to send and the state already fits
        future = asyncio.get_running_loop().create_future()
        self.waiting = (pred, future)
        try:
            if message:
                await self.ws.send(json.dumps(message))
            return await asyncio.wait_for(future, TIMEOUT)
        except TimeoutError:
            raise BenchError(f"timeout waiting after {message.get('type', 'nothing')}") from None
        finally:
            self.waiting = None

    # ------------------------------------------------------------------ the scripted steps

    async def hello(self) -> None:
        """Send ``hello`` (with the player token once there is one); wait for ``welcome``."""
        msg: dict[str, Any] = {"type": "hello", "version": 1, "name": f"P{self.table}-{self.index}"}
        if self.player_token:
            msg["player_token"] = self.player_token
        await self.request(msg, {"welcome"})

    async def sit(self, code: str | None) -> None:
        """Create the table (``code`` None) or join it; bare: join the room at this player's seat."""
        if self.target == "bare":
            await self.request({"type": "join", "room": f"R{self.table}", "seat": self.index}, {"joined"})
        elif code is None:
            await self.request({"type": "create", "options": OPTIONS}, {"table"})
        else:
            got = await self.request({"type": "join", "code": code}, {"table", "moved"})
            if got["type"] == "moved":  # behind a proxy that routes to each node: on to the table's node, as a browser
                await self.close()
                assert self.port is not None
                await self.open(self.port, got["path"])
                await self.hello()
                await self.request(got["again"], {"table"})

    async def resume(self) -> None:
        """After a restart: hello again, then ``resume`` (ours) or join the room again (bare)."""
        await self.hello()
        if self.target == "bare":
            await self.sit(None)
        else:
            msg = {"type": "resume", "code": self.code, "seat_token": self.seat_token, "last_seq": self.last_seq}
            await self.request(msg, {"table"})

    # ------------------------------------------------------------------ messages

    def _on_message(self, msg: dict[str, Any], now: float) -> None:
        kind = msg["type"]
        if kind == "table" or kind == "update":
            if kind == "table":
                self.state = msg
            elif self.state is None:
                raise BenchError("an update before any table message")
            else:
                self.state = fold(self.state, msg)
            self.last_seq = self.state["seq"]
            if self.pending is not None and self._reflects(msg.get("events") or []):
                self.worker.window.moved(self.pending[1], now, self.crossing)
                self.pending = None
        elif kind == "move":  # bare: a broadcast move
            mover = msg["seat"]
            if mover == self.seat and self.pending is not None:
                self.worker.window.moved(self.pending[1], now)
                self.pending = None
            self.next_mover = (mover + 1) % 4
        elif kind == "welcome":
            self.player_token = msg["player_token"]
        elif kind == "joined":
            self.seat = msg["seat"]
            self.code = msg.get("code", msg.get("room"))
            self.seat_token = msg.get("seat_token")
        elif kind == "error":
            self.worker.error(f"error {msg.get('code')}")
            self.pending = None
            if self.waiting is not None and not self.waiting[1].done():
                self.waiting[1].set_exception(BenchError(f"error {msg.get('code')}"))
        waiting = self.waiting
        if waiting is not None and not waiting[1].done() and waiting[0](msg):
            waiting[1].set_result(msg)
        self.decide()

    def _reflects(self, events: list[dict[str, Any]]) -> bool:
        want = REFLECTED_BY.get(self.pending[0], self.pending[0])
        return any(e["type"] == want and e.get("seat", self.seat) == self.seat for e in events)

    # ------------------------------------------------------------------ deciding

    def wanted(self) -> str | None:
        """Return what this person would do now (ours: from the table message; bare: whose move it is)."""
        if self.target == "bare":
            return "move" if self.next_mover == self.seat else None
        s = self.state
        if s is None:
            return None
        status, view, host = s["status"], s.get("view"), s["host"] == s["you"]
        if status == "waiting":
            return "start" if host and all(x["kind"] != "empty" for x in s["seats"]) else None
        if status == "finished":
            return "new_game" if host else None
        if status != "playing" or view is None:
            return None
        if self.seat in view["to_act"]:
            if view.get("moon_choices"):
                return "moon"
            return {"passing": "pass", "playing": "play"}.get(view["phase"])
        if view["phase"] == "hand_over" and self.seat not in s["ready"]:
            return "ready"
        return None

    def intent(self, kind: str) -> dict[str, Any]:
        """Return the message for ``kind``, chosen at random among the legal ones of the current view."""
        view = self.state["view"] if self.state is not None else None
        rng = self.worker.rng
        if kind == "pass":
            return {"type": "pass", "cards": rng.sample(view["hand"], view["pass_count"])}
        if kind == "play":
            return {"type": "play", "card": rng.choice(view["legal"])}
        if kind == "moon":
            return {"type": "moon", "choice": "others"}
        return {"type": kind}

    def decide(self) -> None:
        """When acting and the game waits for this person, think 1 to 2 s, then move."""
        if not self.worker.acting or self.pending is not None or self.think is not None or self.ws is None:
            return
        kind = self.wanted()
        if kind is None:
            return
        lo, hi = self.worker.think
        delay = self.worker.rng.uniform(lo, hi) if kind != "start" else self.worker.rng.uniform(0, hi)
        if self.first and self.target == "bare":
            delay += self.worker.rng.uniform(0, hi)  # stagger the rooms as the hosts' starts stagger ours
        self.first = False
        self.think = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self.think = None
        if not self.worker.acting or self.pending is not None:
            return
        kind = self.wanted()
        if kind is None:
            return
        self.pending = (kind, time.monotonic())
        self.send(self.intent(kind))

    def stop_thinking(self) -> None:
        """Cancel a planned move."""
        if self.think is not None:
            self.think.cancel()
            self.think = None


class Worker:
    """One load-generator process: its players and the command loop."""

    def __init__(self, conn: Connection, index: int) -> None:
        self.conn = conn
        self.index = index
        self.rng = random.Random(1000 + index)
        self.players: list[Player] = []
        self.idle: list[Player] = []
        self.acting = False
        self.expect_restart = False
        self.think = (1.0, 2.0)
        self.window = Window()
        self.errors: Counter[str] = Counter()
        self.tasks: set[asyncio.Task] = set()

    def error(self, what: str) -> None:
        """Count one error (refusal, unexpected close, timeout)."""
        self.errors[what[:300]] += 1

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background; a closed connection is the reader's to report."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if not isinstance(exc, ConnectionClosed):
                self.error(f"send: {exc!r}")

    async def serve(self) -> None:
        """Obey commands until ``quit`` or until the orchestrator goes away."""
        while True:
            try:
                cmd = await asyncio.to_thread(self.conn.recv)
            except (EOFError, OSError):
                break
            name = cmd.pop("cmd")
            if name == "quit":
                break
            try:
                result = await getattr(self, "cmd_" + name)(**cmd)
            except Exception:
                result = {"failed": traceback.format_exc()}
            result["errors"] = dict(self.errors)
            self.errors = Counter()
            self.conn.send(result)
            gc.collect()  # between commands only: a collection must not pause a measurement
        await self.cmd_close()

    # ------------------------------------------------------------------ commands

    async def _guarded(self, what: Callable[[], Any]) -> bool:
        try:
            await what()
            return True
        except BenchError as exc:
            self.error(str(exc))
        except (OSError, ConnectionClosed, TimeoutError) as exc:
            self.error(f"connect: {exc!r}"[:120])
        return False

    async def cmd_seat(
        self,
        target: str,
        port: int,
        tables: list[int],
        at: float,
        concurrency: int,
        ports: list[list[int]] | None = None,
    ) -> dict:
        """Seat four players at each table (create then three joins; bare: four room joins).

        ``ports`` (cluster runs): for each table, the port each of its four players connects to.
        """
        self.players = []
        seated: list[float] = []
        done = [0.0]
        gate = asyncio.Semaphore(concurrency)

        async def one(p: Player, code: str | None) -> None:
            t0 = time.monotonic()

            async def steps() -> None:
                await p.open(p.port or port)
                await p.hello()
                await p.sit(code)

            if await self._guarded(steps):
                now = time.monotonic()
                seated.append((now - t0) * 1000)
                done[0] = max(done[0], now)

        async def table(n: int, nodes: list[int] | None) -> None:
            group = [Player(self, target, n, i) for i in range(4)]
            if nodes is not None:
                for p, node in zip(group, nodes, strict=True):
                    p.port, p.crossing = node, node != nodes[0]
            self.players.extend(group)
            async with gate:
                await one(group[0], None)
                if group[0].code is not None:
                    await asyncio.gather(*(one(p, group[0].code) for p in group[1:]))

        await asyncio.sleep(max(0.0, at - time.monotonic()))
        per_table = ports if ports is not None else [None] * len(tables)
        await asyncio.gather(*(table(n, nodes) for n, nodes in zip(tables, per_table, strict=True)))
        return {"seated": len(seated), "latencies": seated, "done": done[0]}

    async def cmd_play(self, think: list[float], begin: float, start: float, end: float) -> dict:
        """Play from ``begin``; measure from ``start`` to ``end``; then stop and let the last moves land."""
        self.think = (think[0], think[1])
        self.window = Window(start, end)
        await asyncio.sleep(max(0.0, begin - time.monotonic()))
        self.acting = True
        for p in self.players:
            p.decide()
        sweeper = asyncio.get_running_loop().create_task(self._sweep())
        lag = asyncio.get_running_loop().create_task(self._lag())
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        self.acting = False
        for p in self.players:
            p.stop_thinking()
        deadline = time.monotonic() + TIMEOUT
        while any(p.pending for p in self.players) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        sweeper.cancel()
        lag.cancel()
        self._time_out(time.monotonic() - TIMEOUT + 0.001)
        w = self.window
        self.window = Window()
        return {
            "latencies": w.latencies,
            "local": w.local,
            "crossing": w.crossing,
            "messages": w.messages,
            "sizes": dict(w.sizes),
            "samples": w.samples,
            "lags": w.lags,
        }

    def _time_out(self, before: float) -> None:
        for p in self.players:
            if p.pending is not None and p.pending[1] < before:
                self.error(f"timeout after {p.pending[0]}")
                p.pending = None
                p.decide()

    async def _lag(self) -> None:
        """Tick every 10 ms and record how late each tick woke inside the window (the load side's own delay)."""
        while True:
            t0 = time.monotonic()
            await asyncio.sleep(0.01)
            now = time.monotonic()
            if self.window.start <= now <= self.window.end:
                self.window.lags.append((now - t0 - 0.01) * 1000)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self._time_out(time.monotonic() - TIMEOUT)

    async def cmd_restart_expected(self) -> dict:
        """The server is about to stop: a close with 1012 is expected, not an error."""
        self.expect_restart = True
        return {}

    async def cmd_reconnect(self, port: int, concurrency: int) -> dict:
        """Once the old connections are closed: every seated player connects, says hello and resumes.

        The idle connections (``cmd_idle``) come back too, with ``hello`` only (``back_idle``).
        """
        seated = [p for p in self.players if p.seat is not None]
        readers = [p.reader for p in seated + self.idle if p.reader is not None]
        if readers:
            await asyncio.wait(readers, timeout=TIMEOUT)
        gate = asyncio.Semaphore(concurrency)
        back: list[float] = []
        back_idle: list[float] = []

        async def one(p: Player, idle: bool) -> None:
            async def steps() -> None:
                await p.open(port)
                await (p.hello() if idle else p.resume())

            async with gate:
                if await self._guarded(steps):
                    (back_idle if idle else back).append(time.monotonic())

        await asyncio.gather(*(one(p, False) for p in seated), *(one(p, True) for p in self.idle))
        self.expect_restart = False
        return {"back": back, "back_idle": back_idle}

    async def cmd_idle(self, target: str, port: int, count: int, concurrency: int) -> dict:
        """Open ``count`` connections that send ``hello``, wait for ``welcome`` and then send nothing.

        They stay open until ``close`` (answering the server's pings: the library does while its reader runs).
        """
        gate = asyncio.Semaphore(concurrency)
        first = 900_000 + self.index * 100_000 + len(self.idle)
        opened = [Player(self, target, first + i, 0) for i in range(count)]

        async def one(p: Player) -> None:
            async def steps() -> None:
                await p.open(port)
                await p.hello()

            async with gate:
                if await self._guarded(steps):
                    self.idle.append(p)

        await asyncio.gather(*(one(p) for p in opened))
        return {"open": len(self.idle)}

    async def cmd_churn(self, port: int, tables: list[int], moves: int, tokens: list[str], concurrency: int) -> dict:
        """One person per table: create, fill with computer players, start, play a few moves, leave."""
        gate = asyncio.Semaphore(concurrency)
        out: list[str] = []

        async def steps(p: Player) -> None:
            await p.open(port)
            await p.hello()
            await p.sit(None)
            await p.request({"type": "fill_computers", "level": "easy"}, lambda m: _seats_full(p.state))
            await p.request({"type": "start"}, lambda m: p.state is not None and p.state["status"] == "playing")
            for _ in range(self.rng.randint(0, moves)):
                await p.request({}, lambda m: p.wanted() in ("pass", "play", "moon"))
                kind = p.wanted()
                if kind is None:
                    break
                p.pending = (kind, time.monotonic())
                await p.request(p.intent(kind), lambda m: p.pending is None)
            await p.request({"type": "leave"}, {"left"})

        async def one(n: int, token: str | None) -> None:
            p = Player(self, "ours", n, 0)
            p.player_token = token
            async with gate:
                ok = await self._guarded(lambda: steps(p))
                await p.close()
            if ok:
                out.append(p.player_token)

        padded = tokens + [None] * (len(tables) - len(tokens))
        await asyncio.gather(*(one(n, t) for n, t in zip(tables, padded, strict=True)))
        return {"done": len(out), "tokens": out}

    async def cmd_close(self) -> dict:
        """Close every connection this worker holds."""
        everyone = self.players + self.idle
        await asyncio.gather(*(p.close() for p in everyone), return_exceptions=True)
        self.players, self.idle = [], []
        return {"closed": len(everyone)}


def _seats_full(state: dict[str, Any] | None) -> bool:
    return state is not None and all(x["kind"] != "empty" for x in state["seats"])


def die_with_parent() -> None:
    """Ask Linux to SIGTERM this process when its parent dies, so nothing outlives the benchmark."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def worker_main(conn: Connection, index: int) -> None:
    """Entry point of a load-generator process (started with the ``spawn`` method)."""
    die_with_parent()
    raise_fd_limit()  # one descriptor per connection: --idle 8000 holds 5,000 per process with two of them
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the orchestrator's: it stops us with "quit"
    gc.disable()  # the players' own pauses would show up as server latency (collected between commands)
    try:
        asyncio.run(Worker(conn, index).serve())
    except KeyboardInterrupt:
        pass


class Pool:
    """The load-generator processes (``spawn``) and a pipe to each; one command per worker at a time."""

    def __init__(self, workers: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        for i in range(workers):
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=worker_main, args=(theirs, i), name=f"loadgen-{i}", daemon=True)
            proc.start()
            theirs.close()
            self.conns.append(ours)
            self.procs.append(proc)

    def __len__(self) -> int:
        return len(self.conns)

    def send(self, commands: list[dict[str, Any]]) -> None:
        """Send one command to each worker."""
        for conn, cmd in zip(self.conns, commands, strict=True):
            conn.send(cmd)

    def collect(self, timeout: float) -> list[dict[str, Any]]:
        """Return each worker's answer; raise if one fails or does not answer within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        out = []
        for i, conn in enumerate(self.conns):
            if not conn.poll(max(0.0, deadline - time.monotonic())):
                raise RuntimeError(f"load generator {i} did not answer within {timeout:.0f} s")
            answer = conn.recv()
            if "failed" in answer:
                raise RuntimeError(f"load generator {i} failed:\n{answer['failed']}")
            out.append(answer)
        return out

    def ask(self, commands: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        """Send one command to each worker and return their answers."""
        self.send(commands)
        return self.collect(timeout)

    def ask_all(self, command: dict[str, Any], timeout: float = 120.0) -> list[dict[str, Any]]:
        """Send the same command to every worker and return their answers."""
        return self.ask([dict(command) for _ in self.conns], timeout)

    def close(self) -> None:
        """Ask every worker to quit; terminate those that do not."""
        for conn in self.conns:
            with contextlib.suppress(OSError, ValueError):
                conn.send({"cmd": "quit"})
        deadline = time.monotonic() + 5
        for proc in self.procs:
            proc.join(timeout=max(0.0, deadline - time.monotonic()))
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
        for conn in self.conns:
            conn.close()
