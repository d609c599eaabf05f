"""A table's commands: each checks who may do what now, then logs the entries that make the change.

The state and the fold of the log are in ``server.table_state``. No I/O here.
"""

from __future__ import annotations

import secrets
from typing import Any

from hartenjagen.shared.cards import card_name
from hartenjagen.shared.claim import ClaimRefused, claim_plays
from hartenjagen.shared.deal import secure_deal, seeded_deal
from hartenjagen.shared.game import HAND_OVER, MOON_CHOICE, PASSING, PLAYING
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.rules import Rules, RulesError, make_rules

from .daily import DEAL_MAX
from .errors import ProtocolError
from .ratings import family_of, places
from .state import FINISHED, PLAYING_STATUS, WAITING, DamagedLog, Seat, SeatKind, Status, TableState, bot_name
from .tokens import token_hash

__all__ = [
    "Table", "Seat", "SeatKind", "Status", "DamagedLog", "FINISHED", "PLAYING_STATUS", "WAITING", "TABLE_COMMANDS",
    "HOST_COMMANDS",
]  # fmt: skip

MAX_WATCHERS = 100  # people watching one table without a seat
PLAY_NOW_TIMER = 30  # seconds per move at a Play now table (one of the choices a host has elsewhere)
#: Every message a person sends to the table they sit at: the hub hands each to one of a table's commands.
TABLE_COMMANDS = frozenset(
    {
        "sit", "leave", "allow_watch", "allow_chat", "chat", "add_bot", "remove_bot", "fill_bots", "set_timer",
        "start", "restart", "new_game", "set_pace", "rematch", "claim", "set_open", "remove_player", "report",
        "pass", "play", "moon", "ready", "hint", "review",
    }
)  # fmt: skip
#: The host's commands. A Play now table, where strangers meet, has no host: nobody there may send one.
HOST_COMMANDS = frozenset(
    {
        "add_bot", "remove_bot", "fill_bots", "start", "allow_watch", "allow_chat", "set_timer", "restart",
        "new_game", "set_pace", "set_open", "remove_player",
    }
)  # fmt: skip


