"""Write-ahead delivery: a table's messages leave only once every log entry logged before them is stored.

Each change hands its entries to the store (group commit) and queues its messages behind the commit; a callback on
the commit delivers them, a table's messages strictly in order. A commit that fails delivers nothing more of that
table: what was not stored is never shown, and the owner (``live.registry``) is told. A step names each connection by
its id: the delivery looks up the connection it is written to (``reach``, the registry's map) as the messages are
queued, so a connection that leaves the table meanwhile still gets what was said to it before. What a change's step
showed each connection is marked in the table's presence as its messages are queued, in order: the next step's cut
is made against it.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..connection.client import Client
from ..storage.store import Store, TableWrite
from ..table.presence import ConnectionId
from ..table.seat_view import Shown
from ..table.step import mark_shown
from ..table.table import Table

Outgoing = list[tuple[Client, dict[str, Any] | str]]


class Delivery:
    """Per table: messages queued behind the log entries logged before them, delivered once those are stored."""

    def __init__(
        self,
        store: Store,
        reach: Callable[[ConnectionId], Client | None],
        failed: Callable[[Table, BaseException | None], None],
        lease_of: Callable[[str], int | None] | None = None,
        writable: Callable[[], bool] | None = None,
    ) -> None:
        self.store = store
        self.reach = reach  # the connection a step's connection id names (None: it is at no table here any more)
        self.failed = failed  # called once when a commit of a table fails (it then waits for nothing more)
        self.lease_of = lease_of  # in a cluster: the table's lease number, written with each append (fencing)
        self.writable = writable  # in a cluster: whether the node may still write under its leases (self-fencing)
        self._outgoing: dict[str, Outgoing] = {}  # by table code: queued by ``send`` until the table's next flush
        # per table code, flushes whose messages wait for their commit: (commit future or None, messages, table)
        self._waiting: dict[str, deque[tuple[asyncio.Future | None, Outgoing, Table]]] = {}

    def send(self, table: Table, client: Client, message: dict[str, Any] | str) -> None:
        """Queue ``message`` for ``client``: it goes out with the table's next flush, after what it logged."""
        self._outgoing.setdefault(table.code, []).append((client, message))

    def flush(
        self,
        table: Table,
        entries: list[tuple[int, str]],
        messages: Sequence[tuple[ConnectionId, dict[str, Any] | str]] = (),
        record: dict[str, Any] | None = None,
        shown: Sequence[Shown] = (),
    ) -> asyncio.Future | None:
        """Hand ``entries`` to the store; deliver what ``send`` queued, then ``messages``, once they are stored.

        ``messages`` name their connections by id (a step's); ``shown`` (the step's too) is marked in the table's
        presence now, as their messages are queued. Returns the commit of ``entries`` (None when there were none).
        """
        mark_shown(shown)
        outgoing = self._outgoing.pop(table.code, [])
        reach = self.reach
        for connection, message in messages:
            client = reach(connection)
            if client is not None:
                outgoing.append((client, message))
        waiting = self._waiting.get(table.code)
        if not entries and not waiting:
            for client, message in outgoing:
                client.push(message)
            return None
        committed = None
        if entries:
            write = TableWrite(
                table.table_id,
                table.code,
                entries,
                opened_at=table.opened_at if entries[0][0] == 1 else None,
                closed_at=time.time() if table.closed else None,
                finished=record,
                lease=self.lease_of(table.code) if self.lease_of is not None else None,
                valid=self.writable,
            )
            committed = self.store.submit(write)
        if waiting is None:
            waiting = self._waiting[table.code] = deque()
        waiting.append((committed, outgoing, table))
        if committed is None:
            self._drain(table.code)
        else:  # a callback, not a task per change: commits resolve in the order they were submitted
            committed.add_done_callback(partial(self._committed, table.code))
        return committed

    def _committed(self, code: str, done: asyncio.Future) -> None:
        """A commit finished: mark its error seen (``_drain`` acts on it, if the table still waits) and drain."""
        if not done.cancelled():
            done.exception()
        self._drain(code)

    def _drain(self, code: str) -> None:
        """Deliver a table's messages whose log is committed, oldest first; stop at the first still waiting."""
        waiting = self._waiting.get(code)
        while waiting:
            committed, outgoing, table = waiting[0]
            if committed is not None and not committed.done():
                return
            waiting.popleft()
            if committed is not None and (committed.cancelled() or committed.exception() is not None):
                self._waiting.pop(code, None)
                self.failed(table, committed.exception() if not committed.cancelled() else None)
                return
            for client, message in outgoing:
                client.push(message)
        self._waiting.pop(code, None)

    def forget(self, code: str) -> None:
        """Drop what waits for a table: what was not stored is never shown."""
        self._waiting.pop(code, None)
        self._outgoing.pop(code, None)

    @property
    def pending(self) -> int:
        """Changes whose messages still wait for their commit, over all tables."""
        return sum(len(w) for w in self._waiting.values())

    async def settle(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until every change waiting for its commit is delivered."""
        deadline = time.monotonic() + timeout
        while self._waiting and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
