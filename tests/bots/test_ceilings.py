"""The hard player's ceilings (arena only): one told the true deal, one whose playouts search its own next cards."""

from __future__ import annotations

import random

from hartenjagen.server.cli import main
from hartenjagen.shared.bots import make_player
from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.bots.sampling import Sampler
from hartenjagen.shared.cards import QS_BIT
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import PLAYING, Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for
from hartenjagen.tools.arena import run_arena, split_budget
from hartenjagen.tools.ceilings import OracleHard, OwnFutureHard, _copy_playing


def _midhand(seed: int, plays: int) -> Game:
    """A classic game after the pass and ``plays`` cards, played by medium players."""
    rules = make_rules({"variant": "classic"})
    game = Game(rules)
    game.deal(seeded_deal(rules, seed, 0))
    bots = [make_player("medium", s) for s in range(4)]
    while game.phase != PLAYING or sum(len(t.cards) for t in game.tricks) + len(game.trick.cards) < plays:
        for seat in game.to_act():
            game.apply({**bots[seat].decide(view_for(game, seat)), "seat": seat})
    return game


def test_the_oracle_deals_only_the_true_hands():
    game = _midhand(3, 9)
    seat = game.turn
    oracle = OracleHard(1, budget_ms=2)
    oracle.peek(game)
    sampler = Sampler(oracle.told(view_for(game, seat)))
    rng = random.Random(5)
    assert all(sampler.sample(rng) == game.hands for _ in range(20))
    # today's player, from the same view, deals the others' cards in other ways
    plain = Sampler(Knowledge(view_for(game, seat)))
    assert any(plain.sample(rng) != game.hands for _ in range(20))


def test_a_partial_oracle_is_told_where_only_its_cards_lie():
    game = _midhand(4, 5)
    seat = game.turn
    queen = next(s for s in range(4) if game.hands[s] & QS_BIT)
    assert queen != seat  # another seat holds Q♠, unseen yet
    oracle = OracleHard(1, told="queen", budget_ms=2)
    oracle.peek(game)
    sampler = Sampler(oracle.told(view_for(game, seat)))
    rng = random.Random(5)
    deals = [sampler.sample(rng) for _ in range(20)]
    assert all(d[queen] & QS_BIT for d in deals)  # Q♠ always where it lies
    assert any(d != game.hands for d in deals)  # the rest sampled as today


def test_the_own_future_search_reads_only_its_own_view():
    """Two copies of the game that differ in the others' hidden cards give the small search the same card."""
    game = _midhand(4, 6)
    seat = game.turn
    others = [s for s in range(4) if s != seat]
    # swap one unseen card between two other seats that both hold the suit (the view cannot tell the deals apart)
    a, b = others[0], others[1]
    suit = next(s for s in range(4) if game.hands[a] >> (13 * s) & 0x1FFF and game.hands[b] >> (13 * s) & 0x1FFF)
    ca = next(c for c in range(13 * suit, 13 * suit + 13) if game.hands[a] >> c & 1)
    cb = next(c for c in range(13 * suit, 13 * suit + 13) if game.hands[b] >> c & 1)
    swapped = list(game.hands)
    swapped[a] ^= 1 << ca | 1 << cb
    swapped[b] ^= 1 << ca | 1 << cb
    first, second = OwnFutureHard(7, budget_ms=2), OwnFutureHard(7, budget_ms=2)
    first.peek(game)
    second.peek(game)
    card_one = first._search(_copy_playing(game, list(game.hands), seat), seat)
    card_two = second._search(_copy_playing(game, swapped, seat), seat)
    assert card_one == card_two
    assert game.legal(seat) >> card_one & 1


def test_the_ceiling_players_play_whole_hands_in_the_arena():
    players = ["hard-oracle@1", "hard-own1@1", "hard-oracle-queen@1", "hard-own2@1"]
    res = run_arena(players, 4, seed=2, keep_log=True)
    assert [p["name"] for p in res["players"]] == players
    assert all(sum(d["scores"]) in (26, 78) for d in res["log"])


def test_a_seat_may_name_its_own_budget(capsys):
    assert split_budget("hard0@20") == ("hard0", 20.0)
    assert split_budget("medium") == ("medium", None)
    assert main(["arena", "--players", "hard0@x,hard0,hard0,hard0", "--hands", "4"]) == 2
    assert main(["arena", "--players", "hard0@0,hard0,hard0,hard0", "--hands", "4"]) == 2
    assert "nominal ms" in capsys.readouterr().err
