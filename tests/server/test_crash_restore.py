"""End to end: real ``hearts serve`` processes killed with SIGKILL (or stopped with SIGTERM) and started again
on the same database. Every open table comes back with the same code, seats, host, hand, scores and event
numbers, each seat resumes with its seat token and sees exactly the view it saw before the crash, and play goes on.

The four players are scripted; a local ``Game`` (the mirror) plays the same moves on the same numbered deal, so
every view the server shows can also be checked against ``shared.view.view_for``.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from hartenjagen.shared.cards import CARD_NAMES, mask_cards, mask_names
from hartenjagen.shared.game import GAME_OVER, HAND_OVER, MOON_CHOICE, PASSING, PLAYING, Game
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .crashkit import Client, ServerProcess, close_all, plan_moon, settled

NAMES = ("Anna", "Bram", "Cor", "Dirk", "Eva")
SAME_KEYS = (
    "code", "link", "you", "status", "host", "ready", "deal", "options", "computer_level", "turn_timer", "daily",
    "replay",
)  # fmt: skip
TEST_BUDGET = 20.0  # a hang fails the test instead of the whole run


def table_options(options: dict[str, Any]) -> dict[str, Any]:
    """The rule options alone (``deal`` is a table option, not a rule)."""
    return {k: v for k, v in options.items() if k != "deal"}


class Scene:
    """The servers and clients of one test; ``cleanup`` kills every process whatever happened."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.db = tmp_path / "hearts.db"
        self.servers: list[ServerProcess] = []
        self.clients: list[Client] = []

    def start(self) -> ServerProcess:
        srv = ServerProcess(self.db, self.tmp, f"server-{len(self.servers) + 1}")
        self.servers.append(srv)
        return srv.start()

    async def open(self, srv: ServerProcess, name: str, token: str | None = None) -> Client:
        client = await Client.open(srv.url, name, token)
        self.clients.append(client)
        return client

    async def cleanup(self) -> None:
        try:
            await close_all(self.clients)
        finally:
            for srv in self.servers:
                srv.cleanup()


class Party:
    """Scripted people in every seat of one table, and the mirror game that plays the same moves on the same deal."""

    def __init__(self, scene: Scene, srv: ServerProcess, options: dict[str, Any]) -> None:
        self.scene, self.srv, self.options = scene, srv, options
        self.rules = make_rules(table_options(options))
        self.deal = options.get("deal")
        self.clients: list[Client] = []
        self.mirror: Game | None = None
        self.plan: list[tuple[int, str]] | None = None  # a planned moon: (seat, card) in play order
        self.seq = 0
        self.code = ""

    async def seat_four(self) -> None:
        host = await self.scene.open(self.srv, NAMES[0])
        await host.send("create", options=self.options)
        self.code = (await host.expect("joined"))["code"]
        await host.expect("table")
        self.clients = [host]
        for name in NAMES[1 : self.rules.seats]:
            c = await self.scene.open(self.srv, name)
            await c.send("join", code=self.code)
            assert (await c.expect("joined"))["seat"] == len(self.clients)
            await c.expect("table")
            self.clients.append(c)
        await host.wait(lambda: all(s["kind"] == "person" for s in host.table["seats"]), what="a person in every seat")
        self.seq = host.table["seq"]

    async def act(self, seat: int, type: str, kind: str, **fields: Any) -> dict[str, Any]:
        """Send one intent from ``seat``; return the first table that shows its event ``kind``."""
        c = self.clients[seat]
        start = len(c.inbox)
        found: list[dict[str, Any]] = []

        def shown() -> bool:
            for msg in c.inbox[start:]:
                assert msg["type"] != "error", f"{type} {fields} from seat {seat}: {msg}"
                if msg["type"] == "table" and any(
                    e["type"] == kind and e.get("seat", seat) == seat for e in msg["events"]
                ):
                    found.append(msg)
                    return True
            return False

        await c.send(type, **fields)
        await c.wait(shown, what=f"the {kind} event of seat {seat}")
        self.seq = max(self.seq, found[0]["seq"])
        return found[0]

    async def start(self) -> None:
        await self.act(0, "start", "deal")
        self.mirror = Game(self.rules)
        self.mirror.deal_seeded(self.deal)

    async def pass_(self, seat: int) -> None:
        cards = mask_names(self.mirror.hands[seat])[: self.rules.pass_count]
        await self.act(seat, "pass", "passed", cards=cards)
        self.mirror.pass_cards(seat, [CARD_NAMES.index(c) for c in cards])

    async def play(self, seat: int | None = None, card: str | None = None) -> None:
        m = self.mirror
        seat = m.turn if seat is None else seat
        assert seat == m.turn
        card = card or CARD_NAMES[next(mask_cards(m.legal(seat)))]
        await self.act(seat, "play", "play", card=card)
        m.play(seat, CARD_NAMES.index(card))

    async def moon(self, seat: int, choice: str) -> None:
        await self.act(seat, "moon", "moon", choice=choice)
        self.mirror.choose_moon(seat, choice)

    async def ready(self, seat: int) -> None:
        await self.act(seat, "ready", "ready")

    async def settle(self) -> list[dict[str, Any]]:
        """Wait until every client has the latest table and nothing more comes; return their last tables."""
        for c in self.clients:
            await c.until_seq(self.seq)
        await settled(self.srv, self.clients)
        tables = [c.table for c in self.clients]
        assert [t["seq"] for t in tables] == [self.seq] * len(tables), "something moved on its own"
        return tables

    def check_mirror(self, tables: list[dict[str, Any]]) -> None:
        """Every seat's view is exactly what the core shows for the same moves on the same numbered deal."""
        for seat, t in enumerate(tables):
            assert t["view"] == view_for(self.mirror, seat), f"seat {seat}"


