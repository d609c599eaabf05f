"""One SQL database as the stores' parts use it: a small per-database ``Query``, and ``SqlAccess``, the transactions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from .group_commit import GroupCommit

T = TypeVar("T")


class Query(Protocol):
    """One database connection as the shared code uses it; SQL comes with ``?`` placeholders."""

    async def rows(self, query: str, *args: Any) -> list[Sequence[Any]]:
        """Return every row (indexable by position)."""

    async def dicts(self, query: str, *args: Any) -> list[dict[str, Any]]:
        """Return every row as a dict of its columns."""

    async def one(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row, or None."""

    async def execute(self, query: str, *args: Any) -> None:
        """Run one statement."""

    async def executemany(self, query: str, rows: list[tuple]) -> None:
        """Run one statement for each row of values."""


async def one_value(q: Query, query: str, *args: Any) -> Any:
    """Return the first column of the row a query always gives (a count, a maximum, a row just written)."""
    row = await q.one(query, *args)
    if row is None:
        raise LookupError(f"no row from {query.split()[0]} that always gives one")
    return row[0]


class SqlAccess(Protocol):
    """One SQL database as each part of ``SqlStore`` uses it: reads, writes, the fast append (``SqlStore`` is one)."""

    leases: bool  # PostgreSQL: log rows carry the writer's lease number (fencing)
    kind: str
    commits: GroupCommit  # the group commit of table logs and players' hellos

    async def _read(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` on a consistent view of the database (never a half-written game)."""

    async def _write(self, body: Callable[[Query], Awaitable[T]]) -> T:
        """Run ``body`` in one write transaction: committed whole or not at all."""

    async def _peek(self, query: str, *args: Any) -> Sequence[Any] | None:
        """Return the first row of one quick read that needs no snapshot (a token lookup)."""

    async def _append_only(self, rows: list[tuple]) -> bool:
        """Append log rows ``(table_id, n, entry[, lease])`` in one statement; False if too big for that."""

    async def schema_version(self) -> int:
        """Return the highest applied migration number."""
