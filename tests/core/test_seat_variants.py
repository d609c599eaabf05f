"""Tables of three and five: decks, passing, the kitty and who sees it, as docs/core.md reads the rules text."""

import random

import pytest

from hartenjagen.shared.cards import mask_cards, mask_names, parse_mask
from hartenjagen.shared.game import HAND_OVER, PASSING, PLAYING, Game
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.rules import RulesError
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import spectator_view, view_for


def _shown(view: dict) -> str:
    """The view as text without its scoring table (which names every card worth points, as the rules do)."""
    return str({k: v for k, v in view.items() if k != "scoring"})


def _names(rules) -> set[str]:
    return set(mask_names(rules.deck))


def test_three_players_play_51_cards_without_the_two_of_diamonds_or_the_three_of_clubs():
    # "Alleen wordt de 3♣ of de 2♦ verwijderd uit het spel zodat er 51 kaarten overblijven."
    three = make_rules({"variant": "three"})
    assert (three.seats, three.hand_size, len(_names(three))) == (3, 17, 51)
    assert "2D" not in _names(three) and "3C" in _names(three)
    other = make_rules({"variant": "three", "removed": "three_of_clubs"})
    assert "3C" not in _names(other) and "2D" in _names(other)
    assert three.moon_total == 26 and mask_names(1 << three.first_lead) == ["2C"]


def test_three_players_never_pass_across_and_cycle_left_right_hold():
    # "Ook wordt er in deze variant niet doorgegeven aan de speler tegenover."
    three = make_rules({"variant": "three"})
    assert [three.pass_form(n) for n in range(4)] == ["left", "right", "hold", "left"]
    assert [three.pass_offset(n) for n in range(3)] == [1, 2, 0]  # at three seats, right is two seats on
    with pytest.raises(RulesError) as err:
        make_rules({"variant": "three", "passing": "scatter"})
    assert err.value.option == "passing"


def test_five_players_leave_out_two_cards_and_pass_one_and_two_seats_each_way():
    # "de 3♣ en 2♦ worden uit het spel verwijderd ... L1 – R1 – L2 – R2 – vasthouden."
    five = make_rules({"variant": "five"})
    assert (five.seats, five.hand_size) == (5, 10) and not {"2D", "3C"} & _names(five)
    assert [five.pass_form(n) for n in range(6)] == ["left", "right", "left2", "right2", "hold", "left"]
    for hand_no, offset in [(0, 1), (1, 4), (2, 2), (3, 3)]:
        assert five.pass_offset(hand_no) == offset
    game = Game(five)
    for _ in range(2):  # play on to hand 2: L2 sends the cards to the second player on the left
        game.deal_seeded(11)
        _finish_hand(game, random.Random(1))
    game.deal_seeded(11)
    assert game.pass_form == "left2"
    passed = {s: sorted(mask_cards(game.hands[s]))[:3] for s in range(5)}
    for s in range(5):
        game.pass_cards(s, passed[s])
    for s in range(5):
        assert game.received[(s + 2) % 5] == sum(1 << c for c in passed[s])
        assert view_for(game, s)["pass_to"] == (s + 2) % 5


def test_dutch_for_five_is_the_piquet_deck_and_three_sixes_seven_cards_each():
    # "Men gebruikt alle piketkaarten plus de schoppen-, ruiten- en klaverzes ... 7 speelkaarten."
    rules = make_rules({"variant": "dutch5"})
    assert (rules.seats, rules.hand_size, len(_names(rules))) == (5, 7, 35)
    assert {"6S", "6D", "6C"} <= _names(rules) and "6H" not in _names(rules)
    assert rules.moon_total == 15 and rules.end == "dutch"  # "hetzelfde aantal strafpunten"


def _finish_hand(game: Game, rng: random.Random) -> None:
    while game.phase == PASSING:
        seat = game.to_act()[0]
        game.pass_cards(seat, rng.sample(sorted(mask_cards(game.hands[seat])), len(game.pass_targets)))
    while game.phase == PLAYING:
        game.play(game.turn, rng.choice(sorted(mask_cards(game.legal(game.turn)))))
    if game.phase == "moon_choice":
        game.choose_moon(game.moon_seat, "others")


def _kitty_game(options: dict, kitty: list[str], hands: list[list[str]]) -> Game:
    rules = make_rules(options)
    game = Game(rules)
    game.deal([parse_mask(h) for h in hands] + [parse_mask(kitty)])
    return game


def _three_hands(kitty: str) -> list[list[str]]:
    deck = [c for c in mask_names((1 << 52) - 1) if c != kitty]
    return [deck[s::3] for s in range(3)]


