"""Fault-injection kit: people who play on and come back by themselves, a held database lock, a small full disk.

A ``Person`` is a scripted player at a table of one person and three computer players: it answers its own moves,
says ready between hands, and after every close reconnects and resumes with its seat token and last event number,
as the browser does. It keeps every event it was shown (an event number shown twice with two contents is a
conflict: something was shown that was not stored), every close code and every refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

import hartenjagen.server.table.state as table_state
from hartenjagen.server.table.changes import fold
from hartenjagen.server.table.table import Table
from hartenjagen.tools.wsclient import next_intent

OPTIONS = {"variant": "classic", "end_score": 500}  # a long game: it goes on through every fault
RETRY_FIRST, RETRY_MAX = 0.25, 2.0  # the browser waits 0.25 s, doubling to 4 s; a test has less time


class Person:
    """One person at a table with three computer players, playing on and coming back after every close."""

    def __init__(self, url: Callable[[], str], name: str, think: float = 0.03) -> None:
        self.url, self.name, self.think = url, name, think
        self.player_token: str | None = None
        self.code: str | None = None
        self.seat_token: str | None = None
        self.table: dict[str, Any] | None = None
        self.events: dict[int, dict[str, Any]] = {}
        self.conflicts: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self.closes: list[int | None] = []
        self.errors: list[str] = []
        self.resumes = 0  # resumes that brought the table back
        self.ws: Any = None
        self.running = True
        self._task: asyncio.Task | None = None
        self._acted_at = -1  # the table seq this person last answered (one intent per state)
        self._own_move_out = False  # a move was sent and the table has not shown it yet (older tables may come)

    @property
    def seq(self) -> int:
        return self.table["seq"] if self.table else 0

    def start(self) -> None:
        """Create the table (first connection), then keep playing and coming back in the background."""
        self._task = asyncio.get_running_loop().create_task(self._life())

    async def stop(self) -> None:
        self.running = False
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _life(self) -> None:
        pause = RETRY_FIRST
        while self.running:
            try:
                async with connect(self.url(), open_timeout=5, max_size=2**20) as ws:
                    self.ws = ws
                    await self._session(ws)
                if self.running:  # (not our own close at the end)
                    self.closes.append(ws.close_code)
            except ConnectionClosed as exc:
                if self.running:  # (our own close at the end can cut a send short: that is no close to count)
                    self.closes.append(exc.rcvd.code if exc.rcvd else None)
            except (OSError, InvalidHandshake, InvalidStatus, TimeoutError):
                if self.running:
                    self.closes.append(None)
            else:
                pause = RETRY_FIRST
            finally:
                self.ws = None
            if self.running:
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MAX)

    async def _session(self, ws: Any) -> None:
        hello: dict[str, Any] = {"type": "hello", "version": 1, "name": self.name}
        if self.player_token:
            hello["player_token"] = self.player_token
        await ws.send(json.dumps(hello))
        self._own_move_out = False  # a move sent on the last connection was stored and shown, or never was
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "welcome":
                self.player_token = msg["player_token"]
                if self.code is None:
                    await ws.send(json.dumps({"type": "create", "options": OPTIONS, "computer_level": "easy"}))
                else:
                    last = {"last_seq": self.seq} if self.table else {}
                    await ws.send(json.dumps({"type": "resume", "code": self.code, "seat_token": self.seat_token,
                                              **last}))  # fmt: skip
            elif kind == "joined":
                first = self.code is None
                self.code, self.seat_token = msg["code"], msg["seat_token"]
                if first:
                    await ws.send(json.dumps({"type": "fill_computers", "level": "easy"}))
                    await ws.send(json.dumps({"type": "start"}))
                else:
                    self.resumes += 1
            elif kind == "error":
                self.errors.append(msg["code"] if msg["code"] != "illegal" else f"illegal:{msg['reason']['code']}")
                self._own_move_out = False
            elif kind in ("table", "update"):
                if kind == "update":
                    msg = fold(self.table, msg)
                self.table = msg
                for e in msg["events"]:
                    seen = self.events.setdefault(e["seq"], e)
                    if seen != e:
                        self.conflicts.append((seen, e))
                    if e["type"] in ("passed", "play", "moon") and msg["view"] and e["seat"] == msg["view"]["seat"]:
                        self._own_move_out = False
                await self._answer(ws)

    async def _answer(self, ws: Any) -> None:
        t = self.table
        if self._acted_at == t["seq"] or self._own_move_out:
            return
        intent = next_intent(t)  # the shared scripted person's move (tools/wsclient.py)
        if intent is not None:
            self._acted_at = t["seq"]
            self._own_move_out = intent["type"] != "ready"
            await asyncio.sleep(self.think)
            await ws.send(json.dumps(intent))

    async def progress(self, beyond: int, timeout: float, what: str) -> None:
        """Wait until this person was shown events past ``beyond``."""
        deadline = time.monotonic() + timeout
        while self.seq <= beyond:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.name} ({self.code}) did not get past event {beyond} {what}: at {self.seq}; "
                    f"closes {self.closes[-5:]}, errors {self.errors[-5:]}"
                )
            await asyncio.sleep(0.05)

    def secrets(self) -> list[str]:
        return [s for s in (self.player_token, self.seat_token) if s]


# --------------------------------------------------------------------------- the stored logs


def stored_logs_sqlite(db: Path) -> dict[str, tuple[str, list[int], list[str], str | None]]:
    """Every table in the SQLite file: ``{code: (table id, entry numbers, entries, damaged)}``."""
    con = sqlite3.connect(db)
    try:
        out = {}
        for table_id, code, damaged in con.execute("SELECT id, code, damaged FROM tables"):
            rows = con.execute("SELECT n, entry FROM table_log WHERE table_id = ? ORDER BY n", (table_id,)).fetchall()
            out[code] = (table_id, [n for n, _ in rows], [e for _, e in rows], damaged)
        return out
    finally:
        con.close()


def all_events(table_id: str, entries: list[str]) -> dict[int, dict[str, Any]]:
    """Fold a stored log and return every event it makes, by number (none dropped for age)."""
    keep = table_state.EVENTS_KEPT
    table_state.EVENTS_KEPT = 10**7
    try:
        table = Table.restore(table_id, entries)
    finally:
        table_state.EVENTS_KEPT = keep
    return {e["seq"]: e for e in table.events}


def check_shown_were_stored(people: list[Person], logs: dict[str, tuple]) -> None:
    """Every event every person was shown is in its table's stored log, the same; logs are 1..N, none damaged."""
    for p in people:
        table_id, ns, entries, damaged = logs[p.code]
        assert damaged is None, f"table {p.code} was marked damaged: {damaged}"
        assert ns == list(range(1, len(ns) + 1)), f"table {p.code}: the stored log has a hole: {ns}"
        stored = all_events(table_id, entries)
        missing = [seq for seq in p.events if seq not in stored]
        assert not missing, f"{p.name} was shown events {missing[:5]} that were never stored"
        changed = [seq for seq, e in p.events.items() if stored[seq] != e]
        assert not changed, f"{p.name} was shown events {changed[:5]} that differ from what was stored"


