"""The game as a fold of events: phases, passing, tricks, refusals that change nothing, and replay."""

import json
import random

import pytest

from hartenjagen.shared.cards import mask_cards, mask_names, parse_card
from hartenjagen.shared.game import Game
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.variants import CLASSIC, DUTCH, make_rules

from .hands import CLASSIC_MOON, CLASSIC_VOID_HANDS, CLASSIC_VOID_TRICKS, DUTCH_SPLIT
from .scripts import deal_and_play, deal_of, hand, play_script, random_step, rotate

NO_PASSING = make_rules({"passing": "off"})


def _state(game: Game):
    return game.snapshot(), [dict(e) for e in game.events]


def _refused(game: Game, code: str, action, *args):
    """Assert that an action is refused with ``code`` and leaves the game exactly as it was."""
    before = _state(game)
    with pytest.raises(IllegalAction) as info:
        action(*args)
    assert info.value.code == code
    assert info.value.reason == {"code": code, "params": info.value.params}
    assert _state(game) == before
    return info.value


def test_a_new_game_waits_for_a_deal_and_nobody_acts():
    game = Game(CLASSIC)
    assert (game.phase, game.hand_no, game.to_act(), game.pass_direction) == ("dealing", -1, [], None)


def test_a_classic_hand_goes_from_passing_to_playing_to_hand_over():
    game = Game(CLASSIC)
    game.deal_seeded(11)
    assert (game.phase, game.pass_direction, game.to_act()) == ("passing", "left", [0, 1, 2, 3])
    rng = random.Random(1)
    for _ in range(4):
        random_step(game, rng)
    assert game.phase == "playing"
    while game.phase == "playing":
        assert game.to_act() == [game.turn]
        random_step(game, rng)
    assert game.phase == "hand_over" and game.to_act() == []
    assert len(game.history) == 1 and len(game.tricks) == 13


@pytest.mark.parametrize(("passing", "offset"), [("left", 1), ("right", 3), ("cycle", 1)])
def test_passed_cards_reach_the_seat_in_the_passing_direction_only_after_all_four_passed(passing, offset):
    game = Game(make_rules({"passing": passing}))
    game.deal_seeded(4)
    dealt = list(game.hands)
    chosen = [mask_names(h)[:3] for h in dealt]
    for seat in range(3):
        game.pass_cards(seat, [parse_card(c) for c in chosen[seat]])
        assert game.hands == dealt, "nothing moves before everyone has passed"
        assert game.to_act() == list(range(seat + 1, 4))
    game.pass_cards(3, [parse_card(c) for c in chosen[3]])
    for seat in range(4):
        giver = (seat - offset) % 4
        assert mask_names(game.received[seat]) == chosen[giver]
        expected = (dealt[seat] & ~hand(" ".join(chosen[seat]))) | hand(" ".join(chosen[giver]))
        assert game.hands[seat] == expected
    assert game.hands[game.turn] & hand("2C"), "the holder of 2C after passing leads"


def test_the_cycle_passes_left_right_across_hold_and_left_again_on_the_fifth_hand():
    game = Game(CLASSIC)
    rng = random.Random(3)
    seen = []
    for n in range(5):
        game.deal_seeded(n)
        seen.append((game.pass_direction, game.phase))
        while game.phase in ("passing", "playing", "moon_choice"):
            random_step(game, rng)
    assert seen == [
        ("left", "passing"),
        ("right", "passing"),
        ("across", "passing"),
        ("hold", "playing"),
        ("left", "passing"),
    ]


@pytest.mark.parametrize(
    ("why", "seat", "cards", "code"),
    [
        ("two cards", 0, "own:2", "bad_pass"),
        ("four cards", 0, "own:4", "bad_pass"),
        ("a card from another hand", 0, "other", "bad_pass"),
        ("the same card twice", 0, "twice", "bad_pass"),
        ("not cards at all", 0, None, "bad_pass"),
        ("a bool", 0, True, "bad_pass"),
        ("no such seat", 4, "own:3", "bad_event"),
    ],
)
def test_a_bad_pass_is_refused_and_changes_nothing(why, seat, cards, code):
    game = Game(CLASSIC)
    game.deal_seeded(9)
    own = sorted(mask_names(game.hands[0]))
    if isinstance(cards, str) and cards.startswith("own:"):
        cards = [parse_card(c) for c in own[: int(cards[4:])]]
    elif cards == "other":
        cards = [parse_card(c) for c in own[:2]] + [parse_card(mask_names(game.hands[1])[0])]
    elif cards == "twice":
        cards = [parse_card(own[0]), parse_card(own[0]), parse_card(own[1])]
    _refused(game, code, game.pass_cards, seat, cards)


