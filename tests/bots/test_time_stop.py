"""The hard player's wall-clock stop (``MAX_MS``) holds between the candidates of one sampled deal, not only between
deals: a big table's deal plays a rollout per candidate, and in pure Python (the browser) one deal may take a while."""

from __future__ import annotations

import random

import pytest

from hartenjagen.server.table.commands import WORKER_MAX_MS, decide_here
from hartenjagen.shared.bots import hard, kernel
from hartenjagen.shared.bots.hard import MIN_SAMPLES, HardComputerPlayer, candidates
from hartenjagen.shared.bots.knowledge import Knowledge

from .table import play_game

#: A huge budget: only the stop ends the search.
BUDGET = 1e6


def _view(options: dict) -> dict:
    """A play view of a whole game of mediums where the seat has at least four different cards to choose from."""
    views: list[dict] = []

    def keep(seat: int, view: dict, intent: dict) -> None:
        if view["phase"] == "playing" and len(view["legal"]) >= 4:
            views.append(view)

    play_game(["medium"], options, seed=2, max_hands=1, on_view=keep)
    return next(v for v in views if len(candidates(Knowledge(v))) >= 4)


@pytest.mark.parametrize(
    ("options", "rollout", "least"),
    [
        ({"variant": "classic"}, "rollout", MIN_SAMPLES),
        ({"variant": "cancellation", "seats": 12}, "counted_rollout", 2),
    ],
    ids=["one deck", "a card twice"],
)
def test_past_the_stop_no_further_rollout_is_played_even_inside_a_deal(
    options: dict, rollout: str, least: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = _view(options)
    k = Knowledge(view)
    cands = candidates(k)
    played = []
    real = getattr(hard, rollout)

    def counting(*args: object, **kwargs: object) -> object:
        played.append(1)
        return real(*args, **kwargs)

    # the clock passes the stop in the middle of the deal after the least number of deals: two candidates into it
    stop_after = least * len(cands) + 2
    monkeypatch.setattr(hard, rollout, counting)
    monkeypatch.setattr(hard.time, "perf_counter", lambda: 0.0 if len(played) < stop_after else 1e9)
    player = HardComputerPlayer(budget_ms=BUDGET, max_ms=50.0, use_kernel=False)
    values = player.evaluate(k, cands, random.Random(1))
    assert len(played) == stop_after  # not one rollout more: the deal was left unfinished
    assert len(values) == len(cands) and max(values) > -hard.DROPPED / 2  # a card is still chosen on what was played


def test_the_offline_tables_hard_player_stops_by_the_workers_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # The browser's worker has no compiled look-ahead, and a phone may play a rollout in 5 ms: the decision is made
    # on what was played when the worker's clock stop comes, whatever the budget, not a rollout later.
    view = _view({"variant": "classic"})
    monkeypatch.setattr(kernel, "AVAILABLE", False)
    played = []
    real = hard.rollout

    def slow(*args: object, **kwargs: object) -> object:
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hard, "rollout", slow)
    monkeypatch.setattr(hard.time, "perf_counter", lambda: len(played) * 0.005)
    intent = decide_here("hard", view, seed=7)
    assert intent is not None and intent["card"] in view["legal"]
    assert len(played) == int(WORKER_MAX_MS / 5) + 1  # the first rollout past the stop's moment is not played
