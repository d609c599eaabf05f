"""The client's sentences for the server's error codes and the core's reasons, read from its translation tables.

The server sends a code and its parameters; ``worded`` fills in the code's sentence the way the browser's
``errorText`` (``client/js/i18n.js``) does, and ``reason_worded`` a core reason's (``{code, params}``) the way its
``reasonText`` does, so a server test can read what a person would see, in either language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

I18N = Path(__file__).resolve().parents[2] / "client" / "js" / "i18n"
# one text per line, a plain string: `  error_seat_taken: "Seat {seat} is not free.",`
_LINE = re.compile(r'^  ((?:error|problem|variant|refused|review_reason)_\w+): ("(?:[^"\\]|\\.)*"),?$', re.M)
_SUITS = re.compile(r"^  refusal_suits: (\[[^\]]*\]),$", re.M)
_RANKS = re.compile(r'^  rank_short: \{ T: "(\w+)", J: "(\w+)", Q: "(\w+)", K: "(\w+)", A: "(\w+)" \},$', re.M)
_SYMBOLS = dict(zip("CDSH", "♣♦♠♥", strict=True))


def texts(lang: str) -> dict[str, str]:
    """The ``error_*``, ``problem_*``, ``variant_*``, ``refused_*`` and ``review_reason_*`` texts of the client's
    table for ``lang`` (``en``, ``nl``)."""
    return {key: json.loads(value) for key, value in _LINE.findall((I18N / f"{lang}.js").read_text())}


def card_label(card: str, lang: str) -> str:
    """A card as the client labels it in ``lang``: ``Q♠`` (``V♠`` in Dutch), ``10♦``."""
    ranks = dict(zip("TJQKA", _RANKS.findall((I18N / f"{lang}.js").read_text())[0], strict=True))
    return ranks.get(card[0], card[0]) + _SYMBOLS[card[1]]


def reason_worded(reason: dict[str, Any], lang: str = "en", prefix: str = "refused") -> str:
    """The sentence a person reading ``lang`` sees for a core reason (``review_reason`` for a review's reason)."""
    table = (I18N / f"{lang}.js").read_text()
    suits = json.loads(_SUITS.findall(table)[0])
    params = {}
    for name, value in reason["params"].items():
        if name in ("card", "first", "high"):
            params[name] = card_label(value, lang)
        elif name == "cards":
            params[name] = " ".join(card_label(c, lang) for c in value)
        elif name == "suit":
            params[name] = suits[value]
        else:
            params[name] = ", ".join(value) if isinstance(value, list) else str(value)
    return _fill(texts(lang)[f"{prefix}_{reason['code']}"], params)


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` in ``text``."""
    return set(re.findall(r"\{(\w+)\}", text))


def _value(name: str, value: Any, lang: str, words: dict[str, str]) -> str:
    if name == "reason" and isinstance(value, dict):
        return reason_worded(value, lang)
    if name == "variant" and f"variant_{value}" in words:
        return words[f"variant_{value}"]
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}".replace(",", "." if lang == "nl" else ",")
    return str(value)


def _fill(text: str, params: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: params.get(m.group(1), m.group(0)), text)


def worded(err: dict[str, Any], lang: str = "en") -> str:
    """The sentence a person reading ``lang`` sees for the ``error`` message ``err``."""
    words = texts(lang)
    params = {name: _value(name, value, lang, words) for name, value in err.items()}
    if "problem" in err:
        params["problem"] = _fill(words[f"problem_{err['problem']}"], params)
    return _fill(words[f"error_{err['code']}"], params)
