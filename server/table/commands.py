"""The table commands every hub goes through: the online hub, the offline table and the computer players' moves.

``COMMANDS`` lists every message a client may send and whether the offline table takes it too (``OFFLINE_TYPES``).
A hint and a computer move each come in two halves around the decision, so that the online hub decides with its
worker processes (awaited) and the offline table in its own thread, both through the same checks and sentences:
``hint_asked`` then ``hint_answer``, ``computer_turn`` then ``computer_play``.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any

from hartenjagen.shared.bots.base import Intent
from hartenjagen.shared.bots.choice import decide, fallback, fits
from hartenjagen.shared.view import View, view_for

from .errors import ProtocolError
from .seat_view import hint_message
from .table import PLAYING_STATUS, SeatKind, Table

log = logging.getLogger("hearts.server")
HINT_NOT_NOW = ("a hint only when it is your move", "een tip alleen als jij aan zet bent")


@dataclass(frozen=True)
class Command:
    """How one message type is taken: ``offline`` when the offline table (one person, no server) takes it too."""

    offline: bool = False


ONLINE, BOTH = Command(), Command(offline=True)
#: Every message a client may send. The rest of what the offline table refuses (chat, watching, seats, timers, a
#: rematch vote) needs other people or the server.
COMMANDS: dict[str, Command] = {
    "ping": BOTH, "hello": BOTH, "create": BOTH,
    "pass": BOTH, "play": BOTH, "moon": BOTH, "ready": BOTH, "hint": BOTH, "claim": BOTH,
    "restart": BOTH, "new_game": BOTH, "set_pace": BOTH,
    "join": ONLINE, "resume": ONLINE, "watch": ONLINE, "sit": ONLINE, "leave": ONLINE, "my_tables": ONLINE,
    "play_now": ONLINE, "allow_watch": ONLINE, "allow_chat": ONLINE, "chat": ONLINE, "mute_chat": ONLINE,
    "add_computer": ONLINE,
    "remove_computer": ONLINE, "fill_computers": ONLINE, "set_timer": ONLINE, "start": ONLINE, "rematch": ONLINE,
    "set_open": ONLINE, "remove_player": ONLINE, "report": ONLINE, "review": ONLINE,
    "device_code": ONLINE, "use_device_code": ONLINE, "devices": ONLINE, "sign_out_device": ONLINE,
}  # fmt: skip
#: What a person can send to an offline table. The table takes only these (``Runtime.only``), and its ``table``
#: message lists them in ``commands``: the page draws the buttons of these messages only.
OFFLINE_TYPES = frozenset(kind for kind, command in COMMANDS.items() if command.offline)


def act(table: Table, seat: int, intent: dict[str, Any]) -> None:
    """A pass, a card played or a moon choice from the person at ``seat``: the game core checks it."""
    table.act(seat, intent)


@dataclass(frozen=True)
class HintAsk:
    """A hint asked for that the hard player has yet to decide, from ``view``, for the decision ``key``."""

    seat: int
    key: tuple[Any, ...] | None
    view: View


def hint_asked(table: Table, seat: int) -> dict[str, Any] | HintAsk:
    """Refuse a hint unless ``seat`` is to move; else the cached ``hint`` message, or the decision to make."""
    game = table.game
    if game is None or table.status != PLAYING_STATUS or seat not in game.to_act():
        raise ProtocolError("not_now", detail=HINT_NOT_NOW)
    if seat in table.runtime.hints:  # one hard-player search per decision, however often it is asked
        return table.runtime.hints[seat]
    return HintAsk(seat, table.current_key(), view_for(game, seat))


def hint_answer(table: Table, ask: HintAsk, intent: Intent | None, keep: bool = True) -> dict[str, Any]:
    """Return the ``hint`` message for the hard player's ``intent``; kept for the decision while it is current."""
    view = ask.view
    if not fits(intent, view):
        log.warning("the hard computer player hinted %r; hinting a simple legal move instead", intent)
        intent = simple_move(view)
    if intent["type"] == "pass":
        answer = hint_message(list(intent["cards"]), None)
    elif intent["type"] == "play":
        answer = hint_message([intent["card"]], None)
    else:
        answer = hint_message([], intent["choice"])
    if keep and table.current_key() == ask.key == table.runtime.decision_key:
        table.runtime.hints[ask.seat] = answer
    return answer


@dataclass(frozen=True)
class Turn:
    """A computer's move to decide: at ``seat``, at ``level``, from ``view``, for the decision ``key``."""

    seat: int
    level: str
    key: tuple[Any, ...] | None
    view: View
    for_human: bool  # it moves for a person who is away or out of time


def computer_turn(table: Table, s: int) -> Turn:
    """Return the move the computer at seat ``s`` is to decide now: its level and the view it decides from."""
    seat = table.seats[s]
    level = seat.level if seat.kind == SeatKind.COMPUTER and seat.level is not None else table.computer_level
    return Turn(s, level, table.current_key(), view_for(table.current_game, s), seat.kind == SeatKind.PERSON)


def computer_play(table: Table, turn: Turn, intent: Intent | None) -> bool:
    """Apply the decided ``intent`` if the table still waits for that decision (False when it moved on)."""
    s = turn.seat
    if table.current_key() != turn.key or s not in table.auto_seats():
        return False  # the table moved on (or the person came back) while the computer thought
    if not fits(intent, turn.view):
        log.warning("computer %s chose %r at seat %s; playing a simple legal move", turn.level, intent, s)
        intent = simple_move(turn.view)
    table.act(s, intent, auto=turn.for_human)
    return True


def simple_move(view: View) -> Intent:
    """Return a simple legal move for ``view``'s seat, which is to move (a computer player failed or erred)."""
    move = fallback(view)
    if move is None:
        raise ValueError(f"seat {view['seat']} is not to move: no simple move")
    return move


#: The hard player in the browser's worker (the offline table: no compiled look-ahead, and maybe a phone) stops by the
#: clock after this long, whatever its budget: it thinks within the pause before a computer player's move is shown,
#: and a decision ends within 300 ms on a slow phone (docs/offline.md gives the figures and its strength there).
WORKER_MAX_MS = 200.0


def decide_here(level: str, view: View, seed: int | None = None) -> Intent | None:
    """Decide in this thread (the offline table's worker): a computer player that fails plays a simple legal move."""
    try:
        seed = secrets.randbits(32) if seed is None else seed
        return decide(level, seed, view, max_ms=WORKER_MAX_MS)
    except Exception:  # a broken computer player must never stall a table
        return fallback(view)
