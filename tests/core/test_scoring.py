"""Points, moons and the end of a game: the worked examples of the rules, hand by hand."""

import pytest

from hartenjagen.shared.game import Game
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.sim import score_hand
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .hands import CLASSIC_25_AND_1, CLASSIC_25_AND_1_POINTS, CLASSIC_MOON, DUTCH_MARS, DUTCH_SPLIT, DUTCH_SPLIT_POINTS
from .scripts import deal_and_play, hand, rotate

HEARTS = [r + "H" for r in "23456789TJQKA"]
DUTCH_HEARTS = [r + "H" for r in "789TJQKA"]


def _taken(*texts: str) -> list[int]:
    return [hand(t) for t in texts]


# (why, options, taken by S W N E, scores S W N E)
SCORE_TABLE = [
    (
        "West took QS and 2 hearts, North 7 hearts, East 4, South none (the example of the rules)",
        {},
        _taken("2C 3D", "QS 2H 3H", " ".join(HEARTS[2:9]), " ".join(HEARTS[9:])),
        [0, 15, 7, 4],
    ),
    (
        "QS and 12 hearts to one player, 1 heart elsewhere: 25 and 1, no moon",
        {},
        _taken("QS " + " ".join(HEARTS[1:]), "2H", "", ""),
        [25, 1, 0, 0],
    ),
    ("a moon gives the others 26 each", {}, _taken("QS " + " ".join(HEARTS), "2C", "3C", "4C"), [0, 26, 26, 26]),
    (
        "moon 'self' takes 26 off the shooter",
        {"moon": "self"},
        _taken("2C", "QS " + " ".join(HEARTS), "", ""),
        [0, -26, 0, 0],
    ),
    (
        "a moon needs the point cards, not every trick",
        {},
        _taken("2C 3C 4C", "5C", "QS " + " ".join(HEARTS), "AS"),
        [26, 26, 0, 26],
    ),
    (
        "the jack of diamonds is worth -10 with the bonus on",
        {"jack_of_diamonds": -10},
        _taken("JD QS", "", "", ""),
        [3, 0, 0, 0],
    ),
    (
        "a moon and the jack of diamonds: the shooter keeps the -10",
        {"jack_of_diamonds": -10},
        _taken("JD QS " + " ".join(HEARTS), "", "", ""),
        [-10, 26, 26, 26],
    ),
    ("dutch: heart 1, QS 5, JC 2", {"variant": "dutch"}, _taken("QS 7H", "JC AH KH", "", "8H"), [6, 4, 0, 1]),
    ("dutch: QS worth 13 by option", {"variant": "dutch", "queen_value": 13}, _taken("QS", "", "", ""), [13, 0, 0, 0]),
    (
        "dutch: JC worth nothing by option",
        {"variant": "dutch", "jack_of_clubs": 0},
        _taken("JC", "7H", "", ""),
        [0, 1, 0, 0],
    ),
    (
        "dutch mars scored by 'others': 15 to every other player",
        {"variant": "dutch", "moon": "others"},
        _taken("", "", "JC QS " + " ".join(DUTCH_HEARTS), ""),
        [15, 15, 0, 15],
    ),
    (
        "dutch mars scored by 'self': 15 off the taker",
        {"variant": "dutch", "moon": "self"},
        _taken("", "", "JC QS " + " ".join(DUTCH_HEARTS), ""),
        [0, 0, -15, 0],
    ),
]


@pytest.mark.parametrize(("options", "taken", "scores"), [pytest.param(*r[1:], id=r[0]) for r in SCORE_TABLE])
def test_hand_scores_follow_the_point_table_and_the_moon_rule(options, taken, scores):
    assert score_hand(make_rules(options), taken) == scores


