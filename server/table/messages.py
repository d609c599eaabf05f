"""Incoming messages: parse a frame and check every field (type, length, enum) before it reaches a table."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hartenjagen.shared.bots import LEVELS
from hartenjagen.shared.cards import CARD_NAMES, parse_card

from .chat import CHAT_MAX, PHRASES
from .codes import CODE_LENGTH, table_code
from .errors import ProtocolError

PROTOCOL_VERSION = 1
MAX_NAME = 24
MAX_TOKEN = 64
PLAY_NOW_WAIT = 30  # seconds "Play now" waits for people before computer players fill in (unless the person says)
PLAY_NOW_WAITS = (5, 300)  # the least and the most a person may choose
LANGS = ("en", "nl")
MAX_REASON = 200  # characters of a removal's or a report's reason
TIMER_MAX = 300  # the lower bound is the server's ``timer_min`` (default 5), checked by the hub


def kind_of(message: str | dict[str, Any] | Any) -> str:
    """Return a message's type for a log line: never its fields, which may hold tokens and share keys."""
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
            raise ValueError(f"a whole number from {low} to {high}", f"een heel getal van {low} tot en met {high}")
        return value

    return check


def _seat(value: Any) -> int:
    return _int_range(0, MAX_SEATS - 1)(value)  # the table checks the number against its own seat count


def _text(max_len: int) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise ValueError("text", "tekst")
        value = value.strip()
        # a zero-width joiner inside a word is printable text (family and profession emoji need it)
        joined = value.replace("\u200d", "") if "\u200d" not in (value[:1], value[-1:]) else "\n"
        if not 1 <= len(value) <= max_len or not joined.isprintable():
            raise ValueError(f"1 to {max_len} printable characters", f"1 tot {max_len} leesbare tekens")
        return value

    return check


def _code(value: Any) -> str:
    code = table_code(value)
    if code is None:
        raise ValueError(
            f"a table code of {CODE_LENGTH} letters and digits", f"een tafelcode van {CODE_LENGTH} letters en cijfers"
        )  # never echo what was sent
    return code


def _level(value: Any) -> str:
    if value not in LEVELS:
        raise ValueError(f"one of {', '.join(LEVELS)}", f"een van {', '.join(LEVELS)}")
    return value


def _card(value: Any) -> str:
    try:
        if not isinstance(value, str) or len(value) > 3:
            raise ValueError
        return CARD_NAMES[parse_card(value)]
    except ValueError:
        raise ValueError("a card name such as QS", "een kaartnaam zoals QS") from None


def _cards(value: Any) -> list[str]:
    if not isinstance(value, list) or not 1 <= len(value) <= 13:
        raise ValueError("a list of card names", "een lijst met kaartnamen")
    return [_card(v) for v in value]


def _options(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) > 20:
        raise ValueError("an object of table options", "een object met tafelopties")
    return value


def _true(value: Any) -> bool:
    if value is not True:
        raise ValueError("true (or leave it out)", "true (of laat het weg)")
    return value


def _bool(value: Any) -> bool:
    if type(value) is not bool:
        raise ValueError("true or false", "true of false")
    return value


DEVICE_CODE_LENGTH = 8  # letters and digits of a one-time device code (typed with or without a dash)


def _device_code(value: Any) -> str:
    if isinstance(value, str):
        code = value.replace("-", "").replace(" ", "").upper()
        if len(code) == DEVICE_CODE_LENGTH and code.isascii() and code.isalnum():
            return code
    raise ValueError(f"{DEVICE_CODE_LENGTH} letters and digits", f"{DEVICE_CODE_LENGTH} letters en cijfers")


def _device_id(value: Any) -> str:
    if isinstance(value, str) and len(value) == 16 and all(c in "0123456789abcdef" for c in value):
        return value
    raise ValueError("a device id from the devices list", "een apparaat uit de lijst van apparaten")


def _lang(value: Any) -> str:
    if value not in LANGS:
        raise ValueError(f"one of {', '.join(LANGS)}", f"een van {', '.join(LANGS)}")
    return value


PACES = ("slow", "normal", "fast")


def _pace(value: Any) -> str:
    if value not in PACES:
        raise ValueError(f"one of {', '.join(PACES)}", f"een van {', '.join(PACES)}")
    return value


def _choice(value: Any) -> str:
    if value not in ("others", "self"):
        raise ValueError('"others" or "self"', '"others" of "self"')
    return value


