"""Group commit: writes that arrive together share a transaction, and one bad write does not sink the others."""

from __future__ import annotations

import asyncio

import pytest

from server.store import GroupCommit, TableWrite


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

    async def writer(batch):
        await gate.wait()
        committed.append([w.code for w in batch])

    commits = GroupCommit(writer)
    first = commits.submit(write("A"))
    await asyncio.sleep(0.01)  # A is being written
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


async def test_a_new_player_in_a_failed_batch_is_still_created(tmp_path):
    from server.sqlite_store import SQLiteStore

    store = await SQLiteStore.open(str(tmp_path / "g.db"))
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
