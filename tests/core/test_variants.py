"""The house-rule variants as rules data: each sentence of the rules becomes a point table, a feature or an option."""

import pytest

from hartenjagen.shared.cards import mask_names, parse_card
from hartenjagen.shared.rules import RulesError
from hartenjagen.shared.variants import NAMES, VARIANTS, make_rules

HEARTS = [r + "H" for r in "23456789TJQKA"]

# (the rules text's sentence, options, {card: points})
POINT_TABLE = [
    ("De J♦ of de 10♦ zijn bonuskaarten.", {"variant": "omnibus"}, {"JD": -10, "TD": 0, "QS": 13, "2H": 1}),
    ("De J♦ of de 10♦ zijn bonuskaarten.", {"variant": "omnibus", "bonus_card": "ten"}, {"JD": 0, "TD": -10}),
    ("De J♦ of de 10♦ zijn bonuskaarten. (classic keeps its option)", {"jack_of_diamonds": -10}, {"JD": -10}),
    (
        "J♥ = 2 punten, Q♥ = 3 punten, K♥ = 4 punten, en de A♥ = 5 punten.",
        {"variant": "spot_hearts"},
        {"JH": 2, "QH": 3, "KH": 4, "AH": 5, "TH": 1, "2H": 1, "QS": 13},
    ),
    (
        "2♥ = 2 punten, 3♥ = 3 punten, 4♥ = 4 punten, etc; De Q♠ is 25 punten.",
        {"variant": "spot_hearts", "spot_form": 2},
        {"2H": 2, "9H": 9, "TH": 10, "JH": 11, "QH": 12, "KH": 13, "AH": 14, "QS": 25},
    ),
    (
        "Dezelfde variant als hierboven, maar dan zijn de J♥, Q♥, K♥, en de A♥elk 10 punten waard.",
        {"variant": "spot_hearts", "spot_form": 3},
        {"2H": 2, "TH": 10, "JH": 10, "QH": 10, "KH": 10, "AH": 10, "QS": 25},
    ),
    ("De 7♣ is 7 strafpunten waard in de variant Hooligan Hearts.", {"variant": "hooligan"}, {"7C": 7, "QS": 13}),
    (
        "De schoppenvrouw is 15 punten, hartenaas 5, hartenheer 4, hartenvrouw 3, hartenboer 2 en alle andere harten 1",
        {"variant": "black_maria"},
        {"QS": 15, "AH": 5, "KH": 4, "QH": 3, "JH": 2, "TH": 1},
    ),
    (
        "De Q♠ is 26 punten waard in plaats van 13 punten. De speler die Q♦ krijgt, mag 10 punten aftrekken.",
        {"variant": "parker_brothers"},
        {"QS": 26, "QD": -10, "QH": 1, "QC": 0},
    ),
    (
        "De klaverboer (de Groenjas) is 7 punten, schoppenkoning (de Bliek) is 5 punten en de ruitenvrouw "
        "(de Krieke) is -5 punten. De harten zijn ieder 1 punt waard.",
        {"variant": "achterhoeks"},
        {"JC": 7, "KS": 5, "QD": -5, "AH": 1, "QS": 0},
    ),
    (
        "alle hartenkaarten 1 strafpunt tellen, de schoppenboer telt 8 strafpunten",
        {"variant": "achterhoeks_bar"},
        {"JS": 8, "AH": 1, "QS": 0, "JC": 0},
    ),
    ("Als een speler geen harten heeft gekregen (traditioneel: alleen harten)", {"variant": "chips"}, {"QS": 0}),
    (
        "hoewel er ook een versie is waarbij alle 52 kaarten worden gebruikt (13 per speler)",
        {"variant": "dutch52"},
        {"2H": 1, "AH": 1, "QS": 5, "JC": 2},
    ),
]


@pytest.mark.parametrize(("options", "points"), [pytest.param(*r[1:], id=r[0][:60]) for r in POINT_TABLE])
def test_each_variants_cards_score_as_the_seed_says(options, points):
    rules = make_rules(options)
    for card, value in points.items():
        assert rules.card_points[parse_card(card)] == value, card


