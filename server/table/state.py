"""A table's state as the fold of its log: seats, host, game, public events, and how each log entry changes them.

Every change is a log entry (``{"type": ..., ...}``) applied by ``_apply``; ``TableState.restore`` folds a
stored log back (logs written before entries carried ``"type"`` have ``"k"``; both are read).
The public events a change makes for the seats (``emit``) are something else: numbered, kept in ``events``.
Only this state is stored: ``table.Table`` is this state with its presence and runtime (``parts.py``) as fields, and
the checked commands that log entries. No I/O here.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import islice
from typing import Any, Self

from hartenjagen.shared import multiset
from hartenjagen.shared.cards import parse_card, parse_mask
from hartenjagen.shared.game import GAME_OVER, HAND_OVER, PASSING, Game
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.rules import Rules
from hartenjagen.shared.variants import make_rules

from .errors import ProtocolError
from .jsontext import compact
from .presence import Attendance, ConnectionId
from .ratings import family_of
from .seat_kinds import SeatKind, computer_name, seat_kind, stored_kind

EVENTS_KEPT = 500  # public events a table keeps for resumes with last_seq (older ones: a snapshot)
STANDARD_RULES = make_rules()  # a table's rules before its "created" entry names them


class Status(StrEnum):
    """Where a table is: waiting for its start, playing a game, or at game over."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


#: The field of a log entry that says who holds the seat (in the stored words), per entry type.
KIND_FIELDS = {"seated": "who", "vacated": "to"}

WAITING, PLAYING_STATUS, FINISHED = Status


class DamagedLog(ValueError):
    """A stored table log that cannot be folded back into a table."""


@dataclass
class Seat:
    """One seat: empty, a human (known by the hash of a secret seat token) or a computer player."""

    index: int
    kind: str = SeatKind.EMPTY
    name: str | None = None
    level: str | None = None
    player_id: int | None = None
    token_hash: str | None = None
    away: bool = False  # past the grace period (logged: a computer moves for them until they are back)
    lang: str | None = None  # the language a person came with through Play now (None: not known)
    here: Attendance = field(default_factory=Attendance, repr=False, compare=False)  # presence: never stored

    @property
    def connection(self) -> ConnectionId | None:
        """The id of the seat's live connection, or None (its presence)."""
        return self.here.connection

    @connection.setter
    def connection(self, connection: ConnectionId | None) -> None:
        self.here.connection = connection

    @property
    def disconnected_at(self) -> float | None:
        """When the seat's connection dropped, monotonic (its presence)."""
        return self.here.disconnected_at

    @disconnected_at.setter
    def disconnected_at(self, at: float | None) -> None:
        self.here.disconnected_at = at

    @property
    def connected(self) -> bool:
        """Return True for a computer player or a human with a live connection."""
        return self.kind == SeatKind.COMPUTER or (self.kind == SeatKind.PERSON and self.here.connection is not None)

    def public(self) -> dict[str, Any]:
        """Return what every seat may see of this seat."""
        return {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind,
            "level": self.level if self.kind == SeatKind.COMPUTER else None,
            "connected": self.connected,
            "away": self.away,
        }


