"""Table chat: delivery to seats and watchers, limits, the host's switch, memory only, history on (re)join."""

from __future__ import annotations

import sqlite3

import pytest

from hartenjagen.server.config import Config
from hartenjagen.server.connection import limits
from hartenjagen.server.table import chat

from .conftest import TIMEOUT, Player
from .wording import worded


async def chat_line(p: Player, timeout: float = TIMEOUT) -> dict:
    """The next chat line this client receives (tables in between are folded in)."""
    return await p.expect("chat", timeout)


async def no_chat(p: Player) -> None:
    """Nothing chat-like has reached ``p`` (everything the server sent and will send, read up to a ping's pong)."""
    before = len(p.inbox)
    await p.drain()
    assert not [m for m in p.inbox[before:] if m["type"] in ("chat", "chat_history")]


async def anna_bram_and_eva(server):
    """Anna hosts, Bram sits down by code, Eva watches."""
    anna = await server.host("Anna")
    code = anna.joined["code"]
    bram = await server.connect("Bram")
    await bram.send("join", code=code)
    await bram.expect("joined")
    await bram.expect("chat_history")
    eva = await server.connect("Eva")
    await eva.send("watch", code=code)
    await eva.expect("watching")
    await eva.expect("chat_history")
    await anna.until(lambda t: t["watch"]["count"] == 1)
    return anna, bram, eva


class TestDelivery:
    async def test_seats_and_watchers_get_every_line_the_sender_too(self, server):
        anna, bram, eva = await anna_bram_and_eva(server)
        await anna.send("chat", text="  Hallo allemaal 👋  ")
        lines = [await chat_line(p) for p in (anna, bram, eva)]
        assert lines[0] == lines[1] == lines[2]
        line = lines[0]
        assert line["text"] == "Hallo allemaal 👋" and line["from"] == {"seat": 0, "name": "Anna"}
        assert line["id"] == 1 and isinstance(line["at"], int) and "phrase" not in line
        await eva.send("chat", phrase="well_played")
        lines = [await chat_line(p) for p in (anna, bram, eva)]
        assert lines[0] == {**lines[0], "id": 2, "phrase": "well_played", "from": {"seat": None, "name": "Eva"}}
        assert "text" not in lines[0]
        await bram.send("chat", text="<script>alert(1)</script>")
        assert (await chat_line(anna))["text"] == "<script>alert(1)</script>"  # sent as it was: the client escapes

    async def test_someone_at_no_table_cannot_chat(self, server):
        await server.host("Anna")
        lone = await server.connect("Lone")
        assert (await lone.error("chat", text="hi"))["code"] == "not_seated"


class TestLimits:
    @pytest.mark.parametrize(
        "fields",
        [
            {},
            {"text": "hi", "phrase": "oops"},
            {"text": ""},
            {"text": "   "},
            {"text": "x" * 201},
            {"text": "😀" * 201},
            {"text": "bell \x07"},
            {"text": "two\nlines"},
            {"text": "tab\there"},
            {"text": "rtl \u202e mark"},
            {"text": 12},
            {"text": ["hi"]},
            {"phrase": "insult"},
            {"phrase": ["oops"]},
        ],
    )
    async def test_bad_lines_are_refused_and_reach_nobody(self, server, fields):
        anna = await server.host("Anna")
        err = await anna.error("chat", **fields)
        assert err["code"] == "bad_message" and err["field"] in ("text", "phrase"), err
        await no_chat(anna)

    async def test_200_code_points_emoji_and_any_script_are_fine(self, server):
        anna = await server.host("Anna")
        for text in ("x" * 200, "😀" * 200, "Привет, 你好, مرحبا", "👩\u200d👩\u200d👧 ok", " " + "y" * 200 + "  "):
            await anna.send("chat", text=text)
            assert (await chat_line(anna))["text"] == text.strip()
            for c in server.app.hub.clients:
                c.chat_sent.clear()  # the rate limit is not what this test is about

    async def test_five_lines_in_ten_seconds_per_connection(self, server, monkeypatch):
        clock = [1000.0]
        monkeypatch.setattr(limits, "clock", lambda: clock[0])  # the test's own clock: no waiting
        anna = await server.host("Anna")
        code = anna.joined["code"]
        bram = await server.connect("Bram")
        await bram.send("join", code=code)
        await bram.expect("chat_history")
        for n in range(5):
            await anna.send("chat", text=f"line {n}")
            await chat_line(bram)
        err = await anna.error("chat", text="one too many")
        assert err == {"type": "error", "code": "chat_limited", "count": 5, "seconds": 10}
        assert "5" in worded(err) and "5" in worded(err, "nl")
        await bram.send("chat", phrase="oops")  # another connection has its own five
        assert (await chat_line(bram))["from"]["name"] == "Bram"
        clock[0] += 9.9
        assert (await anna.error("chat", text="still too soon"))["code"] == "chat_limited"
        clock[0] += 0.2  # the first line is ten seconds old now
        await anna.send("chat", text="later again")
        assert (await chat_line(bram))["text"] == "later again"

    async def test_the_default_limit_is_five_in_ten_seconds(self):
        assert (limits.CHAT_BURST, Config().chat_window, chat.CHAT_MAX, chat.CHAT_KEEP) == (5, 10.0, 200, 50)


