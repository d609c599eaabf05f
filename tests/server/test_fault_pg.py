"""Faults on PostgreSQL while tables play: another session holds the table log locked for 15 s.

The same journey as the SQLite fault test (``test_fault_sqlite.py``) on a fresh PostgreSQL database: a write that
waits past the 10 s query timeout counts as the database not answering (1013, ``server_busy``); the tables park
and come back by themselves once it answers, with every event anyone was shown stored, in order, with no hole.
(A full disk is left to the SQLite test: PostgreSQL's data folder is the machine's service, not the test's.)
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg

from . import pg
from .crashkit import ServerProcess
from .faultkit import Person, check_shown_were_stored, log_holds_no_secret
from .test_fault_sqlite import TABLES, all_progress, busy_closes, until
from .test_store_restore import http_json

LOCK_SECONDS = 15.0


async def stored_logs_pg(url: str) -> dict[str, tuple]:
    out = {}
    for table_id, code, damaged in await pg.sql(url, "SELECT id, code, damaged FROM tables"):
        rows = await pg.sql(url, "SELECT n, entry FROM table_log WHERE table_id = $1 ORDER BY n", table_id)
        out[code] = (table_id, [r["n"] for r in rows], [r["entry"] for r in rows], damaged)
    return out


async def test_a_15_s_lock_on_postgresql_loses_no_table_and_every_shown_event_is_stored(tmp_path: Path):
    url = await pg.create_database()
    srv = ServerProcess(url, tmp_path, "faults-pg", extra=["--bot-delay", "0.02"]).start()
    people = [Person(lambda: srv.url, f"P{i}") for i in range(TABLES)]
    try:
        async with asyncio.timeout(120):
            for p in people:
                p.start()
            await all_progress(people, "before the lock", moves=10)
            locker = await asyncpg.connect(url)
            try:
                async with locker.transaction():
                    await locker.execute("LOCK TABLE table_log IN ACCESS EXCLUSIVE MODE")
                    await until(lambda: busy_closes(people) >= 1, 14, "a table to wait for the database (1013)")
                    health = http_json(srv, "/healthz")
                    assert not health["store_answers"] and health["parked_tables"] >= 1, health
                    await asyncio.sleep(LOCK_SECONDS - 10.5)
            finally:
                await locker.close()
            await all_progress(people, "after the lock was released")
            assert sum(1013 in p.closes for p in people) >= 1
            assert all(p.resumes >= 1 for p in people if 1013 in p.closes)
        for p in people:
            await p.stop()
        refused = [(p.name, e) for p in people for e in p.errors if e != "server_busy"]
        assert refused == [], "a valid seat token was refused, or a move failed"
        assert [(p.name, c) for p in people for c in p.conflicts] == []
        assert set(c for p in people for c in p.closes) <= {1013, None}, [p.closes for p in people]
        check_shown_were_stored(people, await stored_logs_pg(url))
        log = srv.stderr() + srv.out.read_text()
        assert log_holds_no_secret(log, people) == [] and "Traceback" not in log, log[-3000:]
        assert http_json(srv, "/healthz")["parked_tables"] == 0
    finally:
        for p in people:
            await p.stop()
        srv.cleanup()
        await pg.drop_database(url)
