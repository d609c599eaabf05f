"""The ``--variant`` and ``--option KEY=VALUE`` flags of the commands that set tables up (arena, bench)."""

from __future__ import annotations

import json
from typing import Any

from hartenjagen.shared.rules import RulesError
from hartenjagen.shared.variants import VARIANTS, make_rules


def add_table_flags(parser: Any) -> None:
    """Add ``--variant`` and the repeatable ``--option KEY=VALUE`` to ``parser``."""
    parser.add_argument("--variant", default="classic", choices=list(VARIANTS))
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a table option of the variant, e.g. spot_form=2, passing=scatter or seats=10 (repeatable)",
    )


def table_options(variant: str, pairs: list[str]) -> dict[str, Any]:
    """Return the options of ``--option`` pairs (a JSON value, or a bare word as a string), checked by the core.

    Raises ValueError with a sentence for the terminal when a pair has no ``=`` or the rules refuse the options.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option needs KEY=VALUE, got {pair!r}")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value  # a bare word: a string choice such as passing=scatter
    try:
        make_rules({**options, "variant": variant})
    except RulesError as exc:
        raise ValueError(str(exc)) from exc
    return options
