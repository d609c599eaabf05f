"""A table: its stored state, with its presence, its runtime and its checked commands as fields. No I/O here.

A ``Table`` is the fold of its log (``TableState``, ``state.py``); it holds its ``Presence`` (``presence.py``) and its
``Runtime`` (``parts.py``), never stored, and one object per idea for its commands: ``seating`` (seats and presence,
``seating.py``), ``hosting`` (the host's commands and a game's start, ``hosting.py``) and ``turns`` (who moves
automatically, ``turns.py``). The moves are here. Each command checks who may do what now, then logs the entries that
make the change.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from hartenjagen.shared.cards import card_name
from hartenjagen.shared.claim import ClaimRefused, claim_plays
from hartenjagen.shared.game import HAND_OVER
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.rules import Rules, RulesError
from hartenjagen.shared.variants import make_rules

from . import outgoing
from .daily import DEAL_MAX
from .errors import ProtocolError
from .hosting import PLAY_NOW_TIMER, Hosting
from .messages import HOST_COMMANDS, TABLE_COMMANDS
from .parts import Runtime, check_seat, seat_at
from .presence import ConnectionId, Presence
from .records import game_record
from .seat_kinds import SeatKind
from .seating import MAX_WATCHERS, Seating
from .state import FINISHED, PLAYING_STATUS, WAITING, DamagedLog, Seat, Status, TableState
from .turns import Turns

__all__ = [
    "Table", "Seat", "SeatKind", "Status", "DamagedLog", "FINISHED", "PLAYING_STATUS", "WAITING", "TABLE_COMMANDS",
    "HOST_COMMANDS", "MAX_WATCHERS", "PLAY_NOW_TIMER", "check_seat", "table_rules",
]  # fmt: skip


class Table(TableState):
    """One table; every command checks first and changes nothing when it raises ProtocolError."""

    presence: Presence
    runtime: Runtime
    seating: Seating
    hosting: Hosting
    turns: Turns

    def __init__(self, table_id: str = "", grace: float = 30.0, **state: Any) -> None:
        super().__init__(table_id=table_id, **state)
        self.presence = Presence()
        self.runtime = Runtime(grace=grace)
        self.seating = Seating(self, self.presence)
        self.hosting = Hosting(self, self.runtime, self.seating)
        self.turns = Turns(self, self.runtime)

    @classmethod
    def create(
        cls,
        code: str,
        rules: Rules,
        computer_level: str = "medium",
        deal: int | None = None,
        daily: dict[str, Any] | None = None,
        grace: float = 30.0,
        table_id: str | None = None,
        *,
        at: float,
    ) -> Table:
        """Open a new table at wall-clock time ``at``: its first log entry holds the options."""
        table = cls(table_id=table_id or secrets.token_hex(8), grace=grace)
        options = rules.to_json()  # the stored entry keeps its field's old name, bot_level
        table.log("created", code=code, options=options, bot_level=computer_level, deal=deal, daily=daily, at=at)
        return table

    def seat_at(self, seat: int) -> Seat:
        """Return seat number ``seat``; a number past this table's seats is refused (the protocol allows up to 11)."""
        return seat_at(self, seat)

    def connections(self) -> list[ConnectionId]:
        """Return the id of every connection at the table: the seated people's in seat order, then the watchers'."""
        return [c for s in self.seats if (c := s.connection) is not None] + self.presence.watchers()

    def closed_notices(self) -> list[tuple[ConnectionId, dict[str, Any] | str]]:
        """Return the ``left`` message each watcher gets when the table closes (by connection id)."""
        return [(w, outgoing.left(self.code, "closed")) for w in self.presence.watchers()]

    def commands(self) -> frozenset[str]:
        """Return the messages this table takes from a seat (the ``table`` message lists them for the page to draw).

        A Play now table takes no host command; a table whose hub takes fewer messages (the offline table's) says so
        in ``only``.
        """
        taken = TABLE_COMMANDS - HOST_COMMANDS if self.play_now else TABLE_COMMANDS
        only = self.runtime.only
        return taken if only is None else taken & only

    def check_command(self, kind: str) -> None:
        """Refuse a table message this table does not take (a host command at a Play now table: ``no_host``)."""
        if kind in TABLE_COMMANDS and kind not in self.commands():
            if self.play_now and kind in HOST_COMMANDS:
                raise ProtocolError("no_host")
            raise ProtocolError("not_offline")  # the one table that takes fewer messages: the offline table

    def mute_chat(self, seat: int, muted: bool) -> None:
        """A seated person turns chat off for themselves (no line reaches their seat), or on again.

        At a Play now table, which has no host, chat stops for everyone while half the people seated there turned it
        off (``chat_voted_off``). Logged, so it survives a restart; it goes with the seat's person.
        """
        if muted != (seat in self.chat_muted):
            self.log("mute_chat", seat=seat, muted=muted)

    def claim(self, seat: int) -> None:
        """A person claims every remaining trick: checked against every seat's real cards, then played out at once."""
        if self.game is None or self.status != PLAYING_STATUS:
            raise ProtocolError("no_game")
        try:
            plays = claim_plays(self.game, seat)
        except ClaimRefused as exc:
            raise ProtocolError(exc.reason) from None  # claim_fails, claim_turn, claim_unsure or claim_variant
        self.log("claim", seat=seat)
        for s, card in plays:
            self.log("play", seat=s, card=card_name(card), auto=s != seat)

    def act(self, seat: int, intent: Mapping[str, Any], auto: bool = False) -> None:
        """Apply a pass, play or moon intent for ``seat``; the game core's refusal becomes an ``illegal`` error."""
        if self.game is None or self.status != PLAYING_STATUS:
            raise ProtocolError("no_game")
        kind = intent["type"]
        try:
            if kind == "pass":
                # ``auto``: a computer player passed for a person who let the turn timer run out (or is away)
                self.log("pass", seat=seat, cards=list(intent["cards"]), **({"auto": True} if auto else {}))
            elif kind == "play":
                self.log("play", seat=seat, card=intent["card"], auto=auto)
            elif kind == "moon":
                self.log("moon", seat=seat, choice=intent["choice"])
            else:
                raise ProtocolError("unknown_type", sent=repr(kind))
        except IllegalAction as exc:
            raise ProtocolError("illegal", reason=exc.reason) from None

    def set_ready(self, seat: int) -> None:
        """A person is ready for the next hand."""
        if self.status != PLAYING_STATUS or self.game is None or self.game.phase != HAND_OVER:
            raise ProtocolError("ready_between_hands")
        if seat not in self.ready:
            self.log("ready", seat=seat)

    def maybe_deal(self) -> bool:
        """Deal the next hand when every connected person is ready (and someone is there); return True if dealt."""
        game = self.game
        if self.status != PLAYING_STATUS or game is None or game.phase != HAND_OVER:
            return False
        present = self.connected_persons()
        if not present or any(s.index not in self.ready for s in present):
            return False
        self.hosting.deal_next()
        return True

    def finish(self, at: float) -> dict[str, Any] | None:
        """Once the game is over: log its replay id and share key; return the record to store (else None)."""
        if self.status != FINISHED or self.recorded or self.game is None:
            return None
        replay = {"id": secrets.randbelow(2**40) + 1, "share": secrets.token_urlsafe(16)}
        self.log("recorded", **replay)
        return game_record(self, replay, finished_at=at)

    def close(self, at: float) -> None:
        """Log that the table is closed at wall-clock time ``at`` (its finished games stay)."""
        if not self.closed:
            self.log("closed", at=at)


def table_rules(options: dict[str, Any]) -> tuple[Rules, int | None]:
    """Return the rules and the deal number a ``create`` message's options ask for, or raise ``bad_option``."""
    options = dict(options)
    deal = options.pop("deal", None)
    if deal is not None and (type(deal) is not int or not 1 <= deal <= DEAL_MAX):
        raise ProtocolError("bad_option", field="deal", problem="int_range", low=1, high=DEAL_MAX)
    try:
        rules = make_rules(options)
    except RulesError as exc:
        raise ProtocolError("bad_option", field=exc.option, problem=exc.problem, **exc.params) from None
    except (TypeError, ValueError):
        raise ProtocolError("bad_option", field="options", problem="options_together") from None
    return rules, deal
