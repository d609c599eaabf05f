"""Engine benchmark: random complete hands through the public API and through the simulation path."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from hartenjagen.shared import multiset
from hartenjagen.shared.bots import kernel, make_player
from hartenjagen.shared.bots.counted import counted_rollout
from hartenjagen.shared.bots.hard import COUNTED_PLAYS_PER_MS, PLAYS_PER_MS, HardComputerPlayer, candidates
from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.bots.rollout import rollout
from hartenjagen.shared.game import PASSING, PLAYING, Game
from hartenjagen.shared.rules import Rules
from hartenjagen.shared.sim import hand_scorer, pick, random_hand
from hartenjagen.shared.view import view_for


def api_hand(rules: Rules, seed: int, rng: random.Random) -> Game:
    """Play one hand through the engine API the server uses: seeded deal, passes, legal plays."""
    game = Game(rules)
    game.deal_seeded(seed)
    rand = rng.random
    if game.phase == PASSING:
        for seat in range(rules.seats):
            if rules.counted:  # a card may be there twice: pass a random few of the cards with their copies
                game.pass_cards(seat, rng.sample(multiset.cards(game.hands[seat]), len(game.pass_targets)))
                continue
            hand, chosen = game.hands[seat], 0
            for _ in range(len(game.pass_targets)):
                b = pick(hand, rand)
                hand ^= b
                chosen |= b
            game.pass_cards(seat, chosen)
    while game.phase == PLAYING:
        seat = game.turn
        game.play(seat, pick(game.legal(seat), rand).bit_length() - 1)
    return game


def _deal_at_random(rules: Rules, rng: random.Random) -> tuple[list[int], int]:
    """Hands (layered where the deck has copies) dealt from a shuffled deck, and who leads the first trick."""
    cards = multiset.cards(rules.deck)
    rng.shuffle(cards)
    n = rules.hand_size
    hands = [multiset.from_cards(cards[i * n : (i + 1) * n]) for i in range(rules.seats)]
    if rules.first_lead >= 0:
        holders = [s for s in range(rules.seats) if hands[s] >> rules.first_lead & 1]
        leader = holders[0] if holders else (rules.dealer(0) + 1) % rules.seats
    else:
        leader = (rules.dealer(0) + 1) % rules.seats
    return hands, leader


def playout_hand(rules: Rules, rng: random.Random) -> list[int]:
    """A hand dealt and played at random on the simulation path (where a card may appear twice: ``counted``)."""
    if not rules.counted:
        return random_hand(rules, rng)
    hands, leader = _deal_at_random(rules, rng)
    seats = rules.seats
    taken = counted_rollout(rules, hands, [0] * seats, leader, [], True, False, rng.random, whim=1.0)
    return hand_scorer(rules)(taken, [0] * seats)


def lookahead_hand(rules: Rules, rng: random.Random) -> list[int]:
    """Deal at random and play the hand out as the hard player's look-ahead does: rule-of-thumb rollout, scoring."""
    hands, leader = _deal_at_random(rules, rng)
    seats = rules.seats
    doubled = [0] * seats
    if rules.counted:
        taken = counted_rollout(rules, hands, [0] * seats, leader, [], True, False, rng.random)
    else:
        taken = rollout(rules, hands, [0] * seats, leader, [], True, False, rng.random, doubled=doubled)
    return hand_scorer(rules)(taken, doubled)


def search_position(rules: Rules, seed: int = 1) -> tuple[Knowledge, list[int]]:
    """Return the first position of a seeded hand (mediums pass and play) where the hard player has a choice."""
    game = Game(rules)
    game.deal_seeded(seed)
    bots = [make_player("medium", seed * 16 + s) for s in range(rules.seats)]
    while game.phase in (PASSING, PLAYING):
        seat = game.to_act()[0]
        view = view_for(game, seat)
        if game.phase == PLAYING:
            k = Knowledge(view)
            cands = candidates(k)
            if len(cands) >= 2 and sum(k.sizes) >= rules.seats * rules.hand_size - 8:
                return k, cands
        game.apply({**bots[seat].decide(view), "seat": seat})
    raise RuntimeError("no position with a choice in this hand")


