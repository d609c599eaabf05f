"""A rated game's ratings are written in the game's own transaction: the server killed between the last trick and the
commit loses neither the game nor its rating, and killed after the commit counts the game once."""

from __future__ import annotations

import asyncio
import signal
import sqlite3

from hartenjagen.tools.wsclient import next_intent

from .crashkit import Client, ServerProcess, close_all

OPTIONS = {"variant": "classic", "end_score": 25, "deal": 4711}
NAMES = ("Anna", "Bram", "Carla", "Daan")


def last_card_of_the_hand(t: dict) -> bool:
    """True when this seat's next play is the hand's last card (one card left and three in the trick)."""
    v = t["view"]
    return v["phase"] == "playing" and len(v["hand"]) == 1 and len((v["trick"] or {}).get("cards") or []) == 3


async def seat_four(srv: ServerProcess, tokens: dict[str, str]) -> tuple[list[Client], str, list[str]]:
    people = [await Client.open(srv.url, name, tokens.get(name)) for name in NAMES]
    await people[0].send("create", options=OPTIONS)
    code = (await people[0].expect("joined"))["code"]
    await people[0].send("set_open", open=True)
    seat_tokens = [(await people[0].expect("table")) and people[0].joined["seat_token"]]
    for p in people[1:]:
        await p.send("join", code=code)
        seat_tokens.append((await p.expect("joined"))["seat_token"])
    await people[0].send("start")
    for n, p in enumerate(people):
        tokens[NAMES[n]] = p.welcome["player_token"]
    return people, code, seat_tokens


async def resume_all(srv: ServerProcess, tokens: dict[str, str], code: str, seat_tokens: list[str]) -> list[Client]:
    people = []
    for name, seat_token in zip(NAMES, seat_tokens, strict=True):
        p = await Client.open(srv.url, name, tokens[name])
        await p.send("resume", code=code, seat_token=seat_token)
        await p.expect("joined")
        await p.wait(lambda p=p: p.table is not None, what="the table after the restart")
        people.append(p)
    return people


def counted(db) -> tuple[int, list[tuple[str, int]], int]:
    with sqlite3.connect(db) as con:
        games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        rated = con.execute(
            "SELECT p.name, r.games FROM ratings r JOIN players p ON p.id = r.player_id ORDER BY p.name"
        ).fetchall()
        changes = con.execute("SELECT COUNT(*) FROM rating_changes").fetchone()[0]
    return games, rated, changes


async def test_killed_between_the_last_trick_and_the_commit_the_game_and_its_rating_count_once(tmp_path):
    db = tmp_path / "hearts.db"
    srv = ServerProcess(db, tmp_path, "first").start()
    tokens: dict[str, str] = {}
    people: list[Client] = []
    killed: set[int] = set()  # the hands whose last card met a crash once
    try:
        async with asyncio.timeout(150):
            people, code, seat_tokens = await seat_four(srv, tokens)
            await people[0].wait(lambda: people[0].table["rated"], what="a rated game")
            acted: dict[int, int] = {}
            while not all(p.table["status"] == "finished" for p in people):
                for n, p in enumerate(people):
                    t = p.table
                    intent = next_intent(t)
                    if intent is None or acted.get(n) == t["seq"]:
                        continue
                    acted[n] = t["seq"]
                    hand_no = t["view"]["hand_no"]
                    if intent["type"] == "play" and last_card_of_the_hand(t) and hand_no not in killed:
                        # the database is locked: the last card is taken but cannot be committed; kill the server
                        lock = sqlite3.connect(db, isolation_level=None)
                        lock.execute("BEGIN EXCLUSIVE")
                        await p.send(**intent)
                        await asyncio.sleep(0.5)
                        assert p.table["seq"] == t["seq"]  # nothing after the last card was shown: not stored
                        await srv.signal(signal.SIGKILL)
                        lock.execute("ROLLBACK")
                        lock.close()
                        killed.add(hand_no)
                        assert counted(db)[0] == 0  # the game ends only with a commit
                        await close_all(people)
                        srv = ServerProcess(db, tmp_path, f"after-kill-{hand_no}").start()
                        people = await resume_all(srv, tokens, code, seat_tokens)
                        acted.clear()  # the last card was lost with the crash: it is played again
                        break
                    await p.send(**intent)
                await asyncio.sleep(0.003)
            games, rated, changes = counted(db)
            assert (games, changes) == (1, 4) and rated == [(n, 1) for n in sorted(NAMES)]
            # killed again after the commit: the restored table holds its record, nothing is counted twice
            await srv.signal(signal.SIGKILL)
            await close_all(people)
            srv = ServerProcess(db, tmp_path, "after-the-commit").start()
            people = await resume_all(srv, tokens, code, seat_tokens)
            assert people[0].table["status"] == "finished" and people[0].table["replay"] is not None
            await asyncio.sleep(0.3)
            assert counted(db) == (games, rated, changes)
        assert len(killed) >= 2  # every hand's end met a crash once, the game's last one too
    finally:
        await close_all(people)
        srv.cleanup()
