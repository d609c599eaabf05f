"""A database whose ratings were made by the former rating model is rated again, game by game, when a store opens:
the ratings and every game's rating change equal what the current model gives over the stored games, partners and
people who left early included; opening again changes nothing."""

from __future__ import annotations

import pytest
from openskill.models import BradleyTerryFull, PlackettLuce

from hartenjagen.server.players import rating_model
from hartenjagen.server.storage.opening import is_postgres_url, open_store
from hartenjagen.server.storage.postgres import PostgresStore
from hartenjagen.server.storage.sqlite import SQLiteStore
from hartenjagen.server.table.ratings import places

from .conftest import both_stores
from .test_http_db_cli import copy_migrations, raw

CLASSIC = {"variant": "classic", "end_score": 25}
TEAMS = {"variant": "achterhoeks"}
PARTNERS = (0, 1, 0, 1)

#: (options, the players seated 0..3 by number, each seat's final total, the seats whose person left early)
GAMES = [
    (CLASSIC, (0, 1, 2, 3), (10, 10, 20, 30), set()),
    (CLASSIC, (1, 2, 3, 4), (25, 5, 5, 12), set()),
    (CLASSIC, (4, 0, 2, 1), (3, 30, 8, 8), {1}),
    (TEAMS, (0, 1, 2, 3), (40, 60, 40, 60), set()),
    (TEAMS, (4, 2, 1, 0), (80, 20, 80, 20), {3}),
    (CLASSIC, (0, 1, 2, 3), (7, 7, 7, 30), {3}),
    (TEAMS, (3, 4, 0, 1), (50, 60, 50, 60), {0, 1}),
]


def record(n: int, ids: list[int], options: dict, seated: tuple, totals: tuple, left: set[int]) -> dict:
    """A finished rated game as the table hands it to the store (a person who left early: a computer on the seat)."""
    rated = places(list(totals), PARTNERS if options is TEAMS else (), {s: ids[p] for s, p in enumerate(seated)},
                   {s for s in range(4) if s not in left})  # fmt: skip
    left_ids = sorted(ids[seated[s]] for s in left)
    seats = [
        {"seat": s, "player_id": None if s in left else ids[p], "kind": "computer" if s in left else "person",
         "name": f"P{p}", "level": "easy" if s in left else None}
        for s, p in enumerate(seated)
    ]  # fmt: skip
    family = "teams" if options is TEAMS else "classic"
    return {
        "id": 1000 + n, "share": f"s{n}", "table_id": f"t{n}", "code": f"CODE{n}", "options": options,
        "deal": None, "daily": None, "started_at": 100.0 * n, "finished_at": 100.0 * n + 50,
        "history": [], "totals": list(totals), "winners": [0], "toppers": [], "events": [],
        "participants": [ids[p] for p in seated], "seats": seats,
        "rated": {"family": family, **rated, "left": left_ids},
    }  # fmt: skip


def replayed(ids: list[int]) -> tuple[dict, dict]:
    """The ratings and per-game changes straight from the games with the current model (no server code)."""
    model = BradleyTerryFull()
    now: dict[tuple[str, int], object] = {}
    games: dict[tuple[str, int], int] = {}
    changes = {}
    for n, (options, seated, totals, left) in enumerate(GAMES):
        family = "teams" if options is TEAMS else "classic"
        sides: dict[int, list[int]] = {}
        for s, p in enumerate(seated):
            sides.setdefault(PARTNERS[s] if options is TEAMS else s, []).append(ids[p])
        score = {k: (any(seated.index(ids.index(p)) in left for p in side), min(
            totals[seated.index(ids.index(p))] for p in side)) for k, side in sides.items()}  # fmt: skip
        ranks = [1 + sum(1 for o in score.values() if o < score[k]) for k in sides]
        teams = [[now.get((family, p)) or model.rating() for p in side] for side in sides.values()]
        for side, after in zip(sides.values(), model.rate(teams, ranks=ranks), strict=True):
            for p, r in zip(side, after, strict=True):
                now[family, p] = r
                games[family, p] = games.get((family, p), 0) + 1
                changes[1000 + n, p] = (r.mu, r.sigma)
    return {k: (r.mu, r.sigma, games[k]) for k, r in now.items()}, changes


async def stored(db_url: str) -> tuple[dict, dict, list]:
    found = await raw(db_url, "SELECT family, player_id, mu, sigma, games, updated_at FROM ratings")
    rows = {(f, p): (mu, sigma, g) for f, p, mu, sigma, g, _ in found}
    changes = {(g, p): (mu, sigma) for g, p, mu, sigma in await raw(
        db_url, "SELECT game_id, player_id, mu, sigma FROM rating_changes")}  # fmt: skip
    everything = sorted(found) + sorted(await raw(db_url, "SELECT * FROM rating_changes"))
    return rows, changes, everything


def close_to(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(v == pytest.approx(b[k], rel=1e-12, abs=1e-12) for k, v in a.items())


@both_stores
async def test_ratings_of_the_former_model_are_rated_again_once_in_game_order(tmp_path, db_url, monkeypatch):
    older = copy_migrations(tmp_path / "migs", upto=11)  # before the model was recorded: Plackett-Luce made them
    opener = PostgresStore.open if is_postgres_url(db_url) else SQLiteStore.open
    db = await opener(db_url, older)
    ids = [(await db.player(f"P{n}", None))[0] for n in range(5)]
    with monkeypatch.context() as m:
        m.setattr(rating_model, "MODEL", PlackettLuce())
        for n, game in enumerate(GAMES):
            await db.record_game(record(n, ids, *game))
    await db.close()
    old_ratings, old_changes, _ = await stored(db_url)
    assert len(old_ratings) == 10 and len(old_changes) == 4 * len(GAMES)

    expected_ratings, expected_changes = replayed(ids)
    assert not close_to(old_ratings, expected_ratings)  # the former model's numbers differ

    db = await open_store(db_url)
    assert await raw(db_url, "SELECT name FROM rating_model") == [("BradleyTerryFull",)]
    await db.close()
    new_ratings, new_changes, first = await stored(db_url)
    assert close_to(new_ratings, expected_ratings), (new_ratings, expected_ratings)
    assert close_to(new_changes, expected_changes)
    updated = dict(((f, p), at) for f, p, *_, at in first[: len(new_ratings)])
    assert updated[("teams", ids[0])] == 650.0 and updated[("classic", ids[4])] == 250.0  # their last rated game

    db = await open_store(db_url)  # opened again: nothing is rated twice
    await db.close()
    assert (await stored(db_url))[2] == first
