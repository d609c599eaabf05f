"""Nobody holds power over strangers at a Play now table: no host, no host command (each refused with ``no_host``, and
the table message lists what the table takes), report stays; after game over a person queues again while the others
vote for a rematch, and a computer player stands in for whoever left."""

from __future__ import annotations

from hartenjagen.server.table.table import HOST_COMMANDS, PLAY_NOW_TIMER, TABLE_COMMANDS

from .test_play_now import SHORT, answer, play_together, press_play_now
from .wording import worded

#: One valid message of every host command (a refusal must be about the table, never about a field).
HOST_MESSAGES = {
    "add_computer": {"seat": 2, "level": "easy"},
    "remove_computer": {"seat": 2},
    "fill_computers": {"level": "easy"},
    "start": {},
    "allow_watch": {"allowed": False},
    "allow_chat": {"allowed": False},
    "set_timer": {"seconds": 30},
    "restart": {},
    "new_game": {},
    "set_pace": {"pace": "fast"},
    "set_open": {"open": False},
    "remove_player": {"seat": 1, "reason": "I do not like strangers"},
}


class TestNoHost:
    async def test_a_play_now_table_has_no_host_and_refuses_every_host_command_clearly(self, server):
        anna, bram = await press_play_now(server, ["Anna", "Bram"])
        assert anna.joined["host"] is False and bram.joined["host"] is False
        await anna.wait(lambda: anna.table["seats"][1]["kind"] == "person")
        assert anna.table["host"] is None and bram.table["host"] is None
        assert set(anna.table["commands"]) == TABLE_COMMANDS - HOST_COMMANDS
        assert {"rematch", "report", "leave", "chat"} <= set(anna.table["commands"])
        table = server.table(anna.joined["code"])
        logged = table.logged
        assert set(HOST_MESSAGES) == HOST_COMMANDS
        for kind, fields in HOST_MESSAGES.items():
            for person in (anna, bram):
                got = await person.error(kind, **fields)
                assert got["code"] == "no_host", (kind, got)
                assert "no host" in worded(got) and "geen host" in worded(got, "nl")
        assert table.logged == logged and table.listed and table.play_now  # nothing changed
        assert [s.kind for s in table.seats[:2]] == ["person", "person"]
        await bram.send("report", seat=anna.joined["seat"], reason="rude")
        assert (await answer(bram, "reported"))["type"] == "reported"  # reporting stays

    async def test_nobody_stalls_strangers_either_a_turn_timer_runs_at_a_play_now_table(self, server):
        anna = (await press_play_now(server, ["Anna"], wait=5))[0]
        assert anna.table["turn_timer"] == PLAY_NOW_TIMER == 30
        await anna.wait(lambda: anna.table["status"] == "playing", timeout=15)
        await anna.wait(lambda: anna.table["deadline"] is not None)  # the pass waits for her: the clock runs
        assert 25 < anna.table["deadline"] <= PLAY_NOW_TIMER

    async def test_an_ordinary_table_keeps_its_host_and_every_command(self, server):
        anna = await server.host("Anna")
        assert anna.joined["host"] is True and anna.table["host"] == 0
        assert set(anna.table["commands"]) == TABLE_COMMANDS

    async def test_after_game_over_one_queues_again_and_the_rematch_seats_a_computer_for_them(self, server):
        anna, bram = await press_play_now(server, ["Anna", "Bram"], wait=5)
        await anna.wait(lambda: anna.table["status"] == "playing", timeout=15)
        code = anna.joined["code"]
        await play_together([anna, bram])
        assert anna.table["host"] is None and "new_game" not in anna.table["commands"]
        # Queue again: leave this table and press Play now with the same game and wait. What the game's last moves
        # brought (a late move the server refused among it) is read first, so that each answer below is to its ask.
        await anna.drain()
        await anna.send("leave")
        left = await answer(anna, "left")
        assert left["type"] == "left", left
        await anna.send("play_now", options=SHORT, wait=5)
        again = await answer(anna, "joined")
        assert again["type"] == "joined" and again["code"] != code and again["host"] is False, again
        await anna.wait(lambda: anna.table["code"] == again["code"] and anna.table["status"] == "waiting")
        # Bram, still at the finished table, votes to play again: a computer player stands in for Anna.
        seat = bram.joined["seat"]
        await bram.send("rematch")
        await bram.wait(lambda: bram.table["status"] == "playing")
        kinds = [s["kind"] for s in bram.table["seats"]]
        assert "empty" not in kinds and kinds[seat] == "person" and kinds.count("person") == 1
        await bram.wait(lambda: bram.table["view"] is not None and bram.table["view"]["hand_no"] >= 0)
        assert bram.table["view"]["hand"]
