"""The offline table (server/table/offline.py) plays a game with the online table's modules, folds back from its
kept log, refuses what needs other people or the server, and its engine bundle holds the project's own files
under 1 MB."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest

from hartenjagen.server.table.bundle import BUNDLE_PATH, bundle_bytes, files_hash, shared_files, shared_hash
from hartenjagen.server.table.messages import OFFLINE_TYPES
from hartenjagen.server.table.offline import OfflineTable
from hartenjagen.server.table.records import stats_of_records
from hartenjagen.server.table.state import DamagedLog
from hartenjagen.server.table.table import TABLE_COMMANDS
from hartenjagen.shared.bots.choice import checked
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .wording import worded


def send(solo: OfflineTable, msg: dict) -> tuple[list[dict], object]:
    out = solo.handle(json.dumps(msg))
    return [json.loads(m) for m in out.messages], out


def new_table(options: dict | None = None, level: str = "easy") -> tuple[OfflineTable, list, str]:
    solo = OfflineTable(time, name="Anna")
    messages, out = send(solo, {"type": "create", "options": options or {}, "computer_level": level})
    joined = messages[0]
    assert joined["type"] == "joined" and joined["offline"] and joined["link"] == "/offline"
    assert messages[1]["type"] == "table" and messages[1]["view"]["hand"]
    return solo, list(out.entries), joined["seat_token"]


def play_on(
    solo: OfflineTable, entries: list, until, rng: random.Random, queue: list[int] | None = None, limit: int = 5000
) -> list[dict]:
    """Play the person's seat (easy moves) and every computer move asked for (``queue`` first), until
    ``until(table)``; return the finished games' records."""
    queue = list(queue or [])
    records = []
    out = None
    for _ in range(limit):
        table = solo.table
        if until(table):
            return records
        if queue:
            out = solo.computer(queue.pop(0))
        else:
            v = view_for(table.game, solo.seat)
            if v["phase"] == "hand_over":
                messages, out = send(solo, {"type": "ready"})
            else:
                messages, out = send(solo, checked("easy", rng.randrange(2**32), v))
                assert not [m for m in messages if m["type"] == "error"], messages
        entries += out.entries
        if out.record:
            records.append(out.record)
        queue += [s for s in out.computers if s not in queue]
    raise AssertionError("the game did not get there")


def test_an_offline_game_plays_to_game_over_and_its_kept_log_folds_back_at_any_move():
    solo, entries, token = new_table({"end_score": 30})
    rng = random.Random(3)
    # stop where a computer player is to move: the restored table asks for that move again
    play_on(solo, entries, lambda t: len(t.game.history) == 1 and len(t.game.tricks) == 3 and t.turns.auto_seats(), rng)
    middle = view_for(solo.table.game, 0)

    again = OfflineTable(time, name="Anna")
    out = again.restore(solo.table.table_id, [text for _, text in entries], token)
    messages = [json.loads(m) for m in out.messages]
    assert [m["type"] for m in messages] == ["joined", "table"]
    assert messages[1]["view"]["hand"] == middle["hand"] and messages[1]["view"]["tricks"] == middle["tricks"]
    entries += out.entries

    assert out.computers == again.table.turns.auto_seats() != []
    records = play_on(again, entries, lambda t: t.status == "finished", rng, out.computers)
    assert len(records) == 1 and records[0]["winners"]
    figures = stats_of_records(records)
    assert figures["games_played"] == 1
    assert figures["games_won"] == int(0 in records[0]["winners"])
    assert figures["lowest_score"] == records[0]["totals"][0]
    assert figures["hands"] == len(records[0]["history"])
    assert figures["variants"]["classic"] == {k: v for k, v in figures.items() if k not in ("name", "variants")}


def test_offline_figures_are_given_per_variant_as_well_as_in_total():
    records = []
    for options in ({"variant": "classic", "end_score": 25}, {"variant": "dutch"}):
        solo, entries, _ = new_table(options)
        records += play_on(solo, entries, lambda t: t.status == "finished", random.Random(4))
    figures = stats_of_records(records)
    assert sorted(figures["variants"]) == ["classic", "dutch"] and figures["games_played"] == 2
    assert sum(v["hands"] for v in figures["variants"].values()) == figures["hands"]
    assert all(v["games_played"] == 1 for v in figures["variants"].values())


def test_a_numbered_deal_deals_the_cores_cards_and_start_over_deals_them_again():
    solo, entries, _ = new_table({"deal": 77})
    rules = make_rules({})
    table = solo.table
    dealt = table.game.names(seeded_deal(rules, 77, table.game.hand_no)[0])
    assert sorted(view_for(table.game, 0)["hand"]) == sorted(dealt)
    play_on(solo, entries, lambda t: len(t.game.tricks) == 2, random.Random(1))
    messages, _ = send(solo, {"type": "restart"})
    assert not [m for m in messages if m["type"] == "error"]
    assert sorted(view_for(solo.table.game, 0)["hand"]) == sorted(dealt)


