"""What every part of a node's cluster view shares: the errors that mean Redis is down, the log, the cluster's state.

``ClusterView`` is what ``Leases``, ``Presence`` and ``Listing`` use of ``node.Cluster``, so they do not import it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

log = logging.getLogger("hearts.cluster")
REDIS_ERRORS = (RedisError, OSError, asyncio.TimeoutError)


class ClusterView(Protocol):
    """The node's cluster state and the few calls its parts share; ``node.Cluster`` is the one that has them."""

    redis: Redis
    prefix: str
    node: str
    lease_ms: int
    leases: dict[str, tuple[str, int]]  # code -> (table id, lease number) of tables this node owns
    counts: Callable[[], tuple[int, int]]
    on_lost: Callable[[str], None]
    listed: Callable[[], Awaitable[list]] | None
    seated: Callable[[], dict] | None
    epoch: str | None
    renewed_until: float
    present_until: float
    adopt_after: float
    release: AsyncScript

    def node_key(self, node: str) -> str:
        """The presence key of ``node``."""

    def mark_down(self, exc: BaseException) -> None:
        """Redis failed."""

    def back(self) -> None:
        """Redis answered."""

    def spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        """Run ``coro`` as a task the stop waits for."""
