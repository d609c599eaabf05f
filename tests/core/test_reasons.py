"""Reason codes: every refusal is a stable code with exactly its parameters, and no sentence (the client words it)."""

import json
import re
from pathlib import Path

import pytest

from hartenjagen.shared.reasons import REASONS, IllegalAction, reason

SHARED = Path(__file__).resolve().parents[2] / "shared"

# The parameters the core passes with each code.
PARAMS = {
    "must_lead_first": {"first": "2C"},
    "must_follow_suit": {"suit": 2},
    "hearts_not_broken": {},
    "no_points_first_trick": {},
    "not_your_turn": {},
    "not_in_hand": {"card": "QS"},
    "wrong_phase": {"phase": "passing"},
    "bad_pass": {"count": 3},
    "already_passed": {},
    "bad_moon_choice": {"choices": ["others", "self"]},
    "bad_event": {"detail": "unknown type 'x'"},
    "bad_deal": {"detail": "four hands are needed"},
    "queen_waits": {},
    "queen_must_go": {"high": "AS"},
    "queen_must_go_void": {"suit": 1},
    "may_not_pass": {"card": "2C"},
}


def test_every_code_the_core_gives_is_declared_with_its_parameters():
    source = "\n".join(p.read_text() for p in sorted(SHARED.glob("*.py")))
    given = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))
    given |= set(re.findall(r'return "([a-z_]+)", \{', source))  # legal.refusal and Game.hand_refusal
    given |= set(re.findall(r'_reason\("(may_not_pass)"', source))  # the view's pass refusals
    assert given == set(REASONS) == set(PARAMS)


@pytest.mark.parametrize("code", sorted(PARAMS))
def test_a_reason_is_its_code_and_parameters_only(code):
    r = reason(code, **PARAMS[code])
    assert r == {"code": code, "params": PARAMS[code]}
    assert json.loads(json.dumps(r)) == r


def test_a_reason_takes_exactly_its_code_s_parameters():
    with pytest.raises(TypeError):
        reason("must_follow_suit")
    with pytest.raises(TypeError):
        reason("not_your_turn", card="QS")


def test_an_illegal_action_is_a_value_error_naming_seat_code_and_parameters():
    err = IllegalAction("not_in_hand", 2, card="QS")
    assert isinstance(err, ValueError)
    assert str(err) == "seat 2: not_in_hand {'card': 'QS'}"
    assert (err.code, err.seat, err.params) == ("not_in_hand", 2, {"card": "QS"})
    assert err.reason == {"code": "not_in_hand", "params": {"card": "QS"}}
    assert str(IllegalAction("already_passed")) == "already_passed"