def test_counting_down_subtracts_the_points_and_a_mars_subtracts_15_from_the_taker():
    rules = make_rules({"variant": "dutch"})
    assert score_hand(rules, _taken("QS 7H", "JC", "", "8H"), counting_down=True) == [-6, -2, 0, -1]
    assert score_hand(rules, _taken("", "JC QS " + " ".join(DUTCH_HEARTS), "", ""), counting_down=True) == [
        0,
        -15,
        0,
        0,
    ]


def test_the_minus_ten_jack_still_lowers_your_total_while_a_dutch_game_counts_down():
    rules = make_rules({"variant": "dutch", "jack_of_diamonds": -10})
    assert score_hand(rules, _taken("JD 7H", "QS", "JC", "8H"), counting_down=True) == [-11, -5, -2, -1]
    assert score_hand(rules, _taken("JD 7H", "QS", "JC", "8H")) == [-9, 5, 2, 1]


# ------------------------------------------------------------------ whole hands through the game


def test_a_classic_moon_through_the_game_gives_the_others_26():
    game = Game(make_rules({"passing": "off"}))
    deal_and_play(game, CLASSIC_MOON)
    last = game.history[-1]
    assert (last["points"], last["scores"], last["moon"], last["moon_choice"]) == (
        [26, 0, 0, 0],
        [0, 26, 26, 26],
        0,
        "others",
    )
    assert game.totals == [0, 26, 26, 26]


def test_qs_and_12_hearts_is_no_moon_through_the_game():
    game = Game(make_rules({"passing": "off"}))
    deal_and_play(game, CLASSIC_25_AND_1)
    assert game.history[-1]["scores"] == CLASSIC_25_AND_1_POINTS
    assert game.history[-1]["moon"] is None


def test_the_minus_ten_jack_stays_with_whoever_took_it_in_a_moon():
    game = Game(make_rules({"passing": "off", "jack_of_diamonds": -10}))
    deal_and_play(game, CLASSIC_MOON)
    assert game.history[-1]["scores"] == [-10, 26, 26, 26]


@pytest.mark.parametrize(("choice", "totals"), [("others", [0, 26, 26, 26]), ("self", [-26, 0, 0, 0])])
def test_with_moon_choose_the_game_waits_for_the_shooter_and_only_the_shooter(choice, totals):
    game = Game(make_rules({"passing": "off", "moon": "choose"}))
    deal_and_play(game, CLASSIC_MOON)
    assert (game.phase, game.to_act(), game.totals) == ("moon_choice", [0], [0, 0, 0, 0])
    assert view_for(game, 0)["moon_choices"] == ["others", "self"]
    assert view_for(game, 1)["moon_choices"] == []
    before = (game.snapshot(), list(game.events))
    for seat, pick, code in [
        (1, "others", "not_your_turn"),
        (0, "both", "bad_moon_choice"),
        (0, None, "bad_moon_choice"),
    ]:
        with pytest.raises(IllegalAction) as info:
            game.choose_moon(seat, pick)
        assert info.value.code == code
    assert (game.snapshot(), list(game.events)) == before
    game.choose_moon(0, choice)
    assert game.phase == "hand_over" and game.totals == totals
    assert game.history[-1]["moon_choice"] == choice
    with pytest.raises(IllegalAction) as info:
        game.choose_moon(0, choice)
    assert info.value.code == "wrong_phase"


def test_a_dutch_split_hand_scores_hearts_qs_and_jc():
    game = Game(make_rules({"variant": "dutch"}))
    deal_and_play(game, DUTCH_SPLIT)
    assert game.history[-1]["scores"] == DUTCH_SPLIT_POINTS == [4, 4, 7, 0]
    assert sum(DUTCH_SPLIT_POINTS) == 15


# ------------------------------------------------------------------ the end of a game


def _classic_moons(options: dict, shooters: list[int]) -> Game:
    """Play one moon hand per shooter (the seat holding every club shoots)."""
    game = Game(make_rules({"passing": "off", **options}))
    for seat in shooters:
        deal_and_play(game, rotate(CLASSIC_MOON, seat))
    return game


