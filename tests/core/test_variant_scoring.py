"""Scoring the house-rule variants: each sentence of the rules as a hand and its scores, then whole hands played."""

import random

import pytest

from hartenjagen.shared.game import Game
from hartenjagen.shared.scoring import chip_shares, is_over, toppers
from hartenjagen.shared.sim import score_hand
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .hands import CLASSIC_25_AND_1, CLASSIC_MOON
from .scripts import deal_and_play, hand, play_hand, rotate

HEARTS = " ".join(r + "H" for r in "23456789TJQKA")
ALL = " ".join(r + s for s in "CDSH" for r in "23456789TJQKA")


def _taken(*texts: str) -> list[int]:
    return [hand(t) for t in texts]


# (the rules text's sentence, options, taken by S W N E, cards of doubled tricks (or None), scores S W N E)
SCORES = [
    (
        "De Q♥ verdubbelt de waarde van het aantal harten van de desbetreffende speler.",
        {"variant": "parker_brothers"},
        _taken("QH 2H 3H", "4H", "", ""),
        None,
        [6, 1, 0, 0],
    ),
    (
        "De Q♣ trekt de strafpunten van de Q♠ af, mits de speler de Q♠ heeft",
        {"variant": "parker_brothers"},
        _taken("QC QS 2H", "", "", ""),
        None,
        [1, 0, 0, 0],
    ),
    (
        "anders doet de Q♣ niks",
        {"variant": "parker_brothers"},
        _taken("QC 2H", "", "QS", ""),
        None,
        [1, 0, 26, 0],
    ),
    (
        "De speler die Q♦ krijgt, mag 10 punten van zijn score aftrekken.",
        {"variant": "parker_brothers"},
        _taken("QD 2H", "", "", ""),
        None,
        [-9, 0, 0, 0],
    ),
    (
        "Parker Brothers moon (our reading): all hearts and Q♠ give every other player 52",
        {"variant": "parker_brothers"},
        _taken("QS " + HEARTS, "QC", "", ""),
        None,
        [0, 52, 52, 52],
    ),
    (
        "De J♦ of de 10♦ zijn bonuskaarten. Er worden 10 punten van de score afgetrokken",
        {"variant": "omnibus", "bonus_card": "ten"},
        _taken("TD QS", "JD", "", ""),
        None,
        [3, 0, 0, 0],
    ),
    (
        "De 7♣ is 7 strafpunten waard (and a moon needs it)",
        {"variant": "hooligan"},
        _taken("QS " + HEARTS, "7C", "", ""),
        None,
        [26, 7, 0, 0],
    ),
    (
        "J♥ = 2 punten, Q♥ = 3 punten, K♥ = 4 punten, en de A♥ = 5 punten.",
        {"variant": "spot_hearts"},
        _taken("JH QH 2H", "KH AH", "", ""),
        None,
        [6, 9, 0, 0],
    ),
    (
        "De schoppenvrouw is 15 punten, hartenaas 5",
        {"variant": "black_maria"},
        _taken("QS AH", "", "", ""),
        None,
        [20, 0, 0, 0],
    ),
    (
        "Achterhoeks: partners across score together (Groenjas 7, Bliek 5, Krieke -5, hearts 1)",
        {"variant": "achterhoeks"},
        _taken("JC 2H", "3H", "KS", "QD"),
        None,
        [13, -4, 13, -4],
    ),
    (
        "Als je als team erin slaagt alle strafpunten weet te verzamelen krijgt het andere team 25 strafpunten. "
        "(Je hoeft hiervoor niet de ruitenvrouw te halen).",
        {"variant": "achterhoeks"},
        _taken("JC 2H 3H 4H 5H 6H 7H", "QD", "KS 8H 9H TH JH QH KH AH", ""),
        None,
        [0, 20, 0, 20],
    ),
    (
        "Als je als team erin slaagt alle slagen te winnen, krijgt het andere team 52 strafpunten.",
        {"variant": "achterhoeks"},
        _taken(ALL, "", "", ""),
        None,
        [-5, 52, -5, 52],
    ),
    (
        "De 9 verdubbelt de slag",
        {"variant": "achterhoeks"},
        _taken("9C JC 2C 3C", "", "", ""),
        _taken("9C JC 2C 3C", "", "", ""),
        [14, 0, 14, 0],
    ),
    (
        "alle spelers 16 strafpunten te geven, behalve de speler welke alle slagen weet te bemachtigen",
        {"variant": "achterhoeks_bar"},
        _taken(ALL, "", "", ""),
        None,
        [0, 16, 16, 16],
    ),
    (
        "bar form (our reading): no moon, only the doormars; all point cards without every trick score as taken",
        {"variant": "achterhoeks_bar"},
        _taken("JS " + HEARTS, "2C", "", ""),
        None,
        [21, 0, 0, 0],
    ),
    (
        "Dutch with 52 cards: 13 hearts, Q♠ 5, J♣ 2",
        {"variant": "dutch52"},
        _taken("QS 2H AH", "JC", "", ""),
        None,
        [7, 2, 0, 0],
    ),
]


