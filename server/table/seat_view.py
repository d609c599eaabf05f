"""The one filter: every game-bearing message that leaves the server for a seat is built here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hartenjagen.shared.rules import Rules
from hartenjagen.shared.view import CommonView, SeatFields, common_view, seat_key, seat_view, view_of

from . import outgoing
from .changes import changed_fields, diff_parts
from .jsontext import compact
from .presence import ConnectionId, Sight
from .table import SeatKind, Table
from .update import update_dict, update_parts, update_text


def public_part(table: Table, now: float, same_rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return the fields of the ``table`` message that every seat shares (built once per change, at ``now``).

    ``same_rules`` is an earlier moment's, under this very rules object: its options are taken as they are.
    """
    return {
        "seq": table.seq,
        "code": table.code,
        "link": f"/t/{table.code}",
        "host": table.host,
        "status": table.status,
        "options": same_rules["options"] if same_rules is not None else table.rules.to_json(),
        "teams": list(table.rules.teams) or None,  # each seat's side in a team game (before the game's view exists)
        "claims": not table.rules.counted,  # whether a claim is taken in this variant (one deck, no jokers)
        "computer_level": table.computer_level,
        "seats": [s.public() for s in table.seats],
        "turn_timer": table.timer,
        "pace": table.pace,
        "open": {
            "listed": table.listed,
            "lang": table.lang,
            "lang_only": table.lang_only,
            "langs": table.langs(),
            "play_now": table.play_now,
            "fill_at": table.fill_at,
        },
        "rated": bool(table.rated_seats),  # a rated game: people on every seat at the start of an open table
        "ratings": _ratings(table),
        "rating_moves": _rating_moves(table),
        "rematch": sorted(table.rematch),
        "deadline": _deadline(table, now),
        "ready": sorted(table.ready),
        "deal": None if table.daily is not None else table.deal,  # today's daily number would give away cards
        "daily": table.daily,
        "replay": table.replay,
        "watch": {"allowed": table.watch_allowed, "count": len(table.presence.watchers())},
        "chat": {"allowed": table.chat_allowed and not table.chat_voted_off, "muted": sorted(table.chat_muted)},
        "commands": sorted(table.commands()),  # what this table takes: the page draws only these buttons
    }


def _ratings(table: Table) -> list[dict[str, Any] | None] | None:
    """Each seat's person's rating in the variant's family at an open table (None elsewhere, or for a computer)."""
    ratings = table.runtime.ratings
    if not table.listed or not ratings:
        return None
    people = [s.player_id if s.kind == SeatKind.PERSON else None for s in table.seats]
    return [ratings.get(p) if p is not None else None for p in people]


def _rating_moves(table: Table) -> list[dict[str, int] | None] | None:
    """After a rated game: each seat's person's rating before and after it (None for a computer); None elsewhere."""
    moves = table.runtime.rating_moves
    if moves is None or table.replay is None or table.replay["id"] != moves[0] or not table.rated_seats:
        return None
    people = [s.player_id if s.kind == SeatKind.PERSON else None for s in table.seats]
    return [moves[1].get(p) if p is not None else None for p in people]


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
        "computer_level": table.computer_level,
        "daily": table.daily is not None,
        "seats": [s.public() for s in table.seats],
        "hand_no": game.hand_no if game is not None else None,
        "between_hands": table.between_hands(),
        "watch": {"allowed": table.watch_allowed and table.daily is None, "count": len(table.presence.watchers())},
    }


