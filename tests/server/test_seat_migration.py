"""A database made before tables of three to twelve seats keeps its games and takes a fifth seat after upgrading."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from hartenjagen.server.storage.sqlite import SQLiteStore, migrations_dir


def _game(db: sqlite3.Connection, game_id: int) -> None:
    """A finished game row: the columns a migration adds take their defaults where they have one."""
    columns = db.execute("PRAGMA table_info(games)").fetchall()
    needed = [c for c in columns if c[3] and c[4] is None and c[1] != "id"]  # NOT NULL without a default
    values = {"code": "ABCD", "variant": "classic", "options": "{}", "winners": "[0]"}
    names = ["id"] + [c[1] for c in needed]
    row = [game_id] + [values.get(c[1], 1) for c in needed]
    db.execute(f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", row)


def _insert(db: sqlite3.Connection, seat: int, game_id: int) -> None:
    db.execute(
        "INSERT INTO game_seats (game_id, seat, player_id, kind, name, level, final_total, won) "
        "VALUES (?, ?, NULL, 'bot', 'Bram', 'easy', 12, 0)",
        (game_id, seat),
    )
    db.execute("INSERT INTO game_hands VALUES (?, 0, ?, 3, 3, 12, 0)", (game_id, seat))
    db.execute("INSERT INTO game_toppers VALUES (?, ?, 'nil_game')", (game_id, seat))


async def test_an_old_database_keeps_its_games_and_accepts_seats_up_to_twelve(tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    for path in migrations_dir().glob("00[1-7]_*.sql"):
        shutil.copy(path, old)
    path = str(tmp_path / "hearts.db")
    await (await SQLiteStore.open(path, folder=old)).close()
    db = sqlite3.connect(path)
    _game(db, 1)
    for seat in range(4):
        _insert(db, seat, 1)
    with pytest.raises(sqlite3.IntegrityError):
        _insert(db, 4, 1)  # the old schema knows four seats only
    db.commit()
    db.close()

    await (await SQLiteStore.open(path)).close()  # every migration, this one included
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM game_seats WHERE game_id = 1").fetchone() == (4,)
    assert db.execute("SELECT count(*) FROM game_hands WHERE game_id = 1").fetchone() == (4,)
    _game(db, 2)
    for seat in range(12):
        _insert(db, seat, 2)
    with pytest.raises(sqlite3.IntegrityError):
        _insert(db, 12, 2)
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert [r[0] for r in db.execute("PRAGMA index_list(game_seats)") if r[1] == "game_seats_player"]
    db.close()