@pytest.mark.parametrize(
    ("options", "taken", "doubled", "scores"), [pytest.param(*r[1:], id=r[0][:70]) for r in SCORES]
)
def test_each_variants_hand_scores_as_the_seed_says(options, taken, doubled, scores):
    assert score_hand(make_rules(options), taken, doubled=doubled) == scores


# (the rules text's sentence, taken by S W N E, pot, chips each takes)
CHIPS = [
    (
        "Als aan het eind van een ronde een speler geen harten heeft gekregen, mag diegene alle fiches pakken.",
        _taken("2H", "3H", "4H", "2C"),
        8,
        [0, 0, 0, 8],
    ),
    (
        "Indien er twee spelers zonder harten zijn, worden de fiches verdeeld over de twee.",
        _taken("2H", "3H", "2C", "3C"),
        8,
        [0, 0, 4, 4],
    ),
    ("(an odd chip of a shared pot stays in it)", _taken("2H", "3H", "2C", "3C"), 9, [0, 0, 4, 4]),
    (
        "Als alle spelers harten hebben, dan blijven de fiches op tafel liggen.",
        _taken("2H", "3H", "4H", "5H"),
        8,
        [0, 0, 0, 0],
    ),
    (
        "of een speler alle harten heeft, dan blijven de fiches op tafel liggen.",
        _taken(HEARTS, "2C", "3C", "4C"),
        8,
        [0, 0, 0, 0],
    ),
]


@pytest.mark.parametrize(("taken", "pot", "shares"), [pytest.param(*r[1:], id=r[0][:70]) for r in CHIPS])
def test_the_pot_goes_to_the_players_without_hearts(taken, pot, shares):
    assert chip_shares(make_rules({"variant": "chips"}), taken, pot) == shares


# (the rules text's sentence, options, totals, over)
ENDS = [
    (
        "Het spel eindigt wanneer er een speler 100 of meer punten verzamelt (Belgisch)",
        {"variant": "belgian"},
        [100, 0, 0, 0],
        True,
    ),
    ("(Belgisch) 99 is not yet the end", {"variant": "belgian"}, [99, 0, 0, 0], False),
    (
        "degene welke dit strafpuntenaantal overschrijdt de verliezer is (50 is not over 50)",
        {"variant": "achterhoeks_bar"},
        [50, 0, 0, 0],
        False,
    ),
    (
        "degene welke dit strafpuntenaantal overschrijdt de verliezer is",
        {"variant": "achterhoeks_bar"},
        [51, 0, 0, 0],
        True,
    ),
]


@pytest.mark.parametrize(("options", "totals", "over"), [pytest.param(*r[1:], id=r[0][:70]) for r in ENDS])
def test_each_variant_ends_where_the_seed_says(options, totals, over):
    assert is_over(make_rules(options), totals, False) is over


# (the rules text's sentence, totals, hands played, toppers of the lowest total)
TOPPERS = [
    (
        "Het minste punten halen, maar twee spelers boven de 100 punten steken (double game).",
        [10, 100, 102, 50],
        9,
        ["double_game"],
    ),
    (
        "Het minste punten halen, maar drie spelers boven de 100 steken (triple game).",
        [5, 100, 101, 130],
        9,
        ["triple_game"],
    ),
    ("Een speler boven de 100 steken, maar zelf 0 punten halen (nil game).", [0, 100, 30, 40], 9, ["nil_game"]),
    ("Twee spelers boven de 100, maar zelf 0 (double nil game).", [0, 100, 100, 20], 9, ["double_nil"]),
    ("Drie spelers boven de 100, maar zelf 0 (triple nil game).", [0, 104, 104, 104], 6, ["triple_nil"]),
    ("De absolute topper: Triple nil game in vier handen.", [0, 104, 104, 104], 4, ["triple_nil", "absolute_topper"]),
    ("(one player over and the winner above 0: no topper)", [10, 100, 30, 40], 9, []),
]


@pytest.mark.parametrize(("totals", "hands", "kinds"), [pytest.param(*r[1:], id=r[0][:70]) for r in TOPPERS])
def test_the_toppers_of_seed_003(totals, hands, kinds):
    rules = make_rules({})
    low = min(totals)
    winners = [s for s in range(4) if totals[s] == low]
    assert [t["kind"] for t in toppers(rules, totals, winners, hands)] == kinds
    assert all(t["seat"] in winners for t in toppers(rules, totals, winners, hands))


def test_toppers_are_only_for_players_on_their_own_playing_to_an_end_score():
    assert toppers(make_rules({"variant": "achterhoeks"}), [0, 104, 0, 104], [0, 2], 4) == []
    assert toppers(make_rules({"variant": "dutch"}), [0, 104, 104, 104], [0], 4) == []


# ------------------------------------------------------------------ whole hands through the game


