"""One person's table against computer players with no network: what the browser's offline worker runs.

It plays the part of the hub for one connection, over the same I/O-free table an online game uses: the same table
commands the hub's handlers run (``commands.run``), ``table_step.settle`` after every change, and the same
``table``/``update`` messages cut by ``seat_view``. The worker (``client/js/offline/worker.js``) hands it the
person's messages as JSON text and gets back an ``Outcome``: the messages for the page, the log entries to keep in
the browser (IndexedDB) before the page sees them, a finished game's record, and the seats whose computer player
moves next. Computer players decide with ``shared.bots.choice``, as the server's do; a stored log folds back into
the table with ``TableState.restore``. It reads no clock of its own: the worker hands it one (``Clock``: Python's
``time`` module), and the page's messages come back in the ``Outcome``, not sent from here. Its one connection, the
person's, is known to the table by an id (``PERSON``) as a hub's connections are.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import commands, outgoing
from .commands import computer_play, computer_turn, decide_here, hint_answer, hint_asked
from .errors import ProtocolError
from .messages import OFFLINE_TYPES, Create, Hello, Hint, NewGame, Ping, Review, parse_message
from .pace import PACE_FACTORS
from .presence import ConnectionId
from .records import stats_of_records
from .seat_view import Moment
from .state import DamagedLog
from .step import mark_shown, settle
from .table import Table, check_seat, table_rules

CODE = "OFFLINE"  # an offline table has no code anyone could join by
LINK = "/offline"
PERSON = ConnectionId(1)  # the one connection at an offline table: the person's (its messages go back in each Outcome)


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


class Clock(Protocol):
    """The two clocks an offline table is handed (the worker hands it Python's ``time`` module)."""

    def monotonic(self) -> float:
        """Seconds on the monotonic clock (turn timers, grace periods)."""

    def time(self) -> float:
        """Seconds on the wall clock (the log's times)."""


class OfflineTable:
    """An offline table: one person, computer players in every other seat, the online table's rules and views."""

    def __init__(self, clock: Clock, name: str = "", bot_delay: float = 0.6) -> None:
        self.clock = clock
        self.name = name
        self.table: Table | None = None
        self.moment: Moment | None = None
        self.bot_delay = bot_delay

    # ------------------------------------------------------------------ the person's messages

    def handle(self, text: str) -> Outcome:
        """Take one message from the page (JSON text); a refusal comes back as the online ``error`` message.

        What the offline table does by nature has its own step here (``OFFLINE_OWN``); every other message it takes
        runs the same table command the hub's handlers run (``commands.run``).
        """
        out = Outcome()
        try:
            msg = parse_message(text)
            if isinstance(msg, Review):
                raise ProtocolError("review_needs_server")
            if not msg.offline:
                raise ProtocolError("not_offline")
            own = OFFLINE_OWN.get(msg.kind)
            if own is not None:
                own(self, msg, out)
            else:
                table, seat = self._seated()
                commands.run(table, seat, msg, self.clock.time())
                if isinstance(msg, NewGame):  # nobody else to wait for: the next game starts at once
                    table.hosting.start(seat, self.clock.time())
        except ProtocolError as exc:
            out.messages.append(json.dumps(exc.to_message()))
            return out
        if self.table is not None and not isinstance(msg, (Hello, Ping, Hint)):
            self._settle(out, self.table)
        return out

    def _on_ping(self, msg: Ping, out: Outcome) -> None:
        out.messages.append(json.dumps(outgoing.pong()))

    def _on_hello(self, msg: Hello, out: Outcome) -> None:
        self.name = msg.name
        out.messages.append(json.dumps(outgoing.welcome(None, self.name)))

    def _on_create(self, msg: Create, out: Outcome) -> None:
        rules, deal = table_rules(msg.options)
        seat = check_seat(rules.seats, msg.seat)
        level = msg.computer_level
        at = self.clock.time()
        table = Table.create(CODE, rules, level, deal, None, table_id=secrets.token_hex(8), at=at)
        table.runtime.only = OFFLINE_TYPES
        person, token = table.seating.seat_person(PERSON, None, self.name, seat)
        table.hosting.fill_computers(person.index, level)
        table.hosting.start(person.index, at)
        self.table, self.moment = table, None
        self._joined(out, table, person.index, token)

    def _joined(self, out: Outcome, table: Table, seat: int, token: str) -> None:
        # offline: the page keeps no session for it; the worker keeps the game in IndexedDB
        out.messages.append(json.dumps(outgoing.joined(CODE, seat, token, LINK, host=True, offline=True)))
        out.table_id = table.table_id

    @property
    def seat(self) -> int | None:
        """The person's seat (None before a table is made or restored)."""
        return self.table.presence.seat_of(PERSON) if self.table is not None else None

    def _seated(self) -> tuple[Table, int]:
        """Return the table and the person's seat, or refuse (``not_seated``) before a table is made or restored."""
        seat = self.seat
        if self.table is None or seat is None:
            raise ProtocolError("not_seated")
        return self.table, seat

    def _on_hint(self, msg: Hint, out: Outcome) -> None:
        table, seat = self._seated()
        asked = hint_asked(table, seat)
        answer = asked if isinstance(asked, dict) else hint_answer(table, asked, decide_here("hard", asked.view))
        out.messages.append(json.dumps(answer))

    # ------------------------------------------------------------------ computer players

    def computer(self, seat: int) -> Outcome:
        """Make the move of the computer player at ``seat``, if it is still that seat's turn to move automatically."""
        out = Outcome()
        table = self.table
        if table is None or seat not in table.turns.auto_seats():
            return out  # the table moved on since this move was asked for
        turn = computer_turn(table, seat)
        computer_play(table, turn, decide_here(turn.level, turn.view))
        self._settle(out, table)
        return out

    def _settle(self, out: Outcome, table: Table) -> None:
        step = settle(table, self.clock.monotonic(), self.clock.time(), self.moment)
        self.moment = step.moment
        mark_shown(step.shown)  # its messages go out now: mark what each connection was shown
        # the person's (nobody watches an offline table): the worker hands them to the page
        out.messages += [m if isinstance(m, str) else json.dumps(m) for _, m in step.messages]
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
        seat = table.seating.seat_by_token(token)
        if seat is None:
            raise DamagedLog("the stored seat token fits no seat of the stored table")
        table.runtime.only = OFFLINE_TYPES
        self.table, self.moment = table, None
        table.seating.restored(self.clock.monotonic())
        table.seating.reconnect(seat.index, PERSON)
        out = Outcome()
        self._joined(out, table, seat.index, token)
        table.presence.arrive(PERSON, table.seq)
        self._settle(out, table)  # the person was shown nothing yet: the full table message
        return out


#: The offline table's own step for each message it takes that is offline by nature: the rest of ``OFFLINE_TYPES``
#: (the messages declared ``offline``) are table commands it runs as the hub's handlers do (``commands.run``).
OFFLINE_OWN: dict[str, Callable[[OfflineTable, Any, Outcome], None]] = {
    Ping.kind: OfflineTable._on_ping,
    Hello.kind: OfflineTable._on_hello,
    Create.kind: OfflineTable._on_create,
    Hint.kind: OfflineTable._on_hint,
}
_missing = OFFLINE_TYPES - OFFLINE_OWN.keys() - commands.TABLE_COMMAND.keys()
assert not _missing, f"the offline table takes {sorted(_missing)} but has no step nor table command for them"
