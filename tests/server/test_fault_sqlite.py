"""Faults on SQLite while tables play: another process holds the database locked for 15 s, then the disk fills up.

A real ``hearts serve`` on a database in a small tmpfs, four tables of one person and three computer players, each
person playing on and coming back by themselves after every close (``faultkit.Person``). Through both faults no
table is lost: the database counts as not answering (1013, ``server_busy``), the tables park and come back by
themselves once it answers again, with every event anyone was shown stored, in order, with no hole, live and after
a restart. No valid seat token is ever refused, and no token reaches the server's log.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from .crashkit import ServerProcess
from .faultkit import (
    Person,
    SqliteLock,
    check_shown_were_stored,
    fill_disk,
    log_holds_no_secret,
    remove,
    small_disk,
    stored_logs_sqlite,
)
from .test_store_restore import http_json

TABLES = 4
LOCK_SECONDS = 15.0


async def all_progress(people: list[Person], what: str, timeout: float = 30.0, moves: int = 8) -> None:
    marks = [p.seq for p in people]
    await asyncio.gather(*(p.progress(m + moves, timeout, what) for p, m in zip(people, marks, strict=True)))


async def until(check, timeout: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await asyncio.to_thread(check):
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.1)


def busy_closes(people: list[Person]) -> int:
    """How many times the server closed someone's connection with 1013 (the database does not answer)."""
    return sum(p.closes.count(1013) for p in people)


async def test_a_15_s_lock_and_a_full_disk_lose_no_table_and_every_shown_event_is_stored(tmp_path: Path):
    assert os.geteuid() == 0, "this test mounts a small tmpfs: run the suite as root (as CI does)"
    with small_disk(tmp_path / "disk") as disk:
        db = disk / "hearts.db"
        extra = ["--bot-delay", "0.02"]
        servers = [ServerProcess(db, tmp_path, "faults", extra=extra).start()]
        people = [Person(lambda: servers[-1].url, f"P{i}") for i in range(TABLES)]
        srv = servers[0]
        try:
            async with asyncio.timeout(150):
                for p in people:
                    p.start()
                await all_progress(people, "before any fault", moves=10)

                # another process holds the write lock for 15 s: past the 10 s a write may wait
                async with SqliteLock(db, LOCK_SECONDS):
                    await until(lambda: busy_closes(people) >= 1, 14, "a table to wait for the database (1013)")
                    health = http_json(srv, "/healthz")  # it still answers, and says which tables wait
                    assert health["status"] == "ok" and not health["store_answers"] and health["parked_tables"] >= 1
                await all_progress(people, "after the lock was released")
                assert all(p.resumes >= 1 for p in people if 1013 in p.closes)
                assert sum(1013 in p.closes for p in people) >= 1

                # the disk fills up: writes fail at once (SQLITE_FULL), the tables park until space is back
                closed = busy_closes(people)
                filler = await asyncio.to_thread(fill_disk, disk)
                await until(lambda: busy_closes(people) > closed, 20, "the full disk to show (1013)")
                assert not http_json(srv, "/healthz")["store_answers"]
                await asyncio.sleep(2)
                shown_while_full = {p.name: p.seq for p in people}
                remove(filler)
                await all_progress(people, "after the disk had room again")
                assert http_json(srv, "/healthz")["parked_tables"] == 0
                assert any(p.seq > shown_while_full[p.name] for p in people)

                # a restart: every table comes back from the database again
                assert await srv.signal(signal.SIGTERM) == 0
                servers.append(ServerProcess(db, tmp_path, "restarted", extra=extra).start())
                await all_progress(people, "after a restart")
        finally:
            for p in people:
                await p.stop()
            for s in servers:
                s.cleanup()

        refused = [(p.name, e) for p in people for e in p.errors if e != "server_busy"]
        assert refused == [], "a valid seat token was refused, or a move failed"
        assert [(p.name, c) for p in people for c in p.conflicts] == [], "an event shown was later different"
        # 1013 while the database did not answer, 1012 at the restart (1000 or none for a connection that raced
        # the restart): never 1011, a refusal, nor 1008, as if someone had stopped reading
        assert set(c for p in people for c in p.closes) <= {1000, 1012, 1013, None}, [p.closes for p in people]
        check_shown_were_stored(people, stored_logs_sqlite(db))
        log = "".join(s.stderr() + s.out.read_text() for s in servers)
        assert log_holds_no_secret(log, people) == [], "a token reached the server's log"
        assert "Traceback" not in log, log[-3000:]
        assert "the database does not answer" in log and "the database answers again" in log, log[-3000:]