def test_four_moons_from_the_start_are_the_absolute_topper_shown_in_every_view():
    game = Game(make_rules({"passing": "off"}))
    for _ in range(4):
        deal_and_play(game, CLASSIC_MOON)
    assert game.phase == "game_over" and game.totals == [0, 104, 104, 104]
    expected = [{"seat": 0, "kind": "triple_nil"}, {"seat": 0, "kind": "absolute_topper"}]
    assert game.toppers == expected and game.losers == [1, 2, 3]
    for seat in range(4):
        view = view_for(game, seat)
        assert view["toppers"] == expected and view["losers"] == [1, 2, 3]


#: Achterhoeks, no passing: E takes trick 1, N takes trick 2 where the 9♣ led doubles it (J♣ 7 -> 14), W takes
#: trick 3 where a 9♠ thrown on diamonds doubles nothing (K♠ 5).
NINE_HANDS = [
    "2C 5C 7C KS 2H 3H 4H 5H 6H 7H 8H 9H TH",
    "3C 6C 3D 4D 5D 6D 7D 8D 8S TS JS QS AS",
    "4C JC 2D 9D TD JD QD KD AD JH QH KH AH",
    "AC 9C 8C TC QC KC 9S 2S 3S 4S 5S 6S 7S",
]


def test_a_nine_of_the_led_suit_doubles_its_trick_and_an_off_suit_nine_does_not():
    game = Game(make_rules({"variant": "achterhoeks", "passing": "off"}))
    game.deal([hand(h) for h in NINE_HANDS])
    for seat, card in [(0, "2C"), (1, "3C"), (2, "4C"), (3, "AC"), (3, "9C"), (0, "5C"), (1, "6C"), (2, "JC")]:
        game.apply({"type": "play", "seat": seat, "card": card})
    assert game.points_taken() == [0, 0, 14, 0]
    for seat, card in [(2, "2D"), (3, "9S"), (0, "KS"), (1, "4D")]:
        game.apply({"type": "play", "seat": seat, "card": card})
    assert game.points_taken() == [0, 5, 14, 0]
    view = view_for(game, 0)
    assert [t.get("doubled", False) for t in view["tricks"]] == [False, True, False]
    assert view["points_taken"] == [0, 5, 14, 0] and view["teams"] == [0, 1, 0, 1]


def test_a_team_taking_every_trick_shoots_the_sun_through_the_game():
    game = Game(make_rules({"variant": "achterhoeks", "passing": "off"}))
    deal_and_play(game, CLASSIC_MOON)  # South wins all 13 tricks
    last = game.history[-1]
    assert last["sun"] == 0 and last["moon"] is None and last["scores"] == [-5, 52, -5, 52]
    assert game.totals == [-5, 52, -5, 52]


def test_the_doormars_gives_everyone_else_16_through_the_game():
    game = Game(make_rules({"variant": "achterhoeks_bar", "passing": "off"}))
    deal_and_play(game, rotate(CLASSIC_MOON, 1))  # West wins every trick
    assert game.history[-1]["scores"] == [16, 0, 16, 16] and game.history[-1]["sun"] == 1


def test_chips_ante_every_hand_and_the_pot_stays_or_goes_to_the_players_without_hearts():
    game = Game(make_rules({"variant": "chips", "start_chips": 10, "ante": 2}))
    deal_and_play(game, CLASSIC_MOON)  # South takes every heart: the pot stays
    assert (game.chips, game.pot, game.history[-1]["chips_won"]) == ([8, 8, 8, 8], 8, [0, 0, 0, 0])
    deal_and_play(game, CLASSIC_25_AND_1)  # West and North take no heart: they share 16
    assert (game.chips, game.pot, game.history[-1]["chips_won"]) == ([6, 14, 14, 6], 0, [0, 8, 8, 0])
    view = view_for(game, 2)
    assert view["chips"] == [6, 14, 14, 6] and view["pot"] == 0 and view["scoring"]["ante"] == 2


def test_a_chips_game_ends_after_the_hand_limit_and_the_most_chips_win():
    game = Game(make_rules({"variant": "chips", "start_chips": 10, "hand_limit": 2}))
    deal_and_play(game, CLASSIC_MOON)
    assert game.phase == "hand_over"
    deal_and_play(game, CLASSIC_25_AND_1)
    assert game.phase == "game_over" and game.winners == [1, 2] and game.chips == [8, 12, 12, 8]


def test_a_chips_game_without_a_hand_limit_ends_when_one_player_holds_every_chip():
    game = Game(make_rules({"variant": "chips", "start_chips": 4, "ante": 4, "hand_limit": 0}))
    rng = random.Random(5)
    for n in range(200):
        play_hand(game, rng, n)
        assert sum(game.chips) + game.pot == 16
        if game.phase == "game_over":
            break
    assert game.phase == "game_over" and game.chips[game.winners[0]] == 16 and len(game.winners) == 1
