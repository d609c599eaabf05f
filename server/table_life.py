"""A table's life: its log written ahead of every message, restore on start, timers and computer moves."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections import deque
from typing import Any

from hartenjagen.shared.view import view_for

from .closing import Close
from .computer import Thinker, fallback, fits
from .config import Config
from .seat_view import Moment, seat_update_text
from .store import LeaseLost, Store, StoreBusy, StoredTable, TableWrite
from .stores import REDIS_ERRORS
from .table import DamagedLog, SeatKind, Table

log = logging.getLogger("hearts.server")
RECOVER_PAUSE = 0.5  # seconds between attempts to bring parked tables back (doubling up to RECOVER_MAX on errors)
RECOVER_MAX = 5.0


class Tables:
    """Open tables by code; every change goes through ``changed``, which stores the log before anyone sees it."""

    def __init__(self, config: Config, store: Store, thinker: Thinker, cluster: Any = None) -> None:
        self.config = config
        self.store = store
        self.thinker = thinker
        self.cluster = cluster  # in a cluster: this node's leases (each append carries the table's lease number)
        self.by_code: dict[str, Table] = {}
        self._outgoing: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
        # per table, changes whose messages wait for their commit: (commit future or None, messages, table)
        self._waiting: dict[str, deque[tuple[asyncio.Future | None, list, Table]]] = {}
        self._pending: dict[str, set[int]] = {}
        self._wake: dict[str, asyncio.TimerHandle] = {}
        self._idle: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task] = set()
        self._moments: dict[str, Moment] = {}  # each table's last shared message parts
        # open tables dropped from memory because a write of theirs failed (code -> table id): they come back from
        # what was stored, by themselves once the database answers, or sooner when someone resumes
        self.parked: dict[str, str] = {}
        self._recovering: asyncio.Task | None = None
        self._fetching: dict[str, asyncio.Future] = {}  # codes being restored on demand

    # ------------------------------------------------------------------ lookup

    def get(self, code: str) -> Table | None:
        """Return the open table with ``code``."""
        return self.by_code.get(code)

    def __len__(self) -> int:
        return len(self.by_code)

    def add(self, table: Table) -> None:
        """Register a new table (its first entries are stored by the first ``changed``)."""
        self.by_code[table.code] = table

    # ------------------------------------------------------------------ write-ahead delivery

    def send(self, table: Table, client: Any, message: dict[str, Any] | str) -> None:
        """Send ``message`` to ``client`` once everything ``table`` logged so far is stored."""
        self._outgoing.setdefault(table.table_id, []).append((client, message))

    def deliver(self, table: Table) -> None:
        """Deliver what was ``send``-queued for ``table`` without a change of its own (chat), in order."""
        self._flush(table)

    def _flush(self, table: Table, record: dict[str, Any] | None = None) -> None:
        """Hand the table's new entries to the store; deliver its queued messages once they are committed."""
        entries = table.take_unsaved()
        outgoing = self._outgoing.pop(table.table_id, [])
        waiting = self._waiting.get(table.table_id)
        if not entries and not waiting:
            for client, message in outgoing:
                client.push(message)
            return
        committed = None
        if entries:
            write = TableWrite(
                table.table_id,
                table.code,
                entries,
                opened_at=table.opened_at if entries[0][0] == 1 else None,
                closed_at=time.time() if table.closed else None,
                finished=record,
                lease=self.cluster.lease_of(table.table_id) if self.cluster is not None else None,
            )
            committed = self.store.submit(write)
        if waiting is None:
            waiting = self._waiting[table.table_id] = deque()
        waiting.append((committed, outgoing, table))
        if committed is None:
            self._drain(table.table_id)
        else:  # a callback, not a task per change: commits resolve in the order they were submitted
            committed.add_done_callback(lambda done, tid=table.table_id: self._committed(tid, done))

    def _committed(self, table_id: str, done: asyncio.Future) -> None:
        """A commit finished: mark its error seen (``_drain`` acts on it, if the table still waits) and drain."""
        if not done.cancelled():
            done.exception()
        self._drain(table_id)

    def _drain(self, table_id: str) -> None:
        """Deliver a table's messages whose log is committed, oldest first; stop at the first still waiting."""
        waiting = self._waiting.get(table_id)
        while waiting:
            committed, outgoing, table = waiting[0]
            if committed is not None and not committed.done():
                return
            waiting.popleft()
            if committed is not None and (committed.cancelled() or committed.exception() is not None):
                self._waiting.pop(table_id, None)
                self._storage_failed(table, committed.exception() if not committed.cancelled() else None)
                return
            for client, message in outgoing:
                client.push(message)
        self._waiting.pop(table_id, None)

    def _storage_failed(self, table: Table, exc: BaseException | None = None) -> None:
        """A write of the table failed: drop it here, what was not stored unshown; it comes back from the database.

        An old lease (another node owns the table now): 1012, the table lives there. The database does not answer
        (down, locked, full): 1013. Any other refusal: 1011. In both of the last two the table is parked: restored
        from what was stored once the database answers, by itself or when someone resumes.
        """
        if isinstance(exc, LeaseLost):
            log.warning("table %s: the database refused an append from an old lease (%s)", table.code, exc)
            self._drop(table, Close.TABLE_MOVED)
            return
        if isinstance(exc, StoreBusy):
            log.warning("table %s: the database does not answer; parked until it does (%s)", table.code, exc)
            why = Close.BUSY
        else:
            log.error("table %s: the database refused its log (%s); parked, to come back from what was stored",
                      table.code, exc or "cancelled")  # fmt: skip
            why = Close.STORAGE_FAILED
        self.parked[table.code] = table.table_id
        self._drop(table, why, park=True)
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

    def lease_lost(self, table_id: str) -> None:
        """Another node holds the table's lease now: stop writing it, close its connections (1012: come back)."""
        for table in list(self.by_code.values()):
            if table.table_id == table_id:
                self._drop(table, Close.TABLE_MOVED)

    def _drop(self, table: Table, why: Close, park: bool = False) -> None:
        """Forget a table without writing anything more, and close its connections for ``why``.

        ``park``: the table stays open in the database (its lease is released, its code kept) to be restored later.
        """
        clients = [s.client for s in table.seats if s.client is not None] + list(table.watchers)
        self._waiting.pop(table.table_id, None)  # what was not stored is never shown
        self._outgoing.pop(table.table_id, None)
        self.forget(table, lost=not park, keep_code=park)
        for client in clients:
            client.close_soon(why)

    # ------------------------------------------------------------------ restore on demand

    async def fetch(self, code: str) -> Table | None:
        """Restore the open table ``code`` from the database (its node died, or it was parked); None if not there.

        In a cluster the table's lease is claimed first (None when a live node holds it). Raises ``StoreBusy``.
        """
        if code in self.by_code:
            return self.by_code[code]
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
        if stored.code in self.by_code:
            return self.by_code[stored.code]
        if self.cluster is not None and not await self._claim(stored):
            return None
        self.store.resume_table(stored.table_id)  # from here on its log is what was stored: writes may follow
        try:
            table = await self._restore_one(stored, time.monotonic())
        except BaseException:
            if self.cluster is not None:
                self.cluster.drop(stored.table_id, keep_code=True)
            raise
        if table is None or table.code in self.by_code:
            if self.cluster is not None:
                self.cluster.drop(stored.table_id)
            return self.by_code.get(stored.code)
        self.parked.pop(table.code, None)
        self.by_code[table.code] = table
        log.info("table %s restored from the database", table.code)
        self.changed(table)
        return table

    async def adopt_orphans(self) -> int:
        """In a cluster: restore the open tables nobody holds, or whose node died (its presence ran out)."""
        open_ids = await self.store.open_table_ids()
        mine = {t.table_id for t in self.by_code.values()}
        codes = {table_id: code for table_id, code in open_ids if table_id not in mine}
        if not codes:
            return 0
        adopted = 0
        for table_id in await self.cluster.orphans(list(codes)):
            code = codes[table_id]
            if code in self.by_code or code in self._fetching:
                continue
            if await self.fetch(code) is not None:
                adopted += 1
        return adopted

    # ------------------------------------------------------------------ the one path after every change

    def changed(self, table: Table) -> None:
        """After any change: away marks, next deal, timers, recording, store, broadcast, computer moves."""
        if self.by_code.get(table.code) is not table:
            return
        now = time.monotonic()
        table.mark_away(now, self.config.grace)
        table.maybe_deal()
        table.refresh_deadline(now)
        record = table.finish()
        before = self._moments.get(table.code)
        moment = self._moments[table.code] = Moment(table, before)  # built once, cut for each seat
        if before is not None:
            before.before = None  # keep one step of history, not a chain
        for seat in table.seats:
            client = seat.client
            if client is not None:
                message = seat_update_text(table, client, moment)
                if message is not None:
                    self.send(table, client, message)
        for client in table.watchers:
            message = seat_update_text(table, client, moment)
            if message is not None:
                self.send(table, client, message)
        if not table.humans():
            table.close()
            self._dismiss_watchers(table)
            self._flush(table, record)
            self.forget(table)
            return
        self._flush(table, record)
        self._schedule_bots(table)
        self._schedule_wake(table, now)
        self._schedule_idle(table)

    def close(self, table: Table) -> None:
        """Close a table: log it closed and forget it (its finished games stay)."""
        if self.by_code.get(table.code) is not table:
            return
        table.close()
        self._dismiss_watchers(table)
        self._flush(table)
        self.forget(table)

    def _dismiss_watchers(self, table: Table) -> None:
        """A closing table tells its watchers (``left`` with reason ``closed``) after what they were shown."""
        for client in table.watchers:
            self.send(table, client, {"type": "left", "code": table.code, "reason": "closed"})

    def forget(self, table: Table, lost: bool = False, keep_code: bool = False) -> None:
        """Drop a table from memory, with its timers, and unseat its connections (and release its lease)."""
        if self.by_code.get(table.code) is table:
            del self.by_code[table.code]
        if self.cluster is not None:
            self.cluster.drop(table.table_id, lost, keep_code)
        for handles in (self._wake, self._idle):
            handle = handles.pop(table.code, None)
            if handle is not None:
                handle.cancel()
        self._pending.pop(table.code, None)
        self._moments.pop(table.code, None)
        for seat in table.seats:
            if seat.client is not None and seat.client.table is table:
                seat.client.table = seat.client.seat = None
        for client in table.watchers:
            if client.table is table:
                client.table = client.seat = None
        table.watchers.clear()

    # ------------------------------------------------------------------ restore

    async def restore(self) -> int:
        """Fold every open table's stored log back into a live table; a damaged log closes that table only."""
        now = time.monotonic()
        count = 0
        stored_tables = await self.store.open_tables()
        gc.disable()  # folding creates many small objects that all live on: collecting meanwhile only costs time
        try:
            for stored in stored_tables:
                if self.cluster is not None and not await self._claim(stored):
                    continue  # another live node owns it
                table = await self._restore_one(stored, now)
                if table is None and self.cluster is not None:
                    self.cluster.drop(stored.table_id)
                if table is not None:
                    self.by_code[table.code] = table
                    count += 1
        finally:
            gc.enable()
        for table in list(self.by_code.values()):
            self.changed(table)
        return count

    async def _claim(self, stored: StoredTable) -> bool:
        """In a cluster: take the lease of a stored table nobody holds, numbered above the database's newest."""
        floor = await self.store.newest_lease(stored.table_id)
        return await self.cluster.claim(stored.table_id, stored.code, floor) is not None

    async def _restore_one(self, stored: StoredTable, now: float) -> Table | None:
        """Fold one stored log; a damaged one is closed in the store and logged by its code (only that table)."""
        try:
            if stored.gaps:
                raise DamagedLog("entries are missing from the log")
            table = Table.restore(stored.table_id, stored.entries, grace=self.config.grace)
            if table.code != stored.code or table.code in self.by_code:
                raise DamagedLog(f"the log is for table {table.code}, stored as {stored.code}")
        except DamagedLog as exc:
            log.error("table %s (%s) could not be restored and stays closed: %s", stored.code, stored.table_id, exc)
            await self._mark_damaged(stored, str(exc))
            return None
        except Exception as exc:  # a fold that fails in a way nobody foresaw still costs that one table only
            log.exception("table %s (%s) could not be restored and stays closed", stored.code, stored.table_id)
            await self._mark_damaged(stored, f"{type(exc).__name__}: {exc}")
            return None
        table.restored(now)
        return table

    async def _mark_damaged(self, stored: StoredTable, why: str) -> None:
        """Close a damaged table in the store; while the database takes no writes it stays open there for later."""
        try:
            await self.store.mark_damaged(stored.table_id, why)
        except StoreBusy as exc:
            log.warning("table %s: not marked damaged yet, the database does not answer (%s)", stored.code, exc)

    # ------------------------------------------------------------------ computer players

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _schedule_bots(self, table: Table) -> None:
        pending = self._pending.setdefault(table.code, set())
        for s in table.auto_seats():
            if s not in pending:
                pending.add(s)
                self._spawn(self._computer_move(table, s))

    async def _computer_move(self, table: Table, s: int) -> None:
        try:
            key = table.current_key()
            seat = table.seats[s]
            level = seat.level if seat.kind == SeatKind.BOT else table.bot_level
            for_human = seat.kind == SeatKind.HUMAN
            view = view_for(table.game, s)
            thinking = asyncio.ensure_future(self.thinker.decide(level, view))  # thinks during the pause
            try:
                if self.config.bot_delay > 0:
                    await asyncio.sleep(self.config.bot_delay)
                intent = await thinking
            finally:
                thinking.cancel()  # the table went away meanwhile: a decision still queued is dropped
            if self.by_code.get(table.code) is not table or table.current_key() != key or s not in table.auto_seats():
                return  # the table moved on (or the person came back) while the computer thought
            if not fits(intent, view):
                log.warning("computer %s chose %r at seat %s; playing a simple legal move", level, intent, s)
                intent = fallback(view)
            table.act(s, intent, auto=for_human)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer move failed at table %s seat %s", table.code, s)
        finally:
            self._pending.get(table.code, set()).discard(s)
            self.changed(table)

    # ------------------------------------------------------------------ timers

    def _schedule_wake(self, table: Table, now: float) -> None:
        handle = self._wake.pop(table.code, None)
        if handle is not None:
            handle.cancel()
        times = [table.deadline] if table.deadline is not None else []
        for s in table.humans():
            if s.client is None and not s.away and s.disconnected_at is not None:
                times.append(s.disconnected_at + self.config.grace)
        if times:
            delay = max(0.0, min(times) - now) + 0.01
            self._wake[table.code] = asyncio.get_running_loop().call_later(delay, self._wake_up, table)

    def _wake_up(self, table: Table) -> None:
        self._wake.pop(table.code, None)
        table.expire_timer(time.monotonic())
        self.changed(table)

    def _schedule_idle(self, table: Table) -> None:
        handle = self._idle.get(table.code)
        if table.connected_humans():
            if handle is not None:
                handle.cancel()
                del self._idle[table.code]
        elif handle is None:
            loop = asyncio.get_running_loop()
            self._idle[table.code] = loop.call_later(self.config.idle_timeout, self.close, table)

    async def shutdown(self) -> None:
        """Cancel timers and computer moves; wait until every logged change is stored and delivered."""
        if self._recovering is not None:
            self._recovering.cancel()
            await asyncio.gather(self._recovering, return_exceptions=True)
        for handles in (self._wake, self._idle):
            for handle in handles.values():
                handle.cancel()
            handles.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for table in list(self.by_code.values()):
            self._flush(table)
        deadline = time.monotonic() + 5
        while self._waiting and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