# (the rules text's sentence, options, points a moon is worth, cards per hand)
TOTALS = [
    ("In totaal zijn er per ronde 26 strafpunten te verdelen.", {}, 26, 13),
    ("in totaal zijn er 25 strafpunten (Achterhoeks; Q♦ is a bonus)", {"variant": "achterhoeks"}, 25, 13),
    ("spot hearts, form 1: 9 hearts at 1, J..A 2..5, Q♠ 13", {"variant": "spot_hearts"}, 36, 13),
    ("spot hearts, form 2: pips 2..14, Q♠ 25", {"variant": "spot_hearts", "spot_form": 2}, 129, 13),
    ("spot hearts, form 3: pips 2..10, J..A 10 each, Q♠ 25", {"variant": "spot_hearts", "spot_form": 3}, 119, 13),
    ("Hooligan: 26 and the 7♣", {"variant": "hooligan"}, 33, 13),
    ("Black Maria: hearts 23 and Q♠ 15", {"variant": "black_maria"}, 38, 13),
    ("Parker Brothers: 13 hearts doubled by the Q♥ they include, Q♠ 26", {"variant": "parker_brothers"}, 52, 13),
    ("bar form: 13 hearts and J♠ 8", {"variant": "achterhoeks_bar"}, 21, 13),
    ("Dutch with 52 cards: 13 hearts, Q♠ 5, J♣ 2", {"variant": "dutch52"}, 20, 13),
]


@pytest.mark.parametrize(("options", "moon_total", "hand_size"), [pytest.param(*r[1:], id=r[0]) for r in TOTALS])
def test_each_variant_has_its_point_total_and_hand_size(options, moon_total, hand_size):
    rules = make_rules(options)
    assert (rules.moon_total, rules.hand_size) == (moon_total, hand_size)


# (the rules text's sentence, options, the passing form of hands 0..5)
PASSING = [
    ("Er wordt altijd doorgegeven aan de persoon rechts.", {"variant": "black_maria"}, ["right"] * 6),
    ("Bij het Belgisch hartenjagen worden er geen kaarten gedeeld", {"variant": "belgian"}, ["hold"] * 6),
    ("Er worden in deze variant geen kaarten doorgegeven (fiches)", {"variant": "chips"}, ["hold"] * 6),
    (
        "In de vierde ronde kiezen alle spelers drie kaarten. Daarvan geven ze er een aan de speler rechts, een aan de "
        "speler links en een aan de speler tegenover. De vijfde ronde worden geen kaarten doorgegeven",
        {"passing": "scatter"},
        ["left", "right", "across", "scatter", "hold", "left"],
    ),
    (
        "moeten spelers in de vierde ronde twee kaarten aan de speler links van hen geven, en twee kaarten aan de "
        "speler rechts van hen. In deze variant bestaan geen rondes waarin geen kaarten worden doorgegeven.",
        {"passing": "left_right"},
        ["left", "right", "across", "left_right", "left", "right"],
    ),
    (
        "In de derde ronde wordt er aan iedere speler één kaart gegeven. In de vierde ronde legt elke speler drie "
        "kaarten op de pot",
        {"variant": "achterhoeks"},
        ["left", "right", "scatter", "pot", "left", "right"],
    ),
]


@pytest.mark.parametrize(("options", "forms"), [pytest.param(*r[1:], id=r[0][:60]) for r in PASSING])
def test_each_variant_passes_in_the_seeds_cycle(options, forms):
    rules = make_rules(options)
    assert [rules.pass_form(n) for n in range(6)] == forms


def test_the_passing_forms_send_each_card_to_its_own_seat():
    rules = make_rules({"passing": "left_right"})
    assert rules.pass_targets(3) == (1, 1, 3, 3)  # two left, two right: four cards
    assert make_rules({"passing": "scatter"}).pass_targets(3) == (1, 3, 2)  # left, right, across
    assert make_rules({"variant": "achterhoeks"}).pass_targets(3) == (0, 0, 0)  # the pot


def test_the_rule_features_each_variant_switches_on():
    bm = make_rules({"variant": "black_maria"})
    assert not bm.hearts_must_break and mask_names(1 << bm.first_lead) == ["2C"]
    be = make_rules({"variant": "belgian"})
    assert be.hearts_must_break and be.queen_breaks_hearts and be.queen_waits and be.end_score == 100
    pb = make_rules({"variant": "parker_brothers"})
    assert mask_names(1 << pb.heart_doubler) == ["QH"] and [mask_names(1 << c)[0] for c in pb.cancel] == ["QC", "QS"]
    ah = make_rules({"variant": "achterhoeks"})
    assert ah.teams == (0, 1, 0, 1) and ah.sun == 52 and ah.trick_doubler == 7 and ah.moon == "others"
    assert not make_rules({"variant": "achterhoeks", "doubling_nine": False}).trick_doubler >= 0
    bar = make_rules({"variant": "achterhoeks_bar"})
    assert not bar.teams and bar.sun == 16 and bar.moon == "none" and bar.end_score == 50 and bar.end_over
    chips = make_rules({"variant": "chips"})
    assert (chips.end, chips.start_chips, chips.ante, chips.hand_limit, chips.moon) == ("chips", 20, 1, 20, "none")
    d52 = make_rules({"variant": "dutch52"})
    assert d52.end == "dutch" and d52.first_lead == -1 and d52.moon == "choose" and d52.hand_size == 13


