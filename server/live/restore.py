"""Tables coming back from the database: all open ones at start, one on demand, and parked ones by themselves.

A table comes back as the fold of its stored log (``Table.restore``): at start for every open table, on demand when
someone resumes a table this node does not hold (its node died, in a cluster, or it was parked here), and by itself
once the database answers again after a write of it failed (it was parked). A log that cannot be folded closes
that one table, in the store and in the server's log; in a cluster a table is claimed (its lease taken) first.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

from ..metrics import NO_METRICS, Metrics
from ..storage.opening import REDIS_ERRORS
from ..storage.store import LeaseLost, Store, StoreBusy, StoredTable
from ..table.table import DamagedLog, Table
from .leasing import Leasing

log = logging.getLogger("hearts.server")
RECOVER_PAUSE = 0.5  # seconds between attempts to bring parked tables back (doubling up to RECOVER_MAX on errors)
RECOVER_MAX = 5.0


class Restorer:
    """Brings tables back from the store into the open tables; keeps the parked ones and brings them back by itself.

    It is given the registry's map of open tables (code -> table), where it puts each table it brings back, and
    ``changed``, the registry's one path after a change, which a table restored on demand takes at once.
    """

    def __init__(
        self,
        tables: dict[str, Table],
        changed: Callable[[Table], None],
        store: Store,
        cluster: Leasing | None,
        grace: float,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self.tables = tables  # the open tables by code (the registry's own map)
        self.metrics = metrics  # counts the tables adopted here
        self.changed = changed
        self.store = store
        self.cluster = cluster
        self.grace = grace
        # open tables dropped from memory because a write of theirs failed (code -> table id): they come back from
        # what was stored, by themselves once the database answers, or sooner when someone resumes
        self.parked: dict[str, str] = {}
        self._recovering: asyncio.Task | None = None
        self._fetching: dict[str, asyncio.Future] = {}  # codes being restored on demand

    # ------------------------------------------------------------------ at start

    async def restore_all(self) -> list[Table]:
        """Fold every open table's stored log back (the ones another live node holds stay there); return them."""
        now = time.monotonic()
        restored = []
        stored_tables = await self.store.open_tables()
        gc.disable()  # folding creates many small objects that all live on: collecting meanwhile only costs time
        try:
            for listed in stored_tables:
                cluster = self.cluster
                lease = await self._claim(cluster, listed) if cluster is not None else None
                if cluster is not None and lease is None:
                    continue  # another live node owns it
                stored = await self._fenced(listed, lease)
                if stored is None:
                    continue
                table = await self._restore_one(stored, now)
                if table is None:
                    self._let_go(stored, lease)
                if table is not None:
                    self.tables[table.code] = table
                    restored.append(table)
        finally:
            gc.enable()
        return restored

    # ------------------------------------------------------------------ on demand

    async def fetch(self, code: str) -> Table | None:
        """Restore the open table ``code`` from the database (its node died, or it was parked); None if not there.

        In a cluster the table's lease is claimed first (None when a live node holds it). Raises ``StoreBusy``.
        """
        if code in self.tables:
            return self.tables[code]
        if code in self.parked and self.store.down is not None:  # fail at once: the recovery brings it back
            raise StoreBusy(f"table {code} waits for the database: {self.store.down}")
        waiting = self._fetching.get(code)
        if waiting is not None:
            return await asyncio.shield(waiting)
        future = self._fetching[code] = asyncio.get_running_loop().create_future()
        try:
            table = await self._fetch(code)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # seen: the waiters, if any, get it too
            raise
        else:
            future.set_result(table)
            return table
        finally:
            del self._fetching[code]

    async def _fetch(self, code: str) -> Table | None:
        stored = await self.store.open_table(code)
        if stored is None:  # closed meanwhile, or its first entries were never stored: nobody was shown it
            parked = self.parked.pop(code, None)
            if parked is not None:
                self.store.resume_table(parked)
            return None
        table = await self._adopt(stored)
        if table is None:  # another node holds it now, or its log is damaged
            self.parked.pop(code, None)
        return table

    async def _adopt(self, stored: StoredTable) -> Table | None:
        """Claim (in a cluster) and fold one stored table into memory, then carry on with it."""
        tables = self.tables
        if stored.code in tables:
            return tables[stored.code]
        cluster = self.cluster
        lease = await self._claim(cluster, stored) if cluster is not None else None
        if cluster is not None and lease is None:
            return None
        fenced = await self._fenced(stored, lease)
        if fenced is None:
            return tables.get(stored.code)
        stored = fenced
        self.store.resume_table(stored.table_id)  # from here on its log is what was stored: writes may follow
        try:
            table = await self._restore_one(stored, time.monotonic())
        except BaseException:
            self._let_go(stored, lease, keep_code=True)
            raise
        if table is None or table.code in tables:
            self._let_go(stored, lease)
            return tables.get(stored.code)
        if cluster is not None and table.code not in self.parked:  # not one of ours coming back: an orphan adopted
            self.metrics.tables_adopted.inc()
        self.parked.pop(table.code, None)
        tables[table.code] = table
        log.info("table %s restored from the database", table.code)
        self.changed(table)
        return table

    async def adopt_orphans(self) -> int:
        """In a cluster: restore the open tables nobody holds, or whose node died (its presence ran out)."""
        cluster = self.cluster
        if cluster is None:
            return 0  # a node alone: every open table is its own
        open_ids = await self.store.open_table_ids()
        codes = {table_id: code for table_id, code in open_ids if code not in self.tables}  # not open here
        if not codes:
            return 0
        adopted = 0
        for table_id in await cluster.orphans(list(codes)):
            code = codes[table_id]
            if code in self.tables or code in self._fetching:
                continue
            if await self.fetch(code) is not None:
                adopted += 1
        return adopted

    # ------------------------------------------------------------------ parked tables

    def park(self, table: Table) -> None:
        """A write of ``table`` failed: keep its code to bring it back from what was stored, by itself."""
        self.parked[table.code] = table.table_id
        if self._recovering is None or self._recovering.done():
            self._recovering = asyncio.get_running_loop().create_task(self._recover())

    async def _recover(self) -> None:
        """Bring the parked tables back from the database once it answers; nobody has to come back for it."""
        pause = RECOVER_PAUSE
        while self.parked:
            await asyncio.sleep(pause)
            await self.store.answering()
            for code in list(self.parked):
                try:
                    await self.fetch(code)
                except StoreBusy:
                    break  # down again: wait until it answers
                except Exception as exc:  # Redis down in a cluster, or a bug: try again later, a little slower
                    if not isinstance(exc, REDIS_ERRORS):
                        log.exception("table %s could not be brought back; trying again", code)
                    pause = min(pause * 2, RECOVER_MAX)
                    break
            else:
                pause = RECOVER_PAUSE

    async def close(self) -> None:
        """Stop bringing parked tables back."""
        if self._recovering is not None:
            self._recovering.cancel()
            await asyncio.gather(self._recovering, return_exceptions=True)

    # ------------------------------------------------------------------ one table

    async def _claim(self, cluster: Leasing, stored: StoredTable) -> int | None:
        """In a cluster: take the lease of a stored table nobody holds, numbered above the database's newest.

        Returns the lease number, or None when a live node holds the table.
        """
        floor = await self.store.newest_lease(stored.table_id)
        return await cluster.claim(stored.table_id, stored.code, floor)

    async def _fenced(self, stored: StoredTable, lease: int | None) -> StoredTable | None:
        """In a cluster: fence the table just claimed (``lease``) in the database, then read its log again.

        The log read before the claim may lack an append its last holder made since (a node cut off from Redis, or
        paused, that had not yet noticed): once fenced, every append of an older lease is in the log read here, or
        refused. None (the lease let go) when the table closed meanwhile or a newer lease holds it.
        """
        if lease is None:
            return stored
        try:
            fenced = await self.store.fenced_table(stored.table_id, lease)
        except LeaseLost as exc:
            log.warning("table %s: taken over by another node meanwhile (%s)", stored.code, exc)
            self._let_go(stored, lease, keep_code=True)
            return None
        except BaseException:
            self._let_go(stored, lease, keep_code=True)
            raise
        if fenced is None:
            self._let_go(stored, lease)
        return fenced

    def _let_go(self, stored: StoredTable, lease: int | None, keep_code: bool = False) -> None:
        """In a cluster: release the lease ``_claim`` took (``lease``) of a stored table that did not come back here."""
        if lease is not None and self.cluster is not None:
            self.cluster.let_go(stored.table_id, stored.code, lease, keep_code=keep_code)

    async def _restore_one(self, stored: StoredTable, now: float) -> Table | None:
        """Fold one stored log; a damaged one is closed in the store and logged by its code (only that table)."""
        try:
            if stored.gaps:
                raise DamagedLog("entries are missing from the log")
            table = Table.restore(stored.table_id, stored.entries, grace=self.grace)
            if table.code != stored.code or table.code in self.tables:
                raise DamagedLog(f"the log is for table {table.code}, stored as {stored.code}")
        except DamagedLog as exc:
            log.error("table %s (%s) could not be restored and stays closed: %s", stored.code, stored.table_id, exc)
            await self._mark_damaged(stored, str(exc))
            return None
        except Exception as exc:  # a fold that fails in a way nobody foresaw still costs that one table only
            log.exception("table %s (%s) could not be restored and stays closed", stored.code, stored.table_id)
            await self._mark_damaged(stored, f"{type(exc).__name__}: {exc}")
            return None
        table.seating.restored(now)
        return table

    async def _mark_damaged(self, stored: StoredTable, why: str) -> None:
        """Close a damaged table in the store; while the database takes no writes it stays open there for later."""
        try:
            await self.store.mark_damaged(stored.table_id, why)
        except StoreBusy as exc:
            log.warning("table %s: not marked damaged yet, the database does not answer (%s)", stored.code, exc)