def test_a_seat_cannot_pass_twice_and_nobody_can_pass_while_playing():
    game = Game(CLASSIC)
    game.deal_seeded(9)
    first = list(mask_names(game.hands[0]))[:3]
    game.pass_cards(0, [parse_card(c) for c in first])
    _refused(game, "already_passed", game.pass_cards, 0, [parse_card(c) for c in mask_names(game.hands[0])[3:6]])
    for seat in (1, 2, 3):
        game.pass_cards(seat, _three(game.hands[seat]))
    assert game.phase == "playing"
    _refused(game, "wrong_phase", game.pass_cards, 0, _three(game.hands[0]))


def _three(mask: int) -> int:
    out = 0
    for _ in range(3):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def test_the_trick_goes_to_the_highest_card_of_the_led_suit_not_to_a_higher_card_of_another_suit():
    game = Game(NO_PASSING)
    game.deal([hand(h) for h in CLASSIC_VOID_HANDS])
    play_script(game, CLASSIC_VOID_TRICKS)
    assert [t.winner for t in game.tricks] == [1, 0]
    assert game.turn == 0 and game.trick.leader == 0


def test_every_play_is_checked_and_a_refused_play_changes_nothing():
    game = Game(NO_PASSING)
    game.deal([hand(h) for h in CLASSIC_VOID_HANDS])
    err = _refused(game, "not_your_turn", game.play, 1, parse_card("AC"))
    assert err.seat == 1 and str(err) == "seat 1: not_your_turn"
    err = _refused(game, "not_in_hand", game.play, 0, parse_card("AC"))
    assert err.params == {"card": "AC"}
    err = _refused(game, "must_lead_first", game.play, 0, parse_card("7D"))
    assert err.params == {"first": "2C"}
    _refused(game, "bad_event", game.play, 0, 53)
    _refused(game, "not_in_hand", game.play, 0, 52)  # the joker: a card, but not of this deck
    _refused(game, "bad_event", game.play, 0, "2C")
    game.play(0, parse_card("2C"))
    err = _refused(game, "must_follow_suit", game.play, 1, parse_card("5D"))
    assert err.params == {"suit": 0}  # clubs
    game.play(1, parse_card("AC"))
    game.play(2, parse_card("3C"))
    game.play(3, parse_card("4C"))
    _refused(game, "hearts_not_broken", game.play, 1, parse_card("AH"))


def test_no_point_card_on_the_first_trick_is_refused_with_its_own_reason():
    game = Game(NO_PASSING)
    game.deal(deal_of(CLASSIC_MOON))
    game.play(0, parse_card("2C"))
    game.play(1, parse_card("2H"))  # West holds nothing but hearts
    _refused(game, "no_points_first_trick", game.play, 2, parse_card("QS"))


def test_refusals_give_a_reason_for_exactly_the_cards_that_are_not_legal():
    game = Game(NO_PASSING)
    game.deal([hand(h) for h in CLASSIC_VOID_HANDS])
    assert game.refusals(1) == {c: ("not_your_turn", {}) for c in mask_cards(game.hands[1])}
    ref = game.refusals(0)
    assert set(ref) == {parse_card(n) for n in mask_names(game.hands[0])} - {parse_card("2C")}
    assert {code for code, _ in ref.values()} == {"must_lead_first"}


def test_nothing_can_be_played_before_the_deal_or_after_the_hand():
    game = Game(NO_PASSING)
    _refused(game, "wrong_phase", game.play, 0, parse_card("2C"))
    deal_and_play(game, CLASSIC_MOON)
    assert game.phase == "hand_over"
    _refused(game, "wrong_phase", game.play, 0, parse_card("2C"))
    assert game.legal(0) == 0 and game.refusals(0) == {}