class Table(TableState):
    """One table; every command checks first and changes nothing when it raises ProtocolError."""

    # ------------------------------------------------------------------ the log

    @classmethod
    def create(
        cls,
        code: str,
        rules: Rules,
        bot_level: str = "medium",
        deal: int | None = None,
        daily: dict[str, Any] | None = None,
        grace: float = 30.0,
        table_id: str | None = None,
        *,
        at: float,
    ) -> Table:
        """Open a new table at wall-clock time ``at``: its first log entry holds the options."""
        table = cls(table_id=table_id or secrets.token_hex(8), grace=grace)
        table._log("created", code=code, options=rules.to_json(), bot_level=bot_level, deal=deal, daily=daily, at=at)
        return table

    def commands(self) -> frozenset[str]:
        """Return the messages this table takes from a seat (the ``table`` message lists them for the page to draw).

        A Play now table takes no host command; a table whose hub takes fewer messages (the offline table's) says so
        in ``only``.
        """
        taken = TABLE_COMMANDS - HOST_COMMANDS if self.play_now else TABLE_COMMANDS
        return taken if self.only is None else taken & self.only

    def check_command(self, kind: str) -> None:
        """Refuse a table message this table does not take (a host command at a Play now table: ``no_host``)."""
        if kind in TABLE_COMMANDS and kind not in self.commands():
            if self.play_now and kind in HOST_COMMANDS:
                raise ProtocolError("no_host")
            raise ProtocolError("not_now", detail=("this table does not take it", "deze tafel neemt dat niet aan"))

    def _check_host(self, seat: int) -> None:
        if seat != self.host:
            raise ProtocolError("not_host")

    def _check_waiting(self, what: tuple[str, str]) -> None:
        if self.status != WAITING:
            raise ProtocolError(
                "not_now", detail=(f"{what[0]} only before the start", f"{what[1]} alleen vóór het begin")
            )

    def _seat_person(self, seat: int, name: str, player_id: int | None, client: Any) -> str:
        """Log a person onto ``seat`` with a fresh secret token; return the token (only its hash is kept)."""
        token = secrets.token_urlsafe(24)
        self._log("seated", seat=seat, who=SeatKind.HUMAN, name=name, player_id=player_id, token_hash=token_hash(token))
        self.seats[seat].client = client
        return token

    def seat_at(self, seat: int) -> Seat:
        """Return seat number ``seat``; a number past this table's seats is refused (the protocol allows up to 11)."""
        return self.seats[check_seat(len(self.seats), seat)]

    def seat_human(self, client: Any, player_id: int | None, name: str, seat: int | None) -> tuple[Seat, str]:
        """Seat a person on ``seat`` (empty, or a computer player's between hands) or the first empty seat.

        Returns the seat and its secret token.
        """
        if self.daily is not None and self.humans():
            raise ProtocolError("table_full")  # the daily deal is played alone
        self.check_not_removed(player_id)
        if seat is None:
            target = self._free_seat(player_id)
        else:
            target = self.seat_at(seat)
            if not (target.kind == SeatKind.EMPTY or (target.kind == SeatKind.BOT and self.between_hands())):
                raise ProtocolError("seat_taken", seat=seat)
        if self.host is None and not self.play_now:  # a Play now table has no host
            self._log("host", seat=target.index)
        token = self._seat_person(target.index, name, player_id, client)
        return target, token

    def _free_seat(self, player_id: int | None) -> Seat:
        """Return the seat a ``join`` without a number gets.

        The first empty seat; else, when a computer player's seat may change hands now, the seat this
        player left, else the first computer player's seat.
        """
        free = [s for s in self.seats if s.kind == SeatKind.EMPTY]
        if free:
            return free[0]
        bots = [s for s in self.seats if s.kind == SeatKind.BOT]
        if not bots or not self.between_hands():
            raise ProtocolError("table_full")
        mine = self.left_seats.get(player_id) if player_id is not None else None
        return next((s for s in bots if s.index == mine), bots[0])

    def change_seat(self, old: int, new: int) -> tuple[Seat, str]:
        """Move a seated person to seat ``new`` (an empty seat before the start, or a computer's between hands)."""
        if new == old:
            raise ProtocolError("seat_taken", seat=new)
        target, source = self.seat_at(new), self.seats[old]
        if target.kind == SeatKind.EMPTY:
            self._check_waiting(("changing seats", "van stoel wisselen"))
        elif not (target.kind == SeatKind.BOT and self.between_hands()):
            raise ProtocolError("seat_taken", seat=new)
        name, player_id, client = source.name, source.player_id, source.client
        if self.status != WAITING:  # mid-game the old seat cannot stay empty: a computer player keeps it
            self._log("vacated", seat=old, to=SeatKind.BOT, level=self.bot_level)
        else:
            self._log("vacated", seat=old, to=SeatKind.EMPTY)
        if self.host == old:
            self._log("host", seat=new)
        token = self._seat_person(new, name, player_id, client)
        return target, token

    def leave(self, seat: int) -> None:
        """A person stands up: the seat empties before the start, a computer player takes it mid-game."""
        if self.status == PLAYING_STATUS:
            self._log("vacated", seat=seat, to=SeatKind.BOT, level=self.bot_level, left=True)
        else:
            self._log("vacated", seat=seat, to=SeatKind.EMPTY)
        if self.host == seat:
            self.pass_host()

    def pass_host(self) -> None:
        """Give hosting to a connected person (else any person), or nobody (always at a Play now table)."""
        if self.play_now:
            return
        candidates = self.connected_humans() or self.humans()
        new = candidates[0].index if candidates else None
        if new != self.host:
            self._log("host", seat=new)

    def seat_by_token(self, token: str) -> Seat | None:
        """Return the human seat whose secret token is ``token`` (compared by its hash)."""
        given = token_hash(token).encode()
        for s in self.seats:
            if s.kind == SeatKind.HUMAN and s.token_hash and secrets.compare_digest(s.token_hash.encode(), given):
                return s
        return None

    def seat_of_player(self, player_id: int | None) -> Seat | None:
        """Return the seat a player holds here (the same player on another device resumes it without its token)."""
        if player_id is None:
            return None
        return next((s for s in self.seats if s.kind == SeatKind.HUMAN and s.player_id == player_id), None)

    def disconnect(self, seat: int, now: float) -> None:
        """A person's connection dropped: play waits for the grace period, then a computer moves for them."""
        s = self.seats[seat]
        s.client = None
        s.disconnected_at = now

    def reconnect(self, seat: int, client: Any) -> None:
        """A person is back on their seat."""
        s = self.seats[seat]
        was_gone = s.client is None
        if s.away or was_gone:
            self._log("back", seat=seat)
        s.client, s.disconnected_at = client, None

    def mark_away(self, now: float, grace: float) -> bool:
        """Mark people disconnected for longer than ``grace`` as away; return True if anything changed."""
        changed = False
        for s in self.humans():
            if s.client is None and not s.away and s.disconnected_at is not None and now - s.disconnected_at >= grace:
                self._log("away", seat=s.index)
                changed = True
                if self.host == s.index and any(h.client is not None for h in self.humans()):
                    self.pass_host()
        return changed

    def restored(self, now: float) -> None:
        """After a restore: every person is disconnected, their grace period starting now."""
        for s in self.humans():
            s.client, s.disconnected_at = None, now

    # ------------------------------------------------------------------ host actions

    def add_bot(self, by: int, seat: int, level: str) -> None:
        """Host: put a computer player of ``level`` on an empty seat before the start."""
        self._check_host(by)
        self._check_waiting(("adding a computer player", "een computerspeler toevoegen"))
        if self.seat_at(seat).kind != SeatKind.EMPTY:
            raise ProtocolError("seat_taken", seat=seat)
        self._log("seated", seat=seat, who=SeatKind.BOT, name=bot_name(seat), level=level)

    def remove_bot(self, by: int, seat: int) -> None:
        """Host: take a computer player off its seat before the start."""
        self._check_host(by)
        self._check_waiting(("removing a computer player", "een computerspeler weghalen"))
        if self.seat_at(seat).kind != SeatKind.BOT:
            raise ProtocolError(
                "not_now", detail=(f"seat {seat} has no computer player", f"op stoel {seat} zit geen computerspeler")
            )
        self._log("vacated", seat=seat, to=SeatKind.EMPTY)

    def fill_bots(self, by: int, level: str) -> None:
        """Host: computer players of ``level`` on every empty seat."""
        self._check_host(by)
        self._check_waiting(("adding computer players", "computerspelers toevoegen"))
        for s in self.seats:
            if s.kind == SeatKind.EMPTY:
                self._log("seated", seat=s.index, who=SeatKind.BOT, name=bot_name(s.index), level=level)

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

    def check_not_removed(self, player_id: int | None) -> None:
        """Refuse a person the host removed from this table: they never sit, watch or chat here again."""
        if player_id is not None and player_id in self.barred:
            raise ProtocolError("removed_here")

    def check_watchable(self) -> None:
        """Refuse a watcher: at a daily table (the day's cards are everyone's), when the host said no, or when full."""
        if self.daily is not None:
            raise ProtocolError(
                "no_watching", detail=("a daily table is played alone", "het spel van de dag speel je alleen")
            )
        if not self.watch_allowed:
            raise ProtocolError(
                "no_watching", detail=("the host turned watching off", "de gastheer heeft meekijken uitgezet")
            )
        if len(self.watchers) >= MAX_WATCHERS:
            raise ProtocolError(
                "no_watching",
                detail=(f"{MAX_WATCHERS} people watch already", f"er kijken al {MAX_WATCHERS} mensen mee"),
            )

    def set_open(self, by: int, listed: bool, lang: str) -> None:
        """Host: list the table on the start page for anyone to sit down (an open table), or take it off."""
        self._check_host(by)
        if self.daily is not None:
            raise ProtocolError(
                "not_now", detail=("the daily deal is played alone", "het spel van de dag speel je alleen")
            )
        if listed != self.listed or lang != self.lang:
            self._log("open", open=listed, lang=lang, play_now=self.play_now and listed)

    def queue(self, lang: str, fill_at: float) -> None:
        """Make this new table a Play now table: open, starting by itself, computers filling in at ``fill_at``.

        Strangers meet there and nobody hosts it, so nobody may stall the others either: a turn timer runs from the
        start (a computer player moves for whoever lets it run out, as at any table with a timer).
        """
        self._log("open", open=True, lang=lang, play_now=True)
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
        if not self.play_now or self.status != WAITING or not self.connected_humans():
            return False
        empty = [s for s in self.seats if s.kind == SeatKind.EMPTY]
        if empty and (self.fill_at is None or at < self.fill_at):
            return False
        for s in empty:
            self._log("seated", seat=s.index, who=SeatKind.BOT, name=bot_name(s.index), level=self.bot_level)
        self._log("start", at=at)
        self._deal_next()
        return True

    def remove_person(self, by: int, seat: int, reason: str) -> Any:
        """Host: remove a seated person between hands, with a reason everyone sees; return their connection.

        Before the start the seat empties; later a computer player takes it. The person cannot sit here again.
        """
        self._check_host(by)
        target = self.seat_at(seat)
        if target.kind != SeatKind.HUMAN or seat == by:
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
            self._log("vacated", seat=seat, to=SeatKind.BOT, level=self.bot_level, left=True, removed=reason)
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
        voters = {s.index for s in self.humans() if not s.away}
        if voters <= self.rematch:
            self._log("new_game")
            for s in self.seats:  # whoever left after game over: a computer player stands in, as during a game
                if s.kind == SeatKind.EMPTY:
                    self._log("seated", seat=s.index, who=SeatKind.BOT, name=bot_name(s.index), level=self.bot_level)
            self._log("start", at=at)
            self._deal_next()

    def claim(self, seat: int) -> None:
        """A person claims every remaining trick: checked against every seat's real cards, then played out at once."""
        if self.game is None or self.status != PLAYING_STATUS:
            raise ProtocolError("not_now", detail=("no game is being played", "er wordt geen spel gespeeld"))
        try:
            plays = claim_plays(self.game, seat)
        except ClaimRefused as exc:
            raise ProtocolError("claim_refused", detail=CLAIM_REASONS[exc.reason]) from None
        self._log("claim", seat=seat)
        for s, card in plays:
            self._log("play", seat=s, card=card_name(card), auto=s != seat)

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
        hand_no = self.game.hand_no + 1
        if self.deal is not None:
            hands = seeded_deal(self.rules, self.deal, hand_no)
        elif hand_no < len(self.deals):
            hands = self.deals[hand_no]
        else:
            hands = secure_deal(self.rules)
        self._log("deal", hands=[self.game.names(h) for h in hands])  # a card twice where two decks have it

    # ------------------------------------------------------------------ moves

    def act(self, seat: int, intent: dict[str, Any], auto: bool = False) -> None:
        """Apply a pass, play or moon intent for ``seat``; the game core's refusal becomes an ``illegal`` error."""
        if self.game is None or self.status != PLAYING_STATUS:
            raise ProtocolError("not_now", detail=("no game is being played", "er wordt geen spel gespeeld"))
        kind = intent["type"]
        try:
            if kind == "pass":
                self._log("pass", seat=seat, cards=list(intent["cards"]))
            elif kind == "play":
                self._log("play", seat=seat, card=intent["card"], auto=auto)
            elif kind == "moon":
                self._log("moon", seat=seat, choice=intent["choice"])
            else:
                raise ProtocolError("unknown_type", type=repr(kind))
        except IllegalAction as exc:
            raise ProtocolError("illegal", reason=exc.reason) from None

    def set_ready(self, seat: int) -> None:
        """A person is ready for the next hand."""
        if self.status != PLAYING_STATUS or self.game is None or self.game.phase != HAND_OVER:
            raise ProtocolError(
                "not_now", detail=("ready only between hands", "klaar melden alleen tussen twee rondes")
            )
        if seat not in self.ready:
            self._log("ready", seat=seat)

    def maybe_deal(self) -> bool:
        """Deal the next hand when every connected person is ready (and someone is there); return True if dealt."""
        game = self.game
        if self.status != PLAYING_STATUS or game is None or game.phase != HAND_OVER:
            return False
        present = self.connected_humans()
        if not present or any(s.index not in self.ready for s in present):
            return False
        self._deal_next()
        return True

    def finish(self, at: float) -> dict[str, Any] | None:
        """Once the game is over: log its replay id and share key; return the record to store (else None)."""
        if self.status != FINISHED or self.recorded or self.game is None:
            return None
        self._log("recorded", id=secrets.randbelow(2**40) + 1, share=secrets.token_urlsafe(16))
        return self.record(finished_at=at)

    def close(self, at: float) -> None:
        """Log that the table is closed at wall-clock time ``at`` (its finished games stay)."""
        if not self.closed:
            self._log("closed", at=at)

    # ------------------------------------------------------------------ who moves automatically

    def current_key(self) -> tuple | None:
        """Return an identifier of the current decision point (changes when the game waits for something new)."""
        g = self.game
        if g is None or g.phase not in (PASSING, PLAYING, MOON_CHOICE) or self.status != PLAYING_STATUS:
            return None
        return (id(g), g.hand_no, g.phase, len(g.tricks), len(g.trick.cards))

    def refresh_deadline(self, now: float) -> None:
        """Start the turn timer when the game reaches a new decision point that waits for a person."""
        key = self.current_key()
        if key != self.decision_key:
            self.decision_key = key
            self.timed_out.clear()
            self.hints.clear()
            waits_for_human = key is not None and any(self.seats[s].kind == SeatKind.HUMAN for s in self.game.to_act())
            self.deadline = now + self.timer if (self.timer and waits_for_human) else None

    def expire_timer(self, now: float) -> bool:
        """Let a computer make the current move for people whose turn timer ran out; return True if so."""
        if self.deadline is None or now < self.deadline or self.game is None:
            return False
        self.deadline = None
        late = {s for s in self.game.to_act() if self.seats[s].kind == SeatKind.HUMAN}
        self.timed_out |= late
        return bool(late)

    def next_wake(self, now: float, at: float) -> float | None:
        """Return the monotonic time this table next needs a look: its turn timer, a grace period's end, the fill-in.

        ``now`` and ``at`` are the same moment on the monotonic and the wall clock (the fill-in time is wall-clock).
        """
        times = [self.deadline] if self.deadline is not None else []
        if self.play_now and self.status == WAITING and self.fill_at is not None:
            times.append(now + max(0.0, self.fill_at - at))
        for s in self.humans():
            if s.client is None and not s.away and s.disconnected_at is not None:
                times.append(s.disconnected_at + self.grace)
        return min(times) if times else None

    def auto_seats(self) -> list[int]:
        """Return the seats a computer player should move for now (nobody moves while no person is connected)."""
        if self.game is None or self.status != PLAYING_STATUS or not self.connected_humans():
            return []
        out = []
        for s in self.game.to_act():
            seat = self.seats[s]
            if seat.kind == SeatKind.BOT or (seat.kind == SeatKind.HUMAN and (seat.away or s in self.timed_out)):
                out.append(s)
        return out

    def record(self, finished_at: float) -> dict[str, Any]:
        """Return the finished game as a record for the database (derived from the log's fold)."""
        game = self.game
        return {
            "id": self.replay["id"],
            "share": self.replay["share"],
            "table_id": self.table_id,
            "code": self.code,
            "options": dict(self.rules.to_json()),
            "deal": None if self.daily is not None else self.deal,
            "daily": self.daily,
            "started_at": self.started_at,
            "finished_at": finished_at,
            "history": [dict(h) for h in game.history],
            "totals": list(game.totals),
            "winners": list(game.winners),
            "toppers": [dict(t) for t in game.toppers],
            "events": [dict(e) for e in game.events],
            "participants": sorted(self.participants),
            "rated": self.rated_result(),
            "seats": [
                {
                    "seat": s.index,
                    "player_id": s.player_id if s.kind == SeatKind.HUMAN else None,
                    "kind": SeatKind.HUMAN if s.kind == SeatKind.HUMAN else SeatKind.BOT,
                    "name": s.name or "?",
                    "level": s.level,
                    **({"chips": game.chips[s.index]} if self.rules.start_chips else {}),
                }
                for s in self.seats
            ],
        }

    def rated_result(self) -> dict[str, Any] | None:
        """Return a rated game's sides and places (people who left early are last), or None if it is not rated."""
        if not self.rated_seats or self.game is None:
            return None
        game = self.game
        standing = [-c for c in game.chips] if self.rules.start_chips else list(game.totals)
        seats = self.seats
        kept = {s for s, p in self.rated_seats.items() if seats[s].kind == SeatKind.HUMAN and seats[s].player_id == p}
        result = places(standing, tuple(self.rules.teams), self.rated_seats, kept)
        left = sorted(p for s, p in self.rated_seats.items() if s not in kept)
        return {"family": family_of(self.rules.to_json()), **result, "left": left}


