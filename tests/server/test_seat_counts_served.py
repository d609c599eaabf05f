"""Tables of three and five through the server: the replay shows every seat and the kitty, reviews count the
table's tricks, and a watcher never sees the kitty while the hand is played."""

from __future__ import annotations

from .conftest import both_stores, my_move, start_server
from .test_replays import drive, finished, get_json
from .test_reviews import BUDGET_MS, answer
from .wording import worded


async def test_a_three_seat_kitty_game_is_replayed_with_the_kitty_and_reviewed_by_its_own_hand_size(make_server):
    server = await make_server(review_ms=BUDGET_MS)
    anna = await server.host("Anna", options={"variant": "three_kitty", "end_score": 25, "deal": 77})
    watcher = await server.connect("Wim")
    await watcher.send("watch", code=anna.joined["code"])
    await anna.send("fill_computers", level="easy")
    await anna.until(lambda t: [s["kind"] for s in t["seats"]] == ["person", "computer", "computer"])
    await anna.send("start")
    # the computer players' seeds differ from server to server: the first hand may end the game as well
    await drive(anna, lambda t: t["view"] is not None and t["view"]["phase"] in ("hand_over", "game_over"))
    hand0 = anna.table["view"]["history"][0]
    await anna.send("review", hand_no=0)
    got = await answer(anna, "review")
    assert got["type"] == "review", got
    assert [d["kind"] for d in got["review"]["decisions"]] == ["pass"] + ["play"] * 17  # 17 cards each at three

    final = await drive(anna, finished)
    token = anna.welcome["player_token"]
    status, replay = await get_json(server, f"/api/games/{final['replay']['id']}", token)
    assert status == 200 and len(replay["hands"]) == len(final["view"]["history"])
    first = replay["hands"][0]
    assert [len(h) for h in first["dealt"]] == [17, 17, 17] and len(first["kitty"]) == 1
    assert len({c for h in first["dealt"] for c in h} | set(first["kitty"])) == 52
    assert all(len(t["cards"]) == 3 for t in first["tricks"]) and len(first["tricks"]) == 17
    assert first["kitty_takers"] == hand0["kitty_takers"] == [first["tricks"][0]["winner"]]
    assert first["points"] == hand0["points"] and sum(first["points"]) in (26, 0) or first["moon"] is not None

    # the watcher saw every table of the first hand, and never the kitty's card while the hand was played (the
    # scoring table aside, which names every card worth points, as the rules page does); once it was over, the kitty
    # lay open for everyone, as in the replay
    (kitty,) = first["kitty"]
    seen = opened = 0
    for msg in watcher.inbox:
        if msg["type"] == "table" and msg.get("view") and msg["view"]["hand_no"] == 0:
            view = {k: v for k, v in msg["view"].items() if k != "scoring"}
            assert view.get("kitty") is None and view["seats"] == 3
            if view["phase"] in ("hand_over", "game_over"):
                assert view["kitty_cards"] == [kitty]
                opened += 1
            else:
                assert f"'{kitty}'" not in repr(view) and view["kitty_cards"] is None
                seen += 1
    assert seen and opened


async def test_a_seat_number_past_the_tables_seats_is_refused_by_name_and_changes_nothing(make_server):
    server = await make_server()
    anna = await server.host("Anna", options={"variant": "three"})
    assert len(anna.table["seats"]) == 3
    for kind, fields in [
        ("add_computer", {"seat": 3, "level": "easy"}),
        ("remove_computer", {"seat": 5}),
        ("sit", {"seat": 4}),
    ]:
        err = await anna.error(kind, **fields)
        assert (err["code"], err["field"]) == ("bad_message", "seat") and "0 to 2" in worded(err), err
    bram = await server.connect("Bram")
    err = await bram.error("join", code=anna.joined["code"], seat=3)
    assert (err["code"], err["field"]) == ("bad_message", "seat")
    cor = await server.connect("Cor")
    err = await cor.error("create", options={"variant": "five"}, seat=5)
    assert (err["code"], err["field"]) == ("bad_message", "seat")
    await cor.send("create", options={"variant": "five"}, seat=4)  # the fifth chair of a table of five is fine
    assert (await cor.expect("joined"))["seat"] == 4
    assert [s["kind"] for s in anna.table["seats"]] == ["person", "empty", "empty"]
    await bram.send("join", code=anna.joined["code"], seat=2)
    assert (await bram.expect("joined"))["seat"] == 2


@both_stores
async def test_a_six_seat_cancellation_table_comes_back_after_a_restart_with_the_same_view(tmp_path, db_url):
    first = await start_server(tmp_path, db=db_url)
    try:
        anna = await first.host(
            "Anna", options={"variant": "cancellation", "seats": 6, "deal": 31}, computer_level="easy"
        )
        await anna.send("fill_computers", level="easy")
        await anna.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]) and len(t["seats"]) == 6)
        await anna.send("start")
        before = await drive(anna, lambda t: t["view"] is not None and len(t["view"]["tricks"]) >= 3 and my_move(t))
        token, code, seat_token = anna.welcome["player_token"], anna.joined["code"], anna.joined["seat_token"]
        await anna.drain()
    finally:
        await first.app.stop()
    again = await start_server(tmp_path, db=db_url)
    try:
        anna2 = await again.connect("Anna", token=token)
        await anna2.send("resume", code=code, seat_token=seat_token, last_seq=anna.table["seq"])
        await anna2.expect("joined")
        after = await anna2.expect("table")
        assert after["view"] == anna.table["view"] == before["view"]
        assert after["view"]["seats"] == 6 and after["view"]["hand"] == before["view"]["hand"]
        final = await drive(anna2, finished)  # and the game plays on to its end
        assert final["view"]["game_over"] and len(final["view"]["totals"]) == 6
    finally:
        for c in again.clients:
            await c.ws.close()
        await again.app.stop()
