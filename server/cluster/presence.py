"""Presence in Redis: each node's key with its counts, refreshed every heartbeat; Redis restarting empty noticed."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from .link import REDIS_ERRORS, ClusterView

HEARTBEAT = 1.0  # seconds between presence refreshes
PRESENCE_TTL = 3 * HEARTBEAT  # seconds the presence key lives after a refresh


class Presence:
    """The presence of this node (its counts of tables and connections) and the other nodes' as Redis holds them."""

    __slots__ = ("cluster",)

    def __init__(self, cluster: ClusterView) -> None:
        self.cluster = cluster

    async def heartbeat(self) -> None:
        """Refresh this node's presence key with its counts."""
        tables, connections = self.cluster.counts()
        body = json.dumps({"node": self.cluster.node, "tables": tables, "connections": connections, "at": time.time()})
        sent = time.monotonic()
        try:
            async with self.cluster.redis.pipeline(transaction=False) as pipe:
                pipe.set(self.cluster.node_key(self.cluster.node), body, px=int(PRESENCE_TTL * 1000))
                pipe.set(self.epoch_key, secrets.token_hex(8), nx=True)
                pipe.get(self.epoch_key)
                _, created, epoch = await pipe.execute()
        except REDIS_ERRORS as exc:
            self.cluster.mark_down(exc)
            return
        self.cluster.back()
        self.cluster.present_until = sent + PRESENCE_TTL
        if self.cluster.epoch is not None and (created or epoch != self.cluster.epoch):
            # Redis came back empty under us (a node's first look needs no pause: its start claimed what was free):
            # its owners have not set their leases and presence again yet; give them a lease
            # time before any table counts as orphaned (the database fence would keep it safe, but tables would move)
            self.cluster.adopt_after = time.monotonic() + self.cluster.lease_ms / 1000
        self.cluster.epoch = epoch

    async def keys_lost(self) -> bool:
        """Whether Redis lost its keys a moment ago (it came back empty): the nodes have not all set theirs again.

        True within a lease time of this node noticing a new Redis life (``epoch_key``), which this look may be.
        """
        epoch = await self.cluster.redis.get(self.epoch_key)
        if epoch is None or epoch != self.cluster.epoch:
            self.cluster.adopt_after = max(self.cluster.adopt_after, time.monotonic() + self.cluster.lease_ms / 1000)
            return True
        return time.monotonic() < self.cluster.adopt_after

    @property
    def epoch_key(self) -> str:
        """A random value set once per Redis life: when it changes, Redis restarted empty."""
        return f"{self.cluster.prefix}epoch"

    async def nodes(self) -> list[dict[str, Any]]:
        """Return the live nodes (their presence keys), by name."""
        keys = [key async for key in self.cluster.redis.scan_iter(match=self.cluster.node_key("*"), count=1000)]
        values = await self.cluster.redis.mget(keys) if keys else []
        found = [json.loads(v) for v in values if v]
        return sorted(found, key=lambda n: n["node"])

    async def alive(self, nodes: list[str]) -> dict[str, bool]:
        """Whether each of ``nodes`` still has its presence key."""
        async with self.cluster.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.exists(self.cluster.node_key(node))
            found = await pipe.execute()
        return {node: bool(n) for node, n in zip(nodes, found, strict=True)}
