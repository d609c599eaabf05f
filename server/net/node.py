"""A node: ``build_node``, the one place its object graph is made, and ``run``, from its settings to its stop."""

from __future__ import annotations

import asyncio
import signal
import sys
from typing import TYPE_CHECKING

from ..cluster.relay import Relay
from ..config import Config
from ..connection.limits import Limits
from ..connection.ratelimit import FailureLimiter
from ..live.computer import Thinker
from ..live.lobby import Lobby
from ..live.registry import Tables
from ..live.reviews import Reviewer
from ..metrics import Metrics
from ..players.devices import DeviceCodes
from ..players.names import Names
from ..storage.opening import open_store
from ..storage.pruning import Pruner
from ..storage.store import Store
from .api import Api
from .app import App
from .hub import Hub
from .sockets import Headroom

if TYPE_CHECKING:
    from ..cluster.node import Cluster


def build_node(config: Config, store: Store, cluster: Cluster | None = None) -> App:
    """Make one node: its metrics, computer players, open tables, hub and handlers' services, API and app.

    ``hearts serve`` (``run``) and the tests' servers both call it. In a cluster the cluster's
    callbacks are wired to the tables and the lobby here, and the relay made; ``App.start`` starts them.
    """
    metrics = Metrics()  # this node's own registry (idle without prometheus-client), served at /metrics
    store.measure(metrics)
    thinker = Thinker(
        config.bot_workers,
        config.decision_timeout,
        config.inline_bots,
        hard_ms=config.hard_ms,
        floor_ms=config.hard_floor_ms,
        target_s=config.bot_target,
        metrics=metrics,
    )
    tables = Tables(config, store, thinker, cluster, metrics)
    hub = Hub(
        config,
        store,
        thinker,
        tables,
        lobby=Lobby(tables, store, cluster),
        reviewer=Reviewer(store, config.review_ms),
        devices=DeviceCodes(store),
        names=Names(config.blocked_names),
        limits=Limits(config),
        guesses=FailureLimiter(config.address_failures, config.code_window),
        cluster=cluster,
        metrics=metrics,
    )
    hub.headroom = Headroom()  # connections against the open-file limit
    metrics.watch(lambda: len(hub.clients), tables.by_status)
    api = Api(store, hub.reviewer, config.review_wait)
    api.lobby = hub.lobby

    def connected_players() -> set[int]:
        """The players with a connection to this node: never pruned, however long ago they said hello."""
        return {c.player_id for c in hub.clients if c.player_id is not None}

    pruner = Pruner(store, config.prune_days, config.prune_every, connected_players)
    if cluster is not None:
        cluster.counts = lambda: (len(tables), len(hub.clients))
        cluster.on_lost = tables.lease_lost
        cluster.adopt = tables.adopt_orphans
        cluster.listed = hub.lobby.local
        cluster.seated = hub.lobby.seated
        hub.relay = Relay(cluster, hub)
    return App(config, store, hub, api, pruner, hub.headroom, cluster)


async def open_cluster(config: Config) -> Cluster | None:
    """Join the cluster ``--redis`` names (a ``cluster.Cluster``), or None without ``--redis``."""
    if not config.redis:
        return None
    from ..cluster.node import Cluster

    return await Cluster.open(config.redis, config.redis_prefix, config.node, config.lease_ms)


async def run(config: Config, ready: asyncio.Future | None = None) -> None:
    """Run the server until SIGTERM or SIGINT (handled from the first moment: a stop during start-up is clean)."""
    loop = asyncio.get_running_loop()
    stop = loop.create_future()

    def request_stop(sig: signal.Signals) -> None:
        if not stop.done():
            print(f"Hartenjagen stopping on {sig.name}", file=sys.stderr, flush=True)
            stop.set_result(None)

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, request_stop, sig)
    app = None
    try:
        db = await open_store(config.db)
        try:
            cluster = await open_cluster(config)
        except BaseException:
            await db.close()
            raise
        app = build_node(config, db, cluster)
        await app.start()
        host, port = app.address()
        shown = f"[{host}]" if ":" in host else host
        node = f", node {config.node}" if cluster is not None else ""
        print(f"Hartenjagen serving on http://{shown}:{port}/ (store: {db.describe()}{node})", flush=True)
        if ready is not None:
            ready.set_result(app)
        await stop
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        if app is not None:
            await app.stop()
        print("Hartenjagen stopped", file=sys.stderr, flush=True)