def _timer(value: Any) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise ValueError("a whole number of seconds or null", "een heel aantal seconden of null")
    return value  # the range (timer_min..TIMER_MAX) depends on the server's settings: the hub checks it


def _last_seq(value: Any) -> int:
    return _int_range(0, 2**53)(value)


def _version(value: Any) -> int:
    if type(value) is not int:
        raise ValueError("a whole number", "een heel getal")
    return value


def _phrase(value: Any) -> str:
    if value not in PHRASES:
        raise ValueError(f"one of {', '.join(PHRASES)}", f"een van {', '.join(PHRASES)}")
    return value


# type -> {field: (check, required)}
SCHEMAS: dict[str, dict[str, tuple[Callable[[Any], Any], bool]]] = {
    "hello": {"version": (_version, True), "name": (_text(MAX_NAME), True), "player_token": (_text(MAX_TOKEN), False)},
    "create": {
        "options": (_options, True),
        "seat": (_seat, False),
        "computer_level": (_level, False),
        "daily": (_true, False),
    },
    "join": {"code": (_code, True), "seat": (_seat, False)},
    "resume": {"code": (_code, True), "seat_token": (_text(MAX_TOKEN), False), "last_seq": (_last_seq, False)},
    "my_tables": {},
    "watch": {"code": (_code, True)},
    "sit": {"seat": (_seat, True)},
    "add_computer": {"seat": (_seat, True), "level": (_level, True)},
    "remove_computer": {"seat": (_seat, True)},
    "fill_computers": {"level": (_level, True)},
    "start": {},
    "set_timer": {"seconds": (_timer, True)},
    "allow_watch": {"allowed": (_bool, True)},
    "allow_chat": {"allowed": (_bool, True)},
    "mute_chat": {"muted": (_bool, True)},
    "chat": {"text": (_text(CHAT_MAX), False), "phrase": (_phrase, False)},
    "new_game": {},
    "restart": {},
    "set_pace": {"pace": (_pace, True)},
    "rematch": {},
    "claim": {},
    "play_now": {
        "options": (_options, False),
        "lang": (_lang, False),
        "lang_only": (_bool, False),
        "wait": (_int_range(*PLAY_NOW_WAITS), False),
    },
    "set_open": {"open": (_bool, True), "lang": (_lang, False)},
    "remove_player": {"seat": (_seat, True), "reason": (_text(MAX_REASON), True)},
    "report": {"seat": (_seat, True), "reason": (_text(MAX_REASON), True)},
    "device_code": {},
    "use_device_code": {"code": (_device_code, True), "label": (_text(40), False)},
    "devices": {},
    "sign_out_device": {"device": (_device_id, True)},
    "pass": {"cards": (_cards, True)},
    "play": {"card": (_card, True)},
    "moon": {"choice": (_choice, True)},
    "ready": {},
    "hint": {},
    "review": {"hand_no": (_int_range(0, 10_000), True)},
    "leave": {},
    "ping": {},
}

#: Old names a page loaded before the rename may still send: a message type, or a field per message type.
OLD_TYPES = {"add_bot": "add_computer", "remove_bot": "remove_computer", "fill_bots": "fill_computers"}
OLD_FIELDS = {"create": {"bot_level": "computer_level"}}


def parse_message(frame: str | bytes) -> dict[str, Any]:
    """Return the checked message in ``frame`` (fields normalised) or raise ProtocolError."""
    if not isinstance(frame, str):
        raise ProtocolError("bad_json")
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError):  # RecursionError: arrays or objects nested too deep
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json")
    kind = data.get("type")
    if isinstance(kind, str):
        kind = OLD_TYPES.get(kind, kind)
        for old, new in OLD_FIELDS.get(kind, {}).items():
            if old in data and new not in data:
                data[new] = data.pop(old)
    if not isinstance(kind, str) or kind not in SCHEMAS:
        shown = repr(kind)[:40] if kind is not None else "(missing)"
        raise ProtocolError("unknown_type", type=shown)
    schema = SCHEMAS[kind]
    out: dict[str, Any] = {"type": kind}
    for name, (check, required) in schema.items():
        if name not in data or (data[name] is None and name != "seconds"):
            if required:
                raise ProtocolError("bad_message", field=name, detail=("missing", "ontbreekt"))
            continue
        try:
            out[name] = check(data[name])
        except ValueError as exc:
            en, nl = (*exc.args, *exc.args)[:2] if exc.args else ("", "")
            raise ProtocolError("bad_message", field=name, detail=(f"expected {en}", f"verwacht: {nl}")) from None
    return out
