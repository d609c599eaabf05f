"""The one filter: every game-bearing message that leaves the server for a seat is built here."""

from __future__ import annotations

from typing import Any

from hartenjagen.shared.view import SEAT_FIELDS, common_view, spectator_view, view_for

from .changes import changed_fields, diff, update_message
from .jsontext import compact
from .table import SeatKind, Table

#: The wire encoding of every message: compact JSON.


def public_part(table: Table, now: float) -> dict[str, Any]:
    """Return the fields of the ``table`` message that every seat shares (built once per change, at ``now``)."""
    return {
        "seq": table.seq,
        "code": table.code,
        "link": f"/t/{table.code}",
        "host": table.host,
        "status": table.status,
        "options": table.rules.to_json(),
        "teams": list(table.rules.teams) or None,  # each seat's side in a team game (before the game's view exists)
        "claims": not table.rules.counted,  # whether a claim is taken in this variant (one deck, no jokers)
        "bot_level": table.bot_level,
        "seats": [s.public() for s in table.seats],
        "turn_timer": table.timer,
        "pace": table.pace,
        "open": {"listed": table.listed, "lang": table.lang, "play_now": table.play_now, "fill_at": table.fill_at},
        "rated": bool(table.rated_seats),  # a rated game: people on every seat at the start of an open table
        "ratings": _ratings(table),
        "rating_moves": _rating_moves(table),
        "rematch": sorted(table.rematch),
        "deadline": _deadline(table, now),
        "ready": sorted(table.ready),
        "deal": None if table.daily is not None else table.deal,  # today's daily number would give away cards
        "daily": table.daily,
        "replay": table.replay,
        "watch": {"allowed": table.watch_allowed, "count": len(table.presence.watchers)},
        "chat": {"allowed": table.chat_allowed},
        "commands": sorted(table.commands()),  # what this table takes: the page draws only these buttons
    }


def _ratings(table: Table) -> list[dict[str, Any] | None] | None:
    """Each seat's person's rating in the variant's family at an open table (None elsewhere, or for a computer)."""
    ratings = table.runtime.ratings
    if not table.listed or not ratings:
        return None
    return [ratings.get(s.player_id) if s.kind == SeatKind.HUMAN else None for s in table.seats]


def _rating_moves(table: Table) -> list[dict[str, int] | None] | None:
    """After a rated game: each seat's person's rating before and after it (None for a computer); None elsewhere."""
    moves = table.runtime.rating_moves
    if moves is None or table.replay is None or table.replay["id"] != moves[0] or not table.rated_seats:
        return None
    return [moves[1].get(s.player_id) if s.kind == SeatKind.HUMAN else None for s in table.seats]


def public_table(table: Table) -> dict[str, Any]:
    """Return what anyone with the link may know before sitting down (``GET /api/tables/{code}``): no token, no card."""
    game = table.game
    host = table.seats[table.host].name if table.host is not None else None
    return {
        "code": table.code,
        "host": host,
        "status": table.status,
        "options": table.rules.to_json(),
        "teams": list(table.rules.teams) or None,
        "bot_level": table.bot_level,
        "daily": table.daily is not None,
        "seats": [s.public() for s in table.seats],
        "hand_no": game.hand_no if game is not None else None,
        "between_hands": table.between_hands(),
        "watch": {"allowed": table.watch_allowed and table.daily is None, "count": len(table.presence.watchers)},
    }


class Moment:
    """What every seat shares at one moment of a table: built once per change, then cut per seat."""

    __slots__ = ("public", "common", "before", "_public_changes", "_common_changes", "_texts")

    def __init__(self, table: Table, now: float, before: Moment | None = None) -> None:
        self.public = public_part(table, now)
        self.common = common_view(table.game) if table.game is not None else None
        self.before = before  # the table's previous moment: seats shown that one share its changes
        self._public_changes: dict[str, Any] | None = None
        self._common_changes: dict[str, Any] | None = None
        self._texts: dict[Any, str] = {}  # JSON of the shared parts and whole shared updates

    def text(self, changed: dict[str, Any], common: dict[str, Any], seat: dict[str, Any], events: list[Any]) -> str:
        """Return the JSON of ``update_message(changed, {**common, **seat}, events)``, shared parts encoded once.

        ``changed`` and ``common`` are this moment's own shared changes unless a seat's differ; events are
        log entries, so the same first number and count is the same text.
        """
        texts = self._texts
        shared = changed is self._public_changes and common is self._common_changes and not seat
        key = ("whole", events[0]["seq"] if events else 0, len(events))
        if shared and key in texts:
            return texts[key]
        parts = ['{"type":"update","set":', self._shared("set", changed, self._public_changes)]
        if common or seat:
            inner = [self._shared("view", common, self._common_changes)[1:-1]] if common else []
            if seat:
                inner.append(compact(seat)[1:-1])
            parts += [',"view":{', ",".join(inner), "}"]
        if events:
            events_key = ("events", key[1], key[2])
            if events_key not in texts:
                texts[events_key] = compact(events)
            parts += [',"events":', texts[events_key]]
        parts.append("}")
        text = "".join(parts)
        if shared:
            texts[key] = text
        return text

    def _shared(self, name: str, value: dict[str, Any], own: dict[str, Any] | None) -> str:
        """Encode ``value``, once per moment when it is the moment's ``own`` shared part."""
        if value is not own:
            return compact(value)
        text = self._texts.get(name)
        if text is None:
            text = self._texts[name] = compact(value)
        return text

    def public_changes(self) -> dict[str, Any]:
        """The shared top-level fields that changed since the previous moment (computed once)."""
        if self._public_changes is None:
            self._public_changes = changed_fields(self.before.public, self.public)
        return self._public_changes

    def common_changes(self) -> dict[str, Any]:
        """The shared view fields that changed since the previous moment (computed once)."""
        if self._common_changes is None:
            self._common_changes = changed_fields(self.before.common, self.common)
        return self._common_changes


