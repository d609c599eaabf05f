"""Ratings of rated games (open tables whose seats were all people at the start), per family of variants.

The maths is ``openskill``'s Bradley-Terry model (``server.players.rating_model``, used by the store only: this
module runs in the offline game too, where there is no rating). Here: which family a variant rates in, the places
of a finished game (a person who left early is last), and how a rating is shown (40 times the model's numbers: a
newcomer is 1000 ± 333; the leaderboard orders by 40 × (μ − 3σ), the rating we are fairly sure a player has at least).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

PRIOR = (25.0, 25.0 / 3)  # a newcomer's (μ, σ): the rating model's own prior (server.players.rating_model checks it)
SCALE = 40  # shown numbers: 40 × μ and 40 × σ
MIN_GAMES = 5  # rated games before a player appears on a leaderboard (all time, or this week)
BOARD_SIZE = 50
FAMILIES = ("classic", "dutch", "teams")
PERIODS = ("all", "week")
WEEK = 7 * 86400

#: Each four-seat variant's family; the other seat counts are not rated (few players, no common yardstick).
FAMILY_OF = {
    "classic": "classic",
    "omnibus": "classic",
    "spot_hearts": "classic",
    "hooligan": "classic",
    "black_maria": "classic",
    "parker_brothers": "classic",
    "belgian": "classic",
    "chips": "classic",
    "dutch": "dutch",
    "dutch52": "dutch",
    "achterhoeks_bar": "dutch",
    "achterhoeks": "teams",
}


def family_of(options: dict[str, Any]) -> str | None:
    """Return the rating family of a table's options, or None for a variant that is not rated."""
    return FAMILY_OF.get(options.get("variant", ""))


def places(standing: Sequence[float], teams: tuple[int, ...], rated: dict[int, int], kept: set[int]) -> dict[str, Any]:
    """Return the rated sides of a finished game and their places (1 is best, equal standing shares a place).

    ``standing``: each seat's result, lower is better; ``teams``: each seat's side (empty: every seat alone);
    ``rated``: seat -> player id of the people seated at the start; ``kept``: the seats whose person is still
    there at the end. A side with a person who left early is placed last (after every side that stayed).
    """
    sides: dict[int, list[int]] = {}
    for seat in sorted(rated):
        sides.setdefault(teams[seat] if teams else seat, []).append(seat)
    order = sorted(sides)
    score = {side: (any(s not in kept for s in sides[side]), min(standing[s] for s in sides[side])) for side in order}
    ranks = [1 + sum(1 for other in order if score[other] < score[side]) for side in order]
    return {"sides": [[rated[s] for s in sides[side]] for side in order], "ranks": ranks}


def stored_sides(
    players: list[tuple[int, int]], seat_of: dict[int, int], teams: tuple[int, ...]
) -> tuple[list[list[int]], list[int]]:
    """Return the sides and places of a stored rated game from its (player id, place) rows, to rate it again.

    ``seat_of``: the seat each person still held at the end (a person who left early has none); ``teams``: each
    seat's side (empty: every person alone). A person who left early joins the side with a free seat whose members
    share their place (partners share the side's place), the lowest such side first.
    """
    place = dict(players)
    if not teams:
        order = sorted(place, key=lambda p: (seat_of.get(p, len(seat_of) + 1), p))
        return [[p] for p in order], [place[p] for p in order]
    room = {side: teams.count(side) for side in teams}
    members: dict[int, list[int]] = {}
    for p in sorted(place, key=lambda p: seat_of.get(p, len(teams))):
        if p in seat_of:
            members.setdefault(teams[seat_of[p]], []).append(p)
    for p in sorted(p for p in place if p not in seat_of):
        fits = [
            side
            for side in sorted(room)
            if len(members.get(side, [])) < room[side] and all(place[m] == place[p] for m in members.get(side, []))
        ]
        members.setdefault(fits[0] if fits else max(room) + 1 + p, []).append(p)
    order = sorted(members)
    return [members[side] for side in order], [place[members[side][0]] for side in order]


def shown(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """Return a rating as players see it: ``rating`` ± ``uncertainty``, and ``score`` (the leaderboard's order)."""
    return {
        "rating": round(SCALE * mu),
        "uncertainty": round(SCALE * sigma),
        "score": round(SCALE * (mu - 3 * sigma)),
        "games": games,
    }


def board(
    rows: list[tuple[int, str, float, float, int]],
    me: int | None,
    below: list[tuple[int, str, float, float, int]],
) -> dict[str, Any]:
    """Return the top of a leaderboard and the asker's own place from (player id, name, μ, σ, games) rows.

    ``below``: players with fewer rated games than the board asks, best first: listed after the ranked ones as
    ``provisional`` (without a place), as many as fit in the board's size.
    """
    ranked = sorted(rows, key=lambda r: (-(r[2] - 3 * r[3]), r[0]))
    entries = [{"place": n, "name": r[1], **shown(r[2], r[3], r[4])} for n, r in enumerate(ranked, 1)]
    you = next((dict(e) for e, r in zip(entries, ranked, strict=True) if r[0] == me), None)
    top = entries[:BOARD_SIZE]
    provisional = [
        {"place": None, "name": r[1], **shown(r[2], r[3], r[4]), "provisional": True}
        for r in below[: BOARD_SIZE - len(top)]
    ]
    return {"top": top, "provisional": provisional, "you": you, "players": len(entries)}
