"""The one filter: every game-bearing message that leaves the server for a seat is built here."""

from __future__ import annotations

import time
from typing import Any

from shared.view import view_for

from .table import Table


def table_message(table: Table, seat: int, since: int, resumed: str | None = None) -> dict[str, Any]:
    """Return the ``table`` message for ``seat``: public seat data, its own view, and public events after ``since``."""
    events = table.events_since(since)
    if events is None:
        events, resumed = [], "snapshot"
    return {
        "type": "table",
        "seq": table.seq,
        "code": table.code,
        "link": f"/t/{table.code}",
        "you": seat,
        "host": table.host,
        "status": table.status,
        "options": table.rules.to_json(),
        "bot_level": table.bot_level,
        "seats": [s.public() for s in table.seats],
        "turn_timer": table.timer,
        "deadline": _deadline(table),
        "ready": sorted(table.ready),
        "view": view_for(table.game, seat) if table.game is not None else None,
        "events": events,
        "resumed": resumed,
        "deal": None if table.daily is not None else table.deal,  # today's daily number would give away cards
        "daily": table.daily,
        "replay": table.replay,
    }


def hint_message(cards: list[str], choice: str | None) -> dict[str, Any]:
    """Return the ``hint`` message (cards come from the seat's own view, so they are its own)."""
    out: dict[str, Any] = {"type": "hint", "cards": cards}
    if choice is not None:
        out["choice"] = choice
    return out


def _deadline(table: Table) -> float | None:
    """Seconds until a computer moves for the seats the game waits for (turn timer or grace), or None."""
    now = time.monotonic()
    times = [table.deadline] if table.deadline is not None else []
    grace = table.grace
    if table.game is not None:
        for s in table.game.to_act():
            seat = table.seats[s]
            if seat.kind == "human" and seat.client is None and not seat.away and seat.disconnected_at is not None:
                times.append(seat.disconnected_at + grace)
    return round(max(0.0, min(times) - now), 1) if times else None
