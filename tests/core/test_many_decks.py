"""Two and three decks, and jokers: identical cards cancel or the first ranks higher, undecided tricks wait,
jokers rank by the order they come, as docs/core.md reads the rules text."""

import random

import pytest

from hartenjagen.shared import multiset
from hartenjagen.shared.cards import parse_card
from hartenjagen.shared.game import Game
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.trick import CountedTrick
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import spectator_view, view_for


def _trick(identical: str, *names: str, jokers_before: int = 0, seats: int = 6) -> CountedTrick:
    trick = CountedTrick(0, seats, identical, jokers_before)
    for name in names:
        trick.add(parse_card(name))
    return trick


def test_two_identical_cards_cancel_and_the_highest_other_card_takes_the_trick():
    # "als in een slag twee identieke kaarten worden opgeworpen ... heffen deze elkaar op ... niet meer de hoogste"
    trick = _trick("cancel", "5S", "AS", "9S", "AS", "2H", "3C")
    assert trick.cancelled == [False, True, False, True, False, False]
    assert (trick.top_at, trick.to_json()["cards"][1]["cancelled"]) == (2, True)  # the 9♠ takes it
    assert "undecided" not in trick.to_json()


def test_a_trick_whose_every_card_of_the_led_suit_cancels_is_undecided():
    # "Als alle bijgelegde kaarten worden opgeheven ... blijven de kaarten liggen"
    trick = _trick("cancel", "QS", "QS", "2H", "2H", "3C", "3C")
    assert all(trick.cancelled) and trick.top_at == -1 and trick.to_json()["undecided"] is True


def test_with_three_decks_the_first_two_identical_cards_cancel_and_the_third_keeps_its_rank():
    # "heffen de eerste twee elkaar op, maar houdt de derde zijn waarde"
    trick = _trick("cancel", "KS", "KS", "2S", "KS", seats=4)
    assert trick.cancelled == [True, True, False, False] and trick.top_at == 3


def test_in_extreme_hearts_the_first_of_two_identical_cards_ranks_higher():
    # "Als twee dezelfde kaarten worden gespeeld is de eerste altijd meer waard dan de tweede."
    trick = _trick("first_wins", "3D", "KD", "5D", "KD", "AC", "2D", "4D", "9D", seats=8)
    assert not any(trick.cancelled) and trick.top_at == 1


def test_the_first_joker_played_ranks_above_the_ace_and_the_second_below_the_two():
    # "De eerste joker die wordt gespeeld is de Hoge Joker ... De tweede ... waarvan de kaartwaarde gelijk is aan 1."
    assert _trick("", "AH", "JK", "KH", seats=3).top_at == 1
    assert _trick("", "JK", "2H", "3H", jokers_before=1, seats=3).top_at == 2  # the second joker, led: below the 2
    assert _trick("", "JK", "JK", "5C", seats=3).top_at == 0  # both in one trick: the first is high, the second low


def _deal_with(rules, wanted: dict[int, list[str]]) -> list[int]:
    """Hands holding the named cards, the rest of the deck dealt round in order; the kitty last where there is one."""
    rest = multiset.subtract(rules.deck, multiset.parse(n for names in wanted.values() for n in names))
    pool = multiset.cards(rest)
    hands = [multiset.parse(wanted.get(s, [])) for s in range(rules.seats)]
    for s in range(rules.seats):
        while hands[s].bit_count() < rules.hand_size:
            hands[s] = multiset.add_card(hands[s], pool.pop())  # from the top: hearts and spades first
    return hands + ([multiset.from_cards(pool)] if rules.kitty else [])


def test_an_undecided_trick_stays_and_its_leader_leads_again_and_the_next_decided_trick_takes_it_all():
    # "moet de speler die de slag was begonnen weer als eerste op tafel komen ... Die moet dan alle kaarten ...
    # van die slag, en de vorige onbesliste slagen pakken."
    rules = make_rules({"variant": "cancellation", "passing": "off"})
    clubs = [r + "C" for r in "23456789TJQKA"]
    game = Game(rules)
    game.deal(_deal_with(rules, {0: clubs, 1: clubs}))  # every club with South and West, one copy each
    assert game.turn == 0 and game.legal(0) == 1 << parse_card("2C")  # the 2♣ nearest the dealer's left leads
    game.play(0, parse_card("2C"))
    game.play(1, parse_card("2C"))
    for seat in range(2, 6):  # void in clubs, no points on the first trick
        game.play(seat, min(multiset.cards(game.legal(seat))))
    first = game.tricks[0]
    assert first.top_at == -1 and first.winner == -1 and game.turn == 0
    assert view_for(game, 3)["tricks"][0]["undecided"] and view_for(game, 3)["pending"] == multiset.names(first.bits)
    game.play(0, parse_card("3C"))
    game.play(1, parse_card("4C"))
    for seat in range(2, 6):
        game.play(seat, min(multiset.cards(game.legal(seat))))
    assert game.tricks[1].winner == 1 and game.turn == 1 and game.taken[1].bit_count() == 12
    assert game.taken[1] == multiset.add(first.bits, game.tricks[1].bits) and game.pending == 0
    assert spectator_view(game)["pending"] == []