def assert_restored(before: dict[str, Any], after: dict[str, Any], resumed: list[int]) -> None:
    """The first table after resume equals the last one before the crash, up to who is connected.

    Its events are exactly the ``back`` events of the seats resumed so far (this one last), numbered on from
    the last ``seq`` seen before the crash.
    """
    seat = after["you"]
    assert after["view"] == before["view"], f"seat {seat}: the view changed over the restart"
    for key in SAME_KEYS:
        assert after[key] == before[key], f"seat {seat}: {key} {before[key]!r} -> {after[key]!r}"
    who = [(s["seat"], s["name"], s["kind"], s["level"]) for s in before["seats"]]
    assert [(s["seat"], s["name"], s["kind"], s["level"]) for s in after["seats"]] == who
    assert after["resumed"] == "events", f"seat {seat}: resumed {after['resumed']!r}"
    events = [(e["seq"], e["type"], e.get("seat")) for e in after["events"]]
    first = before["seq"] + 1
    assert events == [(first + i, "back", s) for i, s in enumerate(resumed)], f"seat {seat}: {events}"
    assert after["seq"] == before["seq"] + len(resumed)


async def crash_and_resume(scene: Scene, party: Party, order: list[int], how: int = signal.SIGKILL) -> None:
    """Kill the server, start a new one on the same database, and let everyone resume one by one in ``order``."""
    before = await party.settle()
    welcomes = [c.welcome["player_token"] for c in party.clients]
    seat_tokens = [c.joined["seat_token"] for c in party.clients]
    if how == signal.SIGKILL:
        await party.srv.crash()
        for c in party.clients:
            c.abandon()
    else:
        assert await party.srv.signal(how) == 0, party.srv.stderr()
        for c in party.clients:
            await c.wait(lambda c=c: c.closed, what="the close")
            assert c.close_code == 1012, f"{c.label}: close code {c.close_code} {c.ws.close_reason!r}"
    srv = scene.start()
    party.srv = srv
    clients: list[Client | None] = [None] * len(order)
    for k, s in enumerate(order):
        c = await scene.open(srv, NAMES[s], welcomes[s])
        assert c.welcome["player_token"] == welcomes[s], "the player is not known after the restart"
        await c.send("resume", code=party.code, seat_token=seat_tokens[s], last_seq=before[s]["seq"])
        joined = await c.expect("joined")
        assert (joined["code"], joined["seat"], joined["host"]) == (party.code, s, before[s]["host"] == s)
        assert_restored(before[s], await c.expect("table"), order[: k + 1])
        clients[s] = c
    party.clients = clients
    party.seq = before[0]["seq"] + len(order)
    tables = await party.settle()
    assert all(s["connected"] for s in tables[0]["seats"])


# ------------------------------------------------------------------ the five moments of a game

