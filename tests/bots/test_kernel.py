"""The compiled look-ahead (the ``fast`` extra) gives the hard player the very values the pure-Python one gives."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from itertools import cycle
from pathlib import Path

import pytest

from hartenjagen.shared import multiset
from hartenjagen.shared.bots import kernel
from hartenjagen.shared.bots.counted import CountedSampler, counted_rollout
from hartenjagen.shared.bots.hard import DRAWS, WHIM, HardComputerPlayer, candidates
from hartenjagen.shared.bots.knowledge import Knowledge, start_taken
from hartenjagen.shared.bots.rollout import rollout
from hartenjagen.shared.bots.sampling import Sampler, floats, seed_from
from hartenjagen.shared.bots.value import value_spec
from hartenjagen.shared.cards import parse_card
from hartenjagen.shared.variants import make_rules

from .table import play_game
from .test_play_all_variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
#: The wall-clock stop is a safety net that cuts a search short on a loaded machine; the twins agree on the plays.
NO_STOP = 60_000.0
#: The one-deck tables of three and five seats (with and without a kitty): the kernel plays them at their seat count.
OTHER_TABLES = [o for o in VARIANTS if make_rules(o).seats != 4 and not make_rules(o).counted]
#: Several decks or jokers (a card may appear twice): these stay in pure Python.
COUNTED = [o for o in VARIANTS if make_rules(o).counted]


def _ids(options: dict) -> str:
    """A test id from a variant's options."""
    return "-".join(f"{k}={v}" for k, v in options.items())


