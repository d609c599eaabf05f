"""What every handler works with: the node's tables, store, computer players, cluster links and shared checks."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..live.computer import Thinker
from ..live.lobby import Lobby
from ..live.registry import Tables
from ..live.reviews import Reviewer
from ..metrics import NO_METRICS, Metrics
from ..net.limits import Limits
from ..net.ratelimit import FailureLimiter
from ..players.devices import DeviceCodes
from ..players.names import Names
from ..storage.store import Store
from ..table.errors import ProtocolError
from ..table.table import Table

if TYPE_CHECKING:
    from ..cluster.node import Cluster
    from ..cluster.relay import Relay
    from ..net.client import Client
    from ..net.sockets import Headroom


class Services:
    """The collaborators a handler may use, made once per node; the hub adds the connections and the dispatch."""

    def __init__(
        self,
        config: Config,
        store: Store,
        thinker: Thinker,
        cluster: Cluster | None = None,
        metrics: Metrics = NO_METRICS,
    ) -> None:
        self.config = config
        self.store = store
        self.thinker = thinker
        self.cluster = cluster
        self.metrics = metrics  # this node's (server.metrics): the app's, with a registry of its own
        self.tables = Tables(config, store, thinker, cluster, metrics)
        self.clients: set[Client] = set()
        self.guesses = FailureLimiter(config.address_failures, config.code_window)
        self.limits = Limits(config)  # new players and tables, chat and reports, per address and per table
        self.daily_key = ""  # the store's secret for daily deals, loaded by the app before it serves
        self.relay: Relay | None = None  # in a cluster: the links to other nodes, set by the app
        self.reviewer = Reviewer(store, config.review_ms)
        self.devices = DeviceCodes(store)
        self.lobby = Lobby(self.tables, store, cluster)
        self.names = Names(config.blocked_names)
        self.tasks: set[asyncio.Task] = set()  # work beside the connections' messages (reviews, notices)
        self.headroom: Headroom | None = None  # the app's connection count against the open-file limit

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