DEAL = 4242


async def mid_pass(party: Party) -> list[int]:
    await party.start()
    await party.pass_(0)
    await party.pass_(2)
    assert party.mirror.phase == PASSING
    return [1, 3, 0, 2]


async def mid_pass_go_on(party: Party) -> None:
    await party.pass_(1)
    await party.pass_(3)
    assert party.mirror.phase == PLAYING
    party.check_mirror(await party.settle())


async def mid_trick(party: Party) -> list[int]:
    await party.start()
    for s in range(4):
        await party.pass_(s)
    while not (len(party.mirror.tricks) == 2 and len(party.mirror.trick.cards) == 2):
        await party.play()
    return [0, 1, 2, 3]


async def mid_trick_go_on(party: Party) -> None:
    await party.play()
    assert len(party.mirror.trick.cards) == 3
    party.check_mirror(await party.settle())


async def moon_choice(party: Party) -> list[int]:
    await party.start()
    for seat, card in party.plan:
        await party.play(seat, card)
    assert party.mirror.phase == MOON_CHOICE
    return [2, 3, 0, 1]


async def moon_choice_go_on(party: Party) -> None:
    shooter = party.mirror.moon_seat
    await party.moon(shooter, "self")
    assert party.mirror.phase == HAND_OVER
    tables = await party.settle()
    party.check_mirror(tables)
    assert tables[0]["view"]["history"][0]["moon"] == shooter
    assert tables[0]["view"]["totals"][shooter] == -party.rules.moon_total


async def kitty_taken(party: Party) -> list[int]:
    await party.start()
    for s in range(5):
        await party.pass_(s)
    while not (len(party.mirror.tricks) == 2 and len(party.mirror.trick.cards) == 2):
        await party.play()
    assert -1 not in party.mirror.kitty_takers  # one card each to the first two tricks' winners
    return [4, 0, 3, 1, 2]


async def kitty_taken_go_on(party: Party) -> None:
    while party.mirror.tricks and len(party.mirror.tricks) < 3:
        await party.play()
    tables = await party.settle()
    party.check_mirror(tables)  # the takers still see their kitty card, the others still do not
    takers = party.mirror.kitty_takers
    for seat, t in enumerate(tables):
        mine = sorted(c for c, taker in zip(party.mirror.kitty, takers, strict=True) if taker == seat)
        assert t["view"]["kitty"] == [CARD_NAMES[c] for c in mine] and t["seats"][seat]["name"] == NAMES[seat]


async def between_hands(party: Party) -> list[int]:
    await party.start()
    for s in range(4):
        await party.pass_(s)
    while party.mirror.phase == PLAYING:
        await party.play()
    assert party.mirror.phase == HAND_OVER
    await party.ready(2)
    await party.ready(0)
    # the ready ones come back last: a table whose connected people are all ready deals at once
    return [1, 3, 2, 0]


async def between_hands_go_on(party: Party) -> None:
    await party.ready(1)
    assert (await party.settle())[0]["ready"] == [0, 1, 2]
    await party.ready(3)
    party.mirror.deal_seeded(party.deal)  # everyone is ready: the second hand of the numbered deal
    await party.clients[0].wait(lambda: party.clients[0].table["view"]["hand_no"] == 1, what="the second hand")
    party.seq = party.clients[0].table["seq"]
    tables = await party.settle()
    party.check_mirror(tables)
    assert tables[0]["view"]["phase"] == "passing" and tables[0]["view"]["pass_direction"] == "right"


async def game_over(party: Party) -> list[int]:
    await party.start()
    for seat, card in party.plan:
        await party.play(seat, card)
    assert party.mirror.phase == GAME_OVER
    return [3, 2, 1, 0]


async def game_over_go_on(party: Party) -> None:
    await party.act(0, "new_game", "new_game")
    tables = await party.settle()
    assert [(t["status"], t["view"]) for t in tables] == [("waiting", None)] * 4
    await party.start()  # the same numbered deal again from its first hand
    party.check_mirror(await party.settle())