def test_the_first_trick_takes_the_kitty_and_only_its_taker_sees_it_until_the_hand_is_scored():
    # "De speler die de eerste slag wint moet ook de Kitty pakken. Alleen die speler mag zien welke kaart de Kitty is."
    game = _kitty_game({"variant": "three_kitty", "passing": "off"}, ["QS"], _three_hands("QS"))
    assert game.phase == PLAYING and game.turn == (game.rules.dealer(0) + 1) % 3  # left of the dealer leads
    assert all("QS" not in _shown(view_for(game, s)) for s in range(3))
    lead = game.legal(game.turn)  # any card, but no points in the first trick
    assert lead and not lead & game.rules.penalty_mask and game.rules.first_lead == -1
    for _ in range(3):
        game.play(game.turn, min(mask_cards(game.legal(game.turn))))
    taker = game.tricks[0].winner
    assert game.kitty_takers == [taker]
    assert view_for(game, taker)["kitty"] == ["QS"] and view_for(game, taker)["kitty_takers"] == [taker]
    for other in {0, 1, 2} - {taker}:
        assert view_for(game, other)["kitty"] == [] and "QS" not in _shown(view_for(game, other))
    assert "QS" not in _shown(spectator_view(game))
    assert spectator_view(game)["pending"] is None  # no undecided tricks without two decks
    assert game.points_taken()[taker] == 0  # the kitty's 13 are not counted in the open before the hand ends
    _finish_hand(game, random.Random(2))
    last = game.history[-1]
    assert last["kitty_takers"] == [taker] and sum(last["points"]) == 26 or last["moon"] is not None
    assert last["points"][taker] >= 13


def test_once_the_hand_is_over_every_seat_sees_what_the_kitty_held_and_who_took_it():
    # the replay shows the kitty of every hand; at the hand's end the cards are counted in the open, so its cards lie
    # open for everyone, watchers too, in the order of ``kitty_takers``, and count in their taker's point cards
    game = _kitty_game({"variant": "three_kitty", "passing": "off"}, ["QS"], _three_hands("QS"))
    _finish_hand(game, random.Random(3))
    assert game.phase in (HAND_OVER, "game_over")
    taker = game.kitty_takers[0]
    for view in [view_for(game, s) for s in range(3)] + [spectator_view(game)]:
        assert view["kitty_cards"] == ["QS"] and view["kitty_takers"] == [taker]
        assert "QS" in view["point_cards"][taker]
    game.deal_seeded(4)  # the next hand: its kitty lies face down again, and nothing of the last hand is shown
    assert all(view_for(game, s)["kitty_cards"] is None for s in range(3))


def test_with_two_kitty_cards_each_lies_open_at_the_hands_end_beside_its_own_taker():
    rules = make_rules({"variant": "five_kitty", "kitty": "first_two", "passing": "off"})
    game = Game(rules)
    game.deal_seeded(21)
    kitty = [mask_names(1 << c)[0] for c in game.kitty]
    assert spectator_view(game)["kitty_cards"] is None
    _finish_hand(game, random.Random(5))
    view = spectator_view(game)
    assert view["kitty_cards"] == kitty and view["kitty_takers"] == [game.tricks[0].winner, game.tricks[1].winner]


def test_with_first_points_the_kitty_waits_for_the_first_trick_that_holds_points():
    # "(in sommige varianten 'de eerste slag waarin strafpunten zijn gespeeld')"
    options = {"variant": "three_kitty", "passing": "off", "kitty": "first_points"}
    game = _kitty_game(options, ["2C"], _three_hands("2C"))
    rng = random.Random(5)
    while game.kitty_takers == [-1]:
        game.play(game.turn, rng.choice(sorted(mask_cards(game.legal(game.turn)))))
    first_with_points = next(t for t in game.tricks if t.bits & game.rules.penalty_mask)
    assert first_with_points is game.tricks[-1] and game.kitty_takers == [first_with_points.winner]


def test_five_with_two_kitties_gives_both_to_the_first_trick_or_one_each_to_the_first_two():
    # "Of de speler die de eerste slag wint moet beide pakken, of de eerste twee spelers die een slag winnen ..."
    for how in ("first_trick", "first_two"):
        rules = make_rules({"variant": "five_kitty", "kitty": how, "passing": "off"})
        assert (rules.seats, rules.hand_size, rules.kitty) == (5, 10, 2)
        game = Game(rules)
        game.deal_seeded(8)
        rng = random.Random(8)
        while len(game.tricks) < 2:
            game.play(game.turn, rng.choice(sorted(mask_cards(game.legal(game.turn)))))
        first, second = game.tricks[0].winner, game.tricks[1].winner
        assert game.kitty_takers == ([first, first] if how == "first_trick" else [first, second])
        with pytest.raises(RulesError):
            make_rules({"variant": "three_kitty", "kitty": "first_two"})  # three has one kitty card


def test_a_kitty_deal_that_does_not_add_up_is_refused_and_changes_nothing():
    game = Game(make_rules({"variant": "three_kitty"}))
    hands = _three_hands("QS")
    with pytest.raises(IllegalAction) as err:
        game.deal([parse_mask(h) for h in hands])  # the kitty is missing
    assert err.value.code == "bad_deal" and game.hand_no == -1 and not game.events
    with pytest.raises(IllegalAction):
        game.deal([parse_mask(h) for h in hands] + [parse_mask(["AS"])])  # the ace of spades is dealt already
    assert game.hand_no == -1 and not game.events


@pytest.mark.parametrize("variant", ["three", "three_kitty", "five", "five_kitty", "dutch5"])
def test_a_whole_seeded_game_replays_from_its_events_at_every_seat_count(variant):
    game = Game(make_rules({"variant": variant}))
    rng = random.Random(variant)
    while game.phase != "game_over" and game.hand_no < 60:
        game.deal_seeded(rng.randrange(10**6))
        _finish_hand(game, rng)
        assert game.phase in (HAND_OVER, "game_over")
        assert len(game.totals) == game.rules.seats
    again = Game.from_json(game.to_json())
    assert again.snapshot() == game.snapshot() and again.totals == game.totals
