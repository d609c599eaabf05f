"""Cluster membership in Redis: this node's presence, cluster-wide table codes, and table leases (fencing tokens)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..storage.store import ClusterUnavailable, StoreBusy, StoreUnavailable

log = logging.getLogger("hearts.cluster")
REDIS_ERRORS = (RedisError, OSError, asyncio.TimeoutError)
HEARTBEAT = 1.0  # seconds between presence refreshes; the presence key lives 3 heartbeats
ADOPT_EVERY = 1.0  # seconds between looks for open tables whose node died (their holder's presence ran out)
LISTING_EVERY = 1.0  # seconds between publishing this node's open tables (the start page reads every node's)
STOP_WAIT = 3.0  # seconds a stop waits for a loop to end its step (redis-py can swallow a cancel inside a command)
MATCH_LOCK_MS = 2000  # milliseconds a Play now matching lock lives at most (its node died holding it)
MATCH_LOCK_WAIT = 2.5  # seconds a press waits for that lock before it matches without it
MATCH_LOCK_POLL = 0.01  # seconds between tries to take the lock

# reserve a new code (SET NX) and take the table's lease (SET NX PX) with a fresh number from INCR, atomically
NEW_TABLE = """
if redis.call('set', KEYS[1], ARGV[1], 'NX') == false then return 0 end
local n = redis.call('incr', KEYS[3])
redis.call('set', KEYS[2], ARGV[2] .. '#' .. n, 'PX', ARGV[3])
return n
"""
# take the lease of an existing table if nobody holds it, or its holder is gone (its presence key ran out), or the
# holder is an earlier life of this node; the number is above ``floor`` (the database's newest). Safe even when
# the holder is only paused: the database refuses its appends from the older number (fencing).
CLAIM = """
local v = redis.call('get', KEYS[1])
if v then
  local holder = string.match(v, '^(.*)#')
  if holder ~= ARGV[1] and redis.call('exists', ARGV[5] .. 'node:' .. holder) == 1 then return 0 end
end
local n = redis.call('incr', KEYS[3])
if n <= tonumber(ARGV[4]) then n = tonumber(ARGV[4]) + 1; redis.call('set', KEYS[3], n) end
redis.call('set', KEYS[1], ARGV[1] .. '#' .. n, 'PX', ARGV[2])
redis.call('set', KEYS[2], ARGV[3], 'NX')
return n
"""
# where a code's table lives: {} (no such code), {table_id} (nobody holds it), {table_id, holder, holder alive 0/1}
LOOKUP = """
local id = redis.call('get', KEYS[1])
if not id then return {} end
local v = redis.call('get', ARGV[1] .. 'lease:' .. id)
if not v then return {id} end
local holder = string.match(v, '^(.*)#')
return {id, holder, redis.call('exists', ARGV[1] .. 'node:' .. holder)}
"""
# of the given tables (KEYS: their lease keys), the ones nobody holds or whose holder is gone (1-based positions)
ORPHANS = """
local out = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('get', key)
  if not v then table.insert(out, i)
  else
    local holder = string.match(v, '^(.*)#')
    if holder ~= ARGV[2] and redis.call('exists', ARGV[1] .. 'node:' .. holder) == 0 then table.insert(out, i) end
  end
end
return out
"""
# renew a lease we hold; a lease that vanished (Redis restarted empty) is set again; another holder: lost (0)
RENEW = """
local v = redis.call('get', KEYS[1])
if v == false then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
elseif v ~= ARGV[1] then return 0
else redis.call('pexpire', KEYS[1], ARGV[2]) end
redis.call('set', KEYS[2], ARGV[3], 'NX')
return 1
"""
# delete a key only while it holds our value
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
return 1
"""