Phase = tuple[dict[str, Any], Callable[[Party], Awaitable[list[int]]], Callable[[Party], Awaitable[None]]]
PHASES: dict[str, Phase] = {
    "mid_pass": ({"variant": "classic", "deal": DEAL}, mid_pass, mid_pass_go_on),
    "mid_trick": ({"variant": "classic", "deal": DEAL, "end_score": 50}, mid_trick, mid_trick_go_on),
    "moon_choice": ({"variant": "dutch", "moon": "choose"}, moon_choice, moon_choice_go_on),
    "between_hands": ({"variant": "classic", "deal": DEAL}, between_hands, between_hands_go_on),
    "five_kitty_taken": (
        {"variant": "five_kitty", "kitty": "first_two", "deal": DEAL},
        kitty_taken,
        kitty_taken_go_on,
    ),
    "game_over": (
        {"variant": "classic", "passing": "off", "moon": "others", "end_score": 25},
        game_over,
        game_over_go_on,
    ),
}


async def build_party(scene: Scene, srv: ServerProcess, options: dict[str, Any]) -> Party:
    """Seat a person in every seat of a table with ``options``; a table without a ``deal`` gets a planned moon deal."""
    plan = None
    if "deal" not in options:
        deal, _shooter, plan = plan_moon(make_rules(options), first_deal=DEAL)
        options = {**options, "deal": deal}
    party = Party(scene, srv, options)
    party.plan = plan
    await party.seat_four()
    return party


@pytest.mark.parametrize("phase", list(PHASES))
async def test_kill_9_and_restart_restores_the_table_for_every_seat(tmp_path, phase):
    options, reach, go_on = PHASES[phase]
    scene = Scene(tmp_path)
    try:
        async with asyncio.timeout(TEST_BUDGET):
            party = await build_party(scene, scene.start(), options)
            order = await reach(party)
            tables = await party.settle()
            party.check_mirror(tables)
            assert tables[0]["deal"] == party.deal
            await crash_and_resume(scene, party, order)
            await go_on(party)
            for srv in scene.servers:
                assert "Traceback" not in srv.stderr(), srv.stderr()
    finally:
        await scene.cleanup()


def test_the_moon_planner_is_fast_and_right():
    for options in PHASES["moon_choice"][0], PHASES["game_over"][0]:
        rules = make_rules(options)
        t0 = time.perf_counter()
        deal, shooter, plan = plan_moon(rules, first_deal=DEAL)
        assert time.perf_counter() - t0 < 1.0
        game = Game(rules)
        game.deal_seeded(deal)
        for seat, card in plan:
            game.play(seat, CARD_NAMES.index(card))
        taken = game.taken[shooter]
        assert taken & rules.penalty_mask == rules.penalty_mask
        assert game.phase == (MOON_CHOICE if rules.moon == "choose" else GAME_OVER)


# ------------------------------------------------------------------ SIGTERM


async def test_sigterm_closes_with_1012_and_every_seat_resumes_after_the_restart(tmp_path):
    scene = Scene(tmp_path)
    try:
        async with asyncio.timeout(TEST_BUDGET):
            party = await build_party(scene, scene.start(), {"variant": "classic", "deal": DEAL})
            order = await mid_pass(party)
            await crash_and_resume(scene, party, order, how=signal.SIGTERM)
            assert "Traceback" not in scene.servers[0].stderr()
            await mid_pass_go_on(party)
    finally:
        await scene.cleanup()


# ------------------------------------------------------------------ a damaged log


