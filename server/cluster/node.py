"""Cluster membership in Redis: this node's presence, cluster-wide table codes, and table leases (fencing tokens).

A ``Cluster`` is made of its parts: ``Leases`` (``leases``: codes and leases), ``Presence`` (``presence``: the
heartbeat), ``Listing`` (``listing``: open tables, seated players, sign-outs, the Play now lock); this module runs
their loops and the adoption of tables whose node went away.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..storage.opening import redacted, scrubbed
from ..storage.store import ClusterUnavailable, StoreBusy, StoreUnavailable
from . import scripts
from .leases import Leases
from .link import REDIS_ERRORS, log
from .listing import LISTING_EVERY, Listing
from .presence import HEARTBEAT, Presence

ADOPT_EVERY = 1.0  # seconds between looks for open tables whose node died (their holder's presence ran out)
STOP_WAIT = 3.0  # seconds a stop waits for a loop to end its step (redis-py can swallow a cancel inside a command)


class Cluster(Leases, Presence, Listing):
    """One node's view of the cluster: presence with counts, codes reserved across nodes, leases it renews."""

    def __init__(self, redis: Redis, prefix: str, node: str, lease_ms: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.lease_ms = lease_ms
        self.leases: dict[str, tuple[str, int]] = {}  # code -> (table id, lease number) of tables this node owns
        self.counts: Callable[[], tuple[int, int]] = lambda: (0, 0)  # (tables, connections), set by the app
        self.on_lost: Callable[[str], None] = lambda code: None  # the registry drops a table whose lease is gone
        self.adopt: Callable[[], Awaitable[int]] | None = None  # restores orphaned tables here (set by the app)
        self.listed: Callable[[], Awaitable[list]] | None = None  # this node's open tables (set by the app)
        self.seated: Callable[[], dict] | None = None  # this node's seated players' tables (set by the app)
        self.up = True
        self.epoch: str | None = None  # the Redis life this node last saw (see ``epoch_key``)
        # the self-fence (``writable``): no lease is held yet, so every one taken lives at least a lease time from now;
        # the presence is set by the first heartbeat, before anything is written
        self.renewed_until = time.monotonic() + lease_ms / 1000
        self.present_until = 0.0
        self.adopt_after = 0.0  # monotonic time before which no table is adopted (Redis just came back empty)
        self._tasks: list[asyncio.Task] = []  # releases under way
        self._loops: list[asyncio.Task] = []  # heartbeat and renewals
        self._stopping = asyncio.Event()  # set by ``close``: the loops end after their step
        self._publishing = asyncio.Lock()  # one list built and written at a time: the last written is the newest
        self._new_table = redis.register_script(scripts.NEW_TABLE)
        self._claim = redis.register_script(scripts.CLAIM)
        self._renew = redis.register_script(scripts.RENEW)
        self._release = redis.register_script(scripts.RELEASE)
        self._lookup = redis.register_script(scripts.LOOKUP)
        self._orphans = redis.register_script(scripts.ORPHANS)

    @classmethod
    async def open(cls, url: str, prefix: str, node: str, lease_ms: int) -> Cluster:
        """Connect to Redis at ``url``; refuse to start (``StoreUnavailable``) when it does not answer."""
        redis = Redis.from_url(
            url,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
            decode_responses=True,
            # a pooled connection that Redis closed (it restarted) fails once: try that command again at once
            retry=Retry(NoBackoff(), 2),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
        try:
            await redis.ping()
        except REDIS_ERRORS as exc:
            await redis.aclose()
            said = f"cannot connect to Redis at {redacted(url)}: {scrubbed(str(exc), url)}"  # its password masked
            raise StoreUnavailable(said) from exc
        cluster = cls(redis, prefix, node, lease_ms)
        await cluster.heartbeat()  # present before the tables it restores are written (and adopted by nobody else)
        return cluster

    async def lookup(self, code: str) -> tuple[str, str | None, bool] | None:
        """Where table ``code`` lives (``Leases.lookup``); None for a code Redis does not hold.

        ``ClusterUnavailable`` for a code Redis does not hold while it lost its keys a moment ago (it came back empty):
        the table's node sets them again within a third of a lease time; ask again then.
        """
        found = await super().lookup(code)
        if found is None and await self.keys_lost():
            raise ClusterUnavailable(f"Redis lost its keys a moment ago: table {code} is not placed yet")
        return found

    def _spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.append(task)
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task) -> None:
        if task in self._tasks:
            self._tasks.remove(task)

    async def _every(self, seconds: float, step: Callable[[], Any]) -> None:
        while not self._stopping.is_set():
            try:
                await step()
            except Exception:  # never let a bug stop the heartbeat or the renewals
                log.exception("cluster task failed")
            try:
                await asyncio.wait_for(self._stopping.wait(), seconds)
            except TimeoutError:
                pass

    async def _adopt(self) -> None:
        """Restore here the open tables nobody holds (their node died or let go), while Redis answers."""
        if self.adopt is None or not self.up or time.monotonic() < self.adopt_after:
            return
        try:
            adopted = await self.adopt()
        except StoreBusy:
            return  # the database does not answer: the tables wait for it
        except REDIS_ERRORS as exc:
            self.mark_down(exc)
            return
        if adopted:
            log.warning("adopted %d tables whose node went away", adopted)

    def start(self) -> None:
        """Start the heartbeat and the lease renewals (a third of the lease time apart)."""
        loop = asyncio.get_running_loop()
        self._loops = [
            loop.create_task(self._every(HEARTBEAT, self.heartbeat)),
            loop.create_task(self._every(self.lease_ms / 3000, self.renew)),
            loop.create_task(self._every(ADOPT_EVERY, self._adopt)),
            loop.create_task(self._every(LISTING_EVERY, self.publish_open)),
        ]

    async def close(self) -> None:
        """Stop the loops and releases under way; release every lease still held, keeping the codes; leave.

        The tables stay open in the database with their codes: another node adopts them at once.
        """
        self._stopping.set()  # asked to stop rather than cancelled: a cancel inside a command can be swallowed
        if self._loops:
            _, running = await asyncio.wait(self._loops, timeout=STOP_WAIT)
            for task in running:
                task.cancel()
            if running:
                await asyncio.wait(running, timeout=1.0)
                log.warning(
                    "%d cluster loops did not end their step within %.0f s at the stop", len(running), STOP_WAIT
                )
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=STOP_WAIT)
        for code in list(self.leases):
            table_id, lease = self.leases.pop(code)
            await self._release_keys(table_id, code, f"{self.node}#{lease}", keep_code=True)
        try:
            await self.redis.delete(self.node_key(self.node), self.open_key(self.node), self.seated_key(self.node))
        except REDIS_ERRORS:
            pass
        await self.redis.aclose()