def test_gentlemans_rules_are_options_of_every_variant_where_they_make_sense():
    g3 = make_rules({"gentleman_3": True})
    assert g3.queen_must_go
    g4 = make_rules({"variant": "black_maria", "gentleman_4": True})
    assert mask_names(g4.no_pass) == ["2C", "QS"]
    assert mask_names(make_rules({"variant": "dutch", "passing": "left", "gentleman_4": True}).no_pass) == ["QS"]


# (why, options, the refused option)
NONSENSE = [
    ("Q♠ carries no points in Achterhoeks", {"variant": "achterhoeks", "gentleman_3": True}, "gentleman_3"),
    ("Q♠ carries no points in the bar form", {"variant": "achterhoeks_bar", "gentleman_3": True}, "gentleman_3"),
    ("Q♠ carries no points with chips", {"variant": "chips", "gentleman_3": True}, "gentleman_3"),
    ("Belgian Hearts never passes", {"variant": "belgian", "gentleman_4": True}, "gentleman_4"),
    ("chips never passes", {"variant": "chips", "gentleman_4": True}, "gentleman_4"),
    ("Dutch without passing", {"variant": "dutch", "gentleman_4": True}, "gentleman_4"),
    ("classic without passing", {"passing": "off", "gentleman_4": True}, "gentleman_4"),
    ("Black Maria always passes right", {"variant": "black_maria", "passing": "left"}, "passing"),
    ("Black Maria leads hearts freely", {"variant": "black_maria", "queen_breaks_hearts": True}, "queen_breaks_hearts"),
    ("Belgian has no passing option", {"variant": "belgian", "passing": "cycle"}, "passing"),
    ("Achterhoeks scores its moon as a team", {"variant": "achterhoeks", "moon": "self"}, "moon"),
    ("Parker Brothers has its Q♦", {"variant": "parker_brothers", "jack_of_diamonds": -10}, "jack_of_diamonds"),
    ("omnibus chooses its bonus card", {"variant": "omnibus", "bonus_card": "QD"}, "bonus_card"),
    ("omnibus uses bonus_card", {"variant": "omnibus", "jack_of_diamonds": -10}, "jack_of_diamonds"),
    ("three spot forms", {"variant": "spot_hearts", "spot_form": 4}, "spot_form"),
    ("spot form is a number", {"variant": "spot_hearts", "spot_form": "1"}, "spot_form"),
    ("spot_form only for spot hearts", {"spot_form": 2}, "spot_form"),
    ("an ante of chips is at least 1", {"variant": "chips", "ante": 0}, "ante"),
    ("start chips 4 to 200", {"variant": "chips", "start_chips": 3}, "start_chips"),
    ("hand limit 0 to 500", {"variant": "chips", "hand_limit": -1}, "hand_limit"),
    ("chips has no end score", {"variant": "chips", "end_score": 100}, "end_score"),
    ("dutch52 has a turn score, not an end score", {"variant": "dutch52", "end_score": 100}, "end_score"),
    ("doubling nine is a bool", {"variant": "achterhoeks", "doubling_nine": 1}, "doubling_nine"),
    ("an unknown variant", {"variant": "kitty"}, "variant"),
]


@pytest.mark.parametrize(("options", "option"), [pytest.param(*r[1:], id=r[0]) for r in NONSENSE])
def test_an_option_that_makes_no_sense_is_refused_with_a_problem_the_client_words(options, option):
    """The refusal names the option and what is wrong as a code with its values; the client says it in words."""
    from hartenjagen.server.table.errors import PROBLEMS

    with pytest.raises(RulesError) as info:
        make_rules(options)
    assert info.value.option == option and info.value.code == "bad_option"
    assert set(info.value.params) == set(PROBLEMS[info.value.problem])


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_builds_with_its_defaults_round_trips_and_has_names(variant):
    rules = make_rules({"variant": variant})
    assert rules.variant == variant and make_rules(rules.to_json()) == rules
    assert set(NAMES[variant]) and all(NAMES[variant])
    assert rules.deck.bit_count() == rules.seats * rules.hand_size + rules.kitty
