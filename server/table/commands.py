"""The table commands every hub goes through: the online hub, the offline table and the computer players' moves.

``TABLE_COMMAND`` holds the command of each table message that is a plain change of the table (bound with
``@command``; the messages are declared in ``messages.py``): the hub's handlers and the offline table run it alike
(``run``), each with what it does by nature around it. A hint and a computer move each come in two halves around
the decision, so that the online hub decides with its worker processes (awaited) and the offline table in its own
thread, both through the same checks and sentences:
``hint_asked`` then ``hint_answer``, ``computer_turn`` then ``computer_play``.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from hartenjagen.shared.bots.base import Intent
from hartenjagen.shared.bots.choice import decide, fallback, fits
from hartenjagen.shared.view import View, view_for

from .errors import ProtocolError
from .messages import (
    AddComputer,
    AllowChat,
    AllowWatch,
    Claim,
    ClientMessage,
    FillComputers,
    Moon,
    MuteChat,
    NewGame,
    Pass,
    Play,
    Ready,
    Rematch,
    RemoveComputer,
    Restart,
    SetOpen,
    SetPace,
    SetTimer,
    Start,
    Where,
)  # fmt: skip
from .seat_view import hint_message
from .table import PLAYING_STATUS, SeatKind, Table

log = logging.getLogger("hearts.server")


TableCommand = Callable[[Table, int, Any, float], None]
C = TypeVar("C", bound=TableCommand)
#: The table command of each message that has one, by message type: a function of the table, the sender's seat, the
#: checked message and the wall-clock time. The hub's handlers and the offline table both run it (``run``).
TABLE_COMMAND: dict[str, TableCommand] = {}


def command(*types: type[ClientMessage]) -> Callable[[C], C]:
    """Bind the decorated function as the table command of each of the table messages ``types``."""

    def bind(fn: C) -> C:
        for cls in types:
            assert cls.where in (Where.TABLE, Where.HOST) and cls.kind not in TABLE_COMMAND, cls.kind
            TABLE_COMMAND[cls.kind] = fn
        return fn

    return bind


def run(table: Table, seat: int, msg: ClientMessage, at: float) -> None:
    """Run the table command of ``msg`` for the person at ``seat`` at wall-clock time ``at``: online and offline."""
    TABLE_COMMAND[msg.kind](table, seat, msg, at)


@command(Pass, Play, Moon)
def act(table: Table, seat: int, msg: Pass | Play | Moon, at: float) -> None:
    """A pass, a card played or a moon choice from the person at ``seat``: the game core checks it."""
    table.act(seat, msg.to_wire())


@command(Ready)
def ready(table: Table, seat: int, msg: Ready, at: float) -> None:
    """The person at ``seat`` is ready for the next hand."""
    table.set_ready(seat)


@command(Claim)
def claim(table: Table, seat: int, msg: Claim, at: float) -> None:
    """The person at ``seat`` claims every remaining trick."""
    table.claim(seat)


@command(Rematch)
def rematch(table: Table, seat: int, msg: Rematch, at: float) -> None:
    """After game over, a vote to play again with the same people."""
    table.hosting.vote_rematch(seat, at)


@command(MuteChat)
def mute_chat(table: Table, seat: int, msg: MuteChat, at: float) -> None:
    """The person at ``seat`` turns chat off for themselves (at a Play now table half the people stop it), or on."""
    table.mute_chat(seat, msg.muted)


@command(AllowWatch)
def allow_watch(table: Table, seat: int, msg: AllowWatch, at: float) -> None:
    """Let people watch, or not."""
    table.hosting.set_watch(seat, msg.allowed)


@command(AllowChat)
def allow_chat(table: Table, seat: int, msg: AllowChat, at: float) -> None:
    """The table's chat on or off."""
    table.hosting.set_chat(seat, msg.allowed)


@command(AddComputer)
def add_computer(table: Table, seat: int, msg: AddComputer, at: float) -> None:
    """A computer player at that seat."""
    table.hosting.add_computer(seat, msg.seat, msg.level)


@command(RemoveComputer)
def remove_computer(table: Table, seat: int, msg: RemoveComputer, at: float) -> None:
    """That seat's computer player goes."""
    table.hosting.remove_computer(seat, msg.seat)


@command(FillComputers)
def fill_computers(table: Table, seat: int, msg: FillComputers, at: float) -> None:
    """Computer players in every empty seat."""
    table.hosting.fill_computers(seat, msg.level)


@command(Start)
def start(table: Table, seat: int, msg: Start, at: float) -> None:
    """The game begins."""
    table.hosting.start(seat, at)


@command(Restart)
def restart(table: Table, seat: int, msg: Restart, at: float) -> None:
    """The game starts over from its first hand, with the same deals, seats and options."""
    table.hosting.restart(seat, at)


@command(NewGame)
def new_game(table: Table, seat: int, msg: NewGame, at: float) -> None:
    """After game over, back to waiting with the same seats and options."""
    table.hosting.new_game(seat)


@command(SetTimer)
def set_timer(table: Table, seat: int, msg: SetTimer, at: float) -> None:
    """Seconds per move, or none (the server's least is checked by the hub's handler first)."""
    table.hosting.set_timer(seat, msg.seconds)


@command(SetPace)
def set_pace(table: Table, seat: int, msg: SetPace, at: float) -> None:
    """How long computer players pause before they move."""
    table.hosting.set_pace(seat, msg.pace)


@command(SetOpen)
def set_open(table: Table, seat: int, msg: SetOpen, at: float) -> None:
    """List the table on the start page for anyone to sit down, or take it off."""
    table.hosting.set_open(seat, msg.open, msg.lang)


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
        raise ProtocolError("hint_not_your_move")
    if seat in table.runtime.hints:  # one hard-player search per decision, however often it is asked
        return table.runtime.hints[seat]
    return HintAsk(seat, table.turns.current_key(), view_for(game, seat))


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
    if keep and table.turns.current_key() == ask.key == table.runtime.decision_key:
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
    return Turn(s, level, table.turns.current_key(), view_for(table.current_game, s), seat.kind == SeatKind.PERSON)


def computer_play(table: Table, turn: Turn, intent: Intent | None) -> bool:
    """Apply the decided ``intent`` if the table still waits for that decision (False when it moved on)."""
    s = turn.seat
    if table.turns.current_key() != turn.key or s not in table.turns.auto_seats():
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