class Moment:
    """What every seat shares at one moment of a table: built once per change, then cut per seat."""

    __slots__ = ("rules", "public", "common", "before", "_public_changes", "_common_changes", "_texts")

    def __init__(self, table: Table, now: float, before: Moment | None = None) -> None:
        self.rules: Rules = table.rules
        same = before is not None and before.rules is table.rules  # the previous moment's options are taken as they are
        public: dict[str, Any] | None = before.public if same and before is not None else None
        common: CommonView | None = before.common if same and before is not None else None
        self.public: dict[str, Any] = public_part(table, now, public)
        game = table.game
        self.common: CommonView | None = common_view(game, common) if game is not None else None
        self.before = before  # the table's previous moment: seats shown that one share its changes
        self._public_changes: dict[str, Any] | None = None
        self._common_changes: dict[str, Any] | None = None
        self._texts: dict[Any, str] = {}  # JSON of the shared parts and whole shared updates

    def text(self, cut: Cut) -> str | None:
        """Return ``cut``'s message as the JSON text sent on the wire, the parts every seat shares encoded once."""
        if cut.whole is not None:
            return compact(cut.whole)
        key = None
        if cut.changed is self._public_changes and cut.common is self._common_changes and not cut.seat:
            events = cut.events  # an update every seat shown the previous moment shares; events are numbered
            key = ("whole", events[0]["seq"] if events else 0, len(events))
            if key in self._texts:
                return self._texts[key]
        parts = update_parts(cut.changed, cut.common, cut.seat, cut.events)
        if parts is None:
            return None
        text = update_text(parts, self._encode)
        if key is not None:
            self._texts[key] = text
        return text

    def _encode(self, value: Any) -> str:
        """Encode one part of an update, once per moment when every seat may share it (its own changes, events)."""
        if value is self._public_changes or value is self._common_changes:
            key: Any = id(value)
        elif type(value) is list:  # the new events: numbered, so the same first number and count is the same text
            key = ("events", value[0]["seq"], len(value))
        else:
            return compact(value)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = compact(value)
        return text

    def public_changes(self, before: Moment) -> dict[str, Any]:
        """The shared top-level fields that changed since ``before``, the previous moment (computed once)."""
        if self._public_changes is None:
            self._public_changes = changed_fields(before.public, self.public)
        return self._public_changes

    def common_changes(self, before: Moment) -> dict[str, Any]:
        """The shared view fields that changed since ``before``, the previous moment (computed once; no game: none)."""
        if self._common_changes is None:
            self._common_changes = changed_fields(before.common or _NOTHING, self.common or _NOTHING)
        return self._common_changes


_NOTHING: dict[str, Any] = {}  # no fields changed (shared by cuts, never changed)


@dataclass(slots=True)
class Shown:
    """What a connection is shown once a cut is sent: the last event it has, its seat and own fields, its moment.

    The whole ``table`` message it then holds is built only when asked for (``shown``): an update cut from the
    previous moment needs no more than the seat's own fields.
    """

    sight: Sight  # the connection's in the table's presence
    seen: int
    you: int | None  # the seat (None: watching)
    fields: SeatFields | None  # the seat's own view fields (None: watching, or no game)
    key: tuple[Any, ...] | None  # what ``fields`` were made from (``seat_key``; None: made afresh next time)
    moment: Moment
    events: list[Any]  # the public events sent with it
    message: dict[str, Any] | None = None  # the whole message, when it was built

    @property
    def shown(self) -> dict[str, Any]:
        """The whole ``table`` message the connection holds once this is sent (built on first use)."""
        if self.message is None:
            self.message = _whole(self.moment, self.you, self.fields, self.events)
        return self.message

    def apply(self) -> None:
        """Remember in the table's presence what the connection was shown (the next cut is made against it)."""
        sight = self.sight
        sight.seen, sight.moment, sight.you, sight.fields, sight.key = (
            self.seen,
            self.moment,
            self.you,
            self.fields,
            self.key,
        )
        sight.shown = self.message


def shown_message(sight: Sight) -> dict[str, Any] | None:
    """The whole ``table`` message ``sight``'s connection holds (None: shown nothing yet), built on first use."""
    if sight.moment is None:
        return None
    if sight.shown is None:
        sight.shown = _whole(sight.moment, sight.you, sight.fields, [])  # type: ignore[arg-type]
    return sight.shown


def _whole(moment: Moment, you: int | None, fields: SeatFields | None, events: list[Any]) -> dict[str, Any]:
    """The whole ``table`` message of a seat's ``fields`` (or a watcher's) at ``moment``, with ``events``."""
    common = moment.common
    view = None if common is None else view_of(common, fields if you is not None else None)
    message = outgoing.table(moment.public, you, view, events, None)
    if you is None:
        message["deal"] = None
    return message


@dataclass(slots=True)
class Cut:
    """What one connection is to be sent after a change, and what it was shown then: one shape for every case.

    ``whole`` is the full ``table`` message for a connection shown nothing yet; otherwise the parts of an ``update``
    (none of them: nothing new). ``changed`` and ``common`` are the moment's own shared changes when the seat was
    shown the previous moment, so their text is encoded once for all seats.
    """

    shown: Shown
    whole: dict[str, Any] | None
    changed: dict[str, Any]  # the top-level fields that changed
    common: dict[str, Any]  # the view fields that changed, those every seat shares
    seat: dict[str, Any]  # the seat's own view fields that changed
    events: list  # the new public events

    def message(self) -> dict[str, Any] | None:
        """Return the message as a dict: the full table message, an ``update``, or None when nothing is new."""
        if self.whole is not None:
            return self.whole
        parts = update_parts(self.changed, self.common, self.seat, self.events)
        return None if parts is None else update_dict(parts)


