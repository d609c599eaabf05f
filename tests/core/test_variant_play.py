"""Playing and passing under the variants' rules: legal cards, the reason for every other card, the passing forms."""

import random

import pytest

from hartenjagen.shared.cards import CLUBS, DIAMONDS, SPADES, mask_cards, mask_names, parse_card
from hartenjagen.shared.game import Game
from hartenjagen.shared.legal import legal_mask, refusal
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .scripts import hand, names, play_hand

LEAD = -1
BM = {"variant": "black_maria"}
BE = {"variant": "belgian"}
G3 = {"gentleman_3": True}
# (the rules text's sentence, options, hand, led suit or LEAD, first trick, hearts broken, best card in the trick,
#  legal cards, {refused card: reason code})
POSITIONS = [
    (
        "Op de eerste ronde na mogen harten op elk moment worden gespeeld.",
        BM,
        "3C 2H",
        LEAD,
        False,
        False,
        None,
        "3C 2H",
        {},
    ),
    (
        "Er mogen geen harten uitkomen tot als er punten in de vorige ronde zijn uitgegeven",
        BE,
        "3C 2H",
        LEAD,
        False,
        False,
        None,
        "3C",
        {"2H": "hearts_not_broken"},
    ),
    (
        "dit betekent dat je alleen maar met harten mag beginnen als er al iemand een harten of de schoppendame "
        "heeft weggegooid",
        BE,
        "3C 2H",
        LEAD,
        False,
        True,
        None,
        "3C 2H",
        {},
    ),
    (
        "Deze regel geldt niet wanneer de speler alleen nog maar harten of de schoppendame in haar/zijn hand heeft.",
        BE,
        "QS 2H 3H",
        LEAD,
        False,
        False,
        None,
        "2H 3H",
        {"QS": "queen_waits"},
    ),
    (
        "De schoppendame mag niet gespeeld worden tot wanneer er harten in de vorige ronde zijn gespeeld: dit "
        "betekent dat wanneer je niet meer kan volgen, je niet de schoppendame mag spelen",
        BE,
        "QS 2D",
        CLUBS,
        False,
        False,
        None,
        "2D",
        {"QS": "queen_waits"},
    ),
    (
        "(the queen waits on a spade lead too)",
        BE,
        "QS 2S",
        SPADES,
        False,
        False,
        "AS",
        "2S",
        {"QS": "queen_waits"},
    ),
    (
        "(unless nothing else is possible)",
        BE,
        "QS",
        SPADES,
        False,
        False,
        "AS",
        "QS",
        {},
    ),
    (
        "indien er nog geen harten gespeeld zijn (once a heart is played she may go)",
        BE,
        "QS 2D",
        CLUBS,
        False,
        True,
        None,
        "QS 2D",
        {},
    ),
    (
        "De speler die schoppenvrouw heeft, moet deze kaart bij de eerste de beste gelegenheid spelen, bijvoorbeeld "
        "als een andere speler schoppen aas of schoppen heer opgooit",
        G3,
        "2S QS 5D",
        SPADES,
        False,
        False,
        "AS",
        "QS",
        {"2S": "queen_must_go", "5D": "must_follow_suit"},
    ),
    (
        "(a lower spade in the trick: Q♠ would take it, so she need not go)",
        G3,
        "2S QS",
        SPADES,
        False,
        False,
        "JS",
        "2S QS",
        {},
    ),
    (
        "of er een kleur gevraagd wordt die de speler met schoppenvrouw niet (meer) heeft.",
        G3,
        "QS 2D 2H",
        CLUBS,
        False,
        False,
        "3C",
        "QS",
        {"2D": "queen_must_go_void", "2H": "queen_must_go_void"},
    ),
    (
        "(no chance in the first trick, where points may not be played)",
        G3,
        "QS 2D",
        CLUBS,
        True,
        False,
        "2C",
        "2D",
        {"QS": "no_points_first_trick"},
    ),
    (
        "(no chance while the Belgian queen waits for a heart)",
        {**BE, "gentleman_3": True},
        "QS 2D",
        CLUBS,
        False,
        False,
        "3C",
        "2D",
        {"QS": "queen_waits"},
    ),
    (
        "(Dutch with the gentleman's rule: void in diamonds)",
        {"variant": "dutch", "gentleman_3": True},
        "QS 7H",
        DIAMONDS,
        False,
        False,
        "8D",
        "QS",
        {"7H": "queen_must_go_void"},
    ),
]


@pytest.mark.parametrize(
    ("options", "cards", "led", "first", "broken", "best", "legal", "refused"),
    [pytest.param(*r[1:], id=r[0][:70]) for r in POSITIONS],
)
def test_legal_cards_and_the_reason_for_every_other_card(options, cards, led, first, broken, best, legal, refused):
    rules = make_rules(options)
    h = hand(cards)
    b = parse_card(best) if best else -1
    got = legal_mask(rules, h, led, first, broken, b)
    assert mask_names(got) == names(legal)
    reasons = {mask_names(1 << c)[0]: refusal(rules, h, led, first, broken, c, b)[0] for c in mask_cards(h & ~got)}
    assert reasons == refused


