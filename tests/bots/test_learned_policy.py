"""The learned rollout policy: the shipped model loads, decides legally from a seat's view, and both twins agree."""

from __future__ import annotations

import random
from itertools import cycle
from pathlib import Path

import pytest

from hartenjagen.shared.bots import kernel, policy, policy_model
from hartenjagen.shared.bots.hard import HardComputerPlayer, candidates
from hartenjagen.shared.bots.knowledge import Knowledge
from hartenjagen.shared.bots.rollout import rollout
from hartenjagen.shared.bots.sampling import floats
from hartenjagen.shared.variants import make_rules
from hartenjagen.tools.train import bits, play_positions

from .table import ViewOnlySeat, play_hands

NO_STOP = 60_000.0


def _choices(deal_seed: int, least: int) -> list[dict]:
    """The play views of one hand of four hard players where the mover has at least ``least`` legal cards."""
    views: list[dict] = []
    play_hands([HardComputerPlayer(seed=s, budget_ms=1) for s in range(4)], {}, deal_seed, 1,
               lambda seat, view, intent: views.append(view))  # fmt: skip
    return [v for v in views if v["phase"] == "playing" and len(v["legal"]) >= least]


def test_the_shipped_model_loads_small_and_says_how_it_was_made() -> None:
    """The model file is in the package, under 1 MB, of the features' version, and names the command that made it."""
    weights = policy.learned_weights()
    assert weights is not None
    assert len(weights) == len(policy.KINDS) * policy.K
    assert any(weights), "an all-zero model plays like a coin"
    assert policy_model.VERSION == policy.VERSION
    assert policy_model.MADE_BY.startswith("hearts train ")
    assert Path(policy_model.__file__).stat().st_size < 1_000_000


def test_a_model_of_another_version_is_not_loaded(monkeypatch) -> None:
    """Features that changed since the model was made: the hard player falls back to the rule of thumb."""
    monkeypatch.setattr(policy_model, "VERSION", policy.VERSION + 1)
    assert policy.learned_weights() is None
    assert HardComputerPlayer(learned=True).weights is None


@pytest.mark.parametrize("use_kernel", [True, False], ids=["compiled", "pure-python"])
def test_the_learned_hard_player_plays_legal_cards_from_its_own_view(use_kernel: bool) -> None:
    """A whole hand: every card it picks is legal (the game refuses any other), decided from a copy of its view."""
    seat = ViewOnlySeat(HardComputerPlayer(seed=4, budget_ms=3, max_ms=NO_STOP, use_kernel=use_kernel, learned=True))
    others = [HardComputerPlayer(seed=s, budget_ms=1, learned=False) for s in (1, 2, 3)]
    play_hands([seat, *others], {}, deal_seed=31, hands=1)
    assert len(seat.plays) == 13


def test_the_learned_rollouts_decide_differently_from_the_rule_of_thumb() -> None:
    """The model changes what the look-ahead plays: over a few positions some decision or value differs."""
    differs = 0
    for i, view in enumerate(_choices(55, 3)):
        k = Knowledge(view)
        cands = candidates(k)
        learned = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP, learned=True).evaluate(k, cands, random.Random(i))
        plain = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP, learned=False).evaluate(k, cands, random.Random(i))
        differs += learned != plain
    assert differs > 0


def test_compiled_and_pure_python_learned_playouts_take_the_same_cards() -> None:
    """The twins: from positions of real games, the same draws play the same cards to the same tricks taken."""
    assert kernel.warm(), "the test install has the fast extra"
    rules = make_rules({"variant": "classic"})
    weights = policy.learned_weights()
    assert weights is not None
    positions = play_positions(rules, 120, seed=5)
    states = [1_234_567 + i for i in range(len(positions))]
    compiled = kernel.play_out(
        rules, [p["hands"] for p in positions], [p["taken"] for p in positions], [p["leader"] for p in positions],
        [p["trick"] for p in positions], [p["first"] for p in positions], [p["broken"] for p in positions], states,
        64, False, 0.08, weights,
    )  # fmt: skip
    for p, state, (taken, doubled) in zip(positions, states, compiled, strict=True):
        draws = floats(state, 64)[0]
        twin = [0] * 4
        plain = rollout(rules, list(p["hands"]), list(p["taken"]), p["leader"], list(p["trick"]), p["first"],
                        p["broken"], cycle(draws).__next__, False, 0.08, twin, weights)  # fmt: skip
        assert [plain, twin] == [taken, doubled], p


def test_compiled_and_pure_python_learned_search_give_the_same_values() -> None:
    """The hard player with the learned rollouts: the same values and card with or without the kernel."""
    checked = 0
    for i, view in enumerate(_choices(77, 2)):
        k = Knowledge(view)
        cands = candidates(k)
        if len(cands) < 2:
            continue
        fast = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP, learned=True).evaluate(k, cands, random.Random(i))
        slow = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP, learned=True, use_kernel=False).evaluate(
            k, cands, random.Random(i)
        )
        assert fast == slow, (view["hand"], view["trick"])
        checked += 1
        if checked == 10:
            break
    assert checked == 10


def test_a_positions_cards_are_its_legal_cards() -> None:
    """The trainer's positions are real ones: the card the player chose is one of the legal cards kept."""
    rules = make_rules({"variant": "classic"})
    for p in play_positions(rules, 60, seed=9):
        assert p["chosen"] in bits(p["legal"])
        assert len(bits(p["legal"])) > 1


def test_the_default_hard_player_plays_the_rule_of_thumb_and_the_arena_names_both() -> None:
    """Off by default (measured no stronger); the arena seats it as hard-learned beside hard0, today's player."""
    from hartenjagen.shared.bots import make_player
    from hartenjagen.tools.arena import HARD_TRIALS

    assert make_player("hard", 1).weights is None  # type: ignore[attr-defined]
    assert make_player("hard", 1, **HARD_TRIALS["hard0"]).weights is None  # type: ignore[attr-defined]
    assert make_player("hard", 1, **HARD_TRIALS["hard-learned"]).weights == policy.learned_weights()  # type: ignore[attr-defined]
