"""Client messages, each declared once: its fields and their checks, where it acts, whether the offline table takes it.

``parse_message`` turns a frame into one frozen value of a declared type (or raises ``ProtocolError``), checking
every field (type, length, enum) before it reaches a table; nothing untyped travels past it. The hub's dispatch
(``server/handlers/``), the table's list of commands, the offline table and docs/protocol.md's test all read
``DECLARED``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from typing import Any, ClassVar, TypeVar, dataclass_transform

from hartenjagen.shared.bots import LEVELS
from hartenjagen.shared.cards import CARD_NAMES, parse_card

from .codes import CODE_LENGTH, table_code
from .errors import FieldProblem, ProtocolError

CHAT_MAX = 200  # code points of a chat line after trimming
#: quick phrases: every browser shows them in its own language (client/js/i18n)
PHRASES = ("well_played", "oops", "again", "thanks", "good_luck")
MAX_NAME = 24
MAX_TOKEN = 64
PLAY_NOW_WAIT = 30  # seconds "Play now" waits for people before computer players fill in (unless the person says)
PLAY_NOW_WAITS = (5, 300)  # the least and the most a person may choose
LANGS = ("en", "nl")
MAX_REASON = 200  # characters of a removal's or a report's reason
TIMER_MAX = 300  # the lower bound is the server's ``timer_min`` (default 5), checked by the hub


def kind_of(message: str | dict[str, Any] | Any) -> str:
    """Return a message's type for a log line: never its fields, which may hold tokens and share keys."""
    if isinstance(message, ClientMessage):
        return repr(message.kind)
    if isinstance(message, str):
        try:
            message = json.loads(message)
        except ValueError:
            return "(not JSON)"
    kind = message.get("type") if isinstance(message, dict) else None
    return repr(kind[:24]) if isinstance(kind, str) else "(no type)"


#: The most seats a table may have.
MAX_SEATS = 12


