"""A write that fails never leaves a hole, a busy or full database is temporary, and a valid seat token comes back.

In-process servers on a real SQLite file; the faults are a write refused once (a constraint the test arms), the
database locked by another connection, and a store that says it does not answer. The long faults (a 15 s lock, a
full disk, PostgreSQL) are in ``test_fault_sqlite.py`` and ``test_fault_pg.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from contextlib import closing

import pytest
from websockets.exceptions import ConnectionClosed

import hartenjagen.server.storage.sqlite as sqlite_store
from hartenjagen.server.handlers import HANDLERS
from hartenjagen.server.storage.store import StoreBusy

from .conftest import events_of, my_move, wait_for
from .faultkit import all_events
from .test_write_ahead import HeldCommits

OPTIONS = {"variant": "classic", "passing": "off", "end_score": 100, "deal": 4242}


async def at_my_turn(server, name: str = "Anna"):
    """A person alone with three easy computer players, at their first move of the game."""
    host = await server.host(name, options=OPTIONS, computer_level="easy")
    await host.send("fill_computers", level="easy")
    await host.send("start")
    await host.until(my_move)
    return host


def stored(db: str, code: str) -> tuple[str, list[int], list[str]]:
    with closing(sqlite3.connect(db)) as con:
        (table_id,) = con.execute("SELECT id FROM tables WHERE code = ?", (code,)).fetchone()
        rows = con.execute("SELECT n, entry FROM table_log WHERE table_id = ? ORDER BY n", (table_id,)).fetchall()
    return table_id, [n for n, _ in rows], [e for _, e in rows]


async def closed_with(p, timeout: float = 10.0) -> int:
    """Read until the server closes the connection; return its close code."""
    with pytest.raises(ConnectionClosed):
        while True:
            await p.recv(timeout)
    return p.ws.close_code


async def come_back(server, p, name: str = "Anna"):
    """The person reconnects and resumes with the seat token and the last event number they saw."""
    again = await server.connect(name, token=p.welcome["player_token"])
    await again.send("resume", code=p.joined["code"], seat_token=p.joined["seat_token"], last_seq=p.table["seq"])
    await again.expect("joined")
    await again.expect("table")
    return again


def shown_were_stored(db: str, code: str, *connections) -> None:
    """Every event the connections (one person's, one after the other) were shown is in the stored log."""
    table_id, ns, entries = stored(db, code)
    assert ns == list(range(1, len(ns) + 1)), f"the stored log has a hole: {ns}"
    kept = all_events(table_id, entries)
    shown = [e for p in connections for e in events_of(p)]
    assert shown and all(kept.get(e["seq"]) == e for e in shown), "an event shown was not stored as shown"


class Refusing(HeldCommits):
    """The held batch writer of the write-ahead tests, refusing (as a constraint would) a batch with one entry."""

    def __init__(self, commits) -> None:
        super().__init__(commits)
        self.doomed: tuple[str, int] | None = None  # (table id, entry number)

    def check(self, batch) -> None:
        doomed = self.doomed
        if doomed is not None and any(
            getattr(w, "table_id", None) == doomed[0] and any(n == doomed[1] for n, _ in w.entries) for w in batch
        ):
            raise sqlite3.IntegrityError("CHECK constraint failed (armed by the test)")


async def test_after_a_failed_write_nothing_later_of_that_table_is_stored_and_it_comes_back_whole(server, monkeypatch):
    """The computers' moves queued behind the failed write are not stored either: no hole, and no lost table."""
    writer = Refusing(server.app.db.commits)
    monkeypatch.setattr(server.app.db.commits, "_write_batch", writer)
    anna = await at_my_turn(server)
    code = anna.joined["code"]
    table = server.table(code)
    shown_seq, logged = anna.table["seq"], table.logged
    card = anna.table["view"]["legal"][0]

    writer.open.clear()  # hold the commits: Anna's card, then the computers' answers, queue up behind it
    try:
        await anna.send("play", card=card)
        # her card ends the first trick (her 3♣ cannot take it), so its winner, a computer, leads the next: at least
        # one computer's move queues behind hers (whether the next computer moves too before anything is stored
        # varies from run to run)
        await wait_for(lambda: table.logged >= logged + 2, timeout=30.0)
        writer.doomed = (table.table_id, logged + 1)  # Anna's card will be refused
    finally:
        writer.open.set()  # also when the wait failed: the stop at the end must find the commits moving
    assert await closed_with(anna) == 1011
    writer.doomed = None
    _, ns, _ = stored(server.app.config.db, code)
    assert ns == list(range(1, logged + 1)), "a later write of the table was stored after the failed one"
    assert anna.table["seq"] == shown_seq  # nothing unstored was shown

    await wait_for(lambda: code in server.app.hub.tables.by_code)  # back by itself, from what was stored
    again = await come_back(server, anna)
    assert card in again.table["view"]["hand"] and my_move(again.table)  # her card is hers to play again
    await again.send("play", card=card)
    await again.until(lambda t: card not in t["view"]["hand"])
    shown_were_stored(server.app.config.db, code, anna, again)


async def test_a_database_that_takes_no_write_does_not_hold_the_stop_for_ever(server, monkeypatch):
    anna = await at_my_turn(server)
    commits = server.app.db.commits
    held = HeldCommits(commits)
    monkeypatch.setattr(commits, "_write_batch", held)
    held.hold()
    await anna.send("play", card=anna.table["view"]["legal"][0])
    await wait_for(lambda: held.waiting == 1)
    started = asyncio.get_running_loop().time()
    await asyncio.wait_for(commits.close(wait=0.3), 5.0)  # the write never comes back: the committer is stopped
    assert asyncio.get_running_loop().time() - started < 2.0
    held.open.set()


class Unanswering:
    """Makes the store's writes (and its probe) fail as a database that does not answer, while ``down``."""

    def __init__(self, db, monkeypatch) -> None:
        self.down = False
        for name in ("_append_only", "_write", "probe"):
            real = getattr(db, name, None)
            if real is not None:
                monkeypatch.setattr(db, name, self._wrap(real))

    def _wrap(self, real):
        async def call(*args, **kwargs):
            if self.down:
                raise StoreBusy("the test's database does not answer")
            return await real(*args, **kwargs)

        return call


async def test_a_valid_seat_token_is_never_refused_after_its_table_failed_to_store(server, monkeypatch):
    """Seventy resumes in a row after the database refused a write (1011): each one finds the table, restored."""
    writer = Refusing(server.app.db.commits)
    monkeypatch.setattr(server.app.db.commits, "_write_batch", writer)
    anna = await at_my_turn(server)
    code, seat_token, token = anna.joined["code"], anna.joined["seat_token"], anna.welcome["player_token"]
    table = server.table(code)
    writer.doomed = (table.table_id, table.logged + 1)
    await anna.send("play", card=anna.table["view"]["legal"][0])
    assert await closed_with(anna) == 1011
    writer.doomed = None
    answers = []
    for _ in range(70):  # more than the 60 failures an address may have a minute
        p = await server.connect("Anna", token=token)
        await p.send("resume", code=code, seat_token=seat_token, last_seq=anna.table["seq"])
        msg = await p.recv()
        answers.append(msg["code"] if msg["type"] == "error" else msg["type"])
        await p.close()
    assert set(answers) == {"joined"}, answers


async def test_a_valid_seat_token_is_never_refused_while_its_table_waits_for_the_database(server, monkeypatch):
    """Seventy resumes in a row get server_busy (never unknown_table, never rate_limited), then the table is back."""
    store = Unanswering(server.app.db, monkeypatch)
    anna = await at_my_turn(server)
    code, seat_token, token = anna.joined["code"], anna.joined["seat_token"], anna.welcome["player_token"]
    store.down = True
    await anna.send("play", card=anna.table["view"]["legal"][0])
    assert await closed_with(anna) == 1013
    status, _, body = await server.get("/healthz")
    health = json.loads(body)
    assert (status, health["store_answers"], health["parked_tables"]) == (200, False, 1)

    answers = []
    for _ in range(70):  # more than the 60 failures an address may have a minute
        p = await server.connect("Anna", token=token)  # a known player is welcomed without a write
        await p.send("resume", code=code, seat_token=seat_token, last_seq=anna.table["seq"])
        answers.append((await p.expect("error"))["code"])
        assert await closed_with(p) == 1013
    assert set(answers) == {"server_busy"}

    store.down = False  # the database answers again: the table comes back by itself
    await wait_for(lambda: code in server.app.hub.tables.by_code)
    again = await come_back(server, anna)
    assert my_move(again.table)
    shown_were_stored(server.app.config.db, code, anna, again)


async def test_while_sqlite_is_locked_a_known_player_is_welcomed_at_once_and_a_table_parks(
    tmp_path, make_server, monkeypatch
):
    """Another process's lock: reads go on (hello, resume), writes wait, then count as not answering (1013)."""
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT_MS", 400)
    server = await make_server()
    anna = await at_my_turn(server)
    code = anna.joined["code"]
    db = server.app.config.db
    bram = await server.connect("Bram")  # a player who said hello once before the lock
    locker = sqlite3.connect(db, isolation_level=None)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        started = time.monotonic()
        back = await server.connect("Bram", token=bram.welcome["player_token"])  # returning: no write waited for
        assert time.monotonic() - started < 1.5 and back.welcome["name"] == "Bram"
        newcomer = await server.connect(None)
        await newcomer.send("hello", version=1, name="Cor")
        assert (await newcomer.expect("error"))["code"] == "server_busy"  # not server_error: it is temporary
        await anna.send("play", card=anna.table["view"]["legal"][0])
        assert await closed_with(anna) == 1013
        assert list(server.app.hub.tables.parked) == [code] and server.app.db.down is not None
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    await wait_for(lambda: code in server.app.hub.tables.by_code)  # back by itself once writes work
    again = await come_back(server, anna)
    assert my_move(again.table)


async def test_a_message_that_fails_is_logged_by_its_type_and_never_with_its_tokens(server, monkeypatch, caplog):
    anna = await at_my_turn(server)

    def broken(hub, client, msg):
        raise RuntimeError("a bug")

    monkeypatch.setitem(HANDLERS, "hint", broken)
    caplog.set_level(logging.ERROR)
    await anna.send("hint", player_token=anna.welcome["player_token"], seat_token=anna.joined["seat_token"])
    assert (await anna.expect("error"))["code"] == "server_error"
    assert "a 'hint' message failed" in caplog.text
    assert anna.welcome["player_token"] not in caplog.text and anna.joined["seat_token"] not in caplog.text
