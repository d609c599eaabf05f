r"""The one JSON encoder for everything the server writes: messages, stored log entries, links between nodes.

With the ``speed`` extra's ``orjson`` installed it encodes (about 14 times faster here: 0.6 against 8.0 µs for a
median message; about 3.5 % less server CPU per delivered message, ``hearts bench server`` run in pairs, README
Dependencies); without it, the standard library's encoder. Both write JSON without spaces, keys in insertion order,
and read back alike; orjson writes characters past ASCII as UTF-8 where the standard library writes ``\uXXXX``
escapes (so a stored table log may hold either: ``json.loads`` reads both), and ``null`` for a float that is no
number. What orjson refuses (a lone surrogate in a string, an integer past 64 bits) the standard library encodes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

#: JSON without spaces. ``json.dumps`` with separators builds a new encoder on every call; this one is made once.
standard: Callable[[Any], str] = json.JSONEncoder(separators=(",", ":")).encode

try:
    import orjson
except ImportError:  # no speed extra: the standard library
    compact = standard
else:
    _dumps, _KEYS = orjson.dumps, orjson.OPT_NON_STR_KEYS  # keys that are no strings are written as json.dumps does

    def compact(value: Any) -> str:
        """Return ``value`` as JSON without spaces (orjson, or the standard library for what orjson refuses)."""
        try:
            return _dumps(value, option=_KEYS).decode()
        except TypeError:  # orjson.JSONEncodeError: a lone surrogate, an integer past 64 bits, ...
            return standard(value)
