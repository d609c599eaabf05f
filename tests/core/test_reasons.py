"""Reason codes: every refusal has an English and a Dutch sentence with its details filled in."""

import pytest

from hartenjagen.shared.reasons import MESSAGES, IllegalAction, card_label, reason

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
    "bad_moon_choice": {"choices": "others, self"},
    "bad_event": {"detail": "unknown type 'x'"},
    "bad_deal": {"detail": "four hands are needed"},
    "queen_waits": {},
    "queen_must_go": {"high": "AS"},
    "queen_must_go_void": {"suit": 1},
    "may_not_pass": {"card": "2C"},
}


def test_every_code_the_core_uses_has_sentences():
    assert set(PARAMS) == set(MESSAGES)


@pytest.mark.parametrize("code", sorted(PARAMS))
def test_each_reason_fills_in_both_sentences(code):
    r = reason(code, **PARAMS[code])
    assert r["code"] == code
    for lang in ("en", "nl"):
        assert r[lang] and "{" not in r[lang] and "}" not in r[lang]


@pytest.mark.parametrize(
    ("code", "params", "en", "nl"),
    [
        ("not_in_hand", {"card": "QS"}, "Q♠", "V♠"),
        ("not_in_hand", {"card": "TH"}, "10♥", "10♥"),
        ("not_in_hand", {"card": "JC"}, "J♣", "B♣"),
        ("must_lead_first", {"first": "2C"}, "2♣", "2♣"),
        ("must_follow_suit", {"suit": 1}, "diamond", "ruiten"),
        ("bad_pass", {"count": 3}, "3", "3"),
    ],
)
def test_sentences_name_the_card_or_suit_in_each_language(code, params, en, nl):
    r = reason(code, **params)
    assert en in r["en"] and nl in r["nl"]


def test_card_labels_use_dutch_rank_letters_in_dutch():
    assert [card_label(n, "nl") for n in ("KH", "QS", "JD", "AC")] == ["H♥", "V♠", "B♦", "A♣"]
    assert [card_label(n) for n in ("KH", "QS", "JD", "AC")] == ["K♥", "Q♠", "J♦", "A♣"]


def test_an_illegal_action_is_a_value_error_naming_seat_sentence_and_code():
    err = IllegalAction("not_in_hand", 2, card="QS")
    assert isinstance(err, ValueError)
    assert str(err) == "seat 2: You do not hold Q♠. [not_in_hand]"
    assert (err.code, err.seat, err.reason["code"]) == ("not_in_hand", 2, "not_in_hand")
