"""The host's commands, and how a table starts, starts over and plays again: each checks, then logs. No I/O here."""

from __future__ import annotations

from hartenjagen.shared.deal import secure_deal, seeded_deal

from .errors import ProtocolError
from .parts import TableParts
from .presence import Connection
from .seat_kinds import SeatKind, computer_name
from .state import FINISHED, WAITING

PLAY_NOW_TIMER = 30  # seconds per move at a Play now table (one of the choices a host has elsewhere)


class Hosting(TableParts):
    """The host's commands (computer players, switches, timer, pace, start) and a game's start, restart and rematch."""

    def add_computer(self, by: int, seat: int, level: str) -> None:
        """Host: put a computer player of ``level`` on an empty seat before the start."""
        self._check_host(by)
        self._check_waiting(("adding a computer player", "een computerspeler toevoegen"))
        if self.seat_at(seat).kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", seat=seat)
        self._seat_computer(seat, level)

    def remove_computer(self, by: int, seat: int) -> None:
        """Host: take a computer player off its seat before the start."""
        self._check_host(by)
        self._check_waiting(("removing a computer player", "een computerspeler weghalen"))
        if self.seat_at(seat).kind != SeatKind.COMPUTER:
            raise ProtocolError(
                "not_now", detail=(f"seat {seat} has no computer player", f"op stoel {seat} zit geen computerspeler")
            )
        self._log("vacated", seat=seat, to=SeatKind.EMPTY)

    def fill_computers(self, by: int, level: str) -> None:
        """Host: computer players of ``level`` on every empty seat."""
        self._check_host(by)
        self._check_waiting(("adding computer players", "computerspelers toevoegen"))
        for s in self.seats:
            if s.kind == SeatKind.EMPTY:
                self._seat_computer(s.index, level)

    def _seat_computer(self, seat: int, level: str) -> None:
        """A computer player of ``level`` sits down on the empty ``seat``."""
        self._log("seated", seat=seat, who=SeatKind.COMPUTER, name=computer_name(seat), level=level)

    def set_watch(self, by: int, allowed: bool) -> None:
        """Host: allow or refuse watchers (people with the link who watch without a seat)."""
        self._check_host(by)
        if allowed != self.watch_allowed:
            self._log("watch", allowed=allowed)

    def set_chat(self, by: int, allowed: bool) -> None:
        """Host: allow or refuse table chat (the lines themselves are never logged)."""
        self._check_host(by)
        if allowed != self.chat_allowed:
            self._log("chat", allowed=allowed)

    def set_open(self, by: int, listed: bool, lang: str) -> None:
        """Host: list the table on the start page for anyone to sit down (an open table), or take it off."""
        self._check_host(by)
        if self.daily is not None:
            raise ProtocolError(
                "not_now", detail=("the daily deal is played alone", "het spel van de dag speel je alleen")
            )
        if listed != self.listed or lang != self.lang:
            self._log("open", open=listed, lang=lang, play_now=self.play_now and listed)

    def queue(self, lang: str, fill_at: float, lang_only: bool = False) -> None:
        """Make this new table a Play now table: open, starting by itself, computers filling in at ``fill_at``.

        Strangers meet there and nobody hosts it, so nobody may stall the others either: a turn timer runs from the
        start (a computer player moves for whoever lets it run out, as at any table with a timer). ``lang_only``:
        for the speakers of ``lang`` only, as the person who opened it asked; else anyone, whatever their language.
        """
        only = {"lang_only": True} if lang_only else {}
        self._log("open", open=True, lang=lang, play_now=True, **only)
        self._log("fill", at=fill_at)
        self._log("timer", seconds=PLAY_NOW_TIMER)

    def wait_until(self, fill_at: float) -> None:
        """A person who joins a Play now table may bring its fill-in time closer (never further)."""
        if self.play_now and self.status == WAITING and (self.fill_at is None or fill_at < self.fill_at):
            self._log("fill", at=fill_at)

    def autostart(self, at: float) -> bool:
        """A Play now table starts by itself: when every seat holds a person, or at its fill-in time with computers.

        Nothing starts while no person at it is connected. Return True if the game started.
        """
        if not self.play_now or self.status != WAITING or not self.connected_persons():
            return False
        empty = [s for s in self.seats if s.kind == SeatKind.EMPTY]
        if empty and (self.fill_at is None or at < self.fill_at):
            return False
        for s in empty:
            self._seat_computer(s.index, self.computer_level)
        self._log("start", at=at)
        self._deal_next()
        return True

    def remove_person(self, by: int, seat: int, reason: str) -> Connection | None:
        """Host: remove a seated person between hands, with a reason everyone sees; return their connection.

        Before the start the seat empties; later a computer player takes it. The person cannot sit here again.
        """
        self._check_host(by)
        target = self.seat_at(seat)
        if target.kind != SeatKind.PERSON or seat == by:
            raise ProtocolError(
                "not_now", detail=(f"nobody else sits on seat {seat}", f"op stoel {seat} zit niemand anders")
            )
        if not self.between_hands():
            raise ProtocolError(
                "not_now", detail=("removing a player only between hands", "iemand weghalen alleen tussen rondes")
            )
        client = target.client
        if self.status == WAITING:
            self._log("vacated", seat=seat, to=SeatKind.EMPTY, removed=reason)
        else:
            self._log("vacated", seat=seat, to=SeatKind.COMPUTER, level=self.computer_level, left=True, removed=reason)
        return client

    def set_timer(self, by: int, seconds: int | None) -> None:
        """Host: the turn timer in seconds per move, or None for off."""
        self._check_host(by)
        self._log("timer", seconds=seconds)

    def start(self, by: int, at: float) -> None:
        """Host: deal the first hand once all four seats are filled (``at``: the wall-clock time)."""
        self._check_host(by)
        self._check_waiting(("starting", "beginnen"))
        if any(s.kind == SeatKind.EMPTY for s in self.seats):
            raise ProtocolError("seats_empty")
        self._log("start", at=at)
        self._deal_next()

    def restart(self, by: int, at: float) -> None:
        """Host: the game starts over from its first hand, with the same deals, seats and options."""
        self._check_host(by)
        if self.daily is not None:
            raise ProtocolError(
                "not_now",
                detail=("the daily deal cannot be restarted", "het spel van de dag kan niet opnieuw beginnen"),
            )
        if self.rated_seats:
            raise ProtocolError(
                "not_now", detail=("a rated game cannot start over", "een spel met rating begint niet opnieuw")
            )
        if self.status == WAITING or self.game is None:
            raise ProtocolError(
                "not_now",
                detail=(
                    "a restart only once the game has started",
                    "opnieuw beginnen kan pas als het spel begonnen is",
                ),
            )
        self._log("restart", at=at)
        self._deal_next()

    def set_pace(self, by: int, pace: str) -> None:
        """Host: the computer players' pace at this table (slow, normal or fast), at any time."""
        self._check_host(by)
        if pace != self.pace:
            self._log("pace", pace=pace)

    def vote_rematch(self, seat: int, at: float) -> None:
        """After game over a person votes to play again; when every person present agrees, a new game starts."""
        if self.status != FINISHED:
            raise ProtocolError(
                "not_now", detail=("a rematch only after game over", "opnieuw spelen pas als het spel uit is")
            )
        if seat not in self.rematch:
            self._log("rematch", seat=seat)
        voters = {s.index for s in self.persons() if not s.away}
        if voters <= self.rematch:
            self._log("new_game")
            for s in self.seats:  # whoever left after game over: a computer player stands in, as during a game
                if s.kind == SeatKind.EMPTY:
                    self._seat_computer(s.index, self.computer_level)
            self._log("start", at=at)
            self._deal_next()

    def new_game(self, by: int) -> None:
        """Host: after game over, back to waiting with the same seats and options."""
        self._check_host(by)
        if self.status != FINISHED:
            raise ProtocolError(
                "not_now", detail=("a new game only after game over", "een nieuw spel pas als het spel uit is")
            )
        self._log("new_game")

    def _deal_next(self) -> None:
        """Deal the next hand: numbered deal, or the hand this game got before a restart, or fresh secure cards."""
        game = self.current_game
        hand_no = game.hand_no + 1
        if self.deal is not None:
            hands = seeded_deal(self.rules, self.deal, hand_no)
        elif hand_no < len(self.deals):
            hands = self.deals[hand_no]
        else:
            hands = secure_deal(self.rules)
        self._log("deal", hands=[game.names(h) for h in hands])  # a card twice where two decks have it