def search_rate(rules: Rules, use_kernel: bool, budget_ms: float, seconds: float, rounds: int) -> float:
    """Return the hard player's simulated hands per second in its search (sampling, rollouts and scoring)."""
    k, cands = search_position(rules)
    player = HardComputerPlayer(budget_ms=budget_ms, use_kernel=use_kernel)
    rate = COUNTED_PLAYS_PER_MS if rules.counted else PLAYS_PER_MS
    hands = budget_ms * rate / sum(k.sizes)  # the budget counts the cards each rollout plays
    if use_kernel:
        kernel.warm()
    return hands * _rate(lambda n: player.evaluate(k, cands, random.Random(n)), seconds, rounds, batch=1)


def openspiel_hand(game: Any, rng: random.Random) -> list[float]:
    """One hand of OpenSpiel's ``hearts`` with random legal moves (chance nodes at random too)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
    return state.returns()


def _rate(step, seconds: float, rounds: int, batch: int = 50) -> float:
    """Return the median steps per second over ``rounds`` timed slices of ``seconds / rounds``."""
    return _rates([step], seconds, rounds, batch)[0]


def _rates(steps: list, seconds: float, rounds: int, batch: int = 50) -> list[float]:
    """Return each step's median rate over ``rounds`` slices, the steps' slices taken in turn.

    Taking them in turn keeps a ratio between two steps fair on a machine whose speed changes from minute to
    minute: both see the same stretches of it.
    """
    rates: list[list[float]] = [[] for _ in steps]
    n = 0
    for _ in range(rounds):
        for i, step in enumerate(steps):
            start = time.perf_counter()
            end = start + seconds / rounds
            count = 0
            while True:
                for _ in range(batch):
                    step(n)
                    n += 1
                    count += 1
                now = time.perf_counter()
                if now >= end:
                    break
            rates[i].append(count / (now - start))
    return [statistics.median(r) for r in rates]


def bench_engine(rules: Rules, seconds: float = 5.0, seed: int = 1, rounds: int = 5) -> dict[str, Any]:
    """Measure both paths for ``seconds`` each (median of ``rounds`` slices); return the figures."""
    rng = random.Random(seed)
    spiel_game = _openspiel() if rules.variant == "classic" else None
    if spiel_game is not None:  # the API and OpenSpiel in turns, so their ratio sees the same machine
        api, spiel = _rates(
            [lambda n: api_hand(rules, seed + n, rng), lambda n: openspiel_hand(spiel_game, rng)], seconds, rounds
        )
    else:
        api, spiel = _rate(lambda n: api_hand(rules, seed + n, rng), seconds, rounds), None
    sim = _rate(lambda n: playout_hand(rules, rng), seconds, rounds)
    look = _rate(lambda n: lookahead_hand(rules, rng), seconds, rounds)
    out = {
        "variant": rules.variant,
        "seconds_per_path": seconds,
        "rounds": rounds,
        "api_hands_per_s": round(api, 1),
        "playout_hands_per_s": round(sim, 1),
        "playout_over_api": round(sim / api, 2),
        "lookahead_hands_per_s": round(look, 1),
        "openspiel_hands_per_s": None,
        "search_python_hands_per_s": round(search_rate(rules, False, 20.0, seconds, rounds), 1),
        "search_kernel_hands_per_s": None,
    }
    if kernel.AVAILABLE and kernel.covers(rules):
        fast = search_rate(rules, True, 800.0, seconds, rounds)
        out["search_kernel_hands_per_s"] = round(fast, 1)
        out["kernel_over_python"] = round(fast / out["search_python_hands_per_s"], 1)
    if spiel is not None:
        out["openspiel_hands_per_s"] = round(spiel, 1)
        out["api_over_openspiel"] = round(api / spiel, 2)
        out["playout_over_openspiel"] = round(sim / spiel, 2)
        out["lookahead_over_openspiel"] = round(look / spiel, 2)
    return out


def _openspiel() -> Any:
    """OpenSpiel's ``hearts`` game when OpenSpiel is installed (pip install open_spiel), else None."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("hearts")
