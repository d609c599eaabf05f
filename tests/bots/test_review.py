"""The hand review: deterministic, honest (the view alone), marks blunders, and ``hearts review`` on a stored game."""

from __future__ import annotations

import asyncio
import copy
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from hartenjagen.server.storage.opening import open_store
from hartenjagen.server.table.table import FINISHED, Table
from hartenjagen.shared.bots import make_player
from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.bots.sampling import Sampler
from hartenjagen.shared.cards import parse_mask
from hartenjagen.shared.game import MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.review import REVIEW_REASONS, decisions, mark_for, review_decision, review_hand
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

BUDGET = 20.0
SMALL = 8.0  # where many decisions are reviewed


def play_game(options: dict[str, Any], seed: int = 3) -> Game:
    """Four medium players play one hand of seeded deal ``seed``."""
    rules = make_rules(options)
    bots = [make_player("medium", seed * 10 + s) for s in range(4)]
    game = Game(rules)
    game.deal_seeded(seed)
    while game.phase in (PASSING, PLAYING, MOON_CHOICE):
        for s in game.to_act():
            game.apply({**bots[s].decide(view_for(game, s)), "seat": s})
    return game


@pytest.fixture(scope="module")
def played() -> Game:
    return play_game({"variant": "classic"})


def test_decisions_are_the_pass_and_every_card_in_order(played):
    found = decisions(played.rules, played.events, 1, 0)
    assert [d.kind for d in found] == ["pass"] + ["play"] * 13
    assert [d.trick for d in found[1:]] == list(range(13))
    assert found[0].view["phase"] == "passing" and len(found[0].chosen) == 3
    for d in found[1:]:
        assert d.view["turn"] == 1 and d.chosen in d.view["legal"] and d.position == len(d.view["trick"]["cards"])


def test_same_view_and_budget_give_the_same_review(played):
    for d in decisions(played.rules, played.events, 0, 0)[:3]:
        assert review_decision(d.view, d.chosen, SMALL) == review_decision(copy.deepcopy(d.view), d.chosen, SMALL)


def test_review_reads_the_view_only_not_the_hidden_hands(played):
    """Replace the other seats' unplayed cards by another deal consistent with the view: the review is the same."""
    seat = 2
    game = Game(played.rules)
    checked = 0
    for i, event in enumerate(played.events):
        if event.get("seat") == seat and event["type"] in ("pass", "play") and i % 4 in (0, 1):
            view = view_for(game, seat)
            hands = Sampler(Knowledge(view)).sample(random.Random(i))
            alt = copy.deepcopy(game)
            for s in range(4):
                if s != seat:
                    alt.hands[s] = hands[s]
            if sum(game.hands) - game.hands[seat] and len(view["hand"]) > 2:
                assert alt.hands != game.hands  # another deal indeed
            alt_view = view_for(alt, seat)
            assert alt_view == view
            chosen = event["cards"] if event["type"] == "pass" else event["card"]
            assert review_decision(alt_view, chosen, SMALL) == review_decision(view, chosen, SMALL)
            checked += 1
        game.apply(event)
    assert checked >= 5


# South (seat 0) is void in clubs; North wins trick 1 with A♣ and leads 5♠, East drops Q♠: South's A♠ takes her.
HANDS = [
    "2S 4S 6S 7S 8S 9S TS JS KS AS 2H 3H 4H",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D",
    "AC 5S 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "QS 3S AD 5H 6H 7H 8H 9H TH JH QH KH AH",
]
PLAYS = [(1, "2C"), (2, "AC"), (3, "AD"), (0, "4S"), (2, "5S"), (3, "QS")]


def test_taking_the_queen_when_you_could_duck_is_a_blunder_with_its_reason():
    rules = make_rules({"variant": "classic", "passing": "off"})
    game = Game(rules)
    game.deal([parse_mask(h.split()) for h in HANDS])
    for seat, card in PLAYS:
        game.play(seat, parse_mask([card]).bit_length() - 1)
    view = view_for(game, 0)
    review = review_decision(view, "AS", BUDGET)
    assert review["cost"] >= 5 and review["mark"] == "blunder"
    assert review["best"] != "AS" and review["best"] in view["legal"]
    reason = review["reason"]
    assert reason == {"code": "took_queen", "params": {}}  # a code, no sentence: the client words it
    good = review_decision(view, review["best"], BUDGET)
    assert good["cost"] == 0 and good["mark"] is None and good["reason"] is None


@pytest.mark.parametrize(
    ("cost", "mark"),
    [(0.0, None), (0.49, None), (0.5, "inaccuracy"), (1.99, "inaccuracy"), (2, "mistake"), (4.99, "mistake"),
     (5, "blunder"), (13, "blunder")],
)  # fmt: skip
def test_thresholds(cost, mark):
    assert mark_for(cost) == mark


def test_review_hand_shape(played):
    r = review_hand(played.rules, played.events, 3, 0, budget_ms=5.0)
    assert json.loads(json.dumps(r)) == r
    assert r["seat"] == 3 and r["hand_no"] == 0 and len(r["decisions"]) == 14
    assert r["total_cost"] == round(sum(d["cost"] for d in r["decisions"]), 2)
    assert set(r) == {"seat", "hand_no", "budget_ms", "decisions", "total_cost"}  # no sentence: the client words it
    for d in r["decisions"]:
        assert d["cost"] >= 0 and d["expected"]["chosen"] - d["expected"]["best"] == pytest.approx(d["cost"], abs=0.02)
        assert (d["mark"] is None) == (d["reason"] is None)
        if d["reason"]:
            assert set(d["reason"]) == {"code", "params"} and set(d["reason"]["params"]) >= set(
                REVIEW_REASONS[d["reason"]["code"]]
            )