class TestHostSwitch:
    async def test_the_host_turns_chat_off_and_on(self, server):
        anna, bram, eva = await anna_bram_and_eva(server)
        assert anna.table["chat"] == {"allowed": True, "muted": []}
        assert (await bram.error("allow_chat", allowed=False))["code"] == "not_host"
        assert (await eva.error("allow_chat", allowed=False))["code"] == "not_seated"
        err = await anna.error("allow_chat", allowed="off")
        assert err["code"] == "bad_message" and err["field"] == "allowed"
        await anna.send("allow_chat", allowed=False)
        for p in (anna, bram, eva):
            await p.until(lambda t: t["chat"] == {"allowed": False, "muted": []})
        for p in (anna, bram, eva):
            err = await p.error("chat", text="hello?")
            assert err["code"] == "chat_off_by_host" and "host" in worded(err) and "host" in worded(err, "nl")
        await no_chat(bram)
        await anna.send("allow_chat", allowed=True)
        await eva.until(lambda t: t["chat"] == {"allowed": True, "muted": []})
        await eva.send("chat", phrase="thanks")
        assert (await chat_line(anna))["phrase"] == "thanks"

    async def test_the_switch_survives_a_restart_but_the_lines_do_not(self, make_server, tmp_path):
        server = await make_server()
        anna = await server.host("Anna")
        code, token = anna.joined["code"], anna.joined["seat_token"]
        await anna.send("chat", text="before the restart")
        await chat_line(anna)
        await anna.send("allow_chat", allowed=False)
        await anna.until(lambda t: t["chat"] == {"allowed": False, "muted": []})
        await anna.close()
        await server.app.stop()
        server.clients.clear()
        again = await make_server()
        anna = await again.connect("Anna")
        await anna.send("resume", code=code, seat_token=token)
        await anna.expect("joined")
        t = await anna.expect("table")
        assert t["chat"] == {"allowed": False, "muted": []}
        assert (await anna.expect("chat_history"))["messages"] == []


class TestMemoryOnly:
    async def test_lines_never_reach_the_table_log_or_the_database(self, server, tmp_path):
        anna, bram, eva = await anna_bram_and_eva(server)
        table = server.table(anna.joined["code"])
        seq = table.seq
        logged = table.logged
        await bram.send("chat", text="secret-chat-line-42")
        await chat_line(anna)
        await eva.send("chat", text="watcher-line-43")
        await chat_line(anna)
        assert table.logged == logged and table.seq == seq  # no log entry, no event
        await anna.send("fill_computers", level="easy")  # a change that is stored after the lines
        await anna.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        await server.app.hub.tables.shutdown()
        dump = "\n".join(sqlite3.connect(tmp_path / "hearts.db").iterdump())
        assert "secret-chat-line-42" not in dump and "watcher-line-43" not in dump
        assert '"type":"seated"' in dump  # the log itself was stored

    async def test_history_on_join_watch_and_resume_keeps_the_last_50(self, make_server, monkeypatch):
        monkeypatch.setattr(limits, "CHAT_BURST", 1000)
        server = await make_server(chat_per_table=1000)
        anna = await server.host("Anna")
        code = anna.joined["code"]
        for n in range(1, 56):
            await anna.send("chat", text=f"line {n}")
        for _ in range(1, 56):
            await chat_line(anna)
        bram = await server.connect("Bram")
        await bram.send("join", code=code)
        await bram.expect("joined")
        await bram.expect("table")  # the table first, then the chat
        history = await bram.expect("chat_history")
        assert history["code"] == code
        assert [m["id"] for m in history["messages"]] == list(range(6, 56))
        assert history["messages"][-1]["text"] == "line 55" and history["messages"][0]["type"] == "chat"
        eva = await server.connect("Eva")
        await eva.send("watch", code=code)
        await eva.expect("table")
        assert (await eva.expect("chat_history"))["messages"] == history["messages"]
        token = bram.joined["seat_token"]
        await bram.close()
        bram = await server.connect("Bram")
        await bram.send("resume", code=code, seat_token=token, last_seq=0)
        await bram.expect("table")
        assert len((await bram.expect("chat_history"))["messages"]) == 50