class Cluster:
    """One node's view of the cluster: presence with counts, codes reserved across nodes, leases it renews."""

    def __init__(self, redis: Redis, prefix: str, node: str, lease_ms: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.lease_ms = lease_ms
        self.leases: dict[str, tuple[str, int]] = {}  # table_id -> (code, lease number) of tables this node owns
        self.counts: Callable[[], tuple[int, int]] = lambda: (0, 0)  # (tables, connections), set by the app
        self.on_lost: Callable[[str], None] = lambda table_id: None  # the hub drops a table whose lease is gone
        self.adopt: Callable[[], Awaitable[int]] | None = None  # restores orphaned tables here (set by the app)
        self.listed: Callable[[], Awaitable[list]] | None = None  # this node's open tables (set by the app)
        self.seated: Callable[[], dict] | None = None  # this node's seated players' tables (set by the app)
        self.up = True
        self.epoch: str | None = None  # the Redis life this node last saw (see ``epoch_key``)
        self.adopt_after = 0.0  # monotonic time before which no table is adopted (Redis just came back empty)
        self._tasks: list[asyncio.Task] = []  # releases under way
        self._loops: list[asyncio.Task] = []  # heartbeat and renewals
        self._stopping = asyncio.Event()  # set by ``close``: the loops end after their step
        self._publishing = asyncio.Lock()  # one list built and written at a time: the last written is the newest
        self._new_table = redis.register_script(NEW_TABLE)
        self._claim = redis.register_script(CLAIM)
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)
        self._lookup = redis.register_script(LOOKUP)
        self._orphans = redis.register_script(ORPHANS)

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
            raise StoreUnavailable(f"cannot connect to Redis at {url}: {exc}") from exc
        return cls(redis, prefix, node, lease_ms)

    # ------------------------------------------------------------------ keys

    def node_key(self, node: str) -> str:
        """The presence key of ``node``."""
        return f"{self.prefix}node:{node}"

    def code_key(self, code: str) -> str:
        """The key that reserves table code ``code`` (value: the table id)."""
        return f"{self.prefix}code:{code}"

    def lease_key(self, table_id: str) -> str:
        """The lease key of table ``table_id`` (value: ``node#lease``)."""
        return f"{self.prefix}lease:{table_id}"

    @property
    def seq_key(self) -> str:
        """The counter that numbers leases (fencing tokens)."""
        return f"{self.prefix}lease_seq"

    def _value(self, table_id: str) -> str:
        return f"{self.node}#{self.leases[table_id][1]}"

    # ------------------------------------------------------------------ tables

    def lease_of(self, table_id: str) -> int | None:
        """The lease number this node writes ``table_id``'s log with (None: not owned here)."""
        held = self.leases.get(table_id)
        return held[1] if held is not None else None

    async def new_table(self, table_id: str, make_code: Callable[[], str]) -> tuple[str, int]:
        """Reserve a code unique across the cluster and take the new table's lease; return (code, lease)."""
        for _ in range(20):
            code = make_code()
            keys = [self.code_key(code), self.lease_key(table_id), self.seq_key]
            try:
                lease = await self._new_table(keys=keys, args=[table_id, self.node, self.lease_ms])
            except REDIS_ERRORS as exc:
                self.mark_down(exc)
                raise ClusterUnavailable(str(exc)) from exc
            self._back()
            if lease:
                self.leases[table_id] = (code, int(lease))
                return code, int(lease)
        raise ClusterUnavailable("no free table code found")

    async def claim(self, table_id: str, code: str, floor: int = 0) -> int | None:
        """Take the lease of a stored table nobody holds (restore); None when another node holds it."""
        keys = [self.lease_key(table_id), self.code_key(code), self.seq_key]
        lease = await self._claim(keys=keys, args=[self.node, self.lease_ms, table_id, floor, self.prefix])
        if not lease:
            return None
        self.leases[table_id] = (code, int(lease))
        return int(lease)

    async def lookup(self, code: str) -> tuple[str, str | None, bool] | None:
        """Where table ``code`` lives: ``(table_id, holder or None, holder alive)``; None for an unknown code."""
        found = await self._lookup(keys=[self.code_key(code)], args=[self.prefix])
        if not found:
            return None
        if len(found) == 1:
            return found[0], None, False
        return found[0], found[1], bool(found[2])

    async def orphans(self, table_ids: list[str]) -> list[str]:
        """Of ``table_ids`` (not owned here), those nobody holds or whose holder's presence ran out."""
        found: list[str] = []
        for start in range(0, len(table_ids), 500):
            chunk = table_ids[start : start + 500]
            places = await self._orphans(keys=[self.lease_key(t) for t in chunk], args=[self.prefix, self.node])
            found += [chunk[i - 1] for i in places]
        return found

    async def alive(self, nodes: list[str]) -> dict[str, bool]:
        """Whether each of ``nodes`` still has its presence key."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.exists(self.node_key(node))
            found = await pipe.execute()
        return {node: bool(n) for node, n in zip(nodes, found, strict=True)}

    def drop(self, table_id: str, lost: bool = False, keep_code: bool = False) -> None:
        """Stop renewing ``table_id``; release its lease (and code, unless ``keep_code``) unless it went elsewhere."""
        if table_id not in self.leases:
            return
        value = self._value(table_id)
        code, _ = self.leases.pop(table_id)
        if not lost:
            self._spawn(self._release_keys(table_id, code, value, keep_code))

    async def _release_keys(self, table_id: str, code: str, value: str, keep_code: bool = False) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                await self._release(keys=[self.lease_key(table_id)], args=[value], client=pipe)
                if not keep_code:
                    await self._release(keys=[self.code_key(code)], args=[table_id], client=pipe)
                await pipe.execute()
        except REDIS_ERRORS as exc:  # the lease runs out by itself; the code key stays (harmless, rare)
            self.mark_down(exc)

    async def renew(self) -> None:
        """Renew every lease this node holds in one pipeline; a lease another node holds now is lost."""
        owned = list(self.leases.items())
        if not owned:
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id, (code, lease) in owned:
                    keys = [self.lease_key(table_id), self.code_key(code)]
                    await self._renew(keys=keys, args=[f"{self.node}#{lease}", self.lease_ms, table_id], client=pipe)
                results = await pipe.execute()
        except REDIS_ERRORS as exc:
            self.mark_down(exc)  # keep playing: the database still refuses any append from an older lease
            return
        self._back()
        for (table_id, (_, lease)), ok in zip(owned, results, strict=True):
            if not ok and self.lease_of(table_id) == lease:
                log.warning("table %s: its lease went to another node; stopping here", table_id)
                self.leases.pop(table_id, None)
                self.on_lost(table_id)

    # ------------------------------------------------------------------ presence

    async def heartbeat(self) -> None:
        """Refresh this node's presence key with its counts."""
        tables, connections = self.counts()
        body = json.dumps({"node": self.node, "tables": tables, "connections": connections, "at": time.time()})
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(self.node_key(self.node), body, px=int(HEARTBEAT * 3000))
                pipe.set(self.epoch_key, secrets.token_hex(8), nx=True)
                pipe.get(self.epoch_key)
                _, created, epoch = await pipe.execute()
        except REDIS_ERRORS as exc:
            self.mark_down(exc)
            return
        self._back()
        if self.epoch is not None and (created or epoch != self.epoch):
            # Redis came back empty under us (a node's first look needs no pause: its start claimed what was free):
            # its owners have not set their leases and presence again yet; give them a lease
            # time before any table counts as orphaned (the database fence would keep it safe, but tables would move)
            self.adopt_after = time.monotonic() + self.lease_ms / 1000
        self.epoch = epoch

    def open_key(self, node: str) -> str:
        """The key of ``node``'s list of open tables (the start page's list is every node's)."""
        return f"{self.prefix}open:{node}"

    async def publish_open(self) -> None:
        """Write this node's open tables for the other nodes (kept a few seconds: a dead node's list goes by itself).

        Every second, and at once after Play now seated someone or a host removed a person. One at a time: a list
        built before a change is never written after the list built since.
        """
        if self.listed is None:
            return
        async with self._publishing:
            try:
                body = json.dumps(await self.listed(), separators=(",", ":"))
            except StoreBusy:
                return  # the ratings could not be read: the list goes out with the next try
            seated = json.dumps(self.seated(), separators=(",", ":")) if self.seated is not None else "{}"
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.set(self.open_key(self.node), body, px=int(LISTING_EVERY * 3000))
                    pipe.set(self.seated_key(self.node), seated, px=int(LISTING_EVERY * 3000))
                    await pipe.execute()
            except REDIS_ERRORS as exc:
                self.mark_down(exc)

    def match_key(self, kind: str) -> str:
        """The lock held while a node matches (or opens) Play now tables of one ``kind`` (``lobby.match_key``)."""
        return f"{self.prefix}play_now:{kind}"

    @contextlib.asynccontextmanager
    async def matching(self, kind: str) -> AsyncIterator[bool]:
        """Hold the cluster-wide lock of one kind of Play now table while this node matches a press and publishes.

        Yields whether the lock is held: not when Redis does not answer, nor after ``MATCH_LOCK_WAIT`` (a node died
        holding it: it runs out by itself). Two presses at once on two nodes thus see each other's table.
        """
        key, token, held = self.match_key(kind), secrets.token_hex(8), False
        deadline = time.monotonic() + MATCH_LOCK_WAIT
        try:
            while True:
                try:
                    held = bool(await self.redis.set(key, token, nx=True, px=MATCH_LOCK_MS))
                except REDIS_ERRORS as exc:
                    self.mark_down(exc)
                    break
                if held or time.monotonic() >= deadline:
                    break
                await asyncio.sleep(MATCH_LOCK_POLL)
            yield held
        finally:
            if held:
                try:
                    await self._release(keys=[key], args=[token])
                except REDIS_ERRORS as exc:
                    self.mark_down(exc)

    @property
    def signed_out_channel(self) -> str:
        """The channel every node listens on for devices signed out (body: player id, device id)."""
        return f"{self.prefix}signed_out"

    async def sign_out(self, player_id: int, device: str) -> None:
        """Tell every node that ``device`` no longer holds ``player_id``: they forget its token and close it."""
        try:
            await self.redis.publish(self.signed_out_channel, f"{player_id}\x1f{device}")
        except REDIS_ERRORS as exc:  # the nodes that missed it forget every token when their link comes back
            self.mark_down(exc)

    def seated_key(self, node: str) -> str:
        """The key of ``node``'s seated players: player id -> the tables there where they hold a seat."""
        return f"{self.prefix}seated:{node}"

    async def seats_elsewhere(self, player_id: int | None) -> list[dict[str, Any]]:
        """Return the tables of the other nodes where ``player_id`` holds a seat (as they published it)."""
        return [t for found in await self._others(self.seated_key) for t in found.get(str(player_id), [])]

    async def open_elsewhere(self) -> list[dict[str, Any]]:
        """Return the open tables the other nodes published (none while Redis does not answer)."""
        return [e for found in await self._others(self.open_key) for e in found]

    async def _others(self, key_of: Callable[[str], str]) -> list[Any]:
        """Return what the other nodes published under ``key_of(node)``, decoded (none while Redis does not answer)."""
        try:
            keys = [k async for k in self.redis.scan_iter(match=key_of("*"), count=1000)]
            keys = [k for k in keys if k != key_of(self.node)]
            values = await self.redis.mget(keys) if keys else []
        except REDIS_ERRORS as exc:
            self.mark_down(exc)
            return []
        return [json.loads(v) for v in values if v]

    @property
    def epoch_key(self) -> str:
        """A random value set once per Redis life: when it changes, Redis restarted empty."""
        return f"{self.prefix}epoch"

    async def nodes(self) -> list[dict[str, Any]]:
        """Return the live nodes (their presence keys), by name."""
        keys = [key async for key in self.redis.scan_iter(match=self.node_key("*"), count=1000)]
        values = await self.redis.mget(keys) if keys else []
        found = [json.loads(v) for v in values if v]
        return sorted(found, key=lambda n: n["node"])

    # ------------------------------------------------------------------ life

    def mark_down(self, exc: BaseException) -> None:
        """Redis failed: say so once; new tables are refused until it answers again."""
        if self.up:
            log.warning("Redis does not answer (%s): own tables play on, new tables are refused", exc)
        self.up = False

    def _back(self) -> None:
        if not self.up:
            log.warning("Redis answers again")
        self.up = True

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.append(task)
        task.add_done_callback(lambda t: t in self._tasks and self._tasks.remove(t))

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
        for table_id in list(self.leases):
            code, _ = self.leases[table_id]
            value = self._value(table_id)
            del self.leases[table_id]
            await self._release_keys(table_id, code, value, keep_code=True)
        try:
            await self.redis.delete(self.node_key(self.node), self.open_key(self.node), self.seated_key(self.node))
        except REDIS_ERRORS:
            pass
        await self.redis.aclose()
