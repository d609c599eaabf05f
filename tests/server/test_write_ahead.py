"""Write-ahead: no message shows a change before the table log holding it is committed; group commit; hashed tokens."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from .conftest import seat_four, wait_for
from .test_replays import drive_all

HEX64 = re.compile(r"^[0-9a-f]{64}$")


class HeldCommits:
    """Stands in for the store's batch writer: while held, every group commit waits before it touches the database."""

    def __init__(self, commits) -> None:
        self.commits = commits
        self.real = commits._write_batch
        self.open = asyncio.Event()
        self.open.set()
        self.waiting = 0  # batches waiting at the gate now
        self.batches: list[list[str]] = []  # table codes of every committed batch, in order

    async def __call__(self, batch) -> None:
        self.waiting += 1
        try:
            await self.open.wait()
        finally:
            self.waiting -= 1
        self.check(batch)
        await self.real(batch)
        self.batches.append([w.code for w in batch if hasattr(w, "code")])  # table writes (not hellos)

    def check(self, batch) -> None:
        """A last look at a batch before it is written (a subclass may refuse it)."""

    def hold(self) -> None:
        self.open.clear()

    def release(self) -> None:
        self.open.set()


@pytest.fixture
def held(server, monkeypatch):
    gate = HeldCommits(server.app.db.commits)
    monkeypatch.setattr(server.app.db.commits, "_write_batch", gate)
    yield gate
    gate.release()


def logged_kinds(db_path: str, code: str) -> list[str]:
    """The kinds of the entries committed to a table's log, read by another connection (what survives a crash)."""
    with closing(sqlite3.connect(db_path)) as conn:
        rows = conn.execute(
            "SELECT l.entry FROM table_log l JOIN tables t ON t.id = l.table_id WHERE t.code = ? ORDER BY l.n", (code,)
        ).fetchall()
    return [json.loads(r[0])["type"] for r in rows]


async def nothing_arrives(*players) -> None:
    """No message has reached any of ``players``: the answer to a ping sent now is the next thing each one reads.

    A ping is answered at once, never behind a commit, and after everything the server sent before it.
    """
    for p in players:
        await p.send("ping")
        msg = await p.recv()
        assert msg["type"] == "pong", f"a message arrived while the commit was held: {(msg['type'], msg.get('seq'))}"


class TestWriteAhead:
    async def test_start_is_shown_only_once_its_log_entries_are_committed(self, server, held):
        host = await server.host("Anna", options={"variant": "classic", "end_score": 25}, computer_level="easy")
        code = host.joined["code"]
        await host.send("fill_computers", level="easy")
        await host.until(lambda t: all(s["kind"] == "computer" for s in t["seats"][1:]))
        db = server.app.config.db
        assert "start" not in logged_kinds(db, code)
        await host.drain()  # everything before is read: what comes next came after the hold

        held.hold()
        await host.send("start")
        await wait_for(lambda: held.waiting >= 1)
        assert server.table(code).status == "playing"  # the server has dealt ...
        await nothing_arrives(host)  # ... but shows nothing while the deal is not stored
        assert "start" not in logged_kinds(db, code) and "deal" not in logged_kinds(db, code)

        held.release()
        t = await host.expect("table")
        assert t["status"] == "playing" and len(t["view"]["hand"]) == 13
        assert {"start", "deal"} <= set(logged_kinds(db, code))

    async def test_a_play_reaches_nobody_before_it_is_committed_then_everybody(self, server, held):
        players = await seat_four(server, {"variant": "classic", "passing": "off", "end_score": 25})
        code = players[0].joined["code"]
        await players[0].send("start")
        tables = [await p.until(lambda t: t["status"] == "playing") for p in players]
        mover = players[tables[0]["view"]["turn"]]
        card = mover.table["view"]["legal"][0]
        db = server.app.config.db
        plays_before = logged_kinds(db, code).count("play")
        for p in players:  # everything before is read: what comes next came after the hold
            await p.drain()

        held.hold()
        await mover.send("play", card=card)
        await wait_for(lambda: held.waiting >= 1)
        assert len(server.table(code).game.trick.cards) == 1  # played in memory
        await nothing_arrives(*players)
        assert logged_kinds(db, code).count("play") == plays_before

        held.release()
        for p in players:
            t = await p.expect("table")
            assert [(e["type"], e["card"]) for e in t["events"] if e["type"] == "play"] == [("play", card)]
        assert logged_kinds(db, code).count("play") == plays_before + 1

    async def test_changes_of_several_tables_that_arrive_together_share_one_commit(self, server, held):
        hosts = [await server.host(name) for name in ("Anna", "Bram", "Cor")]
        codes = [h.joined["code"] for h in hosts]
        commits = server.app.db.commits
        batches, writes = commits.batches, commits.writes
        seen = len(held.batches)
        for h in hosts:  # everything before is read: what comes next came after the hold
            await h.drain()

        held.hold()
        await hosts[0].send("set_timer", seconds=30)
        await wait_for(lambda: held.waiting == 1)  # the first commit is under way (held)
        for h in hosts[1:]:
            await h.send("set_timer", seconds=30)
        await wait_for(lambda: all(server.table(c).timer == 30 for c in codes))  # both changed and queued meanwhile
        await nothing_arrives(*hosts)

        held.release()
        for h in hosts:
            t = await h.expect("table")
            assert t["turn_timer"] == 30
        assert held.batches[seen:] == [[codes[0]], [codes[1], codes[2]]]
        assert (commits.batches - batches, commits.writes - writes) == (2, 3)