def _positions(options: dict, seed: int, n: int = 8) -> list[dict]:
    """Return ``n`` play views with a choice of cards, spread over a whole game of mediums (up to 8 hands)."""
    views: list[dict] = []

    def keep(seat: int, view: dict, intent: dict) -> None:
        if view["phase"] == "playing" and len(view["legal"]) >= 2:
            views.append(view)

    play_game(["medium"] * 4, options, seed, max_hands=8, on_view=keep)
    chosen = [v for v in views[:: max(1, len(views) // (3 * n))] if len(candidates(Knowledge(v))) >= 2]
    return chosen[:: max(1, len(chosen) // n)][:n]


def test_the_test_install_has_the_kernel() -> None:
    """The test command installs the fast extra, so the comparisons below run the compiled twin for real."""
    assert kernel.AVAILABLE
    assert kernel.warm()
    # numba's cache now holds it: a server's workers start without compiling or even importing numba
    assert kernel.cached()


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_compiled_and_pure_python_search_give_the_same_values(options: dict) -> None:
    """Every variant (teams, doublers, chips, the Dutch second half): the same candidates, values and decision."""
    views = _positions(options, seed=3)
    assert views, "the game gave no position with a choice"
    for i, view in enumerate(views):
        k = Knowledge(view)
        cands = candidates(k)
        fast = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP).evaluate(k, cands, random.Random(i))
        slow = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP, use_kernel=False).evaluate(k, cands, random.Random(i))
        assert fast == slow, (options, view["hand"], view["trick"])
        assert HardComputerPlayer(seed=i, budget_ms=4, max_ms=NO_STOP).choose_play(view) == HardComputerPlayer(
            seed=i, budget_ms=4, max_ms=NO_STOP, use_kernel=False
        ).choose_play(view)


def test_the_dutch_second_half_is_compared_too() -> None:
    """The positions above reach the hands where points count down (the rollouts play for points there)."""
    views = _positions({"variant": "dutch", "turn_score": 25}, seed=3)
    assert any(Knowledge(v).counting_down for v in views)


def test_without_numba_the_hard_player_decides_the_same_in_pure_python() -> None:
    """HEARTS_KERNEL=0 (or no numba installed): the pure-Python path plays, and makes the same decisions."""
    views = _positions({}, seed=5)[:4]
    here = [HardComputerPlayer(seed=9, budget_ms=6, max_ms=NO_STOP).choose_play(v) for v in views]
    code = (
        "import json, sys\n"
        "from hartenjagen.shared.bots import kernel\n"
        "from hartenjagen.shared.bots.hard import HardComputerPlayer\n"
        "views = json.load(sys.stdin)\n"
        "print(json.dumps([kernel.AVAILABLE, [HardComputerPlayer(seed=9, budget_ms=6, max_ms=6e4).choose_play(v) "
        "for v in views]]))\n"
    )
    env = {**os.environ, "HEARTS_KERNEL": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(views),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    available, there = json.loads(done.stdout)
    assert available is False
    assert there == here


def test_a_cache_made_for_a_copy_of_the_code_elsewhere_does_not_count_as_cached(tmp_path, monkeypatch) -> None:
    """numba keeps a cache per source path: one made for /app (say) is not one for the installed code."""
    kernel.warm()
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    made = [p for p in kernel.cache_folder().glob("kernel_impl.*")]  # numba's files, and the helpers' digest
    assert made and kernel.cached()  # the session compiled it for this checkout, beside the source
    root = tmp_path / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root))
    elsewhere = root / "bots_0123456789abcdef0123456789abcdef01234567"  # another folder's name and hash
    elsewhere.mkdir(parents=True)
    for path in made:
        (elsewhere / path.name).write_bytes(path.read_bytes())
    assert not kernel.cached()
    here = kernel.cache_folder()  # where numba would look for this very file
    assert here.parent == root and here.name.startswith("bots_") and here != elsewhere
    elsewhere.rename(here)
    assert kernel.cached()


def test_a_cache_compiled_from_other_helpers_does_not_count_as_cached(tmp_path, monkeypatch) -> None:
    """numba checks its cache against kernel_impl.py alone; the helpers compiled into it (thumb.py) count too."""
    kernel.warm()
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    made = [p for p in kernel.cache_folder().glob("kernel_impl.*")]
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    here = kernel.cache_folder()
    here.mkdir(parents=True)
    for path in made:
        (here / path.name).write_bytes(path.read_bytes())
    assert kernel.cached()
    (here / "kernel_impl.helpers.sha256").write_text(hashlib.sha256(b"a thumb.py of another day").hexdigest())
    assert not kernel.cached()  # warm forgets it and compiles afresh, where numba would load it as it is


def test_a_process_that_loads_the_cache_writes_nothing_in_its_folder() -> None:
    """The image's cache is compiled at build time and only loaded at run time: no file of it is written again."""
    kernel.warm()
    folder = kernel.cache_folder()
    before = {p.name: p.stat().st_mtime_ns for p in folder.glob("kernel_impl.*")}
    assert "kernel_impl.helpers.sha256" in before and kernel.cached()
    code = "from hartenjagen.shared.bots import kernel; assert kernel.warm() and kernel._impl is not None"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert {p.name: p.stat().st_mtime_ns for p in folder.glob("kernel_impl.*")} == before


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_the_review_search_gives_the_same_points_compiled_and_in_pure_python(options: dict, monkeypatch) -> None:
    """The hand review plays its deals through the compiled look-ahead where it can, to the same points."""
    from hartenjagen.shared.review_search import evaluate_plays

    views = _positions(options, seed=5, n=4)
    assert views
    fast = [evaluate_plays(v, 6.0) for v in views]
    monkeypatch.setattr(kernel, "AVAILABLE", False)
    slow = [evaluate_plays(v, 6.0) for v in views]
    assert fast == slow, options


def _passing_views(options: dict, seed: int, n: int = 3) -> list[dict]:
    """Return ``n`` passing views of a game of mediums (the first hands that pass)."""
    views: list[dict] = []

    def keep(seat: int, view: dict, intent: dict) -> None:
        if view["phase"] == "passing" and not view.get("passed") and len(views) < n:
            views.append(view)

    play_game(["medium"] * 4, options, seed, max_hands=6, on_view=keep)
    return views


#: The one-deck tables where cards are passed.
PASSING = [o for o in [{}, *OTHER_TABLES] if set(make_rules(o).pass_cycle) - {"hold"}]


@pytest.mark.parametrize("options", PASSING, ids=lambda o: _ids(o) or "classic")
def test_the_pass_review_gives_the_same_points_compiled_and_in_pure_python(options: dict, monkeypatch) -> None:
    """The hand review's pass search plays its hands out through the compiled look-ahead, to the same points."""
    from hartenjagen.shared.review_search import evaluate_passes, hard_pass

    views = _passing_views(options, seed=9)
    assert views, options
    # the hard player's pass, and the lowest cards of the hand
    passes = [[hard_pass(v), sorted(parse_card(c) for c in v["hand"])[: len(hard_pass(v))]] for v in views]
    fast = [evaluate_passes(v, p, 3.0) for v, p in zip(views, passes, strict=True)]
    monkeypatch.setattr(kernel, "AVAILABLE", False)
    slow = [evaluate_passes(v, p, 3.0) for v, p in zip(views, passes, strict=True)]
    assert fast == slow, options
    assert any(a != b for a, b in fast)  # the two passes were told apart


def test_the_other_tables_are_the_ones_asked_for() -> None:
    """Three, five and the Dutch five, each with and without a kitty where it has one, are among the compared."""
    names = {o["variant"] for o in OTHER_TABLES}
    assert names == {"three", "three_kitty", "five", "five_kitty", "dutch5"}
    assert {make_rules(o).seats for o in OTHER_TABLES} == {3, 5}


def test_the_kernel_covers_every_one_deck_table_and_no_counted_one() -> None:
    """One deck at any seat count (a kitty too) plays compiled; several decks or jokers stay in Python."""
    for options in [{}, *OTHER_TABLES, {"variant": "dutch5"}]:
        assert kernel.covers(make_rules(options)), options
    assert COUNTED
    for options in COUNTED:
        assert not kernel.covers(make_rules(options)), options


@pytest.mark.parametrize("options", OTHER_TABLES, ids=_ids)
def test_at_three_and_five_seats_the_kernel_deals_and_plays_the_same_cards(options: dict) -> None:
    """Deal by deal and candidate by candidate: the same cards taken and doubled as the pure-Python twins."""
    views = _positions(options, seed=3)
    assert views
    rng = random.Random(1)
    for view in views:
        k = Knowledge(view)
        assert k.seats == make_rules(options).seats
        sampler = Sampler(k)
        plan = kernel.Plan(k, sampler, value_spec(k), DRAWS, WHIM)
        bits = [1 << c for c in candidates(k)]
        seeds = [seed_from(rng) for _ in range(6)]
        for seed, row in zip(seeds, plan.outcomes(seeds, bits), strict=True):
            hands, kitty, x = sampler.sample_with_kitty(seed)
            draws = floats(x, DRAWS)[0]
            for b, outcome in zip(bits, row, strict=True):
                hs = list(hands)
                hs[k.seat] ^= b
                doubled = list(k.doubled)
                taken = rollout(
                    k.rules, hs, start_taken(k, kitty), k.leader, k.trick_bits() + [b], k.first_trick, k.hearts_broken,
                    cycle(draws).__next__, k.counting_down, WHIM, doubled=doubled,
                )  # fmt: skip
                assert outcome == [taken, doubled], (options, view["hand"], view["trick"], seed)


@pytest.mark.parametrize("options", OTHER_TABLES, ids=_ids)
def test_at_three_and_five_seats_the_hard_player_runs_compiled_to_the_same_values(options: dict, monkeypatch) -> None:
    """The hard player's search at these tables goes through the kernel, and gives the pure-Python values."""
    calls = []
    run = kernel.Plan.run

    def counted(plan: kernel.Plan, seeds: list[int], cands: list[int]) -> tuple:
        calls.append(len(seeds))
        return run(plan, seeds, cands)

    monkeypatch.setattr(kernel.Plan, "run", counted)
    views = _positions(options, seed=5, n=6)
    assert views
    for i, view in enumerate(views):
        k = Knowledge(view)
        cands = candidates(k)
        before = len(calls)
        fast = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP).evaluate(k, cands, random.Random(i))
        assert len(calls) > before, "the compiled look-ahead did not play"
        slow = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP, use_kernel=False).evaluate(k, cands, random.Random(i))
        assert fast == slow, (options, view["hand"], view["trick"])