@pytest.mark.parametrize(
    ("why", "hands", "code"),
    [
        ("three hands", lambda d: d[:3], "bad_deal"),
        ("a hand one card short", lambda d: [d[0] & (d[0] - 1)] + d[1:], "bad_deal"),
        ("a card dealt twice", lambda d: [d[0], d[1] ^ (d[1] & -d[1]) | (d[0] & -d[0]), d[2], d[3]], "bad_deal"),
        ("not masks", lambda d: [mask_names(h) for h in d], "bad_deal"),
        ("nothing", lambda d: None, "bad_deal"),
    ],
)
def test_a_bad_deal_is_refused_and_changes_nothing(why, hands, code):
    game = Game(NO_PASSING)
    _refused(game, code, game.deal, hands(deal_of(CLASSIC_MOON)))


def test_a_dutch_deal_refuses_cards_outside_the_32_card_deck():
    game = Game(DUTCH)
    hands = deal_of(DUTCH_SPLIT)
    hands[0] = hands[0] ^ hand("7C") | hand("2C")
    _refused(game, "bad_deal", game.deal, hands)


def test_a_deal_is_refused_while_a_hand_is_being_played():
    game = Game(NO_PASSING)
    game.deal(deal_of(CLASSIC_MOON))
    _refused(game, "wrong_phase", game.deal, deal_of(CLASSIC_MOON))


@pytest.mark.parametrize(
    ("event", "code"),
    [
        ({"type": "shuffle"}, "bad_event"),
        ({"seat": 0, "card": "2C"}, "bad_event"),
        ({"type": "play", "seat": 0}, "bad_event"),
        ({"type": "play", "seat": 0, "card": "2X"}, "bad_event"),
        ({"type": "play", "seat": 0, "card": None}, "bad_event"),
        ({"type": "pass", "seat": 0, "cards": ["2C", "2C", "3C"]}, "bad_event"),
        ({"type": "moon", "seat": 0, "choice": "others"}, "wrong_phase"),
        ({"type": "deal", "hands": [["2C"]] * 4}, "wrong_phase"),
        ({"type": "play", "seat": 1, "card": "AH"}, "not_your_turn"),
    ],
)
def test_a_bad_event_from_outside_is_refused_with_a_code_and_changes_nothing(event, code):
    game = Game(NO_PASSING)
    game.deal(deal_of(CLASSIC_MOON))
    _refused(game, code, game.apply, event)


def test_the_dutch_deal_rotates_and_the_seat_left_of_the_dealer_leads_any_card():
    game = Game(DUTCH)
    for n in range(5):
        game.deal(deal_of(rotate(DUTCH_SPLIT, n)))
        assert game.turn == (DUTCH.dealer(n) + 1) % 4 == n % 4
        assert game.legal(game.turn) == game.hands[game.turn]
        play_script(game, rotate(DUTCH_SPLIT, n))
        assert game.phase == "hand_over"


def test_a_game_replays_from_its_json_to_the_same_state_at_every_step():
    rng = random.Random(8)
    for rules in (CLASSIC, make_rules({"variant": "dutch", "passing": "cycle", "moon": "choose"})):
        game = Game(rules)
        seed = 0
        while game.phase != "game_over" and len(game.events) < 400:
            if game.phase in ("dealing", "hand_over"):
                game.deal_seeded(seed)
                seed += 1
            else:
                random_step(game, rng)
            data = json.loads(json.dumps(game.to_json()))
            again = Game.from_json(data)
            assert again.snapshot() == game.snapshot()
            assert again.events == game.events


def test_the_same_seed_deals_the_same_cards_in_every_game_and_each_hand_differs():
    a, b = Game(CLASSIC), Game(CLASSIC)
    a.deal_seeded(42)
    b.deal_seeded(42)
    assert a.hands == b.hands
    c = Game(CLASSIC)
    c.deal_seeded(43)
    assert c.hands != a.hands