class TestCluster:
    async def test_chat_reaches_a_watcher_and_a_player_relayed_from_another_node(self, cluster):
        a, b = cluster.start("node-a"), cluster.start("node-b")
        anna = await cluster.open(a, "Anna")
        await anna.send("create", options={"variant": "classic"}, computer_level="easy")
        code = (await anna.expect("joined"))["code"]
        bram = await cluster.open(b, "Bram")  # node B relays Bram to node A, which holds the table
        await bram.send("join", code=code)
        await bram.expect("joined")
        await bram.expect("chat_history")
        eva = await cluster.open(b, "Eva")
        await eva.send("watch", code=code)
        await eva.expect("chat_history")
        await bram.send("chat", text="via node B")
        for p in (anna, bram, eva):
            line = await p.expect("chat")
            assert line["text"] == "via node B" and line["from"] == {"seat": 1, "name": "Bram"}
        await eva.send("chat", phrase="good_luck")
        assert (await anna.expect("chat"))["from"] == {"seat": None, "name": "Eva"}
        for _ in range(4):
            await bram.send("chat", text="more")
        await bram.send("chat", text="too many")
        err = await bram.expect("error")
        assert err["code"] == "chat_limited"  # the relayed connection has its own limit, kept on node A


async def play_now(server, name: str) -> Player:
    """A person who pressed Play now (classic, English): the first at a new table, the next ones at the same."""
    p = await server.connect(name)
    await p.send("play_now", options={"variant": "classic"})
    await p.expect("joined")
    await p.expect("table")
    return p


class TestOwnSwitch:
    async def test_a_seat_that_turns_chat_off_gets_no_line_until_it_turns_it_on_again(self, server):
        anna, bram, eva = await anna_bram_and_eva(server)
        await bram.send("mute_chat", muted=True)
        for p in (anna, bram, eva):  # everyone sees whose chat is off; the table's chat stays on (a host table)
            await p.until(lambda t: t["chat"] == {"allowed": True, "muted": [1]})
        await anna.send("chat", text="not for Bram")
        assert (await chat_line(eva))["text"] == "not for Bram"
        await no_chat(bram)
        err = await bram.error("chat", text="hello?")
        assert err["code"] == "chat_off_by_you" and "yourself" in worded(err) and "jezelf" in worded(err, "nl")
        assert (await eva.error("mute_chat", muted=True))["code"] == "not_seated"  # a watcher just leaves
        assert (await bram.error("mute_chat", muted="yes"))["code"] == "bad_message"
        await bram.send("mute_chat", muted=False)
        history = await bram.expect("chat_history")  # what was said meanwhile
        assert [m["text"] for m in history["messages"]] == ["not for Bram"]
        await anna.until(lambda t: t["chat"] == {"allowed": True, "muted": []})
        await eva.send("chat", phrase="thanks")
        assert (await chat_line(bram))["phrase"] == "thanks"

    async def test_the_switch_survives_a_restart_and_goes_with_the_person(self, make_server):
        server = await make_server()
        anna = await server.host("Anna")
        code, token = anna.joined["code"], anna.joined["seat_token"]
        bram = await server.connect("Bram")
        await bram.send("join", code=code)
        await bram.expect("joined")
        await anna.send("mute_chat", muted=True)
        await bram.until(lambda t: t["chat"]["muted"] == [0])
        await anna.close()
        await server.app.stop()
        server.clients.clear()
        again = await make_server()
        anna = await again.connect("Anna")
        await anna.send("resume", code=code, seat_token=token)
        t = await anna.expect("table")
        assert t["chat"] == {"allowed": True, "muted": [0]}
        assert (await anna.expect("chat_history"))["messages"] == []
        await anna.send("sit", seat=2)  # to another seat: the old one is left, and the new one hears the chat
        await anna.until(lambda t: t["you"] == 2 and t["chat"]["muted"] == [])

    async def test_at_a_play_now_table_half_the_people_turn_chat_off_for_everyone(self, server):
        anna, bram, cor = [await play_now(server, name) for name in ("Anna", "Bram", "Cor")]
        assert anna.table["code"] == bram.table["code"] == cor.table["code"] and anna.table["host"] is None
        assert (await anna.error("allow_chat", allowed=False))["code"] == "no_host"
        await anna.send("mute_chat", muted=True)  # one of three: off for her alone
        await cor.until(lambda t: t["chat"] == {"allowed": True, "muted": [0]})
        await bram.send("chat", text="still on")
        assert (await chat_line(cor))["text"] == "still on"
        await no_chat(anna)
        await bram.send("mute_chat", muted=True)  # two of three: off for everyone
        await cor.until(lambda t: t["chat"] == {"allowed": False, "muted": [0, 1]})
        err = await cor.error("chat", text="hello?")
        assert err["code"] == "chat_off_by_vote" and "half" in worded(err) and "helft" in worded(err, "nl")
        await bram.send("leave")  # his switch leaves with him: one of two people is still half
        await cor.until(lambda t: t["chat"] == {"allowed": False, "muted": [0]})
        await anna.send("mute_chat", muted=False)  # none of two: on again
        await cor.until(lambda t: t["chat"] == {"allowed": True, "muted": []})
        await cor.send("chat", phrase="good_luck")
        assert (await chat_line(anna))["phrase"] == "good_luck"
