"""Who is at a table now: each seat's live connection and the watchers. Presence is never logged nor stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Attendance:
    """One seat's presence: its person's live connection (or None), and since when that person is gone."""

    client: Any = None
    disconnected_at: float | None = None  # monotonic time the connection dropped (None while connected)


@dataclass
class Presence:
    """A table's presence beside its seats' own ``Attendance``: the people watching without a seat."""

    watchers: set = field(default_factory=set)  # live connections watching without a seat
