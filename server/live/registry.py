"""The open tables of this node, and the one path every change takes: settle, store, deliver, schedule.

After any change the hub calls ``changed``: the table's pure step (``server.table.step.settle``) says what to
store, what to send and what to schedule; the delivery (``server.live.delivery``) stores the entries and sends the
messages once they are stored; the scheduler (``server.live.scheduler``) starts computer moves and timers. Tables
come back from the database through the restorer (``server.live.restore``). A write that fails drops the table
here, unshown, and parks it.

Which table a connection is at is the registry's to know (``place``, ``release``: the one map of it, by connection
id); where it sits there is the table's presence's (``server.table.presence``). A step names connections by id, and
the delivery writes to the connection this map gives for it.

A table has one key in memory, its code, in every map of tables here, in the delivery, the scheduler, the restorer
and the cluster's leases: every message that names a table names its code (a join, a resume, a relayed press, a
parked table brought back), and the codes of the open tables a node holds differ. A code is given again only
after its table closed, and a closed table leaves every map first (``forget``); what may outlive it (a commit, a
computer move, a rating read) holds the table itself and checks ``holds``. The table id (never reused) stays a
field of the table: the database and Redis key a table's log and lease by it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from ..config import Config
from ..connection.client import Client
from ..connection.closing import Close
from ..metrics import NO_METRICS, Metrics
from ..storage.store import LeaseExpired, LeaseLost, Store, StoreBusy
from ..table import ratings
from ..table.presence import ConnectionId
from ..table.seat_view import Moment
from ..table.state import Status
from ..table.step import settle
from ..table.table import Table
from .computer import Thinker
from .delivery import Delivery
from .leasing import Leasing
from .restore import Restorer
from .scheduler import Scheduler

log = logging.getLogger("hearts.server")


class Tables:
    """Open tables by code; every change goes through ``changed``, which stores the log before anyone sees it."""

    def __init__(
        self,
        config: Config,
        store: Store,
        thinker: Thinker,
        cluster: Leasing | None = None,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self.config = config
        self.store = store
        self.cluster = cluster  # in a cluster: this node's leases (each append carries the table's lease number)
        self.metrics = metrics  # leases lost here; adoptions in the restorer
        self.last_commit: asyncio.Future | None = None  # the commit of the latest change (the hub times moves by it)
        self.by_code: dict[str, Table] = {}
        self._moments: dict[str, Moment] = {}  # each table's last shared message parts
        self._present: dict[ConnectionId, tuple[Client, Table]] = {}  # by connection id: the table it is at here
        lease_of = cluster.lease_of if cluster is not None else None
        writable = cluster.writable if cluster is not None else None
        self.delivery = Delivery(store, self.client, self._storage_failed, lease_of, writable)
        self.restorer = Restorer(self.by_code, self.changed, store, cluster, config.grace, metrics)
        self.scheduler = Scheduler(self, thinker, config.bot_delay, config.idle_timeout)
        self._loads: set[asyncio.Task] = set()  # ratings being read for tables (cancelled at shutdown)
        self._load_numbers: dict[str, int] = {}  # per table code: the newest read of its ratings (older ones yield)

    # ------------------------------------------------------------------ lookup

    def get(self, code: str) -> Table | None:
        """Return the open table with ``code``."""
        return self.by_code.get(code)

    def holds(self, table: Table) -> bool:
        """True while ``table`` is the open table of its code here (not forgotten, not replaced)."""
        return self.by_code.get(table.code) is table

    def __len__(self) -> int:
        return len(self.by_code)

    def by_status(self) -> dict[str, int]:
        """How many open tables this node holds in each status (``hearts_tables``; read when scraped)."""
        counts = {status.value: 0 for status in Status}
        for table in self.by_code.values():
            counts[table.status] += 1
        return counts

    def add(self, table: Table) -> None:
        """Register a new table (its first entries are stored by the first ``changed``)."""
        self.by_code[table.code] = table

    @property
    def parked(self) -> dict[str, str]:
        """Open tables waiting for the database (code -> table id)."""
        return self.restorer.parked

    # ------------------------------------------------------------------ which table a connection is at

    def place(self, client: Client, table: Table) -> None:
        """``client`` is at ``table`` now (sitting or watching: where, the table's presence says)."""
        self._present[client.id] = (client, table)

    def release(self, connection: ConnectionId) -> Client | None:
        """The connection ``connection`` is at no table here any more; return it (None: it was at none)."""
        found = self._present.pop(connection, None)
        return found[0] if found is not None else None

    def table_of(self, client: Client) -> Table | None:
        """The table ``client`` sits at or watches here, or None."""
        found = self._present.get(client.id)
        return found[1] if found is not None else None

    def client(self, connection: ConnectionId) -> Client | None:
        """The connection with id ``connection`` at a table here (what a step's messages are written to), or None."""
        found = self._present.get(connection)
        return found[0] if found is not None else None

    # ------------------------------------------------------------------ the one path after every change

    def send(self, table: Table, client: Client, message: dict[str, Any] | str) -> None:
        """Send ``message`` to ``client`` once everything ``table`` logged so far is stored."""
        self.delivery.send(table, client, message)

    def deliver(self, table: Table) -> None:
        """Deliver what was ``send``-queued for ``table`` without a change of its own (chat), in order."""
        self.delivery.flush(table, table.take_unsaved())

    def changed(self, table: Table) -> None:
        """After any change: settle the table, store its entries, then deliver its messages; schedule what it asks."""
        if not self.holds(table):
            return
        now = time.monotonic()
        step = settle(table, now, time.time(), self._moments.get(table.code))
        self._moments[table.code] = step.moment
        committed = self.last_commit = self.delivery.flush(table, step.entries, step.messages, step.record, step.shown)
        if committed is not None and step.record is not None and step.record.get("rated"):
            # the new ratings are stored with the game: once it is, the table shows them (and how they moved)
            committed.add_done_callback(lambda done: self._stored_rated(table, done))
        if step.closed:
            self.forget(table)
            return
        self.scheduler.apply(table, step, now)

    def _stored_rated(self, table: Table, done: asyncio.Future) -> None:
        """A rated game's commit finished: once it is stored, show the table its new ratings."""
        if not done.cancelled() and done.exception() is None:
            self.load_ratings(table)

    def load_ratings(self, table: Table) -> None:
        """At an open table of a rated family: read the people's ratings from the store, then show them to the table.

        After a rated game also how each person's rating moved in it. Read again after every rated game is stored,
        so the table shows what the statistics show.
        """
        family = ratings.family_of(table.rules.to_json())
        if not table.listed or family is None:
            return

        number = self._load_numbers[table.code] = self._load_numbers.get(table.code, 0) + 1

        async def load() -> None:
            people = sorted({s.player_id for s in table.persons() if s.player_id is not None})
            game_id = table.replay["id"] if table.replay is not None and table.rated_seats else None
            try:
                known = await self.store.ratings_of(family, people)
                moves = await self.store.rating_moves(game_id) if game_id is not None else {}
            except StoreBusy:
                return
            if self._load_numbers.get(table.code) != number:
                return  # a later read is under way or done: it saw at least as much
            newcomer = ratings.shown(*ratings.PRIOR, 0)
            table.runtime.ratings = {p: known.get(p, newcomer) for p in people}
            table.runtime.rating_moves = (game_id, moves) if game_id is not None else None
            self.changed(table)

        task = asyncio.get_running_loop().create_task(load())
        self._loads.add(task)
        task.add_done_callback(self._loads.discard)

    def close(self, table: Table) -> None:
        """Close a table (idle): log it closed, tell its watchers, and forget it (its finished games stay)."""
        if not self.holds(table):
            return
        table.close(time.time())
        self.delivery.flush(table, table.take_unsaved(), table.closed_notices())
        self.forget(table)

    def forget(self, table: Table, lost: bool = False, keep_code: bool = False) -> None:
        """Drop a table from memory, with its timers, and release its connections (and its lease)."""
        if self.holds(table):  # a table forgotten before (closed, dropped) leaves its code to whoever has it now
            del self.by_code[table.code]
            if self.cluster is not None:
                self.cluster.drop(table.code, lost, keep_code)
            self.scheduler.forget(table.code)
            self._moments.pop(table.code, None)
            self._load_numbers.pop(table.code, None)
        for connection in table.connections():
            found = self._present.get(connection)
            if found is not None and found[1] is table:
                del self._present[connection]
        for watcher in table.presence.watchers():
            table.presence.go(watcher)

    # ------------------------------------------------------------------ a write that failed

    def _storage_failed(self, table: Table, exc: BaseException | None = None) -> None:
        """A write of the table failed: drop it here, what was not stored unshown; it comes back from the database.

        An old lease (another node owns the table now): 1012, the table lives there. The database does not answer
        (down, locked, full), or this node's leases were not renewed in time (Redis does not answer: it fences
        itself): 1013. Any other refusal: 1011. In the last three the table is parked: restored from what was stored
        once the database (and Redis) answers, by itself or when someone resumes.
        """
        if isinstance(exc, LeaseLost):
            self.metrics.leases_lost.inc()
            log.warning("table %s: the database refused an append from an old lease (%s)", table.code, exc)
            self._drop(table, Close.TABLE_MOVED)
            return
        if isinstance(exc, LeaseExpired):
            log.warning("table %s: its leases were not renewed in time (Redis does not answer); parked", table.code)
            why = Close.BUSY
        elif isinstance(exc, StoreBusy):
            log.warning("table %s: the database does not answer; parked until it does (%s)", table.code, exc)
            why = Close.BUSY
        else:
            log.error("table %s: the database refused its log (%s); parked, to come back from what was stored",
                      table.code, exc or "cancelled")  # fmt: skip
            why = Close.STORAGE_FAILED
        self.restorer.park(table)
        self._drop(table, why, park=True)

    def lease_lost(self, code: str) -> None:
        """Another node holds the lease of table ``code`` now: stop writing it, close its connections (1012)."""
        self.metrics.leases_lost.inc()
        table = self.by_code.get(code)
        if table is not None:
            self._drop(table, Close.TABLE_MOVED)

    def _drop(self, table: Table, why: Close, park: bool = False) -> None:
        """Forget a table without writing anything more, and close its connections for ``why``.

        ``park``: the table stays open in the database (its lease is released, its code kept) to be restored later.
        """
        clients = [c for connection in table.connections() if (c := self.client(connection)) is not None]
        self.delivery.forget(table.code)  # what was not stored is never shown
        self.forget(table, lost=not park, keep_code=park)
        for client in clients:
            client.close_soon(why)

    # ------------------------------------------------------------------ tables from the database

    async def restore(self) -> int:
        """Fold every open table's stored log back into a live table; a damaged log closes that table only."""
        restored = await self.restorer.restore_all()
        for table in restored:
            self.changed(table)
        return len(restored)

    async def fetch(self, code: str) -> Table | None:
        """Restore the open table ``code`` from the database on demand (see ``Restorer.fetch``)."""
        return await self.restorer.fetch(code)

    async def adopt_orphans(self) -> int:
        """In a cluster: restore the open tables nobody holds, or whose node died."""
        return await self.restorer.adopt_orphans()

    # ------------------------------------------------------------------ the end

    def quiet(self) -> dict[str, int]:
        """What is still under way (for ``/healthz``): computer moves, and changes waiting for their commit."""
        return {"computer_moves": self.scheduler.moves_under_way, "waiting_commits": self.delivery.pending}

    async def shutdown(self) -> None:
        """Cancel timers and computer moves; wait until every logged change is stored and delivered."""
        await self.restorer.close()
        await self.scheduler.shutdown()
        for task in list(self._loads):
            task.cancel()
        for table in list(self.by_code.values()):
            self.delivery.flush(table, table.take_unsaved())
        await self.delivery.settle(5.0)