# --------------------------------------------------------------------------- faults


@contextlib.contextmanager
def small_disk(folder: Path, size_mb: int = 16) -> Iterator[Path]:
    """A tmpfs of ``size_mb`` MiB mounted on ``folder`` (root only), unmounted afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill_disk(folder: Path) -> Path:
    """Write a file until the disk is full; return it (delete it to free the space)."""
    filler = folder / "filler"
    chunk = b"\0" * 65536
    with open(filler, "wb", buffering=0) as f:
        while True:
            try:
                f.write(chunk)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
        for size in (4096, 512, 1):  # the last crumbs too
            while True:
                try:
                    f.write(chunk[:size])
                except OSError:
                    break
    return filler


class SqliteLock:
    """Another process's exclusive lock on an SQLite file (a thread with its own connection), for ``seconds``."""

    def __init__(self, db: Path, seconds: float) -> None:
        self.db, self.seconds = db, seconds
        self.taken = threading.Event()
        self.released = threading.Event()
        self._thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self) -> None:
        con = sqlite3.connect(self.db, isolation_level=None, timeout=30)
        try:
            con.execute("BEGIN EXCLUSIVE")
            self.taken.set()
            time.sleep(self.seconds)
            con.execute("ROLLBACK")
        finally:
            con.close()
            self.released.set()

    async def __aenter__(self) -> SqliteLock:
        self._thread.start()
        await asyncio.to_thread(self.taken.wait, 30)
        assert self.taken.is_set(), "the lock was never taken"
        return self

    async def wait(self) -> None:
        await asyncio.to_thread(self.released.wait, self.seconds + 30)

    async def __aexit__(self, *exc: object) -> None:
        await self.wait()


def log_holds_no_secret(text: str, people: list[Person]) -> list[str]:
    """The secrets of ``people`` that appear in ``text`` (a server's log): none may."""
    return [s for p in people for s in p.secrets() if s in text]


def remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