def test_the_queen_must_go_sentence_names_the_higher_spade_in_english_and_dutch():
    game = Game(make_rules({"passing": "off", "gentleman_3": True}))
    game.deal(
        [
            hand("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 3S"),
            hand("AS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
            hand("2S QS AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH"),
            hand("AC 4S 5S 6S 7S 8S 9S TS JS KS QH KH AH"),
        ]
    )
    for card in ["2C", "2D", "AD", "AC", "4S", "3S", "AS"]:  # East wins trick 1 and leads 4S; West puts AS on it
        game.play(game.turn, parse_card(card))
    with pytest.raises(IllegalAction) as info:
        game.play(2, parse_card("2S"))
    assert info.value.reason == {"code": "queen_must_go", "params": {"high": "AS"}}  # A♠ is already in the trick
    assert view_for(game, 2)["legal"] == ["QS"]


# ------------------------------------------------------------------ passing forms


def _at_hand(options: dict, hand_no: int, seed: int = 1) -> Game:
    """A game whose hand ``hand_no`` has just been dealt (the earlier hands played at random)."""
    game = Game(make_rules({"end_score": 500, **options}) if "variant" not in options else make_rules(options))
    rng = random.Random(seed)
    for n in range(hand_no):
        play_hand(game, rng, seed + n)
    game.deal_seeded(seed + hand_no)
    return game


def test_scatter_sends_one_card_left_one_right_and_one_across():
    game = _at_hand({"passing": "scatter"}, 3)
    assert game.pass_direction == "scatter"
    south = sorted(mask_cards(game.hands[0]))[:3]
    view = view_for(game, 0)
    assert view["pass_count"] == 3 and view["pass_targets"] == [1, 3, 2] and view["pass_to"] is None
    game.pass_cards(0, south)  # the first card to West (left), the second to East (right), the third to North
    assert game.events[-1]["cards"] == [mask_names(1 << c)[0] for c in south]  # the order is kept
    for seat in (1, 2, 3):
        game.pass_cards(seat, sorted(mask_cards(game.hands[seat]))[:3])
    assert game.hands[1] >> south[0] & 1 and game.hands[3] >> south[1] & 1 and game.hands[2] >> south[2] & 1
    view = view_for(game, 0)
    assert view["passed_to"] == [1, 3, 2] and sorted(view["received_from"]) == [1, 2, 3]
    assert len(view["received"]) == 3


def test_two_left_and_two_right_in_the_fourth_hand():
    game = _at_hand({"passing": "left_right"}, 3)
    assert view_for(game, 1)["pass_count"] == 4 and view_for(game, 1)["pass_targets"] == [2, 2, 0, 0]
    chosen = [sorted(mask_cards(game.hands[s]))[:4] for s in range(4)]
    with pytest.raises(IllegalAction) as info:
        game.pass_cards(0, chosen[0][:3])
    assert info.value.reason == {"code": "bad_pass", "params": {"count": 4}}
    for s in range(4):
        game.pass_cards(s, chosen[s])
    assert all(h.bit_count() == 13 for h in game.hands)
    assert game.hands[1] >> chosen[0][0] & 1 and game.hands[3] >> chosen[0][3] & 1


def test_the_achterhoeks_pot_deals_the_cards_back_the_same_way_on_every_replay():
    game = _at_hand({"variant": "achterhoeks", "end_score": 500}, 3)
    assert game.pass_direction == "pot"
    pot = 0
    for s in range(4):
        chosen = sorted(mask_cards(game.hands[s]))[-3:]
        pot |= sum(1 << c for c in chosen)
        game.pass_cards(s, chosen)
    assert sum(game.received[s] for s in range(4)) == pot and all(r.bit_count() == 3 for r in game.received)
    assert all(h.bit_count() == 13 for h in game.hands)
    again = Game.from_json(game.to_json())
    assert again.snapshot() == game.snapshot()
    view = view_for(game, 0)
    assert view["pass_targets"] is None and view["received_from"] is None and view["passed_to"] is None
    assert view["received"] == mask_names(game.received[0])


def test_gentlemans_rule_4_keeps_2c_and_qs_from_being_passed():
    game = Game(make_rules({"gentleman_4": True}))
    game.deal_seeded(3)
    holder = next(s for s in range(4) if game.hands[s] >> parse_card("2C") & 1)
    others = [c for c in mask_cards(game.hands[holder]) if c not in (parse_card("2C"), parse_card("QS"))]
    with pytest.raises(IllegalAction) as info:
        game.pass_cards(holder, [parse_card("2C")] + others[:2])
    assert info.value.code == "may_not_pass"
    assert info.value.reason["params"] == {"card": "2C"}
    assert "2C" in view_for(game, holder)["pass_refusals"]
    game.pass_cards(holder, others[:3])
    assert view_for(game, holder)["pass_refusals"] == {}
