"""Four people at one table by code: seats, a simultaneous pass, a fifth refused, hosting passed on."""

from __future__ import annotations

from .conftest import seat_four, state_of
from .wording import worded


class TestFourPeople:
    async def test_four_join_by_code_and_a_fifth_gets_table_full(self, server):
        players = await seat_four(server)
        assert [p.joined["seat"] for p in players] == [0, 1, 2, 3]
        assert len({p.joined["seat_token"] for p in players}) == 4
        code = players[0].joined["code"]
        before = state_of(server.table(code))
        fifth = await server.connect("Eva")
        err = await fifth.error("join", code=code)
        assert err["code"] == "table_full"
        assert worded(err, "en").startswith("This table has no free seat now") and worded(err, "nl")
        assert state_of(server.table(code)) == before

    async def test_simultaneous_pass_waits_for_all_four_and_marks_received_cards(self, server):
        players = await seat_four(server)
        host = players[0]
        await host.send("start")
        views = []
        for p in players:
            t = await p.until(lambda t: t["view"] is not None)
            views.append(t["view"])
        assert all(v["phase"] == "passing" for v in views)
        # nobody sees another hand: each view's hand is its own and only hand sizes are public
        hands = [set(v["hand"]) for v in views]
        assert all(not (hands[i] & hands[j]) for i in range(4) for j in range(i + 1, 4))
        chosen = [sorted(v["hand"])[:3] for v in views]
        for i, p in enumerate(players[:3]):
            await p.send("pass", cards=chosen[i])
        t = await players[0].until(lambda t: t["view"]["has_passed"] == [True, True, True, False])
        assert t["view"]["phase"] == "passing" and set(t["view"]["passed"]) == set(chosen[0])
        other = await players[1].until(lambda t: t["view"]["has_passed"] == [True, True, True, False])
        assert set(other["view"]["passed"]) == set(chosen[1])  # each seat sees its own choice only
        await players[3].send("pass", cards=chosen[3])
        for i, p in enumerate(players):
            t = await p.until(lambda t: t["view"]["phase"] == "playing")
            giver = (i - 1) % 4  # first hand passes left: seat s gives to s + 1
            assert set(t["view"]["received"]) == set(chosen[giver])
            assert set(t["view"]["received"]) <= set(t["view"]["hand"])
            assert not set(chosen[i]) & set(t["view"]["hand"])

    async def test_a_second_pass_is_refused_and_changes_nothing(self, server):
        players = await seat_four(server)
        await players[0].send("start")
        t = await players[0].until(lambda t: t["view"] is not None)
        cards = sorted(t["view"]["hand"])[:3]
        await players[0].send("pass", cards=cards)
        await players[0].until(lambda t: t["view"]["has_passed"][0])
        code = t["code"]
        before = state_of(server.table(code))
        err = await players[0].error("pass", cards=sorted(t["view"]["hand"])[3:6])
        assert err["code"] == "illegal" and err["reason"]["code"] == "already_passed"
        assert state_of(server.table(code)) == before

    async def test_when_the_host_leaves_hosting_passes_to_another_person(self, server):
        players = await seat_four(server)
        await players[0].send("leave")
        await players[0].expect("left")
        t = await players[1].until(lambda t: t["host"] != 0)
        assert t["host"] == 1 and t["seats"][0]["kind"] == "empty"
        await players[1].send("add_computer", seat=0, level="easy")
        t = await players[1].until(lambda t: t["seats"][0]["kind"] == "computer")
        err = await players[2].error("remove_computer", seat=0)
        assert err["code"] == "not_host"

    async def test_a_friend_takes_over_a_computer_seat_between_hands(self, server):
        host = await server.host("Anna", options={"variant": "classic", "end_score": 100, "passing": "off"})
        await host.send("fill_computers", level="easy")
        await host.send("start")
        code = host.joined["code"]
        friend = await server.connect("Bram")
        err = await friend.error("join", code=code)
        assert err["code"] == "table_full"
        err = await friend.error("join", code=code, seat=2)
        assert err["code"] == "seat_taken"  # mid-hand a computer seat is not free
        # Anna plays the hand out
        from .test_full_game import act

        while True:
            t = host.table
            v = t["view"]
            if v and v["phase"] == "hand_over":
                break
            if v and v["turn"] == 0:
                await act(host, "play", "play", card=v["legal"][0])
            else:
                await host.recv()
        await friend.send("join", code=code, seat=2)
        joined = await friend.expect("joined")
        assert joined["seat"] == 2
        t = await host.until(lambda t: t["seats"][2]["kind"] == "person")
        assert t["seats"][2]["name"] == "Bram"
