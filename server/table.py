"""A table: four seats, the host, one game at a time, and its numbered public events. No I/O here."""

from __future__ import annotations

import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from shared.cards import parse_card
from shared.game import GAME_OVER, HAND_OVER, MOON_CHOICE, PASSING, PLAYING, Game
from shared.reasons import IllegalAction
from shared.rules import Rules

from .errors import ProtocolError

# Table codes: no look-alikes (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
LOG_SIZE = 500
WAITING, PLAYING_STATUS, FINISHED = "waiting", "playing", "finished"


def new_code(taken: set[str] | dict) -> str:
    """Return a random table code not in ``taken``."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


@dataclass
class Seat:
    """One seat: empty, a human (with a secret seat token) or a computer player."""

    index: int
    kind: str = "empty"
    name: str | None = None
    level: str | None = None
    player_id: int | None = None
    token: str | None = None
    client: Any = None  # the live connection, or None
    disconnected_at: float | None = None
    away: bool = False

    @property
    def connected(self) -> bool:
        """Return True for a computer player or a human with a live connection."""
        return self.kind == "bot" or (self.kind == "human" and self.client is not None)

    def public(self) -> dict[str, Any]:
        """Return what every seat may see of this seat."""
        return {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind,
            "level": self.level if self.kind == "bot" else None,
            "connected": self.connected,
            "away": self.away,
        }


@dataclass
class Table:
    """The state of one table; every method checks first and changes nothing when it raises ProtocolError."""

    code: str
    options: dict[str, Any]
    rules: Rules
    bot_level: str = "medium"
    status: str = WAITING
    host: int | None = None
    game: Game | None = None
    seq: int = 0
    timer: int | None = None
    deadline: float | None = None  # monotonic time when the turn timer runs out
    decision_key: tuple | None = None
    timed_out: set[int] = field(default_factory=set)
    ready: set[int] = field(default_factory=set)
    hints: dict[int, dict[str, Any]] = field(default_factory=dict)  # per seat, for the current decision only
    started_at: float = 0.0
    recorded: bool = False
    grace: float = 30.0
    seats: list[Seat] = field(default_factory=lambda: [Seat(i) for i in range(4)])
    log: deque = field(default_factory=lambda: deque(maxlen=LOG_SIZE))

    # ------------------------------------------------------------------ events

    def emit(self, kind: str, **fields: Any) -> None:
        """Number and keep one public event."""
        self.seq += 1
        self.log.append({"seq": self.seq, "kind": kind, **fields})

    def events_since(self, seq: int) -> list[dict[str, Any]] | None:
        """Return the events after ``seq``, or None when the log no longer reaches back that far."""
        if seq >= self.seq:
            return []
        if not self.log or self.log[0]["seq"] > seq + 1:
            return None
        return [e for e in self.log if e["seq"] > seq]

    # ------------------------------------------------------------------ seats

    def humans(self) -> list[Seat]:
        """Return the seats held by people."""
        return [s for s in self.seats if s.kind == "human"]

    def connected_humans(self) -> list[Seat]:
        """Return the seats of people with a live connection."""
        return [s for s in self.seats if s.kind == "human" and s.client is not None]

    def between_hands(self) -> bool:
        """Return True before the start, between hands and after game over (a bot seat may change hands)."""
        return self.status != PLAYING_STATUS or self.game is None or self.game.phase == HAND_OVER

    def _check_host(self, seat: int) -> None:
        if seat != self.host:
            raise ProtocolError("not_host")

    def _check_waiting(self, what: str) -> None:
        if self.status != WAITING:
            raise ProtocolError("not_now", detail=f"{what} only before the start")

    def seat_human(self, client: Any, player_id: int | None, name: str, seat: int | None) -> Seat:
        """Seat a person: on ``seat`` (empty, or a computer player's between hands) or the first empty seat."""
        if seat is None:
            free = [s for s in self.seats if s.kind == "empty"]
            if not free:
                raise ProtocolError("table_full")
            target = free[0]
        else:
            target = self.seats[seat]
            if not (target.kind == "empty" or (target.kind == "bot" and self.between_hands())):
                raise ProtocolError("seat_taken", seat=seat)
        target.kind, target.name, target.level = "human", name, None
        target.player_id, target.client = player_id, client
        target.token = secrets.token_urlsafe(24)
        target.disconnected_at, target.away = None, False
        if self.host is None:
            self.host = target.index
            self.emit("host", seat=target.index)
        self.emit("seated", seat=target.index, name=name, who="human")
        return target

    def move(self, old: int, new: int) -> Seat:
        """Move a seated person to seat ``new`` (an empty seat before the start, or a computer's between hands)."""
        if new == old:
            raise ProtocolError("seat_taken", seat=new)
        target, source = self.seats[new], self.seats[old]
        if target.kind == "empty":
            self._check_waiting("changing seats")
        elif not (target.kind == "bot" and self.between_hands()):
            raise ProtocolError("seat_taken", seat=new)
        if self.status != WAITING:
            # mid-game the old seat cannot stay empty: a computer player keeps it
            source_kind, source_level = "bot", self.bot_level
        else:
            source_kind, source_level = "empty", None
        target.kind, target.name, target.level = "human", source.name, None
        target.player_id, target.client, target.token = source.player_id, source.client, secrets.token_urlsafe(24)
        target.disconnected_at, target.away = None, False
        self._vacate(source, source_kind, source_level)
        if self.host == old:
            self.host = new
            self.emit("host", seat=new)
        self.emit("seated", seat=new, name=target.name, who="human")
        return target

    def _vacate(self, seat: Seat, kind: str, level: str | None) -> None:
        seat.client = seat.token = seat.player_id = seat.disconnected_at = None
        seat.away = False
        seat.kind, seat.level = kind, level
        self.ready.discard(seat.index)
        if kind == "bot":
            seat.name = bot_name(seat.index)
            self.emit("seated", seat=seat.index, name=seat.name, who="bot")
        else:
            seat.name = None
            self.emit("vacated", seat=seat.index)

    def leave(self, seat: int) -> None:
        """A person stands up: the seat empties before the start, a computer player takes it mid-game."""
        s = self.seats[seat]
        if self.status == PLAYING_STATUS:
            self._vacate(s, "bot", self.bot_level)
        else:
            self._vacate(s, "empty", None)
        if self.host == seat:
            self.pass_host()

    def pass_host(self) -> None:
        """Give hosting to a connected person (else any person), or nobody."""
        candidates = self.connected_humans() or self.humans()
        self.host = candidates[0].index if candidates else None
        if self.host is not None:
            self.emit("host", seat=self.host)

    def seat_by_token(self, token: str) -> Seat | None:
        """Return the human seat whose secret token is ``token``."""
        given = token.encode()  # bytes: compare_digest refuses str with non-ASCII characters
        for s in self.seats:
            if s.kind == "human" and s.token and secrets.compare_digest(s.token.encode(), given):
                return s
        return None

    def disconnect(self, seat: int, now: float) -> None:
        """A person's connection dropped: play waits for the grace period, then a computer moves for them."""
        s = self.seats[seat]
        s.client = None
        s.disconnected_at = now

    def reconnect(self, seat: int, client: Any) -> None:
        """A person is back on their seat."""
        s = self.seats[seat]
        was_gone = s.client is None
        s.client, s.disconnected_at = client, None
        if s.away or was_gone:
            s.away = False
            self.emit("back", seat=seat)

    def mark_away(self, now: float, grace: float) -> bool:
        """Mark people disconnected for longer than ``grace`` as away; return True if anything changed."""
        changed = False
        for s in self.humans():
            if s.client is None and not s.away and s.disconnected_at is not None and now - s.disconnected_at >= grace:
                s.away = True
                self.emit("away", seat=s.index)
                changed = True
                if self.host == s.index and any(h.client is not None for h in self.humans()):
                    self.pass_host()
        return changed

    # ------------------------------------------------------------------ host actions

    def add_bot(self, by: int, seat: int, level: str) -> None:
        """Host: put a computer player of ``level`` on an empty seat before the start."""
        self._check_host(by)
        self._check_waiting("adding a computer player")
        s = self.seats[seat]
        if s.kind != "empty":
            raise ProtocolError("seat_taken", seat=seat)
        s.kind, s.level, s.name = "bot", level, bot_name(seat)
        self.emit("seated", seat=seat, name=s.name, who="bot")

    def remove_bot(self, by: int, seat: int) -> None:
        """Host: take a computer player off its seat before the start."""
        self._check_host(by)
        self._check_waiting("removing a computer player")
        s = self.seats[seat]
        if s.kind != "bot":
            raise ProtocolError("not_now", detail=f"seat {seat} has no computer player")
        self._vacate(s, "empty", None)

    def fill_bots(self, by: int, level: str) -> None:
        """Host: computer players of ``level`` on every empty seat."""
        self._check_host(by)
        self._check_waiting("adding computer players")
        for s in self.seats:
            if s.kind == "empty":
                s.kind, s.level, s.name = "bot", level, bot_name(s.index)
                self.emit("seated", seat=s.index, name=s.name, who="bot")

    def set_timer(self, by: int, seconds: int | None) -> None:
        """Host: the turn timer in seconds per move, or None for off."""
        self._check_host(by)
        self.timer = seconds
        self.decision_key = None
        self.emit("timer", seconds=seconds)

    def start(self, by: int) -> None:
        """Host: deal the first hand once all four seats are filled."""
        self._check_host(by)
        self._check_waiting("starting")
        if any(s.kind == "empty" for s in self.seats):
            raise ProtocolError("seats_empty")
        self.game = Game(self.rules)
        self.status = PLAYING_STATUS
        self.started_at = time.time()
        self.recorded = False
        self.ready.clear()
        self.game.deal_secure()
        self.emit("deal", hand_no=self.game.hand_no)

    def new_game(self, by: int) -> None:
        """Host: after game over, back to waiting with the same seats and options."""
        self._check_host(by)
        if self.status != FINISHED:
            raise ProtocolError("not_now", detail="a new game only after game over")
        self.status, self.game = WAITING, None
        self.ready.clear()
        self.deadline = self.decision_key = None
        self.emit("new_game")

    # ------------------------------------------------------------------ moves

    def act(self, seat: int, intent: dict[str, Any], auto: bool = False) -> None:
        """Apply a pass, play or moon intent for ``seat``; the game core's refusal becomes an ``illegal`` error."""
        game = self.game
        if game is None or self.status != PLAYING_STATUS:
            raise ProtocolError("not_now", detail="no game is being played")
        kind = intent["type"]
        tricks_before = len(game.tricks)
        try:
            if kind == "pass":
                game.pass_cards(seat, [parse_card(c) for c in intent["cards"]])
            elif kind == "play":
                card = parse_card(intent["card"])
                game.play(seat, card)
            elif kind == "moon":
                game.choose_moon(seat, intent["choice"])
            else:
                raise ProtocolError("unknown_type", type=repr(kind))
        except IllegalAction as exc:
            raise ProtocolError("illegal", reason=exc.reason) from None
        if kind == "pass":
            self.emit("passed", seat=seat)
            if game.phase != PASSING:
                self.emit("exchanged")
        elif kind == "play":
            self.emit("play", seat=seat, card=intent["card"], auto=auto)
            if len(game.tricks) > tricks_before:
                self.emit("trick", winner=game.tricks[-1].winner)
        else:
            self.emit("moon", seat=seat, choice=intent["choice"])
        self._after_move()

    def _after_move(self) -> None:
        game = self.game
        if game.phase in (HAND_OVER, GAME_OVER):
            last = game.history[-1]
            self.emit("hand_over", hand_no=last["hand_no"], scores=last["scores"], totals=last["totals"])
            self.ready.clear()
        if game.phase == GAME_OVER:
            self.status = FINISHED
            self.emit("game_over", winners=list(game.winners), totals=list(game.totals))

    def set_ready(self, seat: int) -> None:
        """A person is ready for the next hand."""
        if self.status != PLAYING_STATUS or self.game is None or self.game.phase != HAND_OVER:
            raise ProtocolError("not_now", detail="ready only between hands")
        if seat not in self.ready:
            self.ready.add(seat)
            self.emit("ready", seat=seat)

    def maybe_deal(self) -> bool:
        """Deal the next hand when every connected person is ready (and someone is there); return True if dealt."""
        game = self.game
        if self.status != PLAYING_STATUS or game is None or game.phase != HAND_OVER:
            return False
        present = self.connected_humans()
        if not present or any(s.index not in self.ready for s in present):
            return False
        self.ready.clear()
        game.deal_secure()
        self.emit("deal", hand_no=game.hand_no)
        return True

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
            waits_for_human = key is not None and any(self.seats[s].kind == "human" for s in self.game.to_act())
            self.deadline = now + self.timer if (self.timer and waits_for_human) else None

    def expire_timer(self, now: float) -> bool:
        """Let a computer make the current move for people whose turn timer ran out; return True if so."""
        if self.deadline is None or now < self.deadline or self.game is None:
            return False
        self.deadline = None
        late = {s for s in self.game.to_act() if self.seats[s].kind == "human"}
        self.timed_out |= late
        return bool(late)

    def auto_seats(self) -> list[int]:
        """Return the seats a computer player should move for now (nobody moves while no person is connected)."""
        if self.game is None or self.status != PLAYING_STATUS or not self.connected_humans():
            return []
        out = []
        for s in self.game.to_act():
            seat = self.seats[s]
            if seat.kind == "bot" or (seat.kind == "human" and (seat.away or s in self.timed_out)):
                out.append(s)
        return out

    def record(self) -> dict[str, Any]:
        """Return the finished game as a record for the database."""
        game = self.game
        return {
            "code": self.code,
            "options": dict(self.rules.to_json()),
            "started_at": self.started_at,
            "finished_at": time.time(),
            "history": [dict(h) for h in game.history],
            "totals": list(game.totals),
            "winners": list(game.winners),
            "seats": [
                {
                    "seat": s.index,
                    "player_id": s.player_id if s.kind == "human" else None,
                    "kind": "human" if s.kind == "human" else "bot",
                    "name": s.name or "?",
                    "level": s.level,
                }
                for s in self.seats
            ],
        }


BOT_NAMES = ("Joost", "Ellen", "Ruud", "Sanne")


def bot_name(seat: int) -> str:
    """Return the display name of the computer player on ``seat`` (one name per chair, never twice)."""
    return BOT_NAMES[seat]
