"""The step after a change, decided without I/O: entries to store, messages to send, timers and computer moves.

No server, no socket, no clock: a table, connections as plain numbers (the ids a table knows them by), and the time
passed in.
"""

from __future__ import annotations

import json

from hartenjagen.server.table.presence import ConnectionId
from hartenjagen.server.table.step import Step, mark_shown, settle
from hartenjagen.server.table.table import Table
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

T0 = 1000.0  # the monotonic clock in these tests
AT = 1_765_000_000.0  # and the wall clock


def connection(n: int) -> ConnectionId:
    """A connection as a table knows it: its id (where it sits and what it was shown are the table's)."""
    return ConnectionId(100 + n)


def sent(step: Step) -> Step:
    """Send ``step``'s messages as delivery does: mark in the table's presence what each connection was shown."""
    mark_shown(step.shown)
    return step


def table_of(people: int, timer: int | None = None, **options) -> tuple[Table, list[ConnectionId], Step]:
    """A started table: ``people`` people on seats 0.. and computers on the rest; returns the first step too (sent)."""
    table = Table.create("STEP01", make_rules({"variant": "classic", **options}), deal=5, grace=30.0, at=AT)
    clients = []
    for seat in range(people):
        client = connection(seat)
        table.seating.seat_person(client, seat + 1, f"P{seat}", seat)
        clients.append(client)
    table.hosting.fill_computers(0, "easy")
    if timer is not None:
        table.hosting.set_timer(0, timer)
    table.hosting.start(0, AT)
    step = settle(table, T0, AT)
    assert {c: table.presence.seat_of(c) for c in clients} == {c: s for s, c in enumerate(clients)}
    assert all(table.presence.sight(c).shown is None for c in clients), "nothing is marked shown before it is sent"
    return table, clients, sent(step)


def entry_types(step: Step) -> list[str]:
    return [json.loads(text)["type"] for _, text in step.entries]


def test_the_start_stores_its_entries_and_cuts_one_message_per_connection():
    table, clients, step = table_of(2, passing="off")
    assert entry_types(step)[0] == "created" and entry_types(step)[-2:] == ["start", "deal"]
    assert entry_types(step).count("seated") == 4  # two people, two computers
    assert [client for client, _ in step.messages] == clients  # one full table message each
    first = json.loads(step.messages[0][1])
    assert first["type"] == "table" and first["view"]["seat"] == 0 and len(first["view"]["hand"]) == 13
    assert step.record is None and not step.closed and not step.idle
    to_act = table.game.to_act()
    assert step.computers == [s for s in to_act if s >= 2]  # computers move at once for their own seats


def test_a_move_makes_one_entry_and_updates_cut_from_one_shared_moment():
    table, clients, step = table_of(4, passing="off")
    seat = table.game.turn
    table.act(seat, {"type": "play", "card": json.loads(step.messages[seat][1])["view"]["legal"][0]})
    after = settle(table, T0 + 1, AT + 1, step.moment)
    assert entry_types(after) == ["play"]
    updates = [json.loads(text) for _, text in after.messages]
    assert [u["type"] for u in updates] == ["update"] * 4
    assert all(u["events"] == updates[0]["events"] for u in updates) and updates[0]["events"][0]["type"] == "play"
    assert after.wake_at is None and after.computers == []  # four people: no timer, nobody to move for


def test_a_turn_timer_asks_to_be_woken_when_it_runs_out():
    table, _, step = table_of(1, timer=10, passing="off")
    waits_for_person = 0 in table.game.to_act()
    assert step.wake_at == (T0 + 10 if waits_for_person else None)


def test_a_disconnected_person_is_woken_for_at_the_end_of_the_grace_period_then_a_computer_moves():
    table, clients, step = table_of(2)  # passing: everyone acts at once
    table.seating.disconnect(1, T0)
    gone = sent(settle(table, T0, AT, step.moment))
    assert gone.wake_at == T0 + 30 and 1 not in gone.computers
    later = settle(table, T0 + 30, AT + 30, gone.moment)
    assert "away" in entry_types(later) and 1 in later.computers


def test_nobody_connected_asks_for_the_idle_close_and_the_last_person_leaving_closes_the_table():
    table, clients, step = table_of(1)
    watcher = connection(9)
    table.seating.watch(watcher)
    table.seating.disconnect(0, T0)
    assert sent(settle(table, T0, AT, step.moment)).idle
    table.seating.reconnect(0, clients[0])
    sent(settle(table, T0, AT))
    table.seating.leave(0)
    gone = sent(settle(table, T0, AT))
    assert gone.closed and entry_types(gone)[-1] == "closed" and not gone.computers and gone.wake_at is None
    assert (watcher, {"type": "left", "code": "STEP01", "reason": "closed"}) in gone.messages


def test_game_over_comes_with_the_finished_game_to_store():
    table, clients, step = table_of(4, passing="off", end_score=25)
    moment = step.moment
    for _ in range(2000):
        if table.status == "finished":
            break
        game = table.game
        if game.phase == "hand_over":
            for seat in range(4):
                if seat not in table.ready:
                    table.set_ready(seat)
        else:
            seat = game.to_act()[0]
            view = view_for(game, seat)
            if game.phase == "playing":
                intent = {"type": "play", "card": view["legal"][0]}
            else:
                intent = {"type": "moon", "choice": view["moon_choices"][0]}
            table.act(seat, intent)
        step = sent(settle(table, T0, AT, moment))
        moment = step.moment
        if table.status == "finished":
            break
    assert table.status == "finished" and step.record is not None
    assert step.record["finished_at"] == AT and "recorded" in entry_types(step)


def test_the_table_keeps_where_each_connection_sits_by_its_id():
    table = Table.create("STEP02", make_rules({"variant": "classic"}), at=AT)
    anna, bram, cor, dirk = (connection(n) for n in range(4))
    table.seating.seat_person(anna, 1, "Anna", 0)
    table.seating.watch(bram)
    table.seating.watch(dirk)
    assert table.connections() == [anna, bram, dirk] and table.presence.watching(bram)
    table.seating.seat_person(bram, 2, "Bram", None)  # a watcher sits down: it watches no more
    assert table.presence.seat_of(bram) == 1 and table.presence.watchers() == [dirk]
    table.seating.change_seat(1, 3)
    assert table.presence.seat_of(bram) == 3 and table.seats[3].connection == bram and table.seats[1].connection is None
    assert table.seating.reconnect(0, cor) == anna  # the newer connection wins the seat
    assert not table.presence.here(anna) and table.presence.seat_of(cor) == 0 and table.seats[0].connection == cor
    assert table.hosting.remove_person(0, 3, "rude") == bram
    assert table.connections() == [cor, dirk] and not table.presence.here(bram)
    table.seating.unwatch(dirk)
    table.seating.disconnect(0, T0)
    assert table.connections() == [] and table.seats[0].connection is None and table.persons()