#: Why a claim is refused, in both languages.
CLAIM_REASONS = {
    "claim_fails": (
        "another player can still take a trick with the cards they hold",
        "een andere speler kan met zijn kaarten nog een slag halen",
    ),
    "claim_turn": ("claim when it is your turn to play", "claim als jij aan de beurt bent om te spelen"),
    "claim_variant": (
        "claims are not played with more than one deck or with jokers",
        "met meer dan één kaartspel of met jokers wordt niet geclaimd",
    ),
}


def table_rules(options: dict[str, Any]) -> tuple[Rules, int | None]:
    """Return the rules and the deal number a ``create`` message's options ask for, or raise ``bad_option``."""
    options = dict(options)
    deal = options.pop("deal", None)
    if deal is not None and (type(deal) is not int or not 1 <= deal <= DEAL_MAX):
        detail = (
            f"deal must be a whole number from 1 to {DEAL_MAX:,}, got {deal!r}",
            f"het spelnummer moet een heel getal van 1 tot en met {DEAL_MAX:,} zijn, niet {deal!r}",
        )
        raise ProtocolError("bad_option", field="deal", detail=detail)
    try:
        rules = make_rules(options)
    except RulesError as exc:
        raise ProtocolError("bad_option", field=exc.option, detail=(str(exc), exc.nl)) from None
    except (TypeError, ValueError):
        detail = ("the table options do not fit together", "de tafelopties passen niet bij elkaar")
        raise ProtocolError("bad_option", field="options", detail=detail) from None
    return rules, deal


def check_seat(seats: int, seat: int) -> int:
    """Return ``seat`` when a table of ``seats`` has it, else refuse it as a bad ``seat`` field."""
    if not 0 <= seat < seats:
        last = seats - 1
        detail = (f"this table's seats are 0 to {last}", f"de stoelen van deze tafel zijn 0 tot en met {last}")
        raise ProtocolError("bad_message", field="seat", detail=detail)
    return seat
