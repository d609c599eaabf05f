"""Group commit: writes that arrive together share a transaction, and one bad write does not sink the others."""

from __future__ import annotations

import asyncio
import json

import pytest

from hartenjagen.server.storage.group_commit import GroupCommit
from hartenjagen.server.storage.opening import open_store
from hartenjagen.server.storage.store import StoreBusy, TableHalted, TableWrite

from .conftest import both_stores, wait_for


def write(code: str) -> TableWrite:
    return TableWrite(table_id=code, code=code, entries=[(1, "{}")])


async def test_one_bad_write_fails_alone_and_the_others_of_its_batch_commit():
    committed: list[list[str]] = []

    async def writer(batch):
        await asyncio.sleep(0)
        if any(w.code == "BAD" for w in batch):
            raise RuntimeError("constraint failed")
        committed.append([w.code for w in batch])

    commits = GroupCommit(writer)
    futures = [commits.submit(write(code)) for code in ("AAA", "BAD", "CCC")]
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], RuntimeError)
    assert committed == [["AAA"], ["CCC"]]  # the batch failed whole, then each good write got its own
    await commits.close()


async def test_writes_that_arrive_while_one_commits_share_the_next_transaction():
    committed: list[list[str]] = []
    gate = asyncio.Event()
    writing = asyncio.Event()

    async def writer(batch):
        writing.set()
        await gate.wait()
        committed.append([w.code for w in batch])

    commits = GroupCommit(writer)
    first = commits.submit(write("A"))
    await writing.wait()  # A is being written
    later = [commits.submit(write(code)) for code in ("B", "C", "D")]
    gate.set()
    await asyncio.gather(first, *later)
    assert committed == [["A"], ["B", "C", "D"]]
    assert (commits.batches, commits.writes) == (2, 4)
    await commits.close()


@pytest.mark.parametrize("count", [1, 50])
async def test_close_commits_everything_queued(count):
    committed: list[str] = []

    async def writer(batch):
        await asyncio.sleep(0.001)
        committed.extend(w.code for w in batch)

    commits = GroupCommit(writer)
    futures = [commits.submit(write(f"T{i}")) for i in range(count)]
    await commits.close()
    assert all(f.done() and not f.cancelled() for f in futures)
    assert len(committed) == count


@both_stores
async def test_a_new_player_in_a_failed_batch_is_still_created(db_url):
    store = await open_store(db_url)
    try:
        orphan = TableWrite(table_id="nowhere", code="NOWHER", entries=[(1, "{}")])  # no table row: refused
        bad = store.submit(orphan)
        pid, token, name = await store.player("Anna", None)  # shares the batch that fails
        with pytest.raises(Exception):  # noqa: B017 - the database's own constraint error
            await bad
        assert name == "Anna" and await store.player_id(token) == pid
        assert (await store.stats(token))["name"] == "Anna"
    finally:
        await store.close()


@both_stores
async def test_the_appends_of_many_tables_are_one_commit_and_each_log_reads_back_in_order(db_url):
    store = await open_store(db_url)
    try:
        codes = [f"T{i:05d}" for i in range(5)]
        await asyncio.gather(
            *(store.append(TableWrite(f"id-{c}", c, [(1, f'{{"k":"open","c":"{c}"}}')], opened_at=i)) for i, c in
              enumerate(codes))
        )  # fmt: skip
        batches = store.commits.batches
        # pure appends of every table, queued together: one statement, one transaction
        await asyncio.gather(
            *(store.submit(TableWrite(f"id-{c}", c, [(2, '{"k":"a"}'), (3, '{"k":"b"}')])) for c in codes)
        )
        assert store.commits.batches == batches + 1
        # the next batch mixes appends with a table that closes and a player: one transaction too
        closing = TableWrite("id-T00001", "T00001", [(4, '{"k":"closed"}')], closed_at=99.0)
        later = [store.submit(TableWrite("id-T00000", "T00000", [(4, '{"k":"c"}')])), store.submit(closing)]
        pid, token, _ = await store.player("Anna", None)
        await asyncio.gather(*later)
        assert store.commits.batches == batches + 2 and await store.player_id(token) == pid

        stored = await store.open_tables()
        assert [t.code for t in stored] == [c for c in codes if c != "T00001"]  # oldest first, the closed one gone
        first = stored[0]
        assert [json.loads(e)["k"] for e in first.entries] == ["open", "a", "b", "c"] and not first.gaps
        assert all(len(t.entries) == 3 and not t.gaps for t in stored[1:])

        # a duplicate entry number is refused whole: nothing of that batch is stored
        with pytest.raises(Exception):  # noqa: B017 - the database's own primary key error
            await store.append(TableWrite("id-T00002", "T00002", [(4, '{"k":"x"}'), (3, '{"k":"again"}')]))
        assert len((await store.open_tables())[1].entries) == 3
    finally:
        await store.close()


def entry(table: str, n: int) -> TableWrite:
    return TableWrite(table_id=table, code=table, entries=[(n, "{}")])


async def test_after_a_write_of_a_table_fails_its_later_writes_fail_unwritten_until_it_is_resumed():
    committed: list[tuple[str, int]] = []

    async def writer(batch):
        await asyncio.sleep(0)
        if any(w.code == "X" and w.entries[0][0] == 5 for w in batch):
            raise RuntimeError("constraint failed")
        committed.extend((w.code, w.entries[0][0]) for w in batch)

    commits = GroupCommit(writer)
    futures = [commits.submit(entry(t, n)) for t, n in (("X", 5), ("X", 6), ("Y", 1), ("X", 7))]
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert isinstance(results[1], TableHalted) and isinstance(results[3], TableHalted)  # never tried: no hole
    assert results[2] is None and committed == [("Y", 1)]
    with pytest.raises(TableHalted):  # still halted later, in another batch
        await commits.submit(entry("X", 8))
    commits.resume("X")  # restored from what was stored: it writes again (its entry 5 is fine now)
    committed.clear()
    await commits.submit(TableWrite(table_id="X", code="X again", entries=[(5, "{}")]))
    assert committed == [("X again", 5)]
    await commits.close()


async def test_a_database_that_does_not_answer_fails_table_writes_at_once_until_a_probe_commits():
    down = True
    tried: list[str] = []
    probes = 0

    async def writer(batch):
        tried.extend(getattr(w, "code", "player") for w in batch)
        if down:
            raise StoreBusy("locked")

    async def probe():
        nonlocal probes
        probes += 1
        if down:
            raise StoreBusy("still locked")

    commits = GroupCommit(writer, probe)
    first = await asyncio.gather(commits.submit(entry("A", 1)), commits.submit(entry("B", 1)), return_exceptions=True)
    assert all(isinstance(r, StoreBusy) for r in first) and tried == ["A", "B"]  # one batch, not retried one by one
    assert commits.down is not None
    with pytest.raises(StoreBusy):
        await commits.submit(entry("C", 1))  # at once: not even tried
    assert tried == ["A", "B"]
    await wait_for(lambda: probes >= 1)
    assert commits.down is not None  # a probe that fails keeps it down
    down = False
    await asyncio.wait_for(commits.answering(), 5)
    assert commits.down is None
    await commits.submit(entry("C", 1))  # a table that never failed writes again
    with pytest.raises(TableHalted):  # the ones that failed wait to be restored from what was stored
        await commits.submit(entry("A", 1))
    await commits.close()
