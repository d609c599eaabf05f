"""Rules as data: host options become validated Rules; bad options are refused by name."""

import pytest

from hartenjagen.shared.cards import mask_names
from hartenjagen.shared.rules import RulesError
from hartenjagen.shared.variants import CLASSIC, DUTCH, make_rules


def test_classic_defaults_are_black_lady_with_26_points_and_the_2c_lead():
    r = CLASSIC
    assert (r.variant, r.hand_size, r.moon_total, r.pass_count) == ("classic", 13, 26, 3)
    assert mask_names(r.penalty_mask) == ["QS"] + [x + "H" for x in "23456789TJQKA"]
    assert mask_names(1 << r.first_lead) == ["2C"]
    assert r.hearts_must_break and not r.queen_breaks_hearts and not r.first_trick_points
    assert (r.moon, r.end, r.end_score, r.tie) == ("others", "reach", 100, "share")


def test_dutch_defaults_are_32_cards_15_points_no_passing_and_a_free_lead():
    r = DUTCH
    assert (r.variant, r.hand_size, r.moon_total, r.pass_cycle) == ("dutch", 8, 15, ())
    assert mask_names(r.penalty_mask) == ["JC", "QS"] + [x + "H" for x in "789TJQKA"]
    assert r.first_lead == -1 and not r.hearts_must_break and r.first_trick_points
    assert (r.moon, r.end, r.turn_score, r.exact_zero) == ("choose", "dutch", 50, False)


@pytest.mark.parametrize(
    ("options", "card", "points"),
    [
        ({}, "QS", 13),
        ({}, "2H", 1),
        ({}, "JC", 0),
        ({}, "JD", 0),
        ({"jack_of_diamonds": -10}, "JD", -10),
        ({"variant": "dutch"}, "QS", 5),
        ({"variant": "dutch"}, "JC", 2),
        ({"variant": "dutch"}, "7H", 1),
        ({"variant": "dutch", "queen_value": 13}, "QS", 13),
        ({"variant": "dutch", "jack_of_clubs": 0}, "JC", 0),
        ({"variant": "dutch", "jack_of_diamonds": -10}, "JD", -10),
    ],
)
def test_card_points_follow_the_options(options, card, points):
    from hartenjagen.shared.cards import parse_card

    assert make_rules(options).card_points[parse_card(card)] == points


@pytest.mark.parametrize(
    ("options", "moon_total"),
    [
        ({"variant": "dutch", "queen_value": 13}, 23),
        ({"variant": "dutch", "jack_of_clubs": 0}, 13),
        ({"variant": "dutch", "jack_of_diamonds": -10}, 15),
        ({"jack_of_diamonds": -10}, 26),
    ],
)
def test_a_moon_needs_every_positive_point_card_and_the_bonus_jack_is_not_one(options, moon_total):
    r = make_rules(options)
    assert r.moon_total == moon_total
    assert not r.penalty_mask & (1 << 23)  # JD (diamond jack) never counts towards a moon


@pytest.mark.parametrize(
    ("passing", "first_six"),
    [
        ("cycle", ["left", "right", "across", "hold", "left", "right"]),
        ("off", ["hold"] * 6),
        ("left", ["left"] * 6),
        ("right", ["right"] * 6),
    ],
)
def test_the_passing_option_sets_the_direction_of_each_hand(passing, first_six):
    from hartenjagen.shared.rules import PASS_NAMES

    r = make_rules({"passing": passing})
    assert [PASS_NAMES[r.pass_offset(n)] for n in range(6)] == first_six


def test_east_deals_first_and_the_deal_rotates_in_play_order():
    assert [DUTCH.dealer(n) for n in range(6)] == [3, 0, 1, 2, 3, 0]


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"variant": "bridge"}, "variant"),
        ({"variant": ["dutch"]}, "variant"),
        ({"variant": None}, "variant"),
        ({"passing": "across"}, "passing"),
        ({"passing": ["left"]}, "passing"),
        ({"end_score": 24}, "end_score"),
        ({"end_score": 501}, "end_score"),
        ({"end_score": 100.0}, "end_score"),
        ({"end_score": "100"}, "end_score"),
        ({"end_score": True}, "end_score"),
        ({"queen_breaks_hearts": 1}, "queen_breaks_hearts"),
        ({"queen_breaks_hearts": "yes"}, "queen_breaks_hearts"),
        ({"moon": "choose!"}, "moon"),
        ({"jack_of_diamonds": -11}, "jack_of_diamonds"),
        ({"jack_of_diamonds": False}, "jack_of_diamonds"),
        ({"tie": "split"}, "tie"),
        ({"first_trick_points": None}, "first_trick_points"),
        ({"colour": "red"}, "colour"),
        ({"turn_score": 50}, "turn_score"),
        ({"queen_value": 13}, "queen_value"),
        ({"variant": "dutch", "end_score": 100}, "end_score"),
        ({"variant": "dutch", "queen_breaks_hearts": True}, "queen_breaks_hearts"),
        ({"variant": "dutch", "turn_score": 24}, "turn_score"),
        ({"variant": "dutch", "turn_score": 201}, "turn_score"),
        ({"variant": "dutch", "dutch_end": "exact"}, "dutch_end"),
        ({"variant": "dutch", "queen_value": 6}, "queen_value"),
        ({"variant": "dutch", "jack_of_clubs": 1}, "jack_of_clubs"),
    ],
)
def test_a_bad_option_is_refused_naming_the_option(options, option):
    with pytest.raises(RulesError) as info:
        make_rules(options)
    assert info.value.option == option
    assert info.value.code == "bad_option"
    assert repr(option) in str(info.value)


@pytest.mark.parametrize(
    "options",
    [
        {"end_score": 25},
        {"end_score": 500},
        {"variant": "dutch", "turn_score": 25},
        {"variant": "dutch", "turn_score": 200},
        {"variant": "dutch", "dutch_end": "exactly_zero", "moon": "self", "tie": "play_on", "passing": "cycle"},
        {"moon": "choose", "queen_breaks_hearts": True, "first_trick_points": True, "jack_of_diamonds": -10},
    ],
)
def test_options_at_the_edges_of_their_range_are_accepted_and_round_trip(options):
    r = make_rules(options)
    again = make_rules(r.to_json())
    assert again == r
    for key, value in options.items():
        assert r.to_json()[key] == value


def test_make_rules_does_not_change_the_hosts_options():
    options = {"variant": "dutch", "turn_score": 30}
    make_rules(options)
    assert options == {"variant": "dutch", "turn_score": 30}


def test_missing_options_take_the_variants_default():
    assert make_rules(None) == CLASSIC
    assert make_rules({"variant": "dutch"}) == DUTCH
    assert make_rules({"variant": "dutch"}).to_json()["passing"] == "off"
    assert make_rules({}).to_json()["passing"] == "cycle"