@pytest.mark.parametrize("variant", ["dutch", "omnibus", "spot_hearts", "black_maria", "achterhoeks", "chips"])
def test_other_variants_are_reviewed(variant):
    from hartenjagen.shared.variants import VARIANTS

    if variant not in VARIANTS:
        pytest.skip(f"no variant {variant}")
    game = play_game({"variant": variant}, seed=5)
    r = review_hand(game.rules, game.events, 0, 0, budget_ms=2.0)
    assert r["decisions"] and all(d["cost"] >= 0 for d in r["decisions"])


async def stored_game(db_path: str) -> int:
    """Play a short game at a server table (one person, three medium computer players) and store it as the hub does."""
    db = await open_store(db_path)
    try:
        pid, _, name = await db.player("Anna", None)
        table = Table.create("REVIEW", make_rules({"variant": "classic", "end_score": 25}), deal=11, at=0.0)
        table.seating.seat_person(None, pid, name, 0)
        table.hosting.fill_computers(0, "medium")
        table.hosting.start(0, 0.0)
        bots = [make_player("medium", s) for s in range(4)]
        game = table.game
        while table.status != FINISHED:
            if game.phase == "hand_over":
                table.hosting.deal_next()
            for s in game.to_act():
                table.act(s, bots[s].decide(view_for(game, s)))
        record = table.finish(1.0)
        await db.record_game(record)
        return record["id"]
    finally:
        await db.close()


def test_hearts_review_prints_a_stored_games_review(tmp_path):
    path = str(tmp_path / "hearts.db")
    game_id = asyncio.run(stored_game(path))
    cmd = [sys.executable, "-m", "hartenjagen.server.cli", "review", str(game_id), "0", "--db", path]
    cmd += ["--budget-ms", "2"]
    out = subprocess.run([*cmd, "--hand", "1"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"game {game_id}, seat 0" in out.stdout and "hand 1: about " in out.stdout
    assert "  pass " in out.stdout and "trick 13." in out.stdout
    js = subprocess.run([*cmd, "--hand", "1", "--json"], capture_output=True, text=True, timeout=60)
    body = json.loads(js.stdout)
    assert body["game_id"] == game_id and len(body["hands"]) >= 1
    assert all(len(h["decisions"]) >= 13 for h in body["hands"])
    missing = subprocess.run([*cmd[:4], "999", "0", "--db", path], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "no finished game 999" in missing.stderr


@pytest.mark.parametrize("variant", ["three_kitty", "five", "three_jokers", "cancellation", "extreme"])
def test_a_hand_of_every_seat_count_and_deck_is_reviewed_pass_and_every_card(variant):
    # the pass and each of the seat's plays, judged with the sampler and rollout its deck needs (copies, kitty)
    rules = make_rules({"variant": variant})
    players = [make_player("medium", s) for s in range(rules.seats)]
    game = Game(rules)
    game.deal_seeded(3663)  # in Cancellation this deal leaves both 2♣ in the kitty
    while game.phase not in ("hand_over", "game_over"):
        for seat in game.to_act():
            game.apply({**players[seat].decide(view_for(game, seat)), "seat": seat})
    review = review_hand(rules, game.events, 0, 0, budget_ms=5)
    kinds = [d["kind"] for d in review["decisions"]]
    assert kinds == ["pass"] + ["play"] * rules.hand_size
    assert all(d["cost"] >= 0 for d in review["decisions"])


def test_a_costly_decision_in_a_hand_another_seat_shot_the_moon_is_a_blunder_naming_the_shooter(monkeypatch):
    # South holds every club and takes every trick: a moon; West's every decision is made to cost 3 points
    rules = make_rules({"variant": "classic", "passing": "off"})
    game = Game(rules)
    game.deal([parse_mask([r + suit for r in "23456789TJQKA"]) for suit in "CHSD"])
    while game.phase == PLAYING:
        game.play(game.turn, (game.legal(game.turn) & -game.legal(game.turn)).bit_length() - 1)
    assert game.history[-1]["moon"] == 0
    costly = {"kind": "play", "cost": 3.0, "mark": "mistake", "reason": None}
    monkeypatch.setattr("hartenjagen.shared.review.review_decision", lambda view, chosen, budget_ms: dict(costly))
    named = review_hand(rules, game.events, 1, 0, names=["Anna", "Bram", "Carla", "Dirk"])
    assert {d["mark"] for d in named["decisions"]} == {"blunder"}
    assert {json.dumps(d["reason"]) for d in named["decisions"]} == {
        json.dumps({"code": "let_moon", "params": {"seat": 0, "name": "Anna"}})
    }
    unnamed = review_hand(rules, game.events, 1, 0)
    assert unnamed["decisions"][0]["reason"] == {"code": "let_moon", "params": {"seat": 0}}
    assert review_hand(rules, game.events, 0, 0)["decisions"][0]["reason"] is None  # the shooter's own: no moon lost