def test_two_decks_give_52_points_and_a_moon_needs_every_one_of_them():
    rules = make_rules({"variant": "cancellation"})
    assert (rules.moon_total, rules.hand_size, rules.kitty) == (52, 17, 2)
    all_points = rules.penalty_mask
    assert multiset.count(all_points, parse_card("QS")) == 2 and rules.points_of(all_points) == 52
    three = make_rules({"variant": "cancellation", "seats": 11})
    assert (three.decks, three.moon_total, three.hand_size, three.kitty) == (3, 78, 14, 2)
    assert make_rules({"variant": "extreme"}).moon_total == 52


def test_the_ten_of_spades_doubles_its_takers_points_or_takes_five_off():
    # "Het aantal strafpunten van de speler die schoppentien krijgt wordt verdubbeld ... vijf punten ... aftrekken."
    rules = make_rules({"variant": "cancellation", "spade_ten": True})
    ts, qs, ah = parse_card("TS"), parse_card("QS"), parse_card("AH")
    assert rules.penalty_points(multiset.from_cards([ts, qs, ah])) == 28
    assert rules.penalty_points(multiset.from_cards([ts])) == -5
    assert rules.penalty_points(multiset.from_cards([ts, ts, ah])) == 4  # each ten doubles
    assert rules.penalty_points(multiset.from_cards([qs, ah])) == 14


def test_jokers_are_hearts_worth_one_and_the_queen_of_spades_fifteen():
    # "De jokers tellen hierin als harten en zijn dus ook 1 strafpunt waard ... de schoppenvrouw 15 strafpunten"
    rules = make_rules({"variant": "three_jokers", "passing": "off"})
    assert (rules.seats, rules.hand_size, rules.moon_total) == (3, 18, 30)
    assert rules.hearts_mask >> parse_card("JK") & 1 and rules.card_points[parse_card("JK")] == 1
    game = Game(rules)
    game.deal(_deal_with(rules, {0: ["2C", "3H"], 1: ["JK", "4C"], 2: ["JK", "4H"]}))
    game.play(0, parse_card("2C"))
    assert game.legal(1) == 1 << parse_card("4C")  # West follows clubs: the joker is a heart, not a club
    assert view_for(game, 1)["hand"].count("JK") == 1 and game.refusals(1)[parse_card("JK")][0] == "must_follow_suit"
    bad = _deal_with(rules, {0: ["5C"]})
    bad[0] = multiset.add_card(multiset.remove_card(bad[0], parse_card("5C")), parse_card("JK"))
    other = Game(rules)
    with pytest.raises(IllegalAction) as err:
        other.deal(bad)  # a third joker instead of the 5♣: not this deck
    assert err.value.code == "bad_deal" and other.hand_no == -1 and not other.events


def test_two_identical_cards_may_be_passed_and_are_listed_twice():
    rules = make_rules({"variant": "extreme"})
    game = Game(rules)
    game.deal(_deal_with(rules, {0: ["AS", "AS", "KS"]}))
    game.pass_cards(0, [parse_card("AS"), parse_card("AS"), parse_card("KS")])
    assert game.events[-1]["cards"] == ["KS", "AS", "AS"]
    with pytest.raises(IllegalAction) as err:
        game.pass_cards(1, [parse_card("2D")] * 3)  # West has at most two of them
    assert err.value.code == "bad_pass"
    for seat in range(1, 8):
        game.pass_cards(seat, multiset.cards(game.hands[seat])[:3])
    assert Game.from_json(game.to_json()).snapshot() == game.snapshot()
    assert view_for(game, 1)["received"].count("AS") == 2


def test_of_two_players_holding_the_two_of_clubs_the_one_nearest_the_dealers_left_leads():
    # "moet de speler met 2♣ die het dichtst bij de speler die de kaarten heeft verdeeld zit beginnen"
    rules = make_rules({"variant": "extreme", "passing": "off"})
    assert rules.dealer(0) == 7
    game = Game(rules)
    game.deal(_deal_with(rules, {6: ["2C"], 3: ["2C"]}))
    assert game.turn == 3 and game.legal(3) == 1 << parse_card("2C")
    second = Game(rules)
    second.deal_seeded(1)  # another deal: the first holder going round from the dealer's left leads
    holders = [s for s in range(8) if second.hands[s] >> parse_card("2C") & 1]
    assert second.turn == holders[0]


def test_a_joker_breaks_hearts_as_a_heart_does():
    rules = make_rules({"variant": "three_jokers", "passing": "off", "queen_breaks_hearts": False})
    rng = random.Random(4)
    for deal in range(1, 30):
        game = Game(rules)
        game.deal_seeded(deal)
        while game.phase == "playing":
            hearts_before = any(c in _HEARTS for t in game.tricks + [game.trick] for c in t.cards)
            card = rng.choice(multiset.cards(game.legal(game.turn)))
            game.play(game.turn, card)
            if card == parse_card("JK") and not hearts_before:
                assert game.hearts_broken  # the first heart of the hand was a joker
                return
    raise AssertionError("no hand played a joker before any other heart")


_HEARTS = set(multiset.cards(make_rules({"variant": "three_jokers"}).hearts_mask))


def test_when_both_twos_of_clubs_lie_in_the_kitty_the_player_left_of_the_dealer_leads():
    rules = make_rules({"variant": "cancellation", "passing": "off"})
    game = Game(rules)
    game.deal_seeded(3663)  # a numbered deal whose two-card kitty holds both 2♣
    assert multiset.count(multiset.from_cards(game.kitty), parse_card("2C")) == 2
    assert game.turn == (rules.dealer(0) + 1) % 6
    lead = game.legal(game.turn)
    assert lead and not lead & rules.penalty_mask  # any card but a point card: it is still the first trick
