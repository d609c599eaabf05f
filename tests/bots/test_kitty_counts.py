"""The hard player's look-ahead counts a kitty for the seat that took it: its own kitty as it saw it, another's as
the sampled deal holds it, and a kitty still lying for nobody (the compiled twin does the same: test_kernel)."""

from __future__ import annotations

import random

from hartenjagen.shared import multiset
from hartenjagen.shared.bots import make_player
from hartenjagen.shared.bots.counted import CountedSampler
from hartenjagen.shared.bots.knowledge import Knowledge, start_taken
from hartenjagen.shared.bots.sampling import Sampler, seed_from
from hartenjagen.shared.game import PLAYING, Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for


def _after_first_trick(options: dict) -> Game:
    """A game of mediums, seeded, stopped as soon as the first trick is taken."""
    game = Game(make_rules(options))
    game.deal_seeded(5)
    players = [make_player("medium", s) for s in range(game.rules.seats)]
    while not game.tricks or game.phase != PLAYING:
        for seat in game.to_act():
            game.apply({**players[seat].decide(view_for(game, seat)), "seat": seat})
    return game


def _check(options: dict, sampler_of) -> None:
    game = _after_first_trick(options)
    taker = game.kitty_takers[0]
    assert taker >= 0, "the first trick's winner takes the kitty"
    kitty = 0
    for c in game.kitty:
        kitty = multiset.add_card(kitty, c)
    own = Knowledge(view_for(game, taker))
    assert start_taken(own, 0)[taker] == multiset.add(own.taken[taker], kitty)  # it saw its kitty: it counts
    other = (taker + 1) % game.rules.seats
    k = Knowledge(view_for(game, other))
    sampler = sampler_of(k)
    rng = random.Random(3)
    for _ in range(20):
        hands, sampled, _ = sampler.sample_with_kitty(seed_from(rng))
        assert sampled.bit_count() == game.rules.kitty  # the kitty's cards, as this deal has them
        taken = start_taken(k, sampled)
        assert taken[taker] == multiset.add(k.taken[taker], sampled)
        assert all(taken[s] == k.taken[s] for s in range(game.rules.seats) if s != taker)


def test_one_deck_the_kitty_counts_for_the_first_tricks_winner() -> None:
    _check({"variant": "three_kitty"}, Sampler)


def test_two_decks_the_kitty_counts_for_the_first_tricks_winner() -> None:
    _check({"variant": "cancellation", "seats": 7}, CountedSampler)


def test_a_kitty_still_lying_counts_for_nobody() -> None:
    options = {"variant": "five_kitty", "kitty": "first_two"}  # one card to each of the first two tricks
    game = _after_first_trick(options)
    first, second = game.kitty_takers
    assert first >= 0 and second < 0
    other = next(s for s in range(5) if s != first)
    k = Knowledge(view_for(game, other))
    _, sampled, _ = Sampler(k).sample_with_kitty(7)
    taken = start_taken(k, sampled)
    low = sampled & -sampled
    assert taken[first] == k.taken[first] | low  # the lower card went with the first trick; the other still lies
    assert sum(t.bit_count() for t in taken) == sum(t.bit_count() for t in k.taken) + 1