def test_what_needs_others_or_the_server_is_refused_clearly_and_changes_nothing():
    solo, entries, _ = new_table()
    logged = solo.table.logged
    for msg, code in (
        ({"type": "chat", "text": "hi"}, "not_offline"),
        ({"type": "join", "code": "ABCDEF"}, "not_offline"),
        ({"type": "review", "hand_no": 0}, "review_needs_server"),
        ({"type": "play", "card": "ZZ"}, "bad_message"),
        ({"type": "play", "card": "2C"}, "illegal"),  # passing first
        ({"type": "nonsense"}, "unknown_type"),
    ):
        messages, out = send(solo, msg)
        assert [m["type"] for m in messages] == ["error"] and messages[0]["code"] == code, (msg, messages)
        assert worded(messages[0], "en") != worded(messages[0], "nl")
        assert not out.entries
    for deal in (0, 10**9, "7"):  # as online: a whole number from 1 to 999,999,999
        messages, _ = send(solo, {"type": "create", "options": {"deal": deal}})
        assert messages[0]["code"] == "bad_option" and messages[0]["field"] == "deal"
    assert solo.table.logged == logged


def test_a_kept_log_that_does_not_fold_or_a_wrong_token_is_refused_as_damaged():
    solo, entries, token = new_table()
    texts = [text for _, text in entries]
    with pytest.raises(DamagedLog):
        OfflineTable(time).restore("x", ['{"type": "nonsense"}', *texts[1:]], token)
    with pytest.raises(DamagedLog):
        OfflineTable(time).restore("x", texts, "not-the-token")
    with pytest.raises(DamagedLog):
        OfflineTable(time).restore("x", [], token)


def test_the_engine_bundle_is_the_projects_own_files_under_a_megabyte_with_the_shared_hash():
    body = json.loads(bundle_bytes())
    assert BUNDLE_PATH == "/engine/python.json"
    assert len(bundle_bytes()) < 1_000_000
    files = body["files"]
    shared = {path: text.encode() for path, text in files.items() if path.startswith("hartenjagen/shared/")}
    assert shared == shared_files() and body["shared_hash"] == shared_hash() == files_hash(shared)
    assert "hartenjagen/server/table/offline.py" in files and "hartenjagen/server/net/hub.py" not in files
    assert body["runtime"]["base"].startswith("/runtime/pyodide-")
    # each runtime file's size, for the page's "x of y MB" while the offline game starts
    assert set(body["runtime"]["sizes"]) == set(body["runtime"]["files"])
    assert sum(body["runtime"]["sizes"].values()) > 10_000_000
    changed = dict(shared)
    changed["hartenjagen/shared/rules.py"] += b"\n"
    assert files_hash(changed) != shared_hash()


def test_the_engine_bundle_ships_the_whole_table_package_which_imports_nothing_else_of_the_servers():
    import ast

    from hartenjagen.server import table as table_package

    folder = Path(table_package.__file__).resolve().parent
    files = json.loads(bundle_bytes())["files"]
    server = sorted(path for path in files if path.startswith("hartenjagen/server/"))
    package = sorted(f"hartenjagen/server/table/{path.name}" for path in folder.glob("*.py"))
    assert server == ["hartenjagen/server/__init__.py", *package]
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                leaves = node.level > 1 or (node.level == 0 and "hartenjagen.server" in (node.module or ""))
                assert not leaves, f"{path.name} imports {'.' * node.level}{node.module} from outside server/table/"
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("hartenjagen.server") for a in node.names), path.name


def test_the_offline_table_names_what_it_takes_and_refuses_a_rematch_vote_as_not_offline():
    solo, entries, token = new_table({"end_score": 25})
    takes = sorted(TABLE_COMMANDS & OFFLINE_TYPES)
    play_on(solo, entries, lambda t: t.status == "finished", random.Random(5))
    again = OfflineTable(time, name="Anna").restore(solo.table.table_id, [t for _, t in entries], token)
    shown = [json.loads(m) for m in again.messages]
    table = next(m for m in shown if m["type"] == "table")
    assert table["status"] == "finished" and table["commands"] == takes and "rematch" not in table["commands"]
    logged = solo.table.logged
    messages, out = send(solo, {"type": "rematch"})
    assert [m["code"] for m in messages] == ["not_offline"] and "not at an offline table" in worded(messages[0])
    assert "zonder verbinding" in worded(messages[0], "nl") and not out.entries and solo.table.logged == logged
    text = (Path(__file__).resolve().parents[2] / "docs" / "offline.md").read_text()  # the docs name the same list
    listed = text.split("the offline table takes these table messages and no other: ", 1)[1].split(".", 1)[0]
    assert sorted(re.findall(r"`([a-z_]+)`", listed)) == takes
