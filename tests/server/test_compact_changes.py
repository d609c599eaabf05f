"""Compact changes: a seat gets its whole table once, then only what changed, and the fold is exact."""

from __future__ import annotations

import json

import hypothesis.strategies as st
from hypothesis import given

from hartenjagen.server.table import step as table_step
from hartenjagen.server.table.changes import diff, fold

from .test_full_game import play_out

# nested values keep their JSON types in every message (see server/table/changes.py), so the leaves below a
# field never mix booleans with numbers; at the top of a field they may
LEAF = st.none() | st.integers(-5, 5) | st.text(max_size=3)
JSON = st.booleans() | st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
KEYS = ["seq", "status", "seats", "deadline", "view", "ready"]


@st.composite
def two_states(draw):
    """Two table messages with the same fields, the second one partly changed (a view stays a dict or None)."""

    def state():
        fields = {k: draw(JSON) for k in KEYS if k != "view"}
        view = draw(st.none() | st.dictionaries(st.sampled_from(["hand", "trick", "turn", "legal"]), JSON))
        return {"type": "table", **fields, "view": view, "events": [], "resumed": None}

    first, second = state(), state()
    for key in KEYS:
        if draw(st.booleans()):
            second[key] = first[key]
    if isinstance(first["view"], dict) and isinstance(second["view"], dict):
        second["view"] = {**first["view"], **second["view"]}  # a view never loses a field
    second["events"] = draw(st.lists(st.dictionaries(st.just("seq"), st.integers(1, 9)), max_size=2))
    return first, second


@given(two_states())
def test_folding_the_update_gives_back_exactly_the_full_message(states):
    shown, new = states
    update = diff(shown, new)
    if update is None:
        assert {k: v for k, v in new.items() if k not in ("events", "resumed")} == {
            k: v for k, v in shown.items() if k not in ("events", "resumed")
        } and not new["events"]
        return
    assert json.dumps(fold(shown, update), sort_keys=True) == json.dumps(new, sort_keys=True)


def test_false_and_zero_are_different_changes():
    shown = {"type": "table", "seq": 1, "deadline": 0, "view": {"hearts_broken": 0}}
    update = diff(shown, {"type": "table", "seq": 1, "deadline": False, "view": {"hearts_broken": False}})
    assert update == {"type": "update", "set": {"deadline": False}, "view": {"hearts_broken": False}}


class TestOverTheWire:
    async def test_every_update_of_a_whole_game_folds_into_the_full_message_it_was_cut_from(self, server, monkeypatch):
        cut: list[tuple[dict, dict | None, dict]] = []
        real = table_step.cut
        from hartenjagen.server.table.seat_view import shown_message

        def recording(table, client, moment):
            made = real(table, client, moment)
            text = moment.text(made)  # what the step sends; ``made.shown`` is what the connection is then shown
            was = shown_message(table.presence.sight(client))  # what the connection was shown before
            cut.append((was, None if text is None else json.loads(text), made.shown.shown))
            return made

        monkeypatch.setattr(table_step, "cut", recording)
        p = await server.host("Anna", options={"variant": "classic", "end_score": 25})
        await p.send("fill_computers", level="easy")
        await p.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        await p.send("start")
        final = await play_out(p)
        updates = [(before, msg, full) for before, msg, full in cut if before is not None and msg is not None]
        assert len(updates) > 40  # at least a whole hand: every card played is one update
        for before, update, full in updates:
            assert update["type"] == "update"
            assert fold(before, update) == full
        # what the client folded at the end is what the server would send in full now
        assert final["view"] == cut[-1][2]["view"]

        # the point of it: an update carries a fraction of the bytes of the full message
        full_sizes = sorted(len(json.dumps(full)) for _, _, full in updates)
        update_sizes = sorted(len(json.dumps(update)) for _, update, _ in updates)
        assert update_sizes[len(update_sizes) // 2] * 3 < full_sizes[len(full_sizes) // 2]
        assert not any("rules" in (update.get("view") or {}) for _, update, _ in updates)
        wire = [m["type"] for m in p.raw if m["type"] in ("table", "update")]
        assert wire[0] == "table" and wire.count("table") == 1, "only the first table message is sent in full"

    async def test_a_connection_that_comes_back_gets_the_full_table_first(self, server):
        p = await server.host("Anna")
        code, token = p.joined["code"], p.joined["seat_token"]
        await p.send("fill_computers", level="easy")
        await p.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        await p.send("start")
        # the computer players have passed: the table waits for Anna, so nothing changes while she is gone
        await p.until(lambda t: t["view"] is not None and t["view"]["to_act"] == [0])
        folded = p.table
        await p.close()
        back = await server.connect("Anna", token=p.welcome["player_token"])
        await back.send("resume", code=code, seat_token=token, last_seq=folded["seq"])
        first = await back.expect("table")
        assert [m["type"] for m in back.raw if m["type"] in ("table", "update")][0] == "table"  # in full
        assert first["view"] == folded["view"]


def test_the_wire_text_is_the_update_encoded_with_its_shared_parts_encoded_once():
    """Every seat's text is exactly the compact JSON of its update, through a whole game of four people."""
    from hartenjagen.server.table.jsontext import compact as encode
    from hartenjagen.server.table.presence import ConnectionId
    from hartenjagen.server.table.seat_view import Moment, seat_update, seat_update_text
    from hartenjagen.server.table.table import Table
    from hartenjagen.shared.bots.choice import fallback
    from hartenjagen.shared.variants import make_rules
    from hartenjagen.shared.view import view_for

    table = Table.create("WIRE01", make_rules({"variant": "classic", "end_score": 30}), at=0.0)
    pairs = []  # per seat: the connection cut as a dict, and its twin (on the same seat) cut as text
    for n, name in enumerate(("Anna", "Bram", "Cor", "Dirk")):
        client, twin = ConnectionId(n + 1), ConnectionId(n + 11)
        seat, _ = table.seating.seat_person(client, None, name, None)
        table.presence.place(twin, seat.index)
        for c in (client, twin):
            table.presence.arrive(c, table.seq)
        pairs.append((client, twin))
    moments: list[Moment] = []
    compared = shared = 0

    def broadcast() -> None:
        nonlocal compared, shared
        table.maybe_deal()
        table.finish(0.0)
        moments.append(Moment(table, 0.0, moments[-1] if moments else None))
        texts = []
        for as_dict, as_text in pairs:
            message, text = seat_update(table, as_dict, moments[-1]), seat_update_text(table, as_text, moments[-1])
            assert text == (None if message is None else encode(message))
            compared += text is not None
            texts.append(text)
        shared += len({id(t) for t in texts if t is not None}) < len([t for t in texts if t is not None])

    broadcast()
    table.hosting.start(0, 0.0)
    broadcast()
    while table.game.phase != "game_over":
        waiting = table.game.to_act()
        if waiting:
            table.act(waiting[0], fallback(view_for(table.game, waiting[0])))
        else:
            table.set_ready(next(s for s in range(4) if s not in table.ready))
        broadcast()
    assert compared > 200
    assert shared > 50, "seats with the same update share one encoded text"