@pytest.mark.parametrize("options", COUNTED, ids=_ids)
def test_where_a_card_appears_twice_the_kernel_deals_and_plays_the_same_cards(options: dict) -> None:
    """Several decks and jokers (cancelling, the first of two ranks higher, jokers by order): from the same seeds
    the compiled twin deals the same layered hands and every rollout takes the same cards as the pure-Python one."""
    views = _positions(options, seed=3)
    assert views
    rng = random.Random(1)
    for view in views:
        k = Knowledge(view)
        sampler = CountedSampler(k)
        cands = candidates(k)
        plan = kernel.CountedPlan(k, sampler, value_spec(k), DRAWS, WHIM)
        seeds = [seed_from(rng) for _ in range(4)]
        compiled = plan.outcomes(seeds, cands)
        for seed, row in zip(seeds, compiled, strict=True):
            deal, kitty, x = sampler.sample_with_kitty(seed)
            assert [h.bit_count() for h in deal] == k.sizes  # every hand as large as the view says
            draws = floats(x, DRAWS)[0]
            for c, outcome in zip(cands, row, strict=True):
                hs = list(deal)
                hs[k.seat] = multiset.remove_card(hs[k.seat], c)
                taken = counted_rollout(
                    k.rules, hs, start_taken(k, kitty), k.leader, [x for _, x in k.trick] + [c], k.first_trick,
                    k.hearts_broken, cycle(draws).__next__, k.pending, k.jokers_played, k.counting_down, WHIM,
                )  # fmt: skip
                assert outcome == taken, (options, view["hand"], view["trick"])


@pytest.mark.parametrize("options", COUNTED, ids=_ids)
def test_where_a_card_appears_twice_the_hard_player_searches_compiled_to_the_same_values(
    options: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hard player's search at these tables goes through the kernel, and gives the pure-Python values."""
    calls = []
    run = kernel.CountedPlan.run

    def counted(plan: kernel.CountedPlan, seeds: list[int], cands: list[int]) -> tuple:
        calls.append(1)
        return run(plan, seeds, cands)

    monkeypatch.setattr(kernel.CountedPlan, "run", counted)
    views = _positions(options, seed=5, n=6)
    assert views
    for i, view in enumerate(views):
        k = Knowledge(view)
        cands = candidates(k)
        before = len(calls)
        fast = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP).evaluate(k, cands, random.Random(i))
        assert len(calls) > before, "the compiled look-ahead did not play"
        slow = HardComputerPlayer(budget_ms=4, max_ms=NO_STOP, use_kernel=False).evaluate(k, cands, random.Random(i))
        assert fast == slow, (options, view["hand"], view["trick"])
