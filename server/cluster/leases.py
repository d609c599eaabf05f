"""Table codes and leases across the cluster: a new table's code, claims of stored tables, renewals, releases.

In memory a node knows the tables it owns by their code, the one key of a table everywhere in the server (see
``live.registry``); the table id stays with the lease: Redis keys leases by table id, and codes by code.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..storage.store import ClusterUnavailable
from . import scripts
from .link import REDIS_ERRORS, ClusterView, log

FENCE_MARGIN = 0.25  # seconds before its leases (or its presence) could run out that a node stops writing


class Leases:
    """The tables this node owns (code -> table id and lease number), renewed together, released when let go."""

    __slots__ = ("cluster", "_new_table", "_claim", "_renew", "_lookup", "_orphans")

    def __init__(self, cluster: ClusterView) -> None:
        self.cluster = cluster
        redis = cluster.redis  # the Lua scripts (scripts.py) that take, renew and look up leases
        self._new_table = redis.register_script(scripts.NEW_TABLE)
        self._claim = redis.register_script(scripts.CLAIM)
        self._renew = redis.register_script(scripts.RENEW)
        self._lookup = redis.register_script(scripts.LOOKUP)
        self._orphans = redis.register_script(scripts.ORPHANS)

    def code_key(self, code: str) -> str:
        """The key that reserves table code ``code`` (value: the table id)."""
        return f"{self.cluster.prefix}code:{code}"

    def lease_key(self, table_id: str) -> str:
        """The lease key of table ``table_id`` (value: ``node#lease``)."""
        return f"{self.cluster.prefix}lease:{table_id}"

    @property
    def seq_key(self) -> str:
        """The counter that numbers leases (fencing tokens)."""
        return f"{self.cluster.prefix}lease_seq"

    def writable(self) -> bool:
        """Whether this node may still write its tables: no lease of it, nor its presence, can have run out yet.

        A node cut off from Redis fences itself: every time is taken on the monotonic clock when the renewal (or
        heartbeat) that Redis answered was sent, and Redis counts a key's time to live from a later moment, so no
        other node can take a table over (a lease run out, or a holder without presence) before this deadline. The
        margin is for an append on its way; the database's fence refuses any that comes later still.
        """
        return time.monotonic() < min(self.cluster.renewed_until, self.cluster.present_until) - FENCE_MARGIN

    def lease_of(self, code: str) -> int | None:
        """The lease number this node writes table ``code``'s log with (None: not owned here)."""
        held = self.cluster.leases.get(code)
        return held[1] if held is not None else None

    async def new_table(self, table_id: str, make_code: Callable[[], str]) -> tuple[str, int]:
        """Reserve a code unique across the cluster and take the new table's lease; return (code, lease)."""
        for _ in range(20):
            code = make_code()
            keys = [self.code_key(code), self.lease_key(table_id), self.seq_key]
            try:
                lease = await self._new_table(keys=keys, args=[table_id, self.cluster.node, self.cluster.lease_ms])
            except REDIS_ERRORS as exc:
                self.cluster.mark_down(exc)
                raise ClusterUnavailable(str(exc)) from exc
            self.cluster.back()
            if lease:
                self.cluster.leases[code] = (table_id, int(lease))
                return code, int(lease)
        raise ClusterUnavailable("no free table code found")

    async def claim(self, table_id: str, code: str, floor: int = 0) -> int | None:
        """Take the lease of a stored table nobody holds (restore); None when another node holds it.

        The lease is kept (and renewed) under ``code`` unless this node owns another open table with that code:
        then the caller lets it go (``let_go``) once it has closed that stored table as damaged.
        """
        keys = [self.lease_key(table_id), self.code_key(code), self.seq_key]
        lease = await self._claim(
            keys=keys, args=[self.cluster.node, self.cluster.lease_ms, table_id, floor, self.cluster.prefix]
        )
        if not lease:
            return None
        if code not in self.cluster.leases:
            self.cluster.leases[code] = (table_id, int(lease))
        return int(lease)

    async def lookup(self, code: str) -> tuple[str, str | None, bool] | None:
        """Where table ``code`` lives: ``(table_id, holder or None, holder alive)``; None for an unknown code."""
        found = await self._lookup(keys=[self.code_key(code)], args=[self.cluster.prefix])
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
            places = await self._orphans(
                keys=[self.lease_key(t) for t in chunk], args=[self.cluster.prefix, self.cluster.node]
            )
            found += [chunk[i - 1] for i in places]
        return found

    def drop(self, code: str, lost: bool = False, keep_code: bool = False) -> None:
        """Stop renewing table ``code``; release its lease (and code, unless ``keep_code``) unless it went elsewhere."""
        held = self.cluster.leases.pop(code, None)
        if held is not None and not lost:
            table_id, lease = held
            self.cluster.spawn(self.release_keys(table_id, code, f"{self.cluster.node}#{lease}", keep_code))

    def let_go(self, table_id: str, code: str, lease: int, keep_code: bool = False) -> None:
        """Release the lease ``claim`` took of stored table ``table_id`` that did not come back here."""
        if self.cluster.leases.get(code) == (table_id, lease):
            del self.cluster.leases[code]
        self.cluster.spawn(self.release_keys(table_id, code, f"{self.cluster.node}#{lease}", keep_code))

    async def release_keys(self, table_id: str, code: str, value: str, keep_code: bool = False) -> None:
        """Delete table ``table_id``'s lease (and its code, unless ``keep_code``) while they hold our ``value``."""
        try:
            async with self.cluster.redis.pipeline(transaction=False) as pipe:
                await self.cluster.release(keys=[self.lease_key(table_id)], args=[value], client=pipe)
                if not keep_code:
                    await self.cluster.release(keys=[self.code_key(code)], args=[table_id], client=pipe)
                await pipe.execute()
        except REDIS_ERRORS as exc:  # the lease runs out by itself; the code key stays (harmless, rare)
            self.cluster.mark_down(exc)

    async def renew(self) -> None:
        """Renew every lease this node holds in one pipeline; a lease another node holds now is lost."""
        owned = list(self.cluster.leases.items())
        sent = time.monotonic()
        if not owned:  # every lease taken from now on lives at least until then
            self.cluster.renewed_until = sent + self.cluster.lease_ms / 1000
            return
        try:
            async with self.cluster.redis.pipeline(transaction=False) as pipe:
                for code, (table_id, lease) in owned:
                    keys = [self.lease_key(table_id), self.code_key(code)]
                    await self._renew(
                        keys=keys, args=[f"{self.cluster.node}#{lease}", self.cluster.lease_ms, table_id], client=pipe
                    )
                results = await pipe.execute()
        except REDIS_ERRORS as exc:
            self.cluster.mark_down(exc)  # keep playing: the database still refuses any append from an older lease
            return
        self.cluster.back()
        self.cluster.renewed_until = sent + self.cluster.lease_ms / 1000  # a lease taken since lives longer still
        for (code, (table_id, lease)), ok in zip(owned, results, strict=True):
            if not ok and self.cluster.leases.get(code) == (table_id, lease):
                log.warning("table %s: its lease went to another node; stopping here", table_id)
                del self.cluster.leases[code]
                self.cluster.on_lost(code)
