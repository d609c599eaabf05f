"""The host's commands, and how a table starts, starts over and plays again: each checks, then logs. No I/O here."""

from __future__ import annotations

from hartenjagen.shared.deal import secure_deal, seeded_deal

from .errors import ProtocolError
from .parts import Runtime, check_host, check_waiting, held, seat_at
from .presence import ConnectionId
from .seat_kinds import SeatKind, computer_name
from .seating import Seating
from .state import FINISHED, WAITING, TableState

PLAY_NOW_TIMER = 30  # seconds per move at a Play now table (one of the choices a host has elsewhere)


class Hosting:
    """A table's host commands (computer players, switches, timer, pace, start) and a game's start, restart, rematch."""

    __slots__ = ("table", "runtime", "seating")

    def __init__(self, table: TableState, runtime: Runtime, seating: Seating) -> None:
        self.table: TableState = held(table)
        self.runtime = runtime
        self.seating = seating  # a removed person's connection leaves the table's presence through it

    def add_computer(self, by: int, seat: int, level: str) -> None:
        """Host: put a computer player of ``level`` on an empty seat before the start."""
        check_host(self.table, by)
        check_waiting(self.table, "computers_before_start")
        if seat_at(self.table, seat).kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", seat=seat)
        self._seat_computer(seat, level)

    def remove_computer(self, by: int, seat: int) -> None:
        """Host: take a computer player off its seat before the start."""
        check_host(self.table, by)
        check_waiting(self.table, "computers_before_start")
        if seat_at(self.table, seat).kind != SeatKind.COMPUTER:
            raise ProtocolError("no_computer_there", seat=seat)
        self.table.log("vacated", seat=seat, to=SeatKind.EMPTY)

    def fill_computers(self, by: int, level: str) -> None:
        """Host: computer players of ``level`` on every empty seat."""
        check_host(self.table, by)
        check_waiting(self.table, "computers_before_start")
        for s in self.table.seats:
            if s.kind == SeatKind.EMPTY:
                self._seat_computer(s.index, level)

    def _seat_computer(self, seat: int, level: str) -> None:
        """A computer player of ``level`` sits down on the empty ``seat``."""
        self.table.log("seated", seat=seat, who=SeatKind.COMPUTER, name=computer_name(seat), level=level)

    def set_watch(self, by: int, allowed: bool) -> None:
        """Host: allow or refuse watchers (people with the link who watch without a seat)."""
        check_host(self.table, by)
        if allowed != self.table.watch_allowed:
            self.table.log("watch", allowed=allowed)

    def set_chat(self, by: int, allowed: bool) -> None:
        """Host: allow or refuse table chat (the lines themselves are never logged)."""
        check_host(self.table, by)
        if allowed != self.table.chat_allowed:
            self.table.log("chat", allowed=allowed)

    def set_open(self, by: int, listed: bool, lang: str) -> None:
        """Host: list the table on the start page for anyone to sit down (an open table), or take it off."""
        check_host(self.table, by)
        if self.table.daily is not None:
            raise ProtocolError("daily_alone")
        if listed != self.table.listed or lang != self.table.lang:
            self.table.log("open", open=listed, lang=lang, play_now=self.table.play_now and listed)

    def queue(self, lang: str, fill_at: float, lang_only: bool = False) -> None:
        """Make this new table a Play now table: open, starting by itself, computers filling in at ``fill_at``.

        Strangers meet there and nobody hosts it, so nobody may stall the others either: a turn timer runs from the
        start (a computer player moves for whoever lets it run out, as at any table with a timer). ``lang_only``:
        for the speakers of ``lang`` only, as the person who opened it asked; else anyone, whatever their language.
        """
        only = {"lang_only": True} if lang_only else {}
        self.table.log("open", open=True, lang=lang, play_now=True, **only)
        self.table.log("fill", at=fill_at)
        self.table.log("timer", seconds=PLAY_NOW_TIMER)
        self.runtime.new_decision(stop_timer=False)

    def wait_until(self, fill_at: float) -> None:
        """A person who joins a Play now table may bring its fill-in time closer (never further)."""
        if (
            self.table.play_now
            and self.table.status == WAITING
            and (self.table.fill_at is None or fill_at < self.table.fill_at)
        ):
            self.table.log("fill", at=fill_at)

    def autostart(self, at: float) -> bool:
        """A Play now table starts by itself: when every seat holds a person, or at its fill-in time with computers.

        Nothing starts while no person at it is connected. Return True if the game started.
        """
        if not self.table.play_now or self.table.status != WAITING or not self.table.connected_persons():
            return False
        empty = [s for s in self.table.seats if s.kind == SeatKind.EMPTY]
        if empty and (self.table.fill_at is None or at < self.table.fill_at):
            return False
        for s in empty:
            self._seat_computer(s.index, self.table.computer_level)
        self.table.log("start", at=at)
        self.deal_next()
        return True

    def remove_person(self, by: int, seat: int, reason: str) -> ConnectionId | None:
        """Host: remove a seated person between hands, with a reason everyone sees; return their connection's id.

        Before the start the seat empties; later a computer player takes it. The person cannot sit here again.
        """
        check_host(self.table, by)
        target = seat_at(self.table, seat)
        if target.kind != SeatKind.PERSON or seat == by:
            raise ProtocolError("no_other_person", seat=seat)
        if not self.table.between_hands():
            raise ProtocolError("remove_between_hands")
        connection = self.seating.drop_connection(seat)  # no longer at the table
        if self.table.status == WAITING:
            self.table.log("vacated", seat=seat, to=SeatKind.EMPTY, removed=reason)
        else:
            self.table.log(
                "vacated", seat=seat, to=SeatKind.COMPUTER, level=self.table.computer_level, left=True, removed=reason
            )
        return connection

    def set_timer(self, by: int, seconds: int | None) -> None:
        """Host: the turn timer in seconds per move, or None for off."""
        check_host(self.table, by)
        self.table.log("timer", seconds=seconds)
        self.runtime.new_decision(stop_timer=False)  # the new timer runs from now

    def start(self, by: int, at: float) -> None:
        """Host: deal the first hand once all four seats are filled (``at``: the wall-clock time)."""
        check_host(self.table, by)
        check_waiting(self.table, "started_already")
        if any(s.kind == SeatKind.EMPTY for s in self.table.seats):
            raise ProtocolError("seats_empty")
        self.table.log("start", at=at)
        self.deal_next()

    def restart(self, by: int, at: float) -> None:
        """Host: the game starts over from its first hand, with the same deals, seats and options."""
        check_host(self.table, by)
        if self.table.daily is not None:
            raise ProtocolError("daily_no_restart")
        if self.table.rated_seats:
            raise ProtocolError("rated_no_restart")
        if self.table.status == WAITING or self.table.game is None:
            raise ProtocolError("not_started")
        self.table.log("restart", at=at)
        self.runtime.new_decision(stop_timer=True)
        self.deal_next()

    def set_pace(self, by: int, pace: str) -> None:
        """Host: the computer players' pace at this table (slow, normal or fast), at any time."""
        check_host(self.table, by)
        if pace != self.table.pace:
            self.table.log("pace", pace=pace)

    def vote_rematch(self, seat: int, at: float) -> None:
        """After game over a person votes to play again; when every person present agrees, a new game starts."""
        if self.table.status != FINISHED:
            raise ProtocolError("rematch_after_game_over")
        if seat not in self.table.rematch:
            self.table.log("rematch", seat=seat)
        voters = {s.index for s in self.table.persons() if not s.away}
        if voters <= self.table.rematch:
            self.table.log("new_game")
            self.runtime.new_decision(stop_timer=True)
            for s in self.table.seats:  # whoever left after game over: a computer player stands in, as during a game
                if s.kind == SeatKind.EMPTY:
                    self._seat_computer(s.index, self.table.computer_level)
            self.table.log("start", at=at)
            self.deal_next()

    def new_game(self, by: int) -> None:
        """Host: after game over, back to waiting with the same seats and options."""
        check_host(self.table, by)
        if self.table.status != FINISHED:
            raise ProtocolError("new_game_after_game_over")
        self.table.log("new_game")
        self.runtime.new_decision(stop_timer=True)

    def deal_next(self) -> None:
        """Deal the next hand: numbered deal, or the hand this game got before a restart, or fresh secure cards."""
        game = self.table.current_game
        hand_no = game.hand_no + 1
        if self.table.deal is not None:
            hands = seeded_deal(self.table.rules, self.table.deal, hand_no)
        elif hand_no < len(self.table.deals):
            hands = self.table.deals[hand_no]
        else:
            hands = secure_deal(self.table.rules)
        self.table.log("deal", hands=[game.names(h) for h in hands])  # a card twice where two decks have it
