"""The rating model: ``openskill``'s Bradley-Terry (full pairing), which rates free-for-all and team games of any size.

Only the store imports it (the new ratings are written in the finished game's transaction);
``server/table/ratings.py`` has the rest, free of the library, so the offline game's table modules need no rating
library. Bradley-Terry compares every side with every other side, so a better place always gains more and tied places
move alike; Plackett-Luce, used before, gave a third place what the two tied winners got.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import BradleyTerryFull

from ..table.ratings import PRIOR

MODEL = BradleyTerryFull(mu=PRIOR[0], sigma=PRIOR[1])
NAME = type(MODEL).__name__  # recorded with the ratings: a store rates its stored games again when it differs


def rate(
    sides: list[list[int]], ranks: Sequence[float], before: dict[int, tuple[float, float, int]]
) -> dict[int, tuple[float, float, int]]:
    """Return each player's (μ, σ, games) after one game, from ``before`` (a newcomer starts at the model's prior)."""
    teams = [
        [MODEL.rating(*before[p][:2], name=str(p)) if p in before else MODEL.rating(name=str(p)) for p in side]
        for side in sides
    ]
    after = MODEL.rate(teams, ranks=list(ranks))
    out = {}
    for side, rated in zip(sides, after, strict=True):
        for p, r in zip(side, rated, strict=True):
            out[p] = (r.mu, r.sigma, before.get(p, (0.0, 0.0, 0))[2] + 1)
    return out
