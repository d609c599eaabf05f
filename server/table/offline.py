"""One person's table against computer players with no network: what the browser's offline worker runs.

It plays the part of the hub for one connection, over the same I/O-free table an online game uses: ``Table``'s
checked commands, ``table_step.settle`` after every change, and the same ``table``/``update`` messages cut by
``seat_view``. The worker (``client/js/offline/worker.js``) hands it the person's messages as JSON text and gets back
an ``Outcome``: the messages for the page, the log entries to keep in the browser (IndexedDB) before the page sees
them, a finished game's record, and the seats whose computer player moves next. Computer players decide with
``shared.bots.choice``, as the server's do; a stored log folds back into the table with ``TableState.restore``.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from .commands import OFFLINE_TYPES, act, computer_play, computer_turn, decide_here, hint_answer, hint_asked
from .errors import ProtocolError
from .messages import PROTOCOL_VERSION, parse_message
from .pace import PACE_FACTORS
from .records import stats_of_records
from .seat_view import Moment
from .state import DamagedLog
from .step import mark_shown, settle
from .table import Table, check_seat, table_rules

CODE = "OFFLINE"  # an offline table has no code anyone could join by
LINK = "/offline"
NO_REVIEW = ("hand review needs the server", "een analyse van een ronde heeft de server nodig")


class OfflineConnection:
    """The one connection at an offline table: where the person sits, what they were shown, messages for the page."""

    def __init__(self) -> None:
        self.table: Table | None = None
        self.seat: int | None = None
        self.seen = 0
        self.shown: dict[str, Any] | None = None
        self.shown_moment: Moment | None = None
        self.outbox: list[str] = []  # the page's messages (JSON texts) until the outcome takes them

    def push(self, message: dict[str, Any] | str) -> None:
        """Keep one message for the page, as JSON text, in order."""
        self.outbox.append(message if isinstance(message, str) else json.dumps(message))

    def close_soon(self, why: Any) -> None:
        """Nothing to close: the page's worker keeps the game."""

    def take(self) -> list[str]:
        """Return and forget the messages kept for the page."""
        out, self.outbox = self.outbox, []
        return out


@dataclass
class Outcome:
    """What one call calls for: messages for the page (JSON texts) after the entries are kept, computer moves next."""

    messages: list[str] = field(default_factory=list)
    entries: list[list[Any]] = field(default_factory=list)  # [n, JSON text] log entries, in order
    record: dict[str, Any] | None = None  # a finished game, for the device's statistics
    computers: list[int] = field(default_factory=list)
    table_id: str | None = None
    pace: float = 1.0  # the host's pace as a factor of the pause before a computer move

    def to_json(self) -> str:
        """Return the outcome as one JSON text (what crosses from Python to the worker's JavaScript)."""
        return json.dumps(
            {
                "messages": self.messages,
                "entries": self.entries,
                "record": self.record,
                "computers": self.computers,
                "table_id": self.table_id,
                "pace": self.pace,
            }
        )


