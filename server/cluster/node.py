"""Cluster membership in Redis: this node's presence, cluster-wide table codes, and table leases (fencing tokens).

A ``Cluster`` holds the node's state in Redis's eyes (its leases, its presence's times, the app's callbacks) and one
object per concern over it: ``codes`` (``leases.Leases``: codes and leases), ``presence`` (``presence.Presence``: the
heartbeat), ``listing`` (``listing.Listing``: open tables, seated players, sign-outs, the Play now lock). Its methods
hand each call to its concern; this module runs their loops and the adoption of tables whose node went away.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import AbstractAsyncContextManager
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..storage.store import ClusterUnavailable, StoreBusy, StoreUnavailable
from ..storage.urls import redacted, scrubbed
from . import scripts
from .leases import Leases
from .link import REDIS_ERRORS, log
from .listing import LISTING_EVERY, Listing
from .presence import HEARTBEAT, Presence

ADOPT_EVERY = 1.0  # seconds between looks for open tables whose node died (their holder's presence ran out)
STOP_WAIT = 3.0  # seconds a stop waits for a loop to end its step (redis-py can swallow a cancel inside a command)


class Cluster:
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
        self.release = redis.register_script(scripts.RELEASE)  # delete a key only while it holds our value
        self.codes = Leases(self)
        self.presence = Presence(self)
        self.listing = Listing(self)

    # ------------------------------------------------------------------ Redis up or down

    def node_key(self, node: str) -> str:
        """The presence key of ``node``."""
        return f"{self.prefix}node:{node}"

    def mark_down(self, exc: BaseException) -> None:
        """Redis failed: say so once; new tables are refused until it answers again."""
        if self.up:
            log.warning("Redis does not answer (%s): own tables play on, new tables are refused", exc)
        self.up = False

    def back(self) -> None:
        """Redis answered: say so once if it did not before."""
        if not self.up:
            log.warning("Redis answers again")
        self.up = True

    # ------------------------------------------------------------------ codes and leases (``codes``)

    def writable(self) -> bool:
        """Whether this node may still write its tables (``Leases.writable``: its self-fence)."""
        return self.codes.writable()

    def lease_of(self, code: str) -> int | None:
        """The lease number this node writes table ``code``'s log with (None: not owned here)."""
        return self.codes.lease_of(code)

    async def new_table(self, table_id: str, make_code: Callable[[], str]) -> tuple[str, int]:
        """Reserve a code unique across the cluster and take the new table's lease; return (code, lease)."""
        return await self.codes.new_table(table_id, make_code)

    async def claim(self, table_id: str, code: str, floor: int = 0) -> int | None:
        """Take the lease of a stored table nobody holds (restore); None when another node holds it."""
        return await self.codes.claim(table_id, code, floor)

    async def orphans(self, table_ids: list[str]) -> list[str]:
        """Of ``table_ids`` (not owned here), those nobody holds or whose holder's presence ran out."""
        return await self.codes.orphans(table_ids)

    def drop(self, code: str, lost: bool = False, keep_code: bool = False) -> None:
        """Stop renewing table ``code``; release its lease (and code, unless ``keep_code``) unless it went elsewhere."""
        self.codes.drop(code, lost, keep_code)

    def let_go(self, table_id: str, code: str, lease: int, keep_code: bool = False) -> None:
        """Release the lease ``claim`` took of stored table ``table_id`` that did not come back here."""
        self.codes.let_go(table_id, code, lease, keep_code)

    # ------------------------------------------------------------------ presence (``presence``)

    async def heartbeat(self) -> None:
        """Refresh this node's presence key with its counts."""
        await self.presence.heartbeat()

    async def nodes(self) -> list[dict[str, Any]]:
        """Return the live nodes (their presence keys), by name."""
        return await self.presence.nodes()

    async def alive(self, nodes: list[str]) -> dict[str, bool]:
        """Whether each of ``nodes`` still has its presence key."""
        return await self.presence.alive(nodes)

    # ------------------------------------------------------------------ what nodes publish (``listing``)

    async def publish_open(self) -> None:
        """Publish this node's open tables and seated players (``Listing.publish_open``)."""
        await self.listing.publish_open()

    def matching(self, kind: str) -> AbstractAsyncContextManager[bool]:
        """Hold the Play now matching lock of ``kind`` while matching (``Listing.matching``)."""
        return self.listing.matching(kind)

    @property
    def signed_out_channel(self) -> str:
        """The channel every node hears signed-out devices on."""
        return self.listing.signed_out_channel

    @property
    def code_used_channel(self) -> str:
        """The channel every node hears used device codes on."""
        return self.listing.code_used_channel

    async def sign_out(self, player_id: int, device: str) -> None:
        """Tell every node that ``device`` of ``player_id`` was signed out."""
        await self.listing.sign_out(player_id, device)

    async def code_used(self, player_id: int, notice: dict[str, Any]) -> None:
        """Tell every node that a device code of ``player_id`` was used."""
        await self.listing.code_used(player_id, notice)

    async def seats_elsewhere(self, player_id: int | None) -> list[dict[str, Any]]:
        """The tables of other nodes where ``player_id`` is seated."""
        return await self.listing.seats_elsewhere(player_id)

    async def open_elsewhere(self) -> list[dict[str, Any]]:
        """The open tables other nodes publish."""
        return await self.listing.open_elsewhere()

    # ------------------------------------------------------------------ the node's loops

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
        found = await self.codes.lookup(code)
        if found is None and await self.presence.keys_lost():
            raise ClusterUnavailable(f"Redis lost its keys a moment ago: table {code} is not placed yet")
        return found

    def spawn(self, coro: Coroutine[Any, Any, object]) -> None:
        """Run ``coro`` (a release) as a task the stop waits for."""
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
            loop.create_task(self._every(self.lease_ms / 3000, self.codes.renew)),
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
            await self.codes.release_keys(table_id, code, f"{self.node}#{lease}", keep_code=True)
        try:
            await self.redis.delete(
                self.node_key(self.node), self.listing.open_key(self.node), self.listing.seated_key(self.node)
            )
        except REDIS_ERRORS:
            pass
        await self.redis.aclose()
