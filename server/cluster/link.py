"""What every part of a node's cluster view shares: the Redis connection, the key prefix, and Redis up or down."""

from __future__ import annotations

import asyncio
import logging

from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError

log = logging.getLogger("hearts.cluster")
REDIS_ERRORS = (RedisError, OSError, asyncio.TimeoutError)


class Link:
    """One node's link to Redis: its name, the key prefix, and whether Redis answers (said once when it changes)."""

    redis: Redis
    prefix: str
    node: str
    lease_ms: int
    up: bool
    _release: AsyncScript  # the RELEASE script (delete a key only while it holds our value)

    def node_key(self, node: str) -> str:
        """The presence key of ``node``."""
        return f"{self.prefix}node:{node}"

    def mark_down(self, exc: BaseException) -> None:
        """Redis failed: say so once; new tables are refused until it answers again."""
        if self.up:
            log.warning("Redis does not answer (%s): own tables play on, new tables are refused", exc)
        self.up = False

    def _back(self) -> None:
        if not self.up:
            log.warning("Redis answers again")
        self.up = True