class OfflineTable:
    """An offline table: one person, computer players in every other seat, the online table's rules and views."""

    def __init__(self, name: str = "", bot_delay: float = 0.6) -> None:
        self.name = name
        self.person = OfflineConnection()
        self.table: Table | None = None
        self.moment: Moment | None = None
        self.bot_delay = bot_delay

    # ------------------------------------------------------------------ the person's messages

    def handle(self, text: str) -> Outcome:
        """Take one message from the page (JSON text); a refusal comes back as the online ``error`` message."""
        out = Outcome()
        try:
            msg = parse_message(text)
            kind = msg["type"]
            if kind == "review":
                raise ProtocolError("not_now", detail=NO_REVIEW)
            if kind not in OFFLINE_TYPES:
                raise ProtocolError(
                    "not_now", detail=("not at an offline table", "niet aan een tafel zonder verbinding")
                )
            OFFLINE_HANDLERS[kind](self, msg, out)
        except ProtocolError as exc:
            out.messages.append(json.dumps(exc.to_message()))
            return out
        if self.table is not None and kind not in ("hello", "ping", "hint"):
            self._settle(out, self.table)
        return out

    def _on_ping(self, msg: dict[str, Any], out: Outcome) -> None:
        out.messages.append(json.dumps({"type": "pong"}))

    def _on_hello(self, msg: dict[str, Any], out: Outcome) -> None:
        self.name = msg["name"]
        welcome = {"type": "welcome", "version": PROTOCOL_VERSION, "player_token": None, "name": self.name}
        out.messages.append(json.dumps(welcome))

    def _on_create(self, msg: dict[str, Any], out: Outcome) -> None:
        rules, deal = table_rules(msg["options"])
        seat = check_seat(rules.seats, msg.get("seat", 0))
        level = msg.get("computer_level", "medium")
        at = time.time()
        table = Table.create(CODE, rules, level, deal, None, table_id=secrets.token_hex(8), at=at)
        table.runtime.only = OFFLINE_TYPES
        self.person = OfflineConnection()
        person, token = table.seat_person(self.person, None, self.name, seat)
        table.fill_computers(person.index, level)
        table.start(person.index, at)
        self.table, self.moment = table, None
        self._joined(out, table, person.index, token)

    def _joined(self, out: Outcome, table: Table, seat: int, token: str) -> None:
        self.person.table, self.person.seat = table, seat
        joined = {"type": "joined", "code": CODE, "seat": seat, "seat_token": token, "link": LINK, "host": True}
        joined["offline"] = True  # the page keeps no session for it: the worker keeps the game in IndexedDB
        out.messages.append(json.dumps(joined))
        out.table_id = table.table_id

    def _seated(self) -> tuple[Table, int]:
        """Return the table and the person's seat, or refuse (``not_seated``) before a table is made or restored."""
        if self.table is None or self.person.seat is None:
            raise ProtocolError("not_seated")
        return self.table, self.person.seat

    def _on_intent(self, msg: dict[str, Any], out: Outcome) -> None:
        act(*self._seated(), msg)

    def _on_ready(self, msg: dict[str, Any], out: Outcome) -> None:
        table, seat = self._seated()
        table.set_ready(seat)

    def _on_restart(self, msg: dict[str, Any], out: Outcome) -> None:
        table, seat = self._seated()
        table.restart(seat, time.time())

    def _on_new_game(self, msg: dict[str, Any], out: Outcome) -> None:
        table, seat = self._seated()
        table.new_game(seat)
        table.start(seat, time.time())  # nobody else to wait for: the next game starts at once

    def _on_set_pace(self, msg: dict[str, Any], out: Outcome) -> None:
        table, seat = self._seated()
        table.set_pace(seat, msg["pace"])

    def _on_claim(self, msg: dict[str, Any], out: Outcome) -> None:
        table, seat = self._seated()
        table.claim(seat)

    def _on_hint(self, msg: dict[str, Any], out: Outcome) -> None:
        table, seat = self._seated()
        asked = hint_asked(table, seat)
        answer = asked if isinstance(asked, dict) else hint_answer(table, asked, decide_here("hard", asked.view))
        out.messages.append(json.dumps(answer))

    # ------------------------------------------------------------------ computer players

    def computer(self, seat: int) -> Outcome:
        """Make the move of the computer player at ``seat``, if it is still that seat's turn to move automatically."""
        out = Outcome()
        table = self.table
        if table is None or seat not in table.auto_seats():
            return out  # the table moved on since this move was asked for
        turn = computer_turn(table, seat)
        computer_play(table, turn, decide_here(turn.level, turn.view))
        self._settle(out, table)
        return out

    def _settle(self, out: Outcome, table: Table) -> None:
        step = settle(table, time.monotonic(), time.time(), self.moment)
        self.moment = step.moment
        mark_shown(step.shown)  # its messages go out now: mark what each connection was shown
        for connection, message in step.messages:  # the person's (nobody watches an offline table)
            connection.push(message)
        out.messages += self.person.take()
        out.entries += [[n, text] for n, text in step.entries]
        out.record = step.record
        out.computers = step.computers  # the worker asks for each move after its pause, once per seat
        out.pace = PACE_FACTORS.get(table.pace, 1.0)

    # ------------------------------------------------------------------ a stored game

    @staticmethod
    def stats(records_json: str) -> str:
        """Return the statistics of this device's finished offline games (JSON in, JSON out), as online."""
        return json.dumps(stats_of_records(json.loads(records_json)))

    def restore(self, table_id: str, entries: list[str], token: str) -> Outcome:
        """Fold a stored log back into the table and show it to the person again (raise DamagedLog if it fails)."""
        try:
            table = Table.restore(table_id, entries)
        except DamagedLog:
            raise
        except Exception as exc:  # a log this code cannot fold: the same answer as a damaged one
            raise DamagedLog(f"{type(exc).__name__}: {exc}") from None
        seat = table.seat_by_token(token)
        if seat is None:
            raise DamagedLog("the stored seat token fits no seat of the stored table")
        table.runtime.only = OFFLINE_TYPES
        self.table, self.moment = table, None
        self.person = OfflineConnection()
        table.restored(time.monotonic())
        table.reconnect(seat.index, self.person)
        out = Outcome()
        self._joined(out, table, seat.index, token)
        self.person.seen = table.seq
        self._settle(out, table)  # the person was shown nothing yet: the full table message
        return out


#: The offline table's handler of each message it takes (``OFFLINE_TYPES``, the offline column of ``COMMANDS``).
OFFLINE_HANDLERS = {
    "ping": OfflineTable._on_ping,
    "hello": OfflineTable._on_hello,
    "create": OfflineTable._on_create,
    "pass": OfflineTable._on_intent,
    "play": OfflineTable._on_intent,
    "moon": OfflineTable._on_intent,
    "ready": OfflineTable._on_ready,
    "hint": OfflineTable._on_hint,
    "claim": OfflineTable._on_claim,
    "restart": OfflineTable._on_restart,
    "new_game": OfflineTable._on_new_game,
    "set_pace": OfflineTable._on_set_pace,
}
