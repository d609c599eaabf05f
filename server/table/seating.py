"""Who sits where: seating people and computer players' seats changing hands, hosting passing on, coming and going.

The checked commands of a table's seats and its presence; each logs the entries that make the change. A connection is
known by its id (``presence.ConnectionId``): these commands keep where each one sits in the table's ``Presence`` and,
for a seat, its ``Attendance`` beside it. No I/O here.
"""

from __future__ import annotations

import secrets

from .errors import ProtocolError
from .parts import check_waiting, held, seat_at
from .presence import ConnectionId, Presence
from .seat_kinds import SeatKind
from .state import PLAYING_STATUS, WAITING, Seat, TableState
from .tokens import token_hash

MAX_WATCHERS = 100  # people watching one table without a seat


class Seating:
    """A table's seats and presence: sitting down, changing seats, leaving, watching, dropping out and coming back."""

    __slots__ = ("table", "presence")

    def __init__(self, table: TableState, presence: Presence) -> None:
        self.table: TableState = held(table)
        self.presence = presence

    def seat_person(
        self,
        connection: ConnectionId | None,
        player_id: int | None,
        name: str,
        seat: int | None,
        lang: str | None = None,
    ) -> tuple[Seat, str]:
        """Seat a person on ``seat`` (empty, or a computer player's between hands) or the first empty seat.

        ``connection``: the person's live connection (a watcher sitting down stops watching). ``lang``: the language
        a person came with through Play now (shown to the others there). Returns the seat and its secret token.
        """
        if self.table.daily is not None and self.table.persons():
            raise ProtocolError("table_full")  # the daily deal is played alone
        self.check_not_removed(player_id)
        if seat is None:
            target = self._free_seat(player_id)
        else:
            target = seat_at(self.table, seat)
            if not (target.kind == SeatKind.EMPTY or (target.kind == SeatKind.COMPUTER and self.table.between_hands())):
                raise ProtocolError("seat_taken", seat=seat)
        if self.table.host is None and not self.table.play_now:  # a Play now table has no host
            self.table.log("host", seat=target.index)
        token = self._seat_person(target.index, name, player_id, connection, lang)
        return target, token

    def _free_seat(self, player_id: int | None) -> Seat:
        """Return the seat a ``join`` without a number gets.

        The first empty seat; else, when a computer player's seat may change hands now, the seat this
        player left, else the first computer player's seat.
        """
        free = [s for s in self.table.seats if s.kind == SeatKind.EMPTY]
        if free:
            return free[0]
        bots = [s for s in self.table.seats if s.kind == SeatKind.COMPUTER]
        if not bots or not self.table.between_hands():
            raise ProtocolError("table_full")
        mine = self.table.left_seats.get(player_id) if player_id is not None else None
        return next((s for s in bots if s.index == mine), bots[0])

    def _seat_person(
        self,
        seat: int,
        name: str | None,
        player_id: int | None,
        connection: ConnectionId | None,
        lang: str | None = None,
    ) -> str:
        """Log a person onto ``seat`` with a fresh secret token; return the token (only its hash is kept)."""
        token = secrets.token_urlsafe(24)
        known = {"lang": lang} if lang is not None else {}  # only Play now knows a person's language
        self.table.log(
            "seated",
            seat=seat,
            who=SeatKind.PERSON,
            name=name,
            player_id=player_id,
            token_hash=token_hash(token),
            **known,
        )
        self._sit(seat, connection)
        return token

    def _sit(self, seat: int, connection: ConnectionId | None) -> None:
        """``connection`` is the live connection on ``seat`` now (None: nobody's), in the presence and the seat."""
        self.table.seats[seat].connection = connection
        if connection is not None:
            self.presence.place(connection, seat)

    def change_seat(self, old: int, new: int) -> tuple[Seat, str]:
        """Move a seated person to seat ``new`` (an empty seat before the start, or a computer's between hands)."""
        if new == old:
            raise ProtocolError("seat_taken", seat=new)
        target, source = seat_at(self.table, new), self.table.seats[old]
        if target.kind == SeatKind.EMPTY:
            check_waiting(self.table, "seats_before_start")
        elif not (target.kind == SeatKind.COMPUTER and self.table.between_hands()):
            raise ProtocolError("seat_taken", seat=new)
        name, player_id, lang = source.name, source.player_id, source.lang
        connection = self.drop_connection(old)  # it sits on the new seat below
        if self.table.status != WAITING:  # mid-game the old seat cannot stay empty: a computer player keeps it
            self.table.log("vacated", seat=old, to=SeatKind.COMPUTER, level=self.table.computer_level)
        else:
            self.table.log("vacated", seat=old, to=SeatKind.EMPTY)
        if self.table.host == old:
            self.table.log("host", seat=new)
        token = self._seat_person(new, name, player_id, connection, lang)
        return target, token

    def leave(self, seat: int) -> None:
        """A person stands up: the seat empties before the start, a computer player takes it mid-game.

        Their connection is no longer at the table.
        """
        self.drop_connection(seat)
        if self.table.status == PLAYING_STATUS:
            self.table.log("vacated", seat=seat, to=SeatKind.COMPUTER, level=self.table.computer_level, left=True)
        else:
            self.table.log("vacated", seat=seat, to=SeatKind.EMPTY)
        if self.table.host == seat:
            self.pass_host()

    def pass_host(self) -> None:
        """Give hosting to a connected person (else any person), or nobody (always at a Play now table)."""
        if self.table.play_now:
            return
        candidates = self.table.connected_persons() or self.table.persons()
        new = candidates[0].index if candidates else None
        if new != self.table.host:
            self.table.log("host", seat=new)

    def seat_by_token(self, token: str) -> Seat | None:
        """Return the human seat whose secret token is ``token`` (compared by its hash)."""
        given = token_hash(token).encode()
        for s in self.table.seats:
            if s.kind == SeatKind.PERSON and s.token_hash and secrets.compare_digest(s.token_hash.encode(), given):
                return s
        return None

    def seat_of_player(self, player_id: int | None) -> Seat | None:
        """Return the seat a player holds here (the same player on another device resumes it without its token)."""
        if player_id is None:
            return None
        return next((s for s in self.table.seats if s.kind == SeatKind.PERSON and s.player_id == player_id), None)

    def check_not_removed(self, player_id: int | None) -> None:
        """Refuse a person the host removed from this table: they never sit, watch or chat here again."""
        if player_id is not None and player_id in self.table.barred:
            raise ProtocolError("removed_here")

    def check_watchable(self) -> None:
        """Refuse a watcher: at a daily table (the day's cards are everyone's), when the host said no, or when full."""
        if self.table.daily is not None:
            raise ProtocolError("no_watching_daily")
        if not self.table.watch_allowed:
            raise ProtocolError("no_watching_off")
        if len(self.presence.watchers()) >= MAX_WATCHERS:
            raise ProtocolError("no_watching_full", count=MAX_WATCHERS)

    def watch(self, connection: ConnectionId) -> None:
        """``connection`` watches the table without a seat (checked with ``check_watchable``)."""
        self.presence.place(connection, None)

    def unwatch(self, connection: ConnectionId) -> None:
        """The watcher ``connection`` stops watching."""
        if self.presence.watching(connection):
            self.presence.go(connection)

    def drop_connection(self, seat: int) -> ConnectionId | None:
        """The live connection on ``seat`` leaves the table (its person keeps the seat, or leaves it); return it."""
        s = self.table.seats[seat]
        connection = s.connection
        s.connection = None
        if connection is not None:
            self.presence.go(connection)
        return connection

    def disconnect(self, seat: int, now: float) -> None:
        """A person's connection dropped: play waits for the grace period, then a computer moves for them."""
        self.drop_connection(seat)
        self.table.seats[seat].disconnected_at = now

    def reconnect(self, seat: int, connection: ConnectionId) -> ConnectionId | None:
        """A person is back on their seat with ``connection``; return the connection it replaces there (if any).

        The newer connection wins the seat: the one before is no longer at the table.
        """
        s = self.table.seats[seat]
        was_gone = s.connection is None
        if s.away or was_gone:
            self.table.log("back", seat=seat)
        replaced = self.drop_connection(seat) if s.connection != connection else None
        self._sit(seat, connection)
        s.disconnected_at = None
        return replaced

    def mark_away(self, now: float, grace: float) -> bool:
        """Mark people disconnected for longer than ``grace`` as away; return True if anything changed."""
        changed = False
        for s in self.table.persons():
            gone_at = s.disconnected_at
            if s.connection is None and not s.away and gone_at is not None and now - gone_at >= grace:
                self.table.log("away", seat=s.index)
                changed = True
                if self.table.host == s.index and any(h.connection is not None for h in self.table.persons()):
                    self.pass_host()
        return changed

    def restored(self, now: float) -> None:
        """After a restore: every person is disconnected, their grace period starting now."""
        for s in self.table.persons():
            s.connection, s.disconnected_at = None, now
