"""The client's sentences for the server's error codes, read from its translation tables (``client/js/i18n/``).

The server sends a code and its parameters; ``worded`` fills in the code's sentence the way the browser's
``errorText`` (``client/js/i18n.js``) does, so a server test can read what a person would see, in either language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

I18N = Path(__file__).resolve().parents[2] / "client" / "js" / "i18n"
# one text per line, a plain string: `  error_seat_taken: "Seat {seat} is not free.",`
_LINE = re.compile(r'^  ((?:error|problem|variant)_\w+): ("(?:[^"\\]|\\.)*"),?$', re.M)


def texts(lang: str) -> dict[str, str]:
    """The ``error_*``, ``problem_*`` and ``variant_*`` texts of the client's table for ``lang`` (``en``, ``nl``)."""
    return {key: json.loads(value) for key, value in _LINE.findall((I18N / f"{lang}.js").read_text())}


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` in ``text``."""
    return set(re.findall(r"\{(\w+)\}", text))


def _value(name: str, value: Any, lang: str, words: dict[str, str]) -> str:
    if name == "reason" and isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or value.get("code", ""))
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
