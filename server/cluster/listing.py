"""What nodes publish for each other: open tables, seated players, sign-outs, device codes used, the Play now lock."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..storage.store import StoreBusy
from .link import REDIS_ERRORS, ClusterView

LISTING_EVERY = 1.0  # seconds between publishing this node's open tables (the start page reads every node's)
MATCH_LOCK_MS = 2000  # milliseconds a Play now matching lock lives at most (its node died holding it)
MATCH_LOCK_WAIT = 2.5  # seconds a press waits for that lock before it matches without it
MATCH_LOCK_POLL = 0.01  # seconds between tries to take the lock


class Listing:
    """Open tables and seated players of this node published in Redis, the other nodes' read back, and notices.

    The notices every node listens for: devices signed out, and device codes used.
    """

    __slots__ = ("cluster", "_publishing")

    def __init__(self, cluster: ClusterView) -> None:
        self.cluster = cluster
        self._publishing = asyncio.Lock()  # one list built and written at a time: the last written is the newest

    def open_key(self, node: str) -> str:
        """The key of ``node``'s list of open tables (the start page's list is every node's)."""
        return f"{self.cluster.prefix}open:{node}"

    async def publish_open(self) -> None:
        """Write this node's open tables for the other nodes (kept a few seconds: a dead node's list goes by itself).

        Every second, and at once after Play now seated someone or a host removed a person. One at a time: a list
        built before a change is never written after the list built since.
        """
        if self.cluster.listed is None:
            return
        async with self._publishing:
            try:
                body = json.dumps(await self.cluster.listed(), separators=(",", ":"))
            except StoreBusy:
                return  # the ratings could not be read: the list goes out with the next try
            seated = (
                json.dumps(self.cluster.seated(), separators=(",", ":")) if self.cluster.seated is not None else "{}"
            )
            try:
                async with self.cluster.redis.pipeline(transaction=False) as pipe:
                    pipe.set(self.open_key(self.cluster.node), body, px=int(LISTING_EVERY * 3000))
                    pipe.set(self.seated_key(self.cluster.node), seated, px=int(LISTING_EVERY * 3000))
                    await pipe.execute()
            except REDIS_ERRORS as exc:
                self.cluster.mark_down(exc)

    def match_key(self, kind: str) -> str:
        """The lock held while a node matches (or opens) Play now tables of one ``kind`` (``lobby.match_key``)."""
        return f"{self.cluster.prefix}play_now:{kind}"

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
                    held = bool(await self.cluster.redis.set(key, token, nx=True, px=MATCH_LOCK_MS))
                except REDIS_ERRORS as exc:
                    self.cluster.mark_down(exc)
                    break
                if held or time.monotonic() >= deadline:
                    break
                await asyncio.sleep(MATCH_LOCK_POLL)
            yield held
        finally:
            if held:
                try:
                    await self.cluster.release(keys=[key], args=[token])
                except REDIS_ERRORS as exc:
                    self.cluster.mark_down(exc)

    @property
    def signed_out_channel(self) -> str:
        """The channel every node listens on for devices signed out (body: player id, device id)."""
        return f"{self.cluster.prefix}signed_out"

    async def sign_out(self, player_id: int, device: str) -> None:
        """Tell every node that ``device`` no longer holds ``player_id``: they forget its token and close it."""
        try:
            await self.cluster.redis.publish(self.signed_out_channel, f"{player_id}\x1f{device}")
        except REDIS_ERRORS as exc:  # the nodes that missed it forget every token when their link comes back
            self.cluster.mark_down(exc)

    @property
    def code_used_channel(self) -> str:
        """The channel every node listens on for device codes used (body: JSON of the node, player and notice)."""
        return f"{self.cluster.prefix}code_used"

    async def code_used(self, player_id: int, notice: dict[str, Any]) -> None:
        """Tell the other nodes that one of ``player_id``'s device codes was used: they tell the player's pages."""
        body = json.dumps({"node": self.cluster.node, "player": player_id, "notice": notice}, separators=(",", ":"))
        try:
            await self.cluster.redis.publish(self.code_used_channel, body)
        except REDIS_ERRORS as exc:  # the pages elsewhere see the new device when they next list the devices
            self.cluster.mark_down(exc)

    def seated_key(self, node: str) -> str:
        """The key of ``node``'s seated players: player id -> the tables there where they hold a seat."""
        return f"{self.cluster.prefix}seated:{node}"

    async def seats_elsewhere(self, player_id: int | None) -> list[dict[str, Any]]:
        """Return the tables of the other nodes where ``player_id`` holds a seat (as they published it)."""
        return [t for found in await self._others(self.seated_key) for t in found.get(str(player_id), [])]

    async def open_elsewhere(self) -> list[dict[str, Any]]:
        """Return the open tables the other nodes published (none while Redis does not answer)."""
        return [e for found in await self._others(self.open_key) for e in found]

    async def _others(self, key_of: Callable[[str], str]) -> list[Any]:
        """Return what the other nodes published under ``key_of(node)``, decoded (none while Redis does not answer)."""
        try:
            keys = [k async for k in self.cluster.redis.scan_iter(match=key_of("*"), count=1000)]
            keys = [k for k in keys if k != key_of(self.cluster.node)]
            values = await self.cluster.redis.mget(keys) if keys else []
        except REDIS_ERRORS as exc:
            self.cluster.mark_down(exc)
            return []
        return [json.loads(v) for v in values if v]
