"""What every handler works with: the node's tables, store, computer players, cluster links and shared checks."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..connection.limits import Limits
from ..connection.ratelimit import FailureLimiter
from ..live.computer import Thinker
from ..live.lobby import Lobby
from ..live.registry import Tables
from ..live.reviews import Reviewer
from ..metrics import NO_METRICS, Metrics
from ..players.devices import DeviceCodes
from ..players.names import Names
from ..storage.store import Store
from ..table.errors import ProtocolError
from ..table.table import Table

if TYPE_CHECKING:
    from ..cluster.node import Cluster
    from ..cluster.relay import Relay
    from ..connection.client import Client


class Services:
    """The collaborators a handler may use, made once per node; the hub adds the connections and the dispatch."""

    def __init__(
        self,
        config: Config,
        store: Store,
        thinker: Thinker,
        tables: Tables,
        lobby: Lobby,
        reviewer: Reviewer,
        devices: DeviceCodes,
        names: Names,
        limits: Limits,
        guesses: FailureLimiter,
        cluster: Cluster | None = None,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        """Hold what ``server.net.node.build_node`` made for this node (the one place it is made)."""
        self.config = config
        self.store = store
        self.thinker = thinker
        self.cluster = cluster
        self.metrics = metrics  # this node's (server.metrics): the app's, with a registry of its own
        self.tables = tables
        self.clients: set[Client] = set()
        self.guesses = guesses  # unknown codes and wrong seat tokens, per connection and address
        self.limits = limits  # new players and tables, chat and reports, per address and per table
        self.daily_key = ""  # the store's secret for daily deals, loaded by the app before it serves
        self.relay: Relay | None = None  # in a cluster: the links to other nodes (build_node sets them)
        self.reviewer = reviewer
        self.devices = devices
        self.lobby = lobby
        self.names = names
        self.tasks: set[asyncio.Task] = set()  # work beside the connections' messages (reviews, notices)

    def changed(self, table: Table) -> None:
        """After any change: store the table's log, then broadcast (see ``Tables.changed``)."""
        self.tables.changed(table)

    def spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        """Run ``coro`` beside the connection's messages (cancelled at shutdown with the reviews)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def guessing(self, client: Client) -> bool:
        """Return True while this connection, or its address, has failed too often lately."""
        return client.guesses.blocked("") or self.guesses.blocked(client.address)

    def failed(self, client: Client, code: str, **params: Any) -> ProtocolError:
        """Count a wrong code or token against the connection and its address; return the refusal to raise."""
        if self.guessing(client):
            return ProtocolError("rate_limited")
        client.guesses.fail("")
        self.guesses.fail(client.address)
        return ProtocolError(code, **params)