def test_the_game_ends_when_someone_reaches_the_end_score_and_the_tied_lowest_share_the_win():
    game = _classic_moons({"end_score": 52}, [0, 1])
    assert game.totals == [26, 26, 52, 52]
    assert game.phase == "game_over" and game.winners == [0, 1]
    with pytest.raises(IllegalAction) as info:
        game.deal_seeded(1)
    assert info.value.code == "wrong_phase"


def test_the_game_goes_on_while_everyone_is_below_the_end_score():
    game = _classic_moons({"end_score": 53}, [0, 1])
    assert game.phase == "hand_over" and game.winners == []


def test_with_tie_play_on_a_tied_lowest_total_means_another_hand():
    game = _classic_moons({"end_score": 52, "tie": "play_on"}, [0, 1])
    assert game.phase == "hand_over" and game.totals == [26, 26, 52, 52]
    deal_and_play(game, rotate(CLASSIC_MOON, 2))
    assert game.totals == [52, 52, 52, 78] and game.phase == "hand_over"  # three tied lowest: play on
    deal_and_play(game, rotate(CLASSIC_MOON, 0))
    assert game.totals == [52, 78, 78, 104]
    assert game.phase == "game_over" and game.winners == [0]


def _dutch_halves(options: dict) -> tuple[Game, list]:
    """Two mars hands to turn the count at 25, then a split hand and two mars hands counting down."""
    game = Game(make_rules({"variant": "dutch", "turn_score": 25, **options}))
    seen = []
    for n, (script, choice) in enumerate(
        [(DUTCH_MARS, "others"), (DUTCH_MARS, "others"), (DUTCH_SPLIT, None), (DUTCH_MARS, None), (DUTCH_MARS, None)]
    ):
        deal_and_play(game, rotate(script, n))
        if choice:
            assert game.phase == "moon_choice" and game.moon_seat == n % 4
            game.choose_moon(n % 4, choice)
        seen.append((list(game.totals), game.counting_down, game.turned, game.phase))
    return game, seen


def test_dutch_turns_at_the_turn_score_then_counts_down_and_ends_at_or_below_zero():
    game, seen = _dutch_halves({})
    assert seen == [
        ([0, 15, 15, 15], False, False, "hand_over"),
        ([15, 15, 30, 30], False, True, "hand_over"),  # North and East reach 25: the count turns next hand
        ([8, 15, 26, 26], True, True, "hand_over"),  # points taken are subtracted: S 7, N 4, E 4
        ([8, 15, 26, 11], True, True, "hand_over"),  # East's mars while counting down: 15 off, no choice asked
        ([-7, 15, 26, 11], True, True, "game_over"),  # South goes below zero: the game ends
    ]
    assert game.winners == [0]
    assert game.history[3]["moon"] == 3 and game.history[3]["moon_choice"] is None


def test_dutch_exactly_zero_bounces_an_overshoot_back_up_and_ties_at_zero_share_the_win():
    game, seen = _dutch_halves({"dutch_end": "exactly_zero"})
    assert seen[-1] == ([7, 15, 26, 11], True, True, "hand_over")
    deal_and_play(game, rotate(DUTCH_SPLIT, 5))  # W 4, N 4, E 7
    assert game.totals == [7, 11, 22, 4] and game.phase == "hand_over"
    deal_and_play(game, rotate(DUTCH_SPLIT, 6))  # N 4, E 4, S 7
    assert game.totals == [0, 11, 18, 0]
    assert game.phase == "game_over" and game.winners == [0, 3]


def test_dutch_mars_in_the_first_half_scored_self_can_go_below_zero_without_ending_the_game():
    game = Game(make_rules({"variant": "dutch"}))
    deal_and_play(game, DUTCH_MARS)
    game.choose_moon(0, "self")
    assert game.totals == [-15, 0, 0, 0] and game.phase == "hand_over"
