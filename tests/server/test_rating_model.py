"""The rating update is fair by place: from equal ratings a better place always gains more and tied places move alike,
for every pattern of places of three, four and five players and of partners (sides of two)."""

from __future__ import annotations

import itertools

import pytest

from hartenjagen.server.players import rating_model

EPS = 1e-9


def place_patterns(sides: int) -> set[tuple[int, ...]]:
    """Every pattern of places ``sides`` sides can finish in (1 is best, equal results share a place)."""
    return {
        tuple(1 + sum(1 for other in results if other < mine) for mine in results)
        for results in itertools.product(range(sides), repeat=sides)
    }


@pytest.mark.parametrize(("sides", "size"), [(3, 1), (4, 1), (5, 1), (2, 2), (3, 2)])
def test_from_equal_ratings_a_better_place_gains_more_and_tied_places_move_alike(sides: int, size: int) -> None:
    patterns = place_patterns(sides)
    assert len(patterns) == {1: 1, 2: 3, 3: 13, 4: 75, 5: 541}[sides]  # every weak ordering of the sides
    for ranks in sorted(patterns):
        players = [[side * size + k for k in range(size)] for side in range(sides)]
        after = rating_model.rate(players, list(ranks), {})
        gained = []
        for side in players:
            mus = [after[p][0] for p in side]
            assert max(mus) - min(mus) <= EPS, (ranks, "partners move alike")
            gained.append(mus[0])
        for a, b in itertools.permutations(range(sides), 2):
            if ranks[a] < ranks[b]:
                assert gained[a] > gained[b] + EPS, (ranks, a, b, gained)
            elif ranks[a] == ranks[b]:
                assert abs(gained[a] - gained[b]) <= EPS, (ranks, a, b, gained)


def test_four_newcomers_with_two_tied_winners_and_a_third_are_shown_apart() -> None:
    after = rating_model.rate([[1], [2], [3], [4]], [1, 1, 3, 4], {})
    shown = [round(40 * after[p][0]) for p in (1, 2, 3, 4)]
    assert shown[0] == shown[1] > 1000 > shown[2] > shown[3], shown
    assert all(after[p][2] == 1 for p in after)
