"""Connected clients and the one dispatcher for their messages; the handlers live in ``server.handlers``."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable
from typing import Any

from .. import allocator
from ..connection.client import Client
from ..handlers import HANDLERS, finding, identity
from ..handlers.services import Services
from ..storage.store import StoreBusy
from ..table.bundle import shared_hash
from ..table.errors import ProtocolError
from ..table.messages import ClientMessage, Hello, Pass, Play, Where
from .sockets import Headroom

log = logging.getLogger("hearts.server")
MOVES = frozenset({Pass.kind, Play.kind})  # the messages timed by hearts_move_seconds


class Hub(Services):
    """Checks who may do what and hands each message to its handler; every change then goes through ``changed``."""

    headroom: Headroom | None = None  # the app's connection count against the open-file limit (set by build_node)

    def disconnected(self, client: Client) -> None:
        """A connection closed: its seat stays reserved for the grace period."""
        self.clients.discard(client)
        if client.remote is not None:
            assert self.relay is not None
            self.relay.gone(client)
            return
        table = self.tables.table_of(client)
        if table is None:
            return
        self.tables.release(client.id)
        seat = table.presence.seat_of(client.id)
        if seat is not None:
            table.seating.disconnect(seat, time.monotonic())
        else:
            table.seating.unwatch(client.id)
        self.changed(table)

    async def handle(self, client: Client, msg: ClientMessage) -> None:
        """Dispatch one checked message; raise ProtocolError to refuse it (``server_busy`` while the store is)."""
        kind = msg.kind
        if msg.where is Where.CONNECTION:  # ping: answered here, before hello too, whichever node has the table
            await _done(HANDLERS[kind](self, client, msg))
            return
        if client.player_id is None and not isinstance(msg, Hello):
            raise ProtocolError("hello_first")
        if client.remote is not None and not isinstance(msg, Hello):
            assert self.relay is not None
            self.relay.forward(client, client.remote, msg)  # the connection plays at another node's table
            return
        try:
            named = finding.naming_a_table(msg)
            at = self.tables.table_of(client)
            if named is not None and named.code not in self.tables.by_code and at is None:
                if await finding.locate(self, client, named):
                    return
                at = self.tables.table_of(client)
            if at is not None:
                at.check_command(kind)  # e.g. no host command at a Play now table
            timed = kind in MOVES and self.metrics.enabled
            started = time.perf_counter() if timed else 0.0
            if timed:
                self.tables.last_commit = None
            await _done(HANDLERS[kind](self, client, msg))
            if timed:
                self._moved(started)
        except StoreBusy:
            raise ProtocolError("server_busy") from None

    def _moved(self, started: float) -> None:
        """Time a move (``hearts_move_seconds``) to its messages written: once its change is stored, else now."""
        committed = self.tables.last_commit
        if committed is None:  # nothing to store: its messages went out in the change
            self.metrics.move_seconds.observe(time.perf_counter() - started)
        else:  # called after the delivery's own callback, which writes the messages (callbacks run in order)
            committed.add_done_callback(functools.partial(self._delivered, started))

    def _delivered(self, started: float, committed: asyncio.Future) -> None:
        """A move's change is stored and its messages written: time it (a move whose commit failed is not shown)."""
        if not committed.cancelled() and committed.exception() is None:
            self.metrics.move_seconds.observe(time.perf_counter() - started)

    def at_table(self, client: Client) -> bool:
        """True while ``client`` sits at or watches a table here."""
        return self.tables.table_of(client) is not None

    def signed_out(self, player_id: int, device: str) -> None:
        """Device ``device`` no longer holds ``player_id`` (signed out on another node): close it here too."""
        identity.signed_out(self, player_id, device)

    def code_used(self, player_id: int, notice: dict[str, Any]) -> None:
        """One of ``player_id``'s device codes was used on another node: tell the player's pages here."""
        identity.code_used(self, player_id, notice)

    async def table_info_anywhere(self, code: str, address: str, seat_token: str = "") -> tuple[int, dict[str, Any]]:
        """``GET /api/tables/{code}`` in a cluster: the owner's answer for a table another node holds."""
        return await finding.table_info_anywhere(self, code, address, seat_token)

    def table_info(self, code: str, address: str, seat_token: str = "") -> tuple[int, dict[str, Any]]:
        """``GET /api/tables/{code}``: (HTTP status, body); unknown codes and wrong seat tokens count as guesses."""
        return finding.table_info(self, code, address, seat_token)

    def health(self) -> dict[str, Any]:
        """Return the ``/healthz`` body (live memory, for leak watch: ``server.allocator.live_memory``)."""
        return {
            "status": "ok",
            "engine": shared_hash(),  # the shared/ files this server runs (the offline worker reports its own)
            "store": self.store.kind,
            "node": self.cluster.node if self.cluster is not None else None,
            "tables": len(self.tables),
            "connections": len(self.clients),
            "allocator": allocator.in_use(),
            **allocator.live_memory(),
            "hard_player": self.thinker.health(),
            "connection_limit": self.headroom.limit if self.headroom is not None else None,
            "under_way": self.tables.quiet(),
            "store_answers": self.store.down is None,
            "parked_tables": len(self.tables.parked),
        }

    async def shutdown(self) -> None:
        """Stop timers, computer moves and reviews; wait until every logged change is stored."""
        for task in list(self.tasks):
            task.cancel()
        self.reviewer.close()
        await self.tables.shutdown()


async def _done(result: Awaitable[None] | None) -> None:
    """Wait for a handler that is a coroutine (most answer at once)."""
    if result is not None:
        await result
