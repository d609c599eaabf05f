"""The daily deal: one deal number per calendar day (UTC), the same for everyone."""

from __future__ import annotations

import datetime as dt
import hashlib

DAILY_LEVEL = "medium"  # the daily deal's three computer players
DEAL_MAX = 999_999_999


def today() -> str:
    """Return today's date in UTC as ``YYYY-MM-DD``."""
    return dt.datetime.now(dt.UTC).date().isoformat()


def daily_deal(day: str) -> int:
    """Return the deal number of ``day`` (``YYYY-MM-DD``): the same on every machine.

    >>> daily_deal("2026-11-30") == daily_deal("2026-11-30") != daily_deal("2026-12-01")
    True
    """
    digest = hashlib.sha256(f"hartenjagen-daily:{day}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % DEAL_MAX + 1


def parse_day(text: str) -> str | None:
    """Return ``text`` if it is a real date ``YYYY-MM-DD`` not after today (UTC), else None."""
    if len(text) != 10:
        return None
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    if day.isoformat() != text or day > dt.datetime.now(dt.UTC).date():
        return None
    return text
