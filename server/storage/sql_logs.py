"""Table logs in SQL: the group-committed appends (with the rows they imply), open tables read back, damage."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from . import sql
from .sql_games import insert_game
from .sql_query import Query, SqlAccess, one_value
from .store import LeaseLost, PlayerWrite, StoreBusy, StoredTable, TableWrite


class TableLogs:
    """``SqlStore.logs``: table logs in the store's database; every write goes through the group commit."""

    def __init__(self, db: SqlAccess) -> None:
        self.db = db

    # ------------------------------------------------------------------ the database down and back

    @property
    def down(self) -> StoreBusy | None:
        """Why the database counts as not answering now (writes fail at once), or None while it answers."""
        return self.db.commits.down

    async def answering(self) -> None:
        """Return once the database answers again (at once while it does)."""
        await self.db.commits.answering()

    def resume_table(self, table_id: str) -> None:
        """The table is restored from what was stored: its writes may be stored again after a failed one."""
        self.db.commits.resume(table_id)

    # ------------------------------------------------------------------ table logs

    def submit(self, write: TableWrite) -> asyncio.Future:
        """Queue ``write``; it commits with whatever other tables queued meanwhile (group commit)."""
        return self.db.commits.submit(write)

    async def write_batch(self, batch: list[TableWrite | PlayerWrite]) -> None:
        """Commit one group of writes: one statement when all are plain appends, else one transaction."""
        if all(type(w) is TableWrite and w.only_appends() for w in batch):
            # the common case in play: one statement, one transaction, one trip to the database
            rows = self._log_rows(batch)
            if not rows or await self.db._append_only(rows):
                return
        players = [w for w in batch if isinstance(w, PlayerWrite)]
        tables = [w for w in batch if isinstance(w, TableWrite)]

        async def body(q: Query) -> None:
            for p in players:  # first: a table write may name a player of the same batch
                if p.new:  # (again, if a failed batch rolled the first insert back)
                    p.player_id = await one_value(q, sql.NEW_PLAYER, p.token_hash, p.name, p.seen_at, p.seen_at)
                    await q.execute(sql.NEW_DEVICE, p.token_hash, p.player_id, "", p.seen_at, p.seen_at)
            seen = [(p.name, p.seen_at, p.player_id) for p in players if not p.new]
            if seen:
                await q.executemany(sql.SEEN_PLAYER, seen)
                await q.executemany(sql.SEEN_DEVICE, [(p.seen_at, p.token_hash) for p in players if not p.new])
            for w in tables:
                if w.opened_at is not None:
                    await q.execute(sql.OPEN_TABLE, w.table_id, w.code, w.opened_at)
            rows = self._log_rows(tables)
            if rows:
                await q.executemany(sql.APPEND_LEASED if self.db.leases else sql.APPEND, rows)
            for w in tables:
                if w.finished is not None:
                    await insert_game(q, w.finished)
                if w.closed_at is not None:
                    await q.execute(sql.CLOSE_TABLE, w.closed_at, w.table_id)

        await self.db._write(body)

    def _log_rows(self, writes: list) -> list[tuple]:
        """The table-log rows of ``writes``: with each write's lease number where the database fences."""
        if self.db.leases:
            return [(w.table_id, n, text, w.lease) for w in writes for n, text in w.entries]
        return [(w.table_id, n, text) for w in writes for n, text in w.entries]

    async def fenced_table(self, table_id: str, lease: int) -> StoredTable | None:
        """Fence open table ``table_id`` at ``lease``, then return its log (one transaction; see ``Store``).

        The fence's row is the one every append's trigger locks: an append of an older lease committed before this
        transaction took the lock is in the log read after it (a statement of its own: READ COMMITTED sees it), and
        one that waited for the lock, or comes later, is refused.
        """

        async def body(q: Query) -> tuple[int, Sequence[Any] | None, list[Sequence[Any]]]:
            found = await q.one(sql.OPEN_TABLE_BY_ID, table_id)
            if found is None:
                return lease, None, []
            fenced = await one_value(q, sql.FENCE_TABLE, table_id, lease) if self.db.leases else lease
            return fenced, found, await q.rows(sql.TABLE_LOG, table_id)

        fenced, found, rows = await self.db._write(body)
        if fenced > lease:
            raise LeaseLost(f"table {table_id} is fenced at lease {fenced}, newer than {lease}")
        if found is None:
            return None
        return folded_log(found, rows)

    async def newest_lease(self, table_id: str) -> int:
        """Return the newest lease number recorded for ``table_id`` (0: none)."""
        row = await self.db._peek(sql.NEWEST_LEASE, table_id)
        return row[0] if row is not None else 0

    async def open_tables(self) -> list[StoredTable]:
        """Return every open table's log, oldest table first."""

        async def body(q: Query) -> tuple[list[Sequence[Any]], list[Sequence[Any]]]:
            found = await q.rows(sql.OPEN_TABLES)
            return found, (await q.rows(sql.OPEN_LOGS) if found else [])

        tables, rows = await self.db._read(body)
        found = {row[0]: StoredTable(row[0], row[1]) for row in tables}
        for table_id, n, entry in rows:
            stored = found[table_id]
            stored.entries.append(entry)
            if n != len(stored.entries):
                stored.gaps = True
        return list(found.values())

    async def open_table(self, code: str) -> StoredTable | None:
        """Return the log of the open table with ``code`` (the newest such table), or None."""

        async def body(q: Query) -> tuple[Sequence[Any] | None, list[Sequence[Any]]]:
            found = await q.one(sql.OPEN_TABLE_BY_CODE, code)
            return found, (await q.rows(sql.TABLE_LOG, found[0]) if found is not None else [])

        found, rows = await self.db._read(body)
        if found is None:
            return None
        return folded_log(found, rows)

    async def open_table_ids(self) -> list[tuple[str, str]]:
        """Return ``(table_id, code)`` of every table that is not closed."""
        return [(row[0], row[1]) for row in await self.db._read(lambda q: q.rows(sql.OPEN_TABLES))]

    async def mark_damaged(self, table_id: str, why: str) -> None:
        """Close a table whose log cannot be replayed."""
        await self.db._write(lambda q: q.execute(sql.MARK_DAMAGED, time.time(), why[:500], table_id))


def folded_log(found: Sequence[Any], rows: list[Sequence[Any]]) -> StoredTable:
    """A table's stored log: its id and code (``found``), its entries in order, ``gaps`` where a number is missing."""
    stored = StoredTable(found[0], found[1])
    for n, entry in rows:
        stored.entries.append(entry)
        if n != len(stored.entries):
            stored.gaps = True
    return stored