def table_message(table: Table, seat: int, since: int, moment: Moment, resumed: str | None = None) -> dict[str, Any]:
    """Return the ``table`` message for ``seat``: public seat data, its own view, and public events after ``since``.

    ``seat`` None is someone watching: the view has no seat fields (no hand) and no deal number (it names every card).
    """
    events = table.events_since(since)
    if events is None:
        events, resumed = [], "snapshot"
    if table.game is None:
        view = None
    elif seat is None:
        view = spectator_view(table.game, moment.common)
    else:
        view = view_for(table.game, seat, moment.common)
    message = {"type": "table", **moment.public, "you": seat, "view": view, "events": events, "resumed": resumed}
    if seat is None:
        message["deal"] = None
    return message


def full_message(table: Table, client: Any, moment: Moment, resumed: str | None = None) -> dict[str, Any]:
    """Return the full ``table`` message for ``client``'s seat and remember it as what the client was shown."""
    message = table_message(table, client.seat, client.seen, moment, resumed)
    client.seen, client.shown, client.shown_moment = table.seq, message, moment
    return message


def _cut(table: Table, client: Any, moment: Moment) -> tuple[Any, ...]:
    """Show ``client`` the table now and return what changed for it.

    Either ``(message,)`` (the full message, a whole-message diff, or None) or, when the seat was
    shown the table's previous moment, ``(changed, common_changes, seat_changes, events)`` with the
    shared parts computed once for all seats.
    """
    shown, shown_moment = client.shown, client.shown_moment
    message = full_message(table, client, moment)
    if shown is None:
        return (message,)
    if shown_moment is None or shown_moment is not moment.before:
        return (diff(shown, message),)
    view, old_view = message["view"], shown["view"]
    if view is None or old_view is None or moment.common is None or shown_moment.common is None:
        return (diff(shown, message),)
    changed = moment.public_changes()
    if message["you"] != shown["you"]:
        changed = {**changed, "you": message["you"]}
    if message["you"] is None:  # watching: the shared fields are the whole view, and never the deal number
        if "deal" in changed:
            changed = {k: v for k, v in changed.items() if k != "deal"}
        return changed, moment.common_changes(), {}, message["events"]
    return changed, moment.common_changes(), changed_fields(old_view, view, SEAT_FIELDS), message["events"]


def seat_update(table: Table, client: Any, moment: Moment) -> dict[str, Any] | None:
    """Return what brings ``client`` up to date after a change: the full message first, then ``update``s.

    None when the seat would see nothing new. The update is cut from the full message, so this
    module stays the one place that decides what a seat may see. A seat that was shown the
    table's previous moment takes the shared changes computed once for all four seats.
    """
    cut = _cut(table, client, moment)
    if len(cut) == 1:
        return cut[0]
    changed, common_changes, seat_changes, events = cut
    return update_message(dict(changed), {**common_changes, **seat_changes}, events)


def seat_update_text(table: Table, client: Any, moment: Moment) -> str | None:
    """Return ``seat_update`` as the JSON text sent on the wire, encoding the shared parts once per moment."""
    cut = _cut(table, client, moment)
    if len(cut) == 1:
        return None if cut[0] is None else compact(cut[0])
    changed, common_changes, seat_changes, events = cut
    if not changed and not common_changes and not seat_changes and not events:
        return None
    return moment.text(changed, common_changes, seat_changes, events)


def hint_message(cards: list[str], choice: str | None) -> dict[str, Any]:
    """Return the ``hint`` message (cards come from the seat's own view, so they are its own)."""
    out: dict[str, Any] = {"type": "hint", "cards": cards}
    if choice is not None:
        out["choice"] = choice
    return out


def _deadline(table: Table, now: float) -> float | None:
    """Seconds after ``now`` until a computer moves for the seats the game waits for (turn timer or grace), or None."""
    deadline, grace = table.runtime.deadline, table.runtime.grace
    times = [deadline] if deadline is not None else []
    if table.game is not None:
        for s in table.game.to_act():
            seat = table.seats[s]
            gone = seat.kind == SeatKind.HUMAN and seat.client is None and not seat.away
            if gone and seat.disconnected_at is not None:
                times.append(seat.disconnected_at + grace)
    return round(max(0.0, min(times) - now), 1) if times else None
