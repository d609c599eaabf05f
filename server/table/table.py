"""A table: its checked commands over its stored state, presence and runtime. No I/O here.

Each command checks who may do what now, then logs the entries that make the change. The commands are grouped by
idea: seats and presence (``seating.py``), the host's and a game's start (``hosting.py``), who moves automatically
(``turns.py``), and the moves here. The state and the fold of the log are in ``state.py``; the parts beside it in
``parts.py``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from hartenjagen.shared.cards import card_name
from hartenjagen.shared.claim import ClaimRefused, claim_plays
from hartenjagen.shared.game import HAND_OVER
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.rules import Rules, RulesError, make_rules

from .daily import DEAL_MAX
from .errors import ProtocolError
from .hosting import PLAY_NOW_TIMER, Hosting
from .parts import check_seat
from .records import game_record
from .seat_kinds import SeatKind
from .seating import MAX_WATCHERS, Seating
from .state import FINISHED, PLAYING_STATUS, WAITING, DamagedLog, Seat, Status
from .turns import Turns

__all__ = [
    "Table", "Seat", "SeatKind", "Status", "DamagedLog", "FINISHED", "PLAYING_STATUS", "WAITING", "TABLE_COMMANDS",
    "HOST_COMMANDS", "MAX_WATCHERS", "PLAY_NOW_TIMER", "check_seat", "table_rules",
]  # fmt: skip

#: Every message a person sends to the table they sit at: the hub hands each to one of a table's commands.
TABLE_COMMANDS = frozenset(
    {
        "sit", "leave", "allow_watch", "allow_chat", "chat", "mute_chat", "add_computer", "remove_computer",
        "fill_computers", "set_timer", "start", "restart", "new_game", "set_pace", "rematch", "claim", "set_open",
        "remove_player", "report", "pass", "play", "moon", "ready", "hint", "review",
    }
)  # fmt: skip
#: The host's commands. A Play now table, where strangers meet, has no host: nobody there may send one.
HOST_COMMANDS = frozenset(
    {
        "add_computer", "remove_computer", "fill_computers", "start", "allow_watch", "allow_chat", "set_timer",
        "restart", "new_game", "set_pace", "set_open", "remove_player",
    }
)  # fmt: skip


class Table(Seating, Hosting, Turns):
    """One table; every command checks first and changes nothing when it raises ProtocolError."""

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
        table._log("created", code=code, options=options, bot_level=computer_level, deal=deal, daily=daily, at=at)
        return table

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
            raise ProtocolError("not_now", detail=("this table does not take it", "deze tafel neemt dat niet aan"))

    def mute_chat(self, seat: int, muted: bool) -> None:
        """A seated person turns chat off for themselves (no line reaches their seat), or on again.

        At a Play now table, which has no host, chat stops for everyone while half the people seated there turned it
        off (``chat_voted_off``). Logged, so it survives a restart; it goes with the seat's person.
        """
        if muted != (seat in self.chat_muted):
            self._log("mute_chat", seat=seat, muted=muted)

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

    def act(self, seat: int, intent: Mapping[str, Any], auto: bool = False) -> None:
        """Apply a pass, play or moon intent for ``seat``; the game core's refusal becomes an ``illegal`` error."""
        if self.game is None or self.status != PLAYING_STATUS:
            raise ProtocolError("not_now", detail=("no game is being played", "er wordt geen spel gespeeld"))
        kind = intent["type"]
        try:
            if kind == "pass":
                # ``auto``: a computer player passed for a person who let the turn timer run out (or is away)
                self._log("pass", seat=seat, cards=list(intent["cards"]), **({"auto": True} if auto else {}))
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
        present = self.connected_persons()
        if not present or any(s.index not in self.ready for s in present):
            return False
        self._deal_next()
        return True

    def finish(self, at: float) -> dict[str, Any] | None:
        """Once the game is over: log its replay id and share key; return the record to store (else None)."""
        if self.status != FINISHED or self.recorded or self.game is None:
            return None
        replay = {"id": secrets.randbelow(2**40) + 1, "share": secrets.token_urlsafe(16)}
        self._log("recorded", **replay)
        return game_record(self, replay, finished_at=at)

    def close(self, at: float) -> None:
        """Log that the table is closed at wall-clock time ``at`` (its finished games stay)."""
        if not self.closed:
            self._log("closed", at=at)


#: Why a claim is refused, in both languages.
CLAIM_REASONS = {
    "claim_fails": (
        "another player can still take a trick with the cards they hold",
        "een andere speler kan met zijn kaarten nog een slag halen",
    ),
    "claim_turn": ("claim when it is your turn to play", "claim als jij aan de beurt bent om te spelen"),
    "claim_unsure": (
        "too many tricks are left to check this claim: play on, it is offered once it is sure",
        "er zijn nog te veel slagen over om deze claim na te gaan: speel door, hij wordt aangeboden zodra hij zeker is",
    ),
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
