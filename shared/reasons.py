"""Reason codes for refused actions and dimmed cards, with their parameters; the client words them.

A reason is ``{"code": str, "params": {name: value}}``: no sentence. The browser's language files
(``client/js/i18n/en.js`` and ``nl.js``, keys ``refused_<code>``) hold every sentence, and fill in exactly
the parameters ``REASONS`` names: a card as the core names it (``"QS"``), a suit as the core numbers it
(0 clubs, 1 diamonds, 2 spades, 3 hearts), a count, a phase, a list of choices. ``detail`` (``bad_event``,
``bad_deal``: a stored game that does not replay, never the answer to a move) is a technical note in English.
"""

from __future__ import annotations

from typing import Any

#: Every reason code the core gives, with the names of its parameters.
REASONS: dict[str, tuple[str, ...]] = {
    "must_lead_first": ("first",),
    "must_follow_suit": ("suit",),
    "hearts_not_broken": (),
    "no_points_first_trick": (),
    "queen_waits": (),
    "queen_must_go": ("high",),
    "queen_must_go_void": ("suit",),
    "may_not_pass": ("card",),
    "not_your_turn": (),
    "not_in_hand": ("card",),
    "wrong_phase": ("phase",),
    "bad_pass": ("count",),
    "already_passed": (),
    "bad_moon_choice": ("choices",),
    "bad_event": ("detail",),
    "bad_deal": ("detail",),
}

#: A reason's parameters as the rules give them: card names, suit numbers, counts, a phase, a list of choices.
Params = dict[str, Any]


def reason(code: str, **params: Any) -> dict[str, Any]:
    """Return ``{"code", "params"}`` for a reason code; the parameters must be exactly the code's (``REASONS``)."""
    if set(params) != set(REASONS[code]):
        raise TypeError(f"reason {code!r} takes {REASONS[code]}, not {sorted(params)}")
    return {"code": code, "params": params}


class IllegalAction(ValueError):
    """An action the rules refuse; carries a stable reason code and its parameters (``reason``)."""

    def __init__(self, code: str, seat: int | None = None, **params: Any) -> None:
        self.reason = reason(code, **params)
        self.code = code
        self.seat = seat
        self.params = params
        who = f"seat {seat}: " if seat is not None else ""
        super().__init__(f"{who}{code} {params}" if params else f"{who}{code}")