def table_message(
    table: Table, seat: int | None, since: int, moment: Moment, resumed: str | None = None
) -> dict[str, Any]:
    """Return the ``table`` message for ``seat``: public seat data, its own view, and public events after ``since``.

    ``seat`` None is someone watching: the view has no seat fields (no hand) and no deal number (it names every card).
    """
    return _table_message(Sight(since), table, seat, moment, resumed).shown


def _table_message(sight: Sight, table: Table, seat: int | None, moment: Moment, resumed: str | None = None) -> Shown:
    """The whole ``table`` message for ``seat`` after what ``sight`` has seen, as what its connection is shown."""
    since = sight.seen
    events = table.events_since(since)
    if events is None:
        events, resumed = [], "snapshot"
    game = table.game
    fields = None if game is None or seat is None else seat_view(game, seat)
    key = None if game is None or seat is None else seat_key(game, seat)
    shown = Shown(sight, table.seq, seat, fields, key, moment, events)
    message = shown.shown
    message["resumed"] = resumed
    return shown


def full_message(table: Table, connection: ConnectionId, moment: Moment, resumed: str | None = None) -> dict[str, Any]:
    """Return the full ``table`` message for ``connection``'s seat and remember it as what it was shown."""
    sight = table.presence.sight(connection)
    made = _table_message(sight, table, table.presence.seat_of(connection), moment, resumed)
    made.apply()
    return made.shown


def cut(table: Table, connection: ConnectionId, moment: Moment) -> Cut:
    """Return what brings ``connection`` up to date after a change, and what it is shown then (marked by ``Shown``).

    The full message first, then the parts of ``update``s. The update is cut from what the full message would be,
    so this module stays the one place that decides what a seat may see. A seat that was shown the table's previous
    moment takes the shared changes computed once for all seats, and only its own fields are compared: kept as
    they were while what they are made of is the same (``shared.view.seat_key``).
    """
    sight = table.presence.sight(connection)
    seat = table.presence.seat_of(connection)
    shown_moment = sight.moment
    if shown_moment is None:
        made = _table_message(sight, table, seat, moment)
        return Cut(made, made.shown, _NOTHING, _NOTHING, _NOTHING, [])
    game, before = table.game, moment.before
    events = table.events_since(sight.seen)
    if (
        before is None
        or shown_moment is not before
        or game is None
        or moment.common is None
        or before.common is None
        or events is None
        or (seat is not None and sight.fields is None)
    ):
        old = shown_message(sight)
        made = _table_message(sight, table, seat, moment)
        changed, view_changes, news = diff_parts(old or {}, made.shown)
        return Cut(made, None, changed, view_changes, _NOTHING, news)
    changed = moment.public_changes(before)
    if seat != sight.you:
        changed = {**changed, "you": seat}
    if seat is None:  # watching: the shared fields are the whole view, and never the deal number
        if "deal" in changed:
            changed = {k: v for k, v in changed.items() if k != "deal"}
        made = Shown(sight, table.seq, None, None, None, moment, events)
        return Cut(made, None, changed, moment.common_changes(before), _NOTHING, events)
    key = seat_key(game, seat)
    fields: SeatFields = sight.fields
    own: dict[str, Any] = _NOTHING
    if key is None or key != sight.key:
        fields, was = seat_view(game, seat), fields
        own = changed_fields(was, fields)
    made = Shown(sight, table.seq, seat, fields, key, moment, events)
    return Cut(made, None, changed, moment.common_changes(before), own, events)


def seat_update(table: Table, connection: ConnectionId, moment: Moment) -> dict[str, Any] | None:
    """Return ``cut``'s message as a dict (None when nothing is new) and remember what ``connection`` was shown."""
    made = cut(table, connection, moment)
    made.shown.apply()
    return made.message()


def seat_update_text(table: Table, connection: ConnectionId, moment: Moment) -> str | None:
    """Return ``cut``'s message as wire text (None when nothing is new) and remember what ``connection`` was shown."""
    made = cut(table, connection, moment)
    made.shown.apply()
    return moment.text(made)


def hint_message(cards: list[str], choice: str | None) -> dict[str, Any]:
    """Return the ``hint`` message (cards come from the seat's own view, so they are its own)."""
    return outgoing.hint(cards, choice)


def _deadline(table: Table, now: float) -> float | None:
    """Seconds after ``now`` until a computer moves for the seats the game waits for (turn timer or grace), or None."""
    deadline, grace = table.runtime.deadline, table.runtime.grace
    times = [deadline] if deadline is not None else []
    if table.game is not None:
        for s in table.game.to_act():
            seat = table.seats[s]
            gone = seat.kind == SeatKind.PERSON and seat.connection is None and not seat.away
            if gone and seat.disconnected_at is not None:
                times.append(seat.disconnected_at + grace)
    return round(max(0.0, min(times) - now), 1) if times else None