class TestTokensAreHashed:
    async def test_the_database_holds_no_token_in_clear_only_sha256_hex(self, server):
        host = await server.host("Anna", options={"variant": "classic", "end_score": 25}, computer_level="easy")
        code = host.joined["code"]
        bram = await server.connect("Bram")
        await bram.send("join", code=code)
        await bram.expect("joined")
        await bram.send("sit", seat=2)  # a new seat token; the old one stops working
        await bram.expect("joined")
        await host.until(lambda t: t["seats"][2]["kind"] == "person")
        await host.send("fill_computers", level="easy")
        await host.until(lambda t: t["seats"][1]["kind"] == "computer" and t["seats"][3]["kind"] == "computer")
        # Bram drops and comes back with his seat token (logged as "back")
        token = bram.welcome["player_token"]
        seat_token = bram.joined["seat_token"]
        await bram.close()
        bram = await server.connect("Bram", token=token)
        await bram.send("resume", code=code, seat_token=seat_token)
        await bram.expect("joined")
        await host.send("start")
        await bram.until(lambda t: t["status"] == "playing")
        await drive_all([host, bram])
        assert host.table["replay"] is not None  # shown, so committed (write-ahead)

        players = [host.welcome["player_token"], token]
        seats = [m["seat_token"] for c in server.clients for m in c.inbox if m["type"] == "joined"]
        assert len(set(seats)) >= 3
        secrets_ = players + seats

        db = Path(server.app.config.db)
        for path in (db, db.with_name(db.name + "-wal")):
            if path.exists():
                raw = path.read_bytes()
                in_clear = [s for s in secrets_ if s.encode() in raw]
                assert in_clear == [], path.name

        with closing(sqlite3.connect(db)) as conn:
            names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            for name in names:
                for row in conn.execute(f'SELECT * FROM "{name}"'):
                    for value in row:
                        if isinstance(value, str):
                            assert not any(s in value for s in secrets_), (name, value[:80])
            stored_players = {r[0] for r in conn.execute("SELECT token_hash FROM players")}
            entries = [json.loads(r[0]) for r in conn.execute("SELECT entry FROM table_log")]
        assert stored_players == {hashlib.sha256(t.encode()).hexdigest() for t in players}
        seat_hashes = [e["token_hash"] for e in entries if e["type"] == "seated" and e["who"] == "human"]
        assert len(seat_hashes) == 3 and all(HEX64.match(h) for h in seat_hashes)
        assert set(seat_hashes) == {hashlib.sha256(s.encode()).hexdigest() for s in seats}


class TestStorageFailure:
    async def test_a_log_the_database_refuses_is_never_shown_and_the_table_closes_with_1011(self, server, monkeypatch):
        host = await server.host("Anna")
        code = host.joined["code"]
        await host.send("fill_computers", level="easy")
        await host.until(lambda t: all(s["kind"] == "computer" for s in t["seats"][1:]))
        before = host.table["seq"]

        async def refuse(batch) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(server.app.db.commits, "_write_batch", refuse)
        await host.send("start")
        with pytest.raises(Exception):  # noqa: B017 - the connection closes; no table message came first
            while True:
                msg = await host.recv()
                assert msg["type"] != "table", "a change the database refused was shown"
        assert host.ws.close_code == 1011
        assert code not in server.app.hub.tables.by_code
        assert host.table["seq"] == before
