"""Reconnect with the seat token: the exact view comes back, missed events are replayed, away seats."""

from __future__ import annotations

from hartenjagen.shared.view import view_for

from .conftest import events_of, play_until, seat_four


async def to_mid_trick(players):
    """Start a no-passing game and play until a trick has two cards; return whose turn it is."""
    await players[0].send("start")
    for _ in range(10):
        t = await players[0].until(lambda t: t["view"] is not None and t["view"]["phase"] == "playing")
        view = t["view"]
        if len(view["trick"]["cards"]) == 2:
            return view["turn"]
        mover = players[view["turn"]]
        await mover.until(lambda t, n=t["seq"]: t["seq"] >= n)
        await mover.send("play", card=mover.table["view"]["legal"][0])
        await players[0].until(lambda t, n=t["seq"]: t["seq"] > n)
    raise AssertionError("no mid-trick position")


class TestReconnect:
    async def test_reconnect_mid_trick_resumes_the_exact_view_and_the_missed_events(self, server):
        players = await seat_four(server, options={"variant": "classic", "passing": "off"})
        turn = await to_mid_trick(players)
        leaver_seat = (turn + 1) % 4  # plays after the one to move
        leaver = players[leaver_seat]
        await leaver.drain()
        last_seq = leaver.table["seq"]
        token, code = leaver.joined["seat_token"], leaver.joined["code"]
        await leaver.close()
        watcher = players[(leaver_seat + 2) % 4]
        t = await watcher.until(lambda t: not t["seats"][leaver_seat]["connected"])
        assert t["seats"][leaver_seat]["away"] is False  # still within the grace period
        mover = players[turn]
        await mover.drain()
        card = mover.table["view"]["legal"][0]
        await mover.send("play", card=card)
        await watcher.until(lambda t: t["view"]["turn"] == leaver_seat)
        back = await server.connect("Back", token=None)
        await back.send("resume", code=code, seat_token=token, last_seq=last_seq)
        joined = await back.expect("joined")
        assert joined["seat"] == leaver_seat
        t = await back.expect("table")
        assert t["resumed"] == "events"
        kinds = [(e["type"], e.get("seat"), e.get("card")) for e in t["events"]]
        assert ("play", turn, card) in kinds
        assert t["events"][0]["seq"] == last_seq + 1 and t["events"][-1]["seq"] == t["seq"]
        table = server.table(code)
        assert t["view"] == view_for(table.game, leaver_seat)
        assert t["view"]["turn"] == leaver_seat and len(t["view"]["trick"]["cards"]) == 3
        # and play goes on from there
        await back.send("play", card=t["view"]["legal"][0])
        await watcher.until(lambda t: t["view"]["trick"]["cards"] == [] or len(t["view"]["tricks"]) >= 2)

    async def test_resume_without_last_seq_gets_a_snapshot(self, server):
        host = await server.host("Anna")
        token, code = host.joined["seat_token"], host.joined["code"]
        await host.close()
        again = await server.connect("Anna")
        await again.send("resume", code=code, seat_token=token)
        await again.expect("joined")
        t = await again.expect("table")
        assert t["resumed"] == "snapshot" and t["host"] == 0 and t["you"] == 0

    async def test_past_the_grace_period_a_computer_plays_for_the_absent_and_they_take_the_seat_back(self, make_server):
        server = await make_server(grace=0.3)
        host = await server.host("Anna", options={"variant": "classic", "passing": "off", "end_score": 100})
        code = host.joined["code"]
        friend = await server.connect("Bram")
        await friend.send("join", code=code)
        await friend.expect("joined")
        await host.send("add_computer", seat=2, level="easy")
        await host.send("add_computer", seat=3, level="easy")
        await host.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        await host.send("start")
        await host.until(lambda t: t["status"] == "playing")
        token = friend.joined["seat_token"]
        await friend.close()
        t = await host.until(lambda t: t["seats"][1]["away"], timeout=5)
        assert t["seats"][1]["kind"] == "person" and not t["seats"][1]["connected"]

        def auto_for_bram() -> list[dict]:
            return [e for e in events_of(host) if e["type"] == "play" and e["seat"] == 1 and e["auto"]]

        # with Bram away a computer moves for him: Anna plays her cards and the trick goes past his seat.
        # Bram must play in the first trick, and the hand cannot end while Anna holds back her next card.
        await play_until(host, lambda t: bool(auto_for_bram()))
        back = await server.connect("Bram")
        await back.send("resume", code=code, seat_token=token)
        await back.expect("joined")
        t = await back.expect("table")
        assert t["seats"][1]["kind"] == "person" and t["seats"][1]["away"] is False and t["you"] == 1
        await host.until(lambda t: t["seats"][1]["connected"] and not t["seats"][1]["away"])
        assert any(e["type"] == "back" and e["seat"] == 1 for e in events_of(host))
        autos = len(auto_for_bram())
        # once back, nothing moves for him: the hand cannot end without his cards, so his turn comes
        t = await play_until(host, lambda t: t["view"]["turn"] == 1)
        table = server.table(code)
        pending = server.app.hub.tables.scheduler.pending.get(code)
        assert table.turns.auto_seats() == [] and not pending and t["deadline"] is None
        assert len(auto_for_bram()) == autos
        # and the move is his own
        t = await back.until(lambda t: t["view"]["turn"] == 1)
        await back.send("play", card=t["view"]["legal"][0])
        t = await host.until(lambda t: any(e["type"] == "play" and e["seat"] == 1 for e in t["events"]))
        assert [e["auto"] for e in t["events"] if e["type"] == "play" and e["seat"] == 1] == [False]