def http_json(srv: ServerProcess, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{srv.port}{path}", timeout=5) as resp:
        return json.loads(resp.read())


async def host_with_bots(scene: Scene, srv: ServerProcess, name: str, deal: int) -> Client:
    """One person and three computer players, the game started: the computers pass, the person's pass is due."""
    host = await scene.open(srv, name)
    await host.send("create", options={"variant": "classic", "deal": deal}, computer_level="easy")
    await host.expect("joined")
    await host.send("fill_computers", level="easy")
    await host.send("start")

    def waiting_for_me() -> bool:
        v = host.table and host.table["view"]
        return bool(v) and v["phase"] == "passing" and v["to_act"] == [0]

    await host.wait(waiting_for_me, what="the computers' passes")
    await settled(srv, [host])
    assert waiting_for_me()
    return host


def damage(db: Path, code: str, how: str) -> int:
    """Damage the log of table ``code`` in the database file; return the number of entries it had."""
    con = sqlite3.connect(db)
    try:
        (table_id,) = con.execute("SELECT id FROM tables WHERE code = ? AND closed_at IS NULL", (code,)).fetchone()
        ns = [n for (n,) in con.execute("SELECT n FROM table_log WHERE table_id = ? ORDER BY n", (table_id,))]
        assert len(ns) >= 6, ns
        middle = ns[len(ns) // 3 : 2 * len(ns) // 3]
        with con:
            if how == "rows_deleted":
                con.executemany("DELETE FROM table_log WHERE table_id = ? AND n = ?", [(table_id, n) for n in middle])
            elif how == "garbage_json":
                con.execute(
                    "UPDATE table_log SET entry = ? WHERE table_id = ? AND n = ?",
                    ('{"type": "play", "seat": 1, "card": ', table_id, middle[0]),
                )
            elif how == "unknown_kind":  # an entry no server knows
                con.execute(
                    "UPDATE table_log SET entry = ? WHERE table_id = ? AND n = ?",
                    ('{"type":"teleport","seat":1}', table_id, middle[0]),
                )
            elif how == "newer_server":  # a kind a newer server wrote before a rollback, appended at the end
                con.execute(
                    "INSERT INTO table_log (table_id, n, entry) VALUES (?, ?, ?)",
                    (table_id, ns[-1] + 1, '{"type":"emote","seat":0,"what":"wave"}'),
                )
            else:  # edited by hand into well-formed JSON that does not fold: a seat passes twice
                rows = con.execute("SELECT n, entry FROM table_log WHERE table_id = ? ORDER BY n", (table_id,))
                passes = [(n, json.loads(e)) for n, e in rows if '"pass"' in e]
                assert len(passes) >= 2, passes
                (_, first), (n, second) = passes[:2]
                second["seat"] = first["seat"]
                con.execute(
                    "UPDATE table_log SET entry = ? WHERE table_id = ? AND n = ?", (json.dumps(second), table_id, n)
                )
        return len(ns)
    finally:
        con.close()


@pytest.mark.parametrize("how", ["rows_deleted", "garbage_json", "edited_move", "unknown_kind", "newer_server"])
async def test_a_damaged_log_closes_only_that_table(tmp_path, how):
    scene = Scene(tmp_path)
    try:
        async with asyncio.timeout(TEST_BUDGET):
            srv = scene.start()
            broken = await host_with_bots(scene, srv, "Anna", DEAL)
            fine = await host_with_bots(scene, srv, "Bram", DEAL + 1)
            codes = [broken.joined["code"], fine.joined["code"]]
            tokens = [(c.welcome["player_token"], c.joined["seat_token"], c.table) for c in (broken, fine)]
            await srv.crash()
            broken.abandon()
            fine.abandon()
            damage(scene.db, codes[0], how)

            srv = scene.start()  # the server starts despite the damaged log
            err = srv.stderr()
            assert codes[0] in err, f"no error naming table {codes[0]} on stderr:\n{err}"
            assert codes[1] not in err, err
            assert http_json(srv, "/healthz")["tables"] == 1

            anna = await scene.open(srv, "Anna", tokens[0][0])
            await anna.send("resume", code=codes[0], seat_token=tokens[0][1], last_seq=tokens[0][2]["seq"])
            refused = await anna.expect("error")
            assert refused["code"] == "unknown_table", refused

            bram = await scene.open(srv, "Bram", tokens[1][0])
            await bram.send("resume", code=codes[1], seat_token=tokens[1][1], last_seq=tokens[1][2]["seq"])
            await bram.expect("joined")
            assert_restored(tokens[1][2], await bram.expect("table"), [0])
            # and it is live: the person passes, the computers play on until it is the person's turn or later
            view = bram.table["view"]
            await bram.send("pass", cards=view["hand"][:3])
            await bram.wait(lambda: bram.table["view"]["phase"] == "playing", what="the exchange")
            await srv.crash()
            bram.abandon()
            anna.abandon()
        con = sqlite3.connect(scene.db)
        try:
            rows = con.execute("SELECT code, closed_at FROM tables ORDER BY opened_at").fetchall()
        finally:
            con.close()
        assert [(code, closed is not None) for code, closed in rows] == [(codes[0], True), (codes[1], False)]
    finally:
        await scene.cleanup()


def test_a_log_written_before_entries_carried_type_still_folds_to_the_same_table():
    """Stored logs from before the rename name each entry's type ``k``: they restore as they were."""
    from hartenjagen.server.table.table import Table
    from hartenjagen.shared.variants import make_rules

    table = Table.create("OLDLOG", make_rules({"variant": "classic"}), computer_level="easy", deal=99, at=1.0)
    table.seating.seat_person(None, 7, "Anna", 0)
    table.hosting.fill_computers(0, "easy")
    table.hosting.start(0, at=2.0)
    entries = [text for _, text in table.take_unsaved()]
    old = [json.dumps({("k" if k == "type" else k): v for k, v in json.loads(e).items()}) for e in entries]
    assert all('"k":' in e and '"type":' not in e for e in old)
    again = Table.restore(table.table_id, old)
    assert again.seq == table.seq and list(again.events) == list(table.events)
    assert again.game.to_json() == table.game.to_json()


def test_a_log_in_the_stored_words_folds_to_a_table_that_speaks_the_wire_words():
    """Stored logs and finished games say ``human`` and ``bot``: clients get ``person`` and ``computer``.

    A restored table's seats, its ``seated`` events (also one a computer player took over) and its finished games
    read back from the database use the wire's words; a log in the wire's words folds to the same table.
    """
    from hartenjagen.server.table.records import game_rows, games_list_item, wire_seats
    from hartenjagen.server.table.seat_view import Moment, table_message
    from hartenjagen.server.table.table import Table

    table = Table.create("OLDLOG", make_rules({"variant": "classic"}), computer_level="easy", deal=99, at=1.0)
    table.seating.seat_person(None, 7, "Anna", 0)
    table.seating.seat_person(None, 8, "Bram", 1)
    table.hosting.fill_computers(0, "easy")
    table.hosting.start(0, at=2.0)
    table.seating.leave(1)  # during the game: a computer player takes Bram's seat over
    stored = [text for _, text in table.take_unsaved()]
    said = {(e["type"], e.get("who", e.get("to"))) for e in map(json.loads, stored) if "who" in e or "to" in e}
    assert said == {("seated", "human"), ("seated", "bot"), ("vacated", "bot")}  # the words an older server reads
    wire = {"human": "person", "bot": "computer"}
    renamed = [
        json.dumps({k: wire.get(v, v) if k in ("who", "to") else v for k, v in json.loads(e).items()}) for e in stored
    ]
    for entries in (stored, renamed):
        again = Table.restore(table.table_id, entries)
        message = table_message(again, 0, 0, Moment(again, now=3.0))
        assert [s["kind"] for s in message["seats"]] == ["person", "computer", "computer", "computer"]
        seated = [(e["seat"], e["who"], e.get("left")) for e in message["events"] if e["type"] == "seated"]
        assert seated == [(0, "person", None), (1, "person", None)] + [(s, "computer", None) for s in (2, 3)] + [
            (1, "computer", "Bram")
        ]
        text = json.dumps(message)
        assert '"human"' not in text and '"bot"' not in text
        assert list(again.events) == list(table.events)

    # a finished game: stored in the database's words, read back in the wire's (from a record in either words)
    seats = [{"seat": 0, "player_id": 7, "kind": "person", "name": "Anna", "level": None}] + [
        {"seat": s, "player_id": None, "kind": kind, "name": "Ellen", "level": "easy"}
        for s, kind in ((1, "computer"), (2, "bot"), (3, "computer"))
    ]
    record = {
        "id": 5, "code": "OLDLOG", "options": {"variant": "classic"}, "started_at": 2.0, "finished_at": 9.0,
        "history": [], "totals": [10, 20, 30, 40], "winners": [0], "seats": seats,
    }  # fmt: skip
    rows = game_rows(record)
    assert [s["kind"] for s in rows["seats"]] == ["human", "bot", "bot", "bot"]
    assert [s["kind"] for s in json.loads(rows["game"]["seats"])] == ["human", "bot", "bot", "bot"]
    item = games_list_item(rows["game"], rows["seats"], 7)  # GET /api/games
    assert [s["kind"] for s in item["seats"]] == ["person", "computer", "computer", "computer"]
    replay_seats = wire_seats(json.loads(rows["game"]["seats"]))  # a replay's seats
    assert [s["kind"] for s in replay_seats] == ["person", "computer", "computer", "computer"]
