"""The replay of a finished game (shared/replay.py): every hand open, folded from the game's own events."""

from __future__ import annotations

import copy
import json
import random

import pytest

from hartenjagen.shared.cards import mask_names, parse_card
from hartenjagen.shared.game import GAME_OVER, MOON_CHOICE, Game
from hartenjagen.shared.reasons import IllegalAction
from hartenjagen.shared.replay import NotFinished, replay_hands
from hartenjagen.shared.rules import PASS_NAMES
from hartenjagen.shared.variants import make_rules

from .hands import CLASSIC_MOON
from .scripts import deal_of, play_hand, play_script

RULE_SETS = {
    "classic": {"variant": "classic", "end_score": 50},
    "classic-no-passing": {"variant": "classic", "passing": "off", "end_score": 50},
    "classic-moon-choose": {"variant": "classic", "moon": "choose", "end_score": 50},
    "dutch": {"variant": "dutch"},
    "dutch-passing": {"variant": "dutch", "passing": "left", "turn_score": 25},
}


def finished_game(options: dict, seed: int) -> Game:
    """A whole game with random legal moves on numbered deal ``seed``."""
    rules = make_rules(options)
    rng = random.Random(seed)
    game = Game(rules)
    while game.phase != GAME_OVER:
        play_hand(game, rng, seed)
    return game


def hands_of(events: list[dict]) -> list[list[dict]]:
    """Split a game's events into hands (each starting with its deal)."""
    out: list[list[dict]] = []
    for e in events:
        if e["type"] == "deal":
            out.append([])
        out[-1].append(e)
    return out


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_finished_game_replays_every_hand_open_exactly_as_it_was_played(name, seed):
    game = finished_game(RULE_SETS[name], seed)
    rules = game.rules
    events = copy.deepcopy(game.events)
    replay = replay_hands(rules, events)

    assert events == game.events  # the events are read, never changed
    assert replay["totals"] == game.totals and replay["winners"] == game.winners
    assert len(replay["hands"]) == len(game.history) == len(hands_of(events))

    deck = set(mask_names(rules.deck))
    for k, (hand, history, hand_events) in enumerate(zip(replay["hands"], game.history, hands_of(events), strict=True)):
        assert hand["hand_no"] == k
        offset = rules.pass_offset(k)
        assert hand["pass_direction"] == PASS_NAMES[offset]

        # all four hands as dealt: the deal event's cards, hand_size each, the whole deck between them
        assert hand["dealt"] == hand_events[0]["hands"]
        assert all(len(h) == rules.hand_size for h in hand["dealt"])
        assert set().union(*map(set, hand["dealt"])) == deck

        # the passes: each seat's chosen cards from its own dealt hand, or None in a hand without passing
        passes = {e["seat"]: e["cards"] for e in hand_events if e["type"] == "pass"}
        if offset == 0:
            assert hand["passes"] == [None, None, None, None]
        else:
            assert hand["passes"] == [passes[s] for s in range(4)]
            for s in range(4):
                assert len(hand["passes"][s]) == rules.pass_count
                assert set(hand["passes"][s]) <= set(hand["dealt"][s])

        # the tricks: every card in play order, each seat playing exactly what it held after the passing
        plays = [(e["seat"], e["card"]) for e in hand_events if e["type"] == "play"]
        tricks = hand["tricks"]
        assert len(tricks) == rules.hand_size
        assert [(c["seat"], c["card"]) for t in tricks for c in t["cards"]] == plays
        for i, t in enumerate(tricks):
            assert [c["seat"] for c in t["cards"]] == [(t["leader"] + j) % 4 for j in range(4)]
            led = t["cards"][0]["card"][1]
            best = max((c for c in t["cards"] if c["card"][1] == led), key=lambda c: parse_card(c["card"]))
            assert t["winner"] == best["seat"]
            if i + 1 < len(tricks):
                assert tricks[i + 1]["leader"] == t["winner"]
        for s in range(4):
            held = set(hand["dealt"][s])
            if offset:
                held = held - set(hand["passes"][s]) | set(hand["passes"][(s - offset) % 4])
            assert {c["card"] for t in tricks for c in t["cards"] if c["seat"] == s} == held

        # the score of the hand, moon included, as the game wrote it
        for key in ("points", "scores", "totals", "moon", "moon_choice"):
            assert hand[key] == history[key], key
    assert replay["hands"][-1]["totals"] == replay["totals"]


def test_the_replay_is_plain_json_and_the_same_from_stored_events():
    game = finished_game(RULE_SETS["classic"], 7)
    replay = replay_hands(game.rules, game.events)
    stored = json.loads(json.dumps(game.events))  # as the database gives the events back
    assert replay_hands(game.rules, stored) == replay
    assert json.loads(json.dumps(replay)) == replay


def test_a_moon_shows_the_shooter_and_the_choice():
    rules = make_rules({"variant": "classic", "passing": "off", "end_score": 25, "moon": "choose"})
    game = Game(rules)
    game.deal(deal_of(CLASSIC_MOON))
    play_script(game, CLASSIC_MOON)
    assert game.phase == MOON_CHOICE
    with pytest.raises(NotFinished):  # the moon is not chosen yet: no replay
        replay_hands(rules, game.events)
    game.choose_moon(0, "others")
    assert game.phase == GAME_OVER

    replay = replay_hands(rules, game.events)
    (hand,) = replay["hands"]
    assert hand["moon"] == 0 and hand["moon_choice"] == "others"
    assert hand["points"] == [26, 0, 0, 0] and hand["scores"] == [0, 26, 26, 26]
    assert replay["totals"] == [0, 26, 26, 26] and replay["winners"] == [0]
    assert hand["passes"] == [None, None, None, None] and hand["pass_direction"] == "hold"


def test_a_moon_under_fixed_rules_names_the_rule_as_the_choice():
    rules = make_rules({"variant": "classic", "passing": "off", "end_score": 25})
    game = Game(rules)
    game.deal(deal_of(CLASSIC_MOON))
    play_script(game, CLASSIC_MOON)
    (hand,) = replay_hands(rules, game.events)["hands"]
    assert hand["moon"] == 0 and hand["moon_choice"] == game.history[0]["moon_choice"] == "others"


def test_no_replay_of_a_game_that_is_not_over():
    game = finished_game(RULE_SETS["classic"], 11)
    events = game.events
    with pytest.raises(NotFinished):
        replay_hands(game.rules, [])
    for n in range(len(events)):  # mid-pass, mid-trick, between hands: never a replay
        with pytest.raises(NotFinished):
            replay_hands(game.rules, events[:n])
    assert replay_hands(game.rules, events)["winners"] == game.winners


def test_events_the_game_refuses_are_not_replayed():
    game = finished_game(RULE_SETS["classic-no-passing"], 5)
    events = copy.deepcopy(game.events)
    first_play = next(i for i, e in enumerate(events) if e["type"] == "play")
    seat = events[first_play]["seat"]
    other = mask_names(game.rules.deck & ~sum(1 << parse_card(c) for c in events[0]["hands"][seat]))[0]
    events[first_play]["card"] = other  # a card this seat never held
    with pytest.raises(IllegalAction):
        replay_hands(game.rules, events)