@dataclass
class TableState:
    """The stored state of one table, the fold of its log entries (its presence and runtime are not in it)."""

    table_id: str = ""
    code: str = ""
    rules: Rules = STANDARD_RULES
    computer_level: str = "medium"
    deal: int | None = None
    daily: dict[str, Any] | None = None
    status: str = WAITING
    host: int | None = None
    game: Game | None = None
    seq: int = 0
    timer: int | None = None
    ready: set[int] = field(default_factory=set)
    opened_at: float = 0.0
    started_at: float = 0.0
    recorded: bool = False
    replay: dict[str, Any] | None = None  # {"id", "share"} of the finished game
    closed: bool = False
    watch_allowed: bool = True  # anyone with the link may watch (the host can turn it off)
    chat_allowed: bool = True  # the host can turn table chat off (logged, like watch_allowed)
    chat_muted: set[int] = field(default_factory=set)  # the seats whose people turned chat off for themselves
    pace: str = "normal"  # the computer players' pace the host chose: slow | normal | fast (logged)
    rematch: set[int] = field(default_factory=set)  # after game over: the seats whose people voted to play again
    left_seats: dict[int, int] = field(default_factory=dict)  # player id -> the seat a computer took over from them
    listed: bool = False  # an open table: on the start page's list for anyone to sit down (logged)
    lang: str = "en"  # the host's language, shown on that list (at a Play now table: its first person's)
    lang_only: bool = False  # a Play now table for the speakers of ``lang`` only (the person who opened it asked)
    play_now: bool = False  # opened by "Play now": starts by itself when full, computers fill in at ``fill_at``
    fill_at: float | None = None  # wall-clock time the empty seats of a Play now table get computer players
    rated_seats: dict[int, int] = field(default_factory=dict)  # seat -> player id of a rated game's people
    barred: set[int] = field(default_factory=set)  # player ids the host removed: they cannot sit here again
    seats: list[Seat] = field(default_factory=lambda: [Seat(i) for i in range(4)])
    events: deque = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))  # the latest public events
    deals: list[list[int]] = field(default_factory=list)  # this game's hands as dealt, replayed by a restart
    participants: set[int] = field(default_factory=set)  # players who sat in this game at some moment
    logged: int = 0  # entries in the log so far
    unsaved: list[tuple[int, str]] = field(default_factory=list)  # (n, JSON) not yet handed to the store

    # ------------------------------------------------------------------ the log

    @classmethod
    def restore(cls, table_id: str, entries: list[str], **beside: Any) -> Self:
        """Fold a stored log (JSON texts, in order) back into the table; raise DamagedLog if it does not fold.

        ``beside``: what the class takes beside the state (a table's grace period).
        """
        table = cls(table_id=table_id, **beside)
        if not entries:
            raise DamagedLog("the log is empty")
        try:
            parsed = json.loads("[" + ",".join(entries) + "]")  # one parse for the whole log
        except ValueError:
            parsed = None
        if parsed is not None and len(parsed) != len(entries):
            parsed = None  # an entry that is not one JSON value: find it below
        for n, text in enumerate(entries, 1):
            try:
                entry = parsed[n - 1] if parsed is not None else json.loads(text)  # else: find the broken entry
                if not isinstance(entry, dict) or (n == 1) != (entry_type(entry) == "created"):
                    raise ValueError("the log must start with one 'created' entry")
                table._apply(entry)
            except (ValueError, KeyError, TypeError, IndexError, IllegalAction, ProtocolError) as exc:
                raise DamagedLog(f"entry {n}: {exc}") from None
        table.logged = len(entries)
        return table

    def log(self, kind: str, **fields: Any) -> None:
        """Apply one change and keep it for the store (applied first: a change that fails is never logged)."""
        entry = {"type": kind, **fields}
        if kind in KIND_FIELDS:  # who holds the seat, in the stored words
            entry[KIND_FIELDS[kind]] = stored_kind(entry[KIND_FIELDS[kind]])
        self._apply(entry)
        self.logged += 1
        self.unsaved.append((self.logged, compact(entry)))

    def take_unsaved(self) -> list[tuple[int, str]]:
        """Return and forget the entries not yet handed to the store."""
        out, self.unsaved = self.unsaved, []
        return out

    def _apply(self, e: dict[str, Any]) -> None:
        kind = entry_type(e)
        apply = APPLY.get(kind)
        if apply is None:  # a log written by a newer server, or edited by hand: this table cannot be folded
            raise DamagedLog(f"unknown log entry type {kind!r}")
        apply(self, e)

    def _apply_created(self, e: dict[str, Any]) -> None:
        self.code, self.rules = e["code"], make_rules(e["options"])
        self.seats = [Seat(i) for i in range(self.rules.seats)]  # as many as the variant seats
        self.computer_level, self.deal, self.daily = e["bot_level"], e["deal"], e["daily"]
        self.opened_at = e["at"]

    def _apply_seated(self, e: dict[str, Any]) -> None:
        s = self.seats[e["seat"]]
        s.kind, s.name = seat_kind(e["who"]), e["name"]  # a stored word or a wire word: the wire's from here on
        s.level = e.get("level") if s.kind == SeatKind.COMPUTER else None
        s.player_id = e.get("player_id")
        s.token_hash = e.get("token_hash")
        s.lang = e.get("lang") if s.kind == SeatKind.PERSON else None
        s.connection = s.disconnected_at = None
        s.away = False
        if s.kind == SeatKind.PERSON and self.status == PLAYING_STATUS and s.player_id is not None:
            self.participants.add(s.player_id)
        self.emit("seated", seat=s.index, name=s.name, who=s.kind)

    def _apply_vacated(self, e: dict[str, Any]) -> None:
        seat = self.seats[e["seat"]]
        person = seat.name if seat.kind == SeatKind.PERSON else None
        if e.get("removed") is not None and seat.player_id is not None:
            self.barred.add(seat.player_id)
            self.emit("removed", seat=seat.index, name=person, reason=e["removed"])
        to = seat_kind(e["to"])  # a stored word or a wire word: the wire's from here on
        if e.get("left") and seat.player_id is not None and to == SeatKind.COMPUTER:
            self.left_seats[seat.player_id] = seat.index  # offered back first when they return
        seat.connection = seat.token_hash = seat.player_id = seat.disconnected_at = seat.lang = None
        seat.away = False
        seat.kind, seat.level = to, e.get("level")
        self.ready.discard(seat.index)
        self.rematch.discard(seat.index)
        self.chat_muted.discard(seat.index)  # the next person on it hears the chat
        if seat.kind == SeatKind.COMPUTER:
            seat.name = computer_name(seat.index)
            if e.get("left") and person is not None:  # a person stood up: the others are told who
                self.emit("seated", seat=seat.index, name=seat.name, who=SeatKind.COMPUTER, left=person)
            else:
                self.emit("seated", seat=seat.index, name=seat.name, who=SeatKind.COMPUTER)
        else:
            seat.name = None
            self.emit("vacated", seat=seat.index)

    def _apply_host(self, e: dict[str, Any]) -> None:
        self.host = None if self.play_now else e["seat"]  # nobody hosts strangers at a Play now table
        if self.host is not None:
            self.emit("host", seat=self.host)

    def _apply_away(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]].away = True
        self.emit("away", seat=e["seat"])

    def _apply_back(self, e: dict[str, Any]) -> None:
        self.seats[e["seat"]].away = False
        self.emit("back", seat=e["seat"])

    def _apply_watch(self, e: dict[str, Any]) -> None:
        self.watch_allowed = e["allowed"]

    def _apply_chat(self, e: dict[str, Any]) -> None:
        self.chat_allowed = e["allowed"]

    def _apply_mute_chat(self, e: dict[str, Any]) -> None:
        if e["muted"]:
            self.chat_muted.add(e["seat"])
        else:
            self.chat_muted.discard(e["seat"])

    @property
    def chat_voted_off(self) -> bool:
        """At a Play now table (no host): half the people seated there, or more, turned chat off, so it is off."""
        if not self.play_now:
            return False
        people = {s.index for s in self.persons()}
        return bool(people) and 2 * len(self.chat_muted & people) >= len(people)

    def _apply_open(self, e: dict[str, Any]) -> None:
        self.listed, self.lang, self.play_now = e["open"], e["lang"], e.get("play_now", False)
        self.lang_only = self.play_now and e.get("lang_only", False)
        if self.play_now:
            self.host = None  # the person who opened it holds no power over the strangers who join
        self.emit("open", open=self.listed)

    def _apply_fill(self, e: dict[str, Any]) -> None:
        self.fill_at = e["at"]

    def _apply_pace(self, e: dict[str, Any]) -> None:
        self.pace = e["pace"]
        self.emit("pace", pace=self.pace)

    def _apply_rematch(self, e: dict[str, Any]) -> None:
        self.rematch.add(e["seat"])
        self.emit("rematch", seat=e["seat"])

    def _apply_claim(self, e: dict[str, Any]) -> None:
        self.emit("claim", seat=e["seat"])  # the plays that follow in the log take the tricks

    def _apply_timer(self, e: dict[str, Any]) -> None:
        self.timer = e["seconds"]
        self.emit("timer", seconds=self.timer)

    def _new_game_state(self, at: float) -> None:
        self.game = Game(self.rules)
        self.status = PLAYING_STATUS
        self.started_at = at
        self.recorded = False
        self.replay = None
        self.ready.clear()
        self.participants = {s.player_id for s in self.persons() if s.player_id is not None}
        people = {s.index: s.player_id for s in self.seats if s.kind == SeatKind.PERSON and s.player_id is not None}
        rated = self.listed and len(people) == len(self.seats) and family_of(self.rules.to_json()) is not None
        self.rated_seats = people if rated else {}
        self.fill_at = None

    def _apply_start(self, e: dict[str, Any]) -> None:
        self.deals = []
        self._new_game_state(e["at"])

    def _apply_restart(self, e: dict[str, Any]) -> None:
        self._new_game_state(e["at"])
        self.emit("restart")

    def _apply_deal(self, e: dict[str, Any]) -> None:
        parse = multiset.parse if self.rules.counted else parse_mask
        hands = [parse(h) for h in e["hands"]]
        game = self.current_game
        game.deal(hands)
        if game.hand_no == len(self.deals):
            self.deals.append(hands)
        self.ready.clear()
        self.emit("deal", hand_no=game.hand_no)

    def _apply_pass(self, e: dict[str, Any]) -> None:
        game, seat = self.current_game, e["seat"]
        game.pass_cards(seat, [parse_card(c) for c in e["cards"]])
        self.emit("passed", seat=seat, auto=e.get("auto", False))
        if game.phase != PASSING:
            self.emit("exchanged")
        self._after_move()

    def _apply_play(self, e: dict[str, Any]) -> None:
        game, seat = self.current_game, e["seat"]
        tricks_before = len(game.tricks)
        game.play(seat, parse_card(e["card"]))
        self.emit("play", seat=seat, card=e["card"], auto=e["auto"])
        if len(game.tricks) > tricks_before:
            self.emit("trick", winner=game.tricks[-1].winner)
        self._after_move()

    def _apply_moon(self, e: dict[str, Any]) -> None:
        self.current_game.choose_moon(e["seat"], e["choice"])
        self.emit("moon", seat=e["seat"], choice=e["choice"])
        self._after_move()

    def _after_move(self) -> None:
        game = self.current_game
        if game.phase in (HAND_OVER, GAME_OVER):  # only the hand's last move gets here in these phases
            last = game.history[-1]
            self.emit("hand_over", hand_no=last["hand_no"], scores=last["scores"], totals=last["totals"])
            self.ready.clear()
        if game.phase == GAME_OVER:
            self.status = FINISHED
            self.emit("game_over", winners=list(game.winners), totals=list(game.totals))

    def _apply_ready(self, e: dict[str, Any]) -> None:
        self.ready.add(e["seat"])
        self.emit("ready", seat=e["seat"])

    def _apply_recorded(self, e: dict[str, Any]) -> None:
        self.recorded = True
        self.replay = {"id": e["id"], "share": e["share"]}

    def _apply_new_game(self, e: dict[str, Any]) -> None:
        self.status, self.game = WAITING, None
        self.ready.clear()
        self.rematch.clear()
        self.deals, self.replay = [], None
        if self.daily is not None:
            self.daily = {**self.daily, "counts": False}  # the day's first complete game was this table's last
        self.emit("new_game")

    def _apply_closed(self, e: dict[str, Any]) -> None:
        self.closed = True

    # ------------------------------------------------------------------ events

    def emit(self, kind: str, **fields: Any) -> None:
        """Number and keep one public event."""
        self.seq += 1
        self.events.append({"seq": self.seq, "type": kind, **fields})

    def events_since(self, seq: int) -> list[dict[str, Any]] | None:
        """Return the events after ``seq``, or None when the log no longer reaches back that far."""
        if seq >= self.seq:
            return []
        if not self.events or self.events[0]["seq"] > seq + 1:
            return None
        newest = list(islice(reversed(self.events), self.seq - seq))  # numbers are consecutive: no scan
        newest.reverse()
        return newest

    # ------------------------------------------------------------------ seats

    def persons(self) -> list[Seat]:
        """Return the seats held by people."""
        return [s for s in self.seats if s.kind == SeatKind.PERSON]

    def langs(self) -> list[str]:
        """Return the languages the people seated here came with through Play now, each once, in order."""
        return sorted({s.lang for s in self.persons() if s.lang is not None})

    def connected_persons(self) -> list[Seat]:
        """Return the seats of people with a live connection."""
        return [s for s in self.seats if s.kind == SeatKind.PERSON and s.here.connection is not None]

    @property
    def current_game(self) -> Game:
        """The game of a table past its start; a table still waiting has none (a ValueError, as in a bad log)."""
        if self.game is None:
            raise ValueError("the table has no game before its start")
        return self.game

    def between_hands(self) -> bool:
        """Return True before the start, between hands and after game over (a bot seat may change hands)."""
        return self.status != PLAYING_STATUS or self.game is None or self.game.phase == HAND_OVER


