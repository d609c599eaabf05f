"""The daily deal: one deal number per calendar day (UTC), the same for everyone on this server.

The number comes from the day and a secret key the server keeps, and is shown only once the day is
over: numbered deals follow the core's public stream, so whoever knew today's number could work out
the computer players' cards.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

DAILY_LEVEL = "medium"  # the daily deal's three computer players
DEAL_MAX = 999_999_999


def day_of(at: float) -> str:
    """Return the date (UTC, ``YYYY-MM-DD``) of wall-clock time ``at``: today's, given the time now (no clock here).

    >>> day_of(1_764_979_200.0)
    '2025-12-06'
    """
    return dt.datetime.fromtimestamp(at, dt.UTC).date().isoformat()


def daily_deal(day: str, key: str) -> int:
    """Return the deal number of ``day`` (``YYYY-MM-DD``) under the server's secret ``key``.

    >>> daily_deal("2026-11-30", "k") == daily_deal("2026-11-30", "k") != daily_deal("2026-12-01", "k")
    True
    """
    digest = hmac.new(key.encode(), f"hartenjagen-daily:{day}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % DEAL_MAX + 1


def public_deal(day: str, key: str, today: str) -> int | None:
    """Return the deal number of ``day`` once the day is over (``today``: the date now, UTC), else None."""
    return daily_deal(day, key) if day < today else None


def parse_day(text: str, today: str) -> str | None:
    """Return ``text`` if it is a real date ``YYYY-MM-DD`` not after ``today`` (UTC), else None."""
    if len(text) != 10:
        return None
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    if day.isoformat() != text or text > today:
        return None
    return text