def _int_range(low: int, high: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not int or not low <= value <= high:
            raise FieldProblem("int_range", low=low, high=high)
        return value

    return check


def _seat(value: Any) -> int:
    return _int_range(0, MAX_SEATS - 1)(value)  # the table checks the number against its own seat count


def _text(max_len: int) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise FieldProblem("text")
        value = value.strip()
        # a zero-width joiner inside a word is printable text (family and profession emoji need it)
        joined = value.replace("\u200d", "") if "\u200d" not in (value[:1], value[-1:]) else "\n"
        if not 1 <= len(value) <= max_len or not joined.isprintable():
            raise FieldProblem("text_length", max=max_len)
        return value

    return check


def _code(value: Any) -> str:
    code = table_code(value)
    if code is None:
        raise FieldProblem("table_code", length=CODE_LENGTH)  # never echo what was sent
    return code


def _level(value: Any) -> str:
    if value not in LEVELS:
        raise FieldProblem("one_of", choices=list(LEVELS))
    return value


def _card(value: Any) -> str:
    try:
        if not isinstance(value, str) or len(value) > 3:
            raise ValueError
        return CARD_NAMES[parse_card(value)]
    except ValueError:
        raise FieldProblem("card") from None


def _cards(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 13:
        raise FieldProblem("cards")
    return tuple(_card(v) for v in value)


def _options(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) > 20:
        raise FieldProblem("options")
    return value


def _true(value: Any) -> bool:
    if value is not True:
        raise FieldProblem("true")
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise FieldProblem("bool")
    return value


DEVICE_CODE_LENGTH = 8  # letters and digits of a one-time device code (typed with or without a dash)


def _device_code(value: Any) -> str:
    if isinstance(value, str):
        code = value.replace("-", "").replace(" ", "").upper()
        if len(code) == DEVICE_CODE_LENGTH and code.isascii() and code.isalnum():
            return code
    raise FieldProblem("device_code", length=DEVICE_CODE_LENGTH)


def _device_id(value: Any) -> str:
    if isinstance(value, str) and len(value) == 16 and all(c in "0123456789abcdef" for c in value):
        return value
    raise FieldProblem("device_id")


def _lang(value: Any) -> str:
    if value not in LANGS:
        raise FieldProblem("one_of", choices=list(LANGS))
    return value


PACES = ("slow", "normal", "fast")


def _pace(value: Any) -> str:
    if value not in PACES:
        raise FieldProblem("one_of", choices=list(PACES))
    return value


def _choice(value: Any) -> str:
    if value not in ("others", "self"):
        raise FieldProblem("one_of", choices=["others", "self"])
    return value


def _timer(value: Any) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise FieldProblem("seconds")
    return value  # the range (timer_min..TIMER_MAX) depends on the server's settings: the hub checks it


def _last_seq(value: Any) -> int:
    return _int_range(0, 2**53)(value)


def _version(value: Any) -> int:
    if type(value) is not int:
        raise FieldProblem("whole_number")
    return value


def _phrase(value: Any) -> str:
    if value not in PHRASES:
        raise FieldProblem("one_of", choices=list(PHRASES))
    return value


class Where(Enum):
    """Where a client message acts: what the hub checks before the message's handler runs."""

    CONNECTION = "connection"  # answered by whoever holds the connection, before ``hello`` too (``ping``)
    IDENTITY = "identity"  # who the connection is: ``hello`` and the devices of a player
    LOBBY = "lobby"  # away from any table: a new table, Play now, a table named by its code
    TABLE = "table"  # at the table the connection sits at or watches
    HOST = "host"  # a table command only the host sends: a Play now table, which has no host, takes none


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a client message: its check (which also normalises the value) and when it may be left out."""

    name: str
    check: Callable[[Any], Any]
    required: bool
    null: bool = False  # ``null`` is a value the check reads (``set_timer.seconds``: off), not "left out"
    old: str | None = None  # the name a page loaded before the rename may still send
    relayed: bool = False  # set by a node that relays the message to another node, never read from a client


def check(
    fn: Callable[[Any], Any],
    *,
    default: Any = MISSING,
    null: bool = False,
    old: str | None = None,
    relayed: bool = False,
) -> Any:
    """Declare one field of a client message by its check; a field without a ``default`` is required."""
    return field(default=default, metadata={"check": fn, "null": null, "old": old, "relayed": relayed})


class ClientMessage:
    """A checked client message: a frozen value of one declared type, made from a frame by ``parse_message``."""

    __slots__ = ()
    kind: ClassVar[str]  # the ``type`` on the wire
    where: ClassVar[Where]
    offline: ClassVar[bool]  # the offline table (one person, no server) takes it too
    spec: ClassVar[tuple[Field, ...]]

    def to_wire(self) -> dict[str, Any]:
        """Return the message as a client sends it (what the relay carries and ``moved`` hands back)."""
        out: dict[str, Any] = {"type": self.kind}
        for f in self.spec:
            value = getattr(self, f.name)
            if value is not None or f.null:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


M = TypeVar("M", bound=ClientMessage)
#: Every message a client may send, by its ``type``: the one declaration the parse, the hub's dispatch, the offline
#: table and docs/protocol.md's test read.
DECLARED: dict[str, type[ClientMessage]] = {}
_BY_NAME: dict[str, type[ClientMessage]] = {}  # DECLARED and the old names of its types


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(check,))
def message(kind: str, where: Where, *, offline: bool = False, old: str | None = None) -> Callable[[type[M]], type[M]]:
    """Declare the client message ``kind``: its fields (a frozen dataclass), where it acts, whether offline takes it."""

    def declare(cls: type[M]) -> type[M]:
        made = dataclass(frozen=True, slots=True, kw_only=True)(cls)
        made.kind, made.where, made.offline = kind, where, offline
        made.spec = tuple(
            Field(f.name, f.metadata["check"], f.default is MISSING, f.metadata["null"], f.metadata["old"],
                  f.metadata["relayed"])
            for f in fields(made)  # type: ignore[arg-type]  # a dataclass since the line above
        )  # fmt: skip
        assert kind not in _BY_NAME, kind
        DECLARED[kind] = _BY_NAME[kind] = made
        if old is not None:
            _BY_NAME[old] = made
        return made

    return declare


@message("hello", Where.IDENTITY, offline=True)
class Hello(ClientMessage):
    """Who this connection plays as: a new player, or the one its token names."""

    version: int = check(_version)
    name: str = check(_text(MAX_NAME))
    player_token: str | None = check(_text(MAX_TOKEN), default=None)


@message("create", Where.LOBBY, offline=True)
class Create(ClientMessage):
    """Open a table with these options (or today's deal) and sit at it."""

    options: dict[str, Any] = check(_options)
    seat: int = check(_seat, default=0)
    computer_level: str = check(_level, default="medium", old="bot_level")
    daily: bool = check(_true, default=False)


@message("join", Where.LOBBY)
class Join(ClientMessage):
    """Sit at a free seat of the table with this code (the first free one without ``seat``)."""

    code: str = check(_code)
    seat: int | None = check(_seat, default=None)


@message("resume", Where.LOBBY)
class Resume(ClientMessage):
    """Back at the seat a seat token (or this player) holds, with what was missed since ``last_seq``."""

    code: str = check(_code)
    seat_token: str | None = check(_text(MAX_TOKEN), default=None)
    last_seq: int | None = check(_last_seq, default=None)


@message("my_tables", Where.LOBBY)
class MyTables(ClientMessage):
    """The open tables where this player holds a seat."""


@message("watch", Where.LOBBY)
class Watch(ClientMessage):
    """Follow the table with this code without a seat."""

    code: str = check(_code)


@message("sit", Where.TABLE)
class Sit(ClientMessage):
    """A watcher takes a seat, or a seated person moves to another."""

    seat: int = check(_seat)


@message("add_computer", Where.HOST, old="add_bot")
class AddComputer(ClientMessage):
    """A computer player at an empty seat."""

    seat: int = check(_seat)
    level: str = check(_level)


@message("remove_computer", Where.HOST, old="remove_bot")
class RemoveComputer(ClientMessage):
    """A seat's computer player goes."""

    seat: int = check(_seat)


@message("fill_computers", Where.HOST, old="fill_bots")
class FillComputers(ClientMessage):
    """Computer players in every empty seat."""

    level: str = check(_level)


@message("start", Where.HOST)
class Start(ClientMessage):
    """The game begins."""


@message("set_timer", Where.HOST)
class SetTimer(ClientMessage):
    """Seconds per move, or none (``null``)."""

    seconds: int | None = check(_timer, null=True)


@message("allow_watch", Where.HOST)
class AllowWatch(ClientMessage):
    """Let people watch, or not."""

    allowed: bool = check(_bool)


@message("allow_chat", Where.HOST)
class AllowChat(ClientMessage):
    """The table's chat on or off."""

    allowed: bool = check(_bool)


@message("mute_chat", Where.TABLE)
class MuteChat(ClientMessage):
    """A seated person turns chat off for themselves, or on again."""

    muted: bool = check(_bool)


@message("chat", Where.TABLE)
class Chat(ClientMessage):
    """A line to the table: a text or one of the phrases."""

    text: str | None = check(_text(CHAT_MAX), default=None)
    phrase: str | None = check(_phrase, default=None)


@message("new_game", Where.HOST, offline=True)
class NewGame(ClientMessage):
    """After game over, back to waiting with the same seats and options."""


@message("restart", Where.HOST, offline=True)
class Restart(ClientMessage):
    """The game starts over from its first hand."""


@message("set_pace", Where.HOST, offline=True)
class SetPace(ClientMessage):
    """How long computer players pause before they move."""

    pace: str = check(_pace)


@message("rematch", Where.TABLE)
class Rematch(ClientMessage):
    """After game over, a vote to play again with the same people."""


@message("claim", Where.TABLE, offline=True)
class Claim(ClientMessage):
    """Every remaining trick is the claimer's."""


@message("play_now", Where.LOBBY)
class PlayNow(ClientMessage):
    """Sit at an open Play now table that fits, or open one and wait there."""

    options: dict[str, Any] | None = check(_options, default=None)
    lang: str = check(_lang, default="en")
    lang_only: bool = check(_bool, default=False)
    wait: int = check(_int_range(*PLAY_NOW_WAITS), default=PLAY_NOW_WAIT)
    at_table: str = check(_code, default="", relayed=True)  # the table another node matched (``relayed_press``)


@message("set_open", Where.HOST)
class SetOpen(ClientMessage):
    """List the table on the start page for anyone to sit down, or take it off."""

    open: bool = check(_bool)
    lang: str = check(_lang, default="en")


@message("remove_player", Where.HOST)
class RemovePlayer(ClientMessage):
    """Remove a seated person between hands, with a reason everyone sees."""

    seat: int = check(_seat)
    reason: str = check(_text(MAX_REASON))


@message("report", Where.TABLE)
class Report(ClientMessage):
    """Report a person at one's table, for a reason."""

    seat: int = check(_seat)
    reason: str = check(_text(MAX_REASON))


@message("device_code", Where.IDENTITY)
class DeviceCode(ClientMessage):
    """A one-time code that signs another device in as this player."""


@message("use_device_code", Where.IDENTITY)
class UseDeviceCode(ClientMessage):
    """The connection becomes the player whose one-time code it gives."""

    code: str = check(_device_code)
    label: str = check(_text(40), default="")


@message("devices", Where.IDENTITY)
class Devices(ClientMessage):
    """The devices signed in as this player."""


@message("sign_out_device", Where.IDENTITY)
class SignOutDevice(ClientMessage):
    """A device no longer holds this player."""

    device: str = check(_device_id)


@message("pass", Where.TABLE, offline=True)
class Pass(ClientMessage):
    """The cards passed."""

    cards: tuple[str, ...] = check(_cards)


@message("play", Where.TABLE, offline=True)
class Play(ClientMessage):
    """A card played."""

    card: str = check(_card)


@message("moon", Where.TABLE, offline=True)
class Moon(ClientMessage):
    """The moon shooter's choice."""

    choice: str = check(_choice)


@message("ready", Where.TABLE, offline=True)
class Ready(ClientMessage):
    """Ready for the next hand."""


@message("hint", Where.TABLE, offline=True)
class Hint(ClientMessage):
    """The hard player's move for this seat's decision."""


@message("review", Where.TABLE)
class Review(ClientMessage):
    """A review of one's own decisions in a finished hand."""

    hand_no: int = check(_int_range(0, 10_000))


@message("leave", Where.TABLE)
class Leave(ClientMessage):
    """Stop watching, or give up the seat."""


@message("ping", Where.CONNECTION, offline=True)
class Ping(ClientMessage):
    """Is the connection alive (answered before ``hello`` too)."""


#: Every message a person sends to the table they sit at (or watch): ``Table.check_command`` refuses the rest there.
TABLE_COMMANDS = frozenset(kind for kind, cls in DECLARED.items() if cls.where in (Where.TABLE, Where.HOST))
#: The host's commands. A Play now table, where strangers meet, has no host: nobody there may send one.
HOST_COMMANDS = frozenset(kind for kind, cls in DECLARED.items() if cls.where is Where.HOST)
#: What a person can send to an offline table. The table takes only these (``Runtime.only``), and its ``table``
#: message lists them in ``commands``: the page draws the buttons of these messages only.
OFFLINE_TYPES = frozenset(kind for kind, cls in DECLARED.items() if cls.offline)
#: The messages that name a table by its code (a lobby message with a table code): the hub finds the table first.
LOCATED = frozenset(
    kind
    for kind, cls in DECLARED.items()
    if cls.where is Where.LOBBY and any(f.check is _code and not f.relayed for f in cls.spec)
)


def parse_message(frame: str | bytes) -> ClientMessage:
    """Return the checked message in ``frame`` (fields normalised) or raise ProtocolError."""
    if not isinstance(frame, str):
        raise ProtocolError("bad_json")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):  # RecursionError: arrays or objects nested too deep
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    return _build(data, _BY_NAME, relayed=False)


def parse_relayed(data: dict[str, Any]) -> ClientMessage:
    """Return the checked message another node relayed (``ClientMessage.to_wire``), or raise ProtocolError."""
    return _build(data, DECLARED, relayed=True)


def _build(data: dict[str, Any], names: dict[str, type[ClientMessage]], relayed: bool) -> ClientMessage:
    kind = data.get("type")
    cls = names.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ProtocolError("unknown_type", sent=repr(kind)[:40])  # None: no type at all
    values: dict[str, Any] = {}
    for f in cls.spec:
        name = f.name if f.old is None or f.name in data else f.old
        if f.relayed and not relayed:
            continue
        if name not in data or (data[name] is None and not f.null):
            if f.required:
                raise ProtocolError("bad_message", field=f.name, problem="missing")
            continue
        try:
            values[f.name] = f.check(data[name])
        except FieldProblem as exc:
            raise ProtocolError.of_field("bad_message", f.name, exc) from None
    return cls(**values)