def entry_type(entry: dict[str, Any]) -> Any:
    """Return a stored log entry's type (``"k"`` in logs written before entries carried ``"type"``)."""
    return entry["type"] if "type" in entry else entry["k"]


#: How each type of log entry changes a table: the only kinds a stored log may hold.
APPLY: dict[str, Any] = {
    "created": TableState._apply_created,
    "seated": TableState._apply_seated,
    "vacated": TableState._apply_vacated,
    "host": TableState._apply_host,
    "away": TableState._apply_away,
    "back": TableState._apply_back,
    "watch": TableState._apply_watch,
    "chat": TableState._apply_chat,
    "mute_chat": TableState._apply_mute_chat,
    "timer": TableState._apply_timer,
    "pace": TableState._apply_pace,
    "open": TableState._apply_open,
    "fill": TableState._apply_fill,
    "rematch": TableState._apply_rematch,
    "claim": TableState._apply_claim,
    "start": TableState._apply_start,
    "restart": TableState._apply_restart,
    "deal": TableState._apply_deal,
    "pass": TableState._apply_pass,
    "play": TableState._apply_play,
    "moon": TableState._apply_moon,
    "ready": TableState._apply_ready,
    "recorded": TableState._apply_recorded,
    "new_game": TableState._apply_new_game,
    "closed": TableState._apply_closed,
}
