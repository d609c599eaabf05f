"""What a client or a broken computer player must not be able to do to a table or the server."""

from __future__ import annotations

import asyncio
import os
import signal
import threading

from .conftest import move_once, my_move, state_of, wait_for
from .crashkit import ServerProcess
from .test_full_game import play_out
from .test_timer_hint_sit_new_game_idle import with_bots


class TestHardening:
    async def test_a_seat_token_with_non_ascii_characters_is_just_a_wrong_token(self, server):
        host = await server.host("Anna")
        code = host.joined["code"]
        before = state_of(server.table(code))
        eve = await server.connect("Eve")
        err = await eve.error("resume", code=code, seat_token="é" * 20)
        assert err["code"] == "bad_token"
        assert state_of(server.table(code)) == before
        await eve.send("ping")
        assert (await eve.expect("pong"))["type"] == "pong"  # still connected

    async def test_a_hint_from_a_misbehaving_computer_player_is_replaced_by_a_legal_card(self, server):
        host = await with_bots(server, options={"variant": "classic", "passing": "off", "end_score": 100})
        await host.send("start")
        t = await host.until(my_move)
        mine = set(t["view"]["hand"])
        foreign = next(c for c in ("2C", "2D", "2S", "2H", "3C", "3D") if c not in mine)

        async def wrong(level, view):
            return {"type": "play", "card": foreign}  # a card from someone else's hand

        server.app.hub.thinker.decide = wrong
        await host.send("hint")
        hint = await host.expect("hint")
        assert len(hint["cards"]) == 1 and hint["cards"][0] in host.table["view"]["legal"]

    async def test_computer_players_that_choose_nonsense_still_play_legal_cards(self, server):
        host = await with_bots(server, options={"variant": "classic", "end_score": 25})
        answers = iter([None, {"type": "play", "card": 5}, {"type": "pass", "cards": ["QS"]}, {"type": "dance"}])

        async def nonsense(level, view):
            return next(answers, {"type": "play", "card": "ZZ"})

        server.app.hub.thinker.decide = nonsense
        await host.send("start")
        await host.until(lambda t: t["status"] == "playing")
        final = await play_out(host)
        assert final["status"] == "finished" and max(final["view"]["totals"]) >= 25

    async def test_the_worker_processes_start_with_the_server_not_on_the_first_move(self, make_server):
        server = await make_server(bot_workers=1)
        pool = server.app.thinker._executor
        assert pool is not None and pool._processes and all(p.is_alive() for p in pool._processes.values())

    async def test_a_killed_worker_process_does_not_stop_the_game(self, make_server):
        server = await make_server(bot_workers=1, inline_bots=False)
        host = await with_bots(server, options={"variant": "classic", "passing": "off", "end_score": 25})
        await host.send("start")
        await host.until(my_move)
        pool = server.app.thinker._executor
        for pid in list(pool._processes):
            os.kill(pid, signal.SIGKILL)
        await move_once(host)
        final = await play_out(host)
        assert final["status"] == "finished"
        assert server.app.thinker._executor is not pool  # a fresh pool took over


class TestHungComputerPlayer:
    async def test_a_decision_past_its_deadline_gets_a_legal_move_and_fresh_workers(self, make_server, monkeypatch):
        import hartenjagen.server.live.computer as computer

        real = computer.decide
        hung, woke = threading.Event(), threading.Event()

        def sleepy(level, seed, view, budget_ms=None):
            if not hung.is_set():
                hung.set()
                woke.wait(30)  # a player that hangs (in a worker thread) until the test lets it go
            return real(level, seed, view, budget_ms)

        monkeypatch.setattr(computer, "decide", sleepy)
        server = await make_server(decision_timeout=0.3, inline_bots=False)
        host = await server.host("Anna", options={"variant": "classic", "passing": "off"})
        await host.send("fill_computers", level="easy")
        await host.until(lambda t: all(s["kind"] == "computer" for s in t["seats"][1:]))
        pool = await server.app.thinker.start()
        await host.send("start")
        bot_plays = 0
        while bot_plays < 3:  # every computer player moves, the hung one with a simple legal move at its deadline
            t = host.table
            if my_move(t):
                await move_once(host)
            else:
                msg = await host.until(lambda t2, n=t["seq"]: t2["seq"] > n, timeout=2.5)
                bot_plays += sum(1 for e in msg["events"] if e["type"] == "play" and e["seat"] != 0)
        assert hung.is_set() and not woke.is_set()  # the game went on while the hung decision still hangs
        assert server.app.thinker.timed_out == 1
        assert server.app.thinker._executor is not pool  # the stuck workers were replaced
        woke.set()


class TestSlowReader:
    async def test_a_client_that_stops_reading_is_cut_off_with_1008_and_sent_nothing_more(self):
        from types import SimpleNamespace

        from hartenjagen.server.config import Config
        from hartenjagen.server.connection.client import WRITE_BUFFER_LIMIT, Client

        closed: list[tuple[int, str]] = []
        backlog = {"bytes": 0}

        class Stalled:
            """A connection whose peer reads nothing: its write buffer only grows."""

            transport = SimpleNamespace(get_write_buffer_size=lambda: backlog["bytes"])
            protocol = SimpleNamespace(state=None)  # not OPEN: the library writes nothing to this stand-in

            async def close(self, code: int, reason: str) -> None:
                closed.append((code, reason))

        client = Client(Stalled(), "127.0.0.1", Config())
        client.push({"type": "pong"})  # the buffer is empty: written (a closed stand-in skips it)
        backlog["bytes"] = WRITE_BUFFER_LIMIT + 1
        client.push({"type": "pong"})
        client.push({"type": "pong"})
        await asyncio.sleep(0)
        assert closed == [(1008, "not reading")]


def process_group(pgid: int) -> list[int]:
    """The processes now in process group ``pgid`` (zombies waiting for their parent left out)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            if fields[0] != "Z" and int(fields[2]) == pgid:
                found.append(int(entry))
    return found


class TestKilledServer:
    async def test_a_killed_servers_computer_player_processes_end_with_it(self, tmp_path):
        """``kill -9`` of a server leaves no worker process (nor their process server) waiting for ever."""
        srv = ServerProcess(tmp_path / "h.db", tmp_path, "workers", extra=["--bot-workers", "2"]).start()
        try:
            # the server, its process server and a worker at least
            await wait_for(lambda: len(process_group(srv.pid)) >= 3, timeout=30.0)
            await srv.crash()
            await wait_for(lambda: process_group(srv.pid) == [], timeout=30.0)
        finally:
            srv.cleanup()
