"""The group commit: every table's log entries and players' hellos go to the database in shared batches."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from ..metrics import NO_METRICS, Metrics
from .store import LeaseExpired, LeaseLost, PlayerWrite, StoreBusy, TableHalted, TableWrite

log = logging.getLogger("hearts.store")
CLOSE_WAIT = 10.0  # seconds a stop waits for the database to take what is queued (then drops it, as a crash would)
REVIVE_FIRST = 0.5  # seconds before the first probe of a database that stopped answering
REVIVE_MAX = 2.0  # ... and the longest pause between probes


class GroupCommit:
    """Queue writes and commit every write that arrived meanwhile in one transaction, in arrival order.

    Two rules keep each table's stored log a prefix of what the table logged, in order and without a hole:

    - after a write of a table fails, every later write of that table fails too, unwritten, until the table is
      restored from what was stored (``resume``);
    - while the database does not answer (a write raised ``StoreBusy``), every table write fails at once without
      being tried, and a probe (``probe``, a small real write) runs every little while until one succeeds (or any
      other write commits).
    - in a cluster, a table write whose node may no longer write under its leases (``TableWrite.valid``, asked when
      it is queued and again when its batch goes to the database) fails (``LeaseExpired``) and halts its table.
    """

    def __init__(
        self,
        write_batch: Callable[[list[TableWrite | PlayerWrite]], Awaitable[None]],
        probe: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._write_batch = write_batch
        self._probe = probe
        self._queue: list[tuple[TableWrite | PlayerWrite, asyncio.Future]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task | None = None
        self._reviver: asyncio.Task | None = None
        self._answering: asyncio.Event | None = None  # set while the database answers (made on first use)
        self.batches = 0
        self.writes = 0
        self.metrics: Metrics = NO_METRICS  # the node's (``Store.measure``): times each transaction
        self._writing = False
        self.down: StoreBusy | None = None  # why the database counts as not answering, or None
        self.halted: dict[str, BaseException] = {}  # table id -> the failure after which nothing more is stored

    # ------------------------------------------------------------------ submitting

    def submit(self, write: TableWrite | PlayerWrite) -> asyncio.Future:
        """Queue ``write``; the future resolves once it is committed (or fails with the commit's error).

        While the database does not answer, or after an earlier write of the same table failed, the future
        fails at once and nothing is written.
        """
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        refusal = self._refusal(write)
        if refusal is not None:
            if isinstance(refusal, LeaseExpired) and isinstance(write, TableWrite):  # nothing of it stored after
                self.halted.setdefault(write.table_id, refusal)
            fut.set_exception(refusal)
            return fut
        wake = self._wake
        if wake is None or self._task is None or self._task.done():
            wake = self._wake = asyncio.Event()
            self._task = loop.create_task(self._run(wake))
        self._queue.append((write, fut))
        wake.set()
        return fut

    def _refusal(self, write: TableWrite | PlayerWrite) -> BaseException | None:
        """Return why ``write`` must not be tried now, or None.

        A player's write is always tried (a new player's hello waits for it; one that commits shows the database
        answers again); a table's write while the database does not answer would only wait to fail.
        """
        if type(write) is not TableWrite:
            return None
        if self.down is not None:
            return StoreBusy(str(self.down))
        failed = self.halted.get(write.table_id)
        if failed is not None:
            return TableHalted(f"an earlier write of table {write.code} failed ({failed})")
        if write.valid is not None and not write.valid():
            return LeaseExpired(f"table {write.code}: this node's leases were not renewed in time")
        return None

    def resume(self, table_id: str) -> None:
        """The table is restored from what was stored: its writes may be stored again."""
        self.halted.pop(table_id, None)

    # ------------------------------------------------------------------ committing

    async def _run(self, wake: asyncio.Event) -> None:
        while True:
            await wake.wait()
            wake.clear()
            batch, self._queue = self._queue, []
            batch = [(w, fut) for w, fut in batch if not self._refused(w, fut)]
            if not batch:
                continue
            self._writing = True
            started = time.perf_counter()
            try:
                await self._write_batch([w for w, _ in batch])
            except asyncio.CancelledError:
                for _, fut in batch:
                    if not fut.done():
                        fut.cancel()
                raise
            except StoreBusy as exc:  # nothing of the batch was stored, and trying again one by one cannot help
                self._went_down(exc)
                for write, fut in batch:
                    self._fail(write, fut, exc)
                continue
            except Exception as exc:
                if isinstance(exc, LeaseLost):  # in a cluster, a table another node took over: no bug
                    log.warning("a group commit of %d writes was refused (%s); committing them one by one",
                                len(batch), exc)  # fmt: skip
                else:
                    log.exception("a group commit of %d writes failed; committing them one by one", len(batch))
                await self._one_by_one(batch)  # one bad write must not sink the others (tables, hellos)
                continue
            finally:
                self._writing = False
            self.metrics.commit_seconds.observe(time.perf_counter() - started)
            self.batches += 1
            self.writes += len(batch)
            self._came_back()
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    def _refused(self, write: TableWrite | PlayerWrite, fut: asyncio.Future) -> bool:
        """Fail ``fut`` and return True when ``write`` must not be tried now (see ``_refusal``)."""
        refusal = self._refusal(write)
        if refusal is None:
            return False
        if isinstance(refusal, LeaseExpired):
            self._fail(write, fut, refusal)  # halts the table: nothing of it after this write is stored
        elif not fut.done():
            fut.set_exception(refusal)
        return True

    def _fail(self, write: TableWrite | PlayerWrite, fut: asyncio.Future, exc: BaseException) -> None:
        """A write failed: halt its table (before anyone hears of it), then fail its future."""
        if type(write) is TableWrite:
            self.halted.setdefault(write.table_id, exc)
            for queued, later in self._queue:  # already queued behind it: never stored now
                if type(queued) is TableWrite and queued.table_id == write.table_id and not later.done():
                    later.set_exception(TableHalted(f"an earlier write of table {write.code} failed ({exc})"))
        if not fut.done():
            fut.set_exception(exc)

    async def _one_by_one(self, batch: list[tuple[TableWrite | PlayerWrite, asyncio.Future]]) -> None:
        """After a failed group commit: give each write its own transaction; only the faulty ones fail."""
        self._writing = True
        try:
            for write, fut in batch:
                if self._refused(write, fut):  # its table failed earlier in this batch, or the database went down
                    continue
                started = time.perf_counter()
                try:
                    await self._write_batch([write])
                except asyncio.CancelledError:
                    for _, left in batch:
                        if not left.done():
                            left.cancel()
                    raise
                except StoreBusy as exc:
                    self._went_down(exc)
                    self._fail(write, fut, exc)
                except Exception as exc:
                    self._fail(write, fut, exc)
                else:
                    self.metrics.commit_seconds.observe(time.perf_counter() - started)
                    self.writes += 1
                    self._came_back()
                    if not fut.done():
                        fut.set_result(None)
        finally:
            self._writing = False

    # ------------------------------------------------------------------ the database down and back

    def _went_down(self, exc: StoreBusy) -> None:
        if self.down is None:
            log.warning("the database does not answer: %s; writes fail at once until it does", exc)
        self.down = exc
        if self._answering is not None:
            self._answering.clear()
        if self._probe is not None and (self._reviver is None or self._reviver.done()):
            self._reviver = asyncio.get_running_loop().create_task(self._revive(self._probe))

    async def _revive(self, probe: Callable[[], Awaitable[None]]) -> None:
        """Probe the database now and then until a write works again."""
        delay = REVIVE_FIRST
        while self.down is not None:
            await asyncio.sleep(delay)
            try:
                await probe()
            except StoreBusy as exc:
                self.down = exc
                delay = min(delay * 2, REVIVE_MAX)
                continue
            except Exception as exc:  # anything else: the database answered (the write itself was refused)
                log.warning("the database probe failed: %s", exc)
            self._came_back()

    def _came_back(self) -> None:
        """A write committed: the database answers."""
        if self.down is None:
            return
        log.warning("the database answers again")
        self.down = None
        if self._answering is not None:
            self._answering.set()

    async def answering(self) -> None:
        """Return once the database answers (at once when it does now)."""
        if self.down is None:
            return
        if self._answering is None:
            self._answering = asyncio.Event()
        await self._answering.wait()

    async def close(self, wait: float = CLOSE_WAIT) -> None:
        """Commit what is queued and what is being written, then stop the committer.

        A database that takes no write for ``wait`` seconds does not hold the shutdown: what is still queued is
        dropped (never shown, as after a crash; the tables come back from what was stored) and the stop goes on.
        """
        deadline = asyncio.get_running_loop().time() + wait
        while self._task is not None and not self._task.done() and (self._queue or self._writing):
            if asyncio.get_running_loop().time() > deadline:
                log.warning("the database took no write for %.0f s: %d writes not stored at the stop", wait,
                            len(self._queue) + int(bool(self._writing)))  # fmt: skip
                break
            await asyncio.sleep(0.002)
        for task in (self._task, self._reviver):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self._task = self._reviver = None
