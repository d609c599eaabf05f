"""What this node's running tables ask of the cluster, as a Protocol: live/ does not import cluster/.

``cluster.node.Cluster`` is the one class that has it; a node without ``--redis`` has no cluster (None).
"""

from __future__ import annotations

from typing import Any, Protocol


class Leasing(Protocol):
    """The cluster as the registry, the restorer and the lobby use it: table leases and the other nodes' tables."""

    node: str  # this node's name

    def lease_of(self, code: str) -> int | None:
        """Return the lease number this node holds of table ``code``, or None."""

    def writable(self) -> bool:
        """Whether this node may still write its tables: none of its leases, nor its presence, can have run out."""

    def drop(self, code: str, lost: bool = False, keep_code: bool = False) -> None:
        """Stop renewing table ``code``; release its lease (and code, unless ``keep_code``) unless it went elsewhere."""

    def let_go(self, table_id: str, code: str, lease: int, keep_code: bool = False) -> None:
        """Release the lease ``claim`` took of stored table ``table_id`` that did not come back here."""

    async def claim(self, table_id: str, code: str, floor: int = 0) -> int | None:
        """Take the lease of a stored table nobody holds (numbered above ``floor``); None when a live node holds it."""

    async def orphans(self, table_ids: list[str]) -> list[str]:
        """Of ``table_ids`` (not owned here), those nobody holds or whose holder's presence ran out."""

    async def open_elsewhere(self) -> list[dict[str, Any]]:
        """Return the open tables the other nodes list."""
