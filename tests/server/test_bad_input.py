"""Every class of bad input gets its own error code, changes nothing, and leaves the connection open."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.exceptions import ConnectionClosed

from hartenjagen.server.table.errors import CODES, PROBLEMS

from .conftest import seat_four, state_of
from .wording import worded


async def started_table(server):
    players = await seat_four(server, options={"variant": "classic", "passing": "off"})
    await players[0].send("start")
    for p in players:
        await p.until(lambda t: t["view"] is not None and t["view"]["phase"] == "playing")
    return players


CASES = [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    ("[" * 2000 + "]" * 2000, "bad_json"),  # nested deeper than the parser's recursion limit
    ('{"type": "create", "options": {"a": ' + "[" * 1500 + "]" * 1500 + "}}", "bad_json"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"no_type": 1}', "unknown_type"),
    ('{"type": "play"}', "bad_message"),
    ('{"type": "play", "card": 12}', "bad_message"),
    ('{"type": "play", "card": "ZZ"}', "bad_message"),
    ('{"type": "pass", "cards": "2C"}', "bad_message"),
    ('{"type": "sit", "seat": 7}', "bad_message"),
    ('{"type": "moon", "choice": "everyone"}', "bad_message"),
    ('{"type": "set_timer", "seconds": 1}', "bad_message"),
    ('{"type": "add_computer", "seat": 1, "level": "genius"}', "bad_message"),
    ('{"type": "join", "code": "ZZZZZZ"}', "already_seated"),
    ('{"type": "start"}', "started_already"),
    ('{"type": "ready"}', "ready_between_hands"),
    ('{"type": "add_computer", "seat": 1, "level": "easy"}', "computers_before_start"),
]


class TestBadInput:
    @pytest.mark.parametrize(("frame", "code"), CASES)
    async def test_bad_frame_gets_its_error_and_the_table_is_unchanged(self, server, frame, code):
        players = await started_table(server)
        host = players[0]
        await asyncio.gather(*(p.drain() for p in players))
        table = server.table(host.joined["code"])
        before = state_of(table)
        await host.ws.send(frame)
        err = await host.expect("error")
        assert err["code"] == code, err
        params = {*CODES[code], *PROBLEMS.get(err.get("problem"), ())}
        assert set(err) <= {"type", "code", "field", "reason", "problem", *params}  # its code's parameters, no more
        assert worded(err, "en") and worded(err, "nl")  # the client words it in either language
        assert state_of(table) == before
        await host.send("ping")
        assert (await host.expect("pong"))["type"] == "pong"  # the connection stays open

    async def test_out_of_turn_and_illegal_cards_carry_the_core_reason(self, server):
        players = await started_table(server)
        view = players[0].table["view"]
        turn = view["turn"]
        table = server.table(players[0].joined["code"])
        other = players[(turn + 1) % 4]
        await other.drain()
        before = state_of(table)
        err = await other.error("play", card=other.table["view"]["hand"][0])
        assert err["code"] == "illegal" and err["reason"]["code"] == "not_your_turn"
        mover = players[turn]
        await mover.drain()
        mv = mover.table["view"]
        refused = next(iter(mv["refusals"]))
        err = await mover.error("play", card=refused)
        assert err["reason"] == mv["refusals"][refused]
        assert err["reason"] == {"code": "must_lead_first", "params": {"first": "2C"}}  # a code, no sentence
        assert worded(err, "en") == "The 2♣ must lead the first trick."  # the client's sentence, in either language
        assert worded(err, "nl") == "De 2♣ moet uitkomen in de eerste slag."
        not_mine = next(c for c in players[(turn + 2) % 4].table["view"]["hand"])
        err = await mover.error("play", card=not_mine)
        assert err["reason"]["code"] == "not_in_hand"
        assert state_of(table) == before

    async def test_messages_before_hello_and_a_wrong_version(self, server):
        p = await server.connect(name=None)
        err = await p.error("create", options={})
        assert err["code"] == "hello_first"
        err = await p.error("hello", version=2, name="Anna")
        assert err["code"] == "bad_version"
        err = await p.error("hello", version=1, name="")
        assert err["code"] == "bad_message" and err["field"] == "name"
        await p.send("hello", version=1, name="Anna")
        assert (await p.expect("welcome"))["name"] == "Anna"

    async def test_bad_table_options_name_the_option(self, server):
        p = await server.connect("Anna")
        err = await p.error("create", options={"variant": "classic", "end_score": 5})
        assert err["code"] == "bad_option" and err["field"] == "end_score"
        err = await p.error("create", options={"variant": "dutch", "end_score": 100})
        assert err["code"] == "bad_option"
        assert server.app.hub.tables.by_code == {}

    async def test_unknown_code_full_table_taken_seat_and_wrong_token(self, server):
        host = await server.host("Anna")
        code = host.joined["code"]
        table = server.table(code)
        before = state_of(table)
        p = await server.connect("Bram")
        assert (await p.error("join", code="ABCDEF"))["code"] == "unknown_table"
        assert (await p.error("join", code=code, seat=0))["code"] == "seat_taken"
        assert (await p.error("resume", code=code, seat_token="not-the-token"))["code"] == "bad_token"
        assert (await p.error("play", card="2C"))["code"] == "not_seated"
        assert state_of(table) == before
        await p.send("join", code=code)
        assert (await p.expect("joined"))["seat"] == 1
        assert (await p.error("start"))["code"] == "not_host"
        assert (await host.error("start"))["code"] == "seats_empty"

    async def test_guessing_codes_is_rate_limited_per_connection(self, server):
        host = await server.host("Anna")
        code = host.joined["code"]
        p = await server.connect("Mallory")
        codes = []
        for i in range(12):
            err = await p.error("join", code=f"ZZZZZ{i % 10}")
            codes.append(err["code"])
        assert codes[:10] == ["unknown_table"] * 10
        assert codes[10:] == ["rate_limited", "rate_limited"]
        assert (await p.error("join", code=code))["code"] == "rate_limited"  # even a real code, on this connection
        # one person mistyping does not lock out the others behind the same address
        q = await server.connect("Bram")
        await q.send("join", code=code)
        assert (await q.expect("joined"))["code"] == code

    async def test_the_address_limit_catches_guessing_over_many_connections_but_never_a_valid_seat_token(
        self, make_server
    ):
        server = await make_server(address_failures=15)
        host = await server.host("Anna")
        code, token = host.joined["code"], host.joined["seat_token"]
        for _ in range(2):
            p = await server.connect("Mallory")
            for i in range(10):
                await p.error("join", code=f"ZZZZZ{i}")
        late = await server.connect("Cor")
        assert (await late.error("join", code=code))["code"] == "rate_limited"
        assert (await late.error("resume", code=code, seat_token="wrong"))["code"] == "rate_limited"
        await host.close()
        back = await server.connect("Anna", token=host.welcome["player_token"])
        await back.send("resume", code=code, seat_token=token)  # from the limited address: still her seat
        assert (await back.expect("joined"))["seat"] == 0


class TestAbuse:
    async def test_a_frame_over_4_kib_closes_that_connection_only(self, server):
        host = await server.host("Anna")
        bad = await server.connect("Big")
        await bad.ws.send(json.dumps({"type": "hello", "version": 1, "name": "x" * 5000}))
        with pytest.raises(ConnectionClosed):
            await bad.recv()
        assert bad.ws.close_code == 1009
        await host.send("ping")
        assert (await host.expect("pong"))["type"] == "pong"

    async def test_a_flood_closes_that_connection_with_1008(self, make_server):
        server = await make_server(msg_rate=20.0, msg_burst=40.0)
        calm = await server.connect("Calm")
        flood = await server.connect("Flood")
        with pytest.raises(ConnectionClosed):
            for _ in range(100):
                await flood.send("ping")
            while True:
                await flood.recv()
        assert flood.ws.close_code == 1008
        await calm.send("ping")
        assert (await calm.expect("pong"))["type"] == "pong"


class TestTextFields:
    @pytest.mark.parametrize("code", ["ABC\u0000EF", "\u202eABCDE", "AB CD", "ÄBCDEF"])
    async def test_a_code_with_control_or_foreign_characters_is_refused_without_echoing_it(self, server, code):
        p = await server.connect("Anna")
        err = await p.error("join", code=code)
        assert err["code"] == "bad_message" and err["field"] == "code"
        assert err == {"type": "error", "code": "bad_message", "field": "code", "problem": "table_code", "length": 6}
        assert worded(err) == "Bad field code: expected a table code of 6 letters and digits."

    async def test_a_card_with_an_invisible_character_gets_a_plain_error(self, server):
        players = await started_table(server)
        err = await players[0].error("play", card="QS\u200b")
        assert err["code"] == "bad_message" and err["field"] == "card"
        assert worded(err) == "Bad field card: expected a card name such as QS."


class TestOrderOfChecks:
    async def test_a_second_hello_is_refused_and_the_player_stays_the_same(self, server):
        anna = await server.host("Anna")
        token = anna.welcome["player_token"]
        err = await anna.error("hello", version=1, name="Eve")
        assert err["code"] == "hello_once"
        await anna.send("ping")
        await anna.expect("pong")
        assert server.table(anna.joined["code"]).seats[0].name == "Anna"
        status, _, body = await server.get("/api/stats", {"X-Player-Token": token})
        assert status == 200 and json.loads(body)["name"] == "Anna"

    async def test_fields_are_checked_before_already_seated(self, server):
        anna = await server.host("Anna")
        err = await anna.error("create", options={"variant": "classic", "end_score": 7})
        assert err["code"] == "bad_option" and err["field"] == "end_score"
        err = await anna.error("create", options={"variant": "classic"})
        assert err["code"] == "already_seated"


DUTCH_CASES_WAITING = [
    {"type": "remove_computer", "seat": 2},
    {"type": "ready"},
    {"type": "new_game"},
    {"type": "hint"},
    {"type": "restart"},
    {"type": "play", "card": "2C"},
    {"type": "play"},
    {"type": "play", "card": "QS\u200b"},
    {"type": "pass", "cards": "2C"},
    {"type": "sit", "seat": 9},
    {"type": "moon", "choice": "all"},
    {"type": "add_computer", "seat": 1, "level": "genius"},
    {"type": "set_timer", "seconds": 1},
    {"type": "set_timer", "seconds": "ten"},
    {"type": "hello", "version": "1", "name": "Anna"},
    {"type": "hello", "version": 1, "name": "\u0000"},
]
DUTCH_CASES_FREE = [
    {"type": "join", "code": "AB\u0000CD"},
    {"type": "create", "options": {"variant": "bridge"}},
    {"type": "create", "options": {"variant": "classic", "end_score": 7}},
    {"type": "create", "options": {"variant": "classic", "moon": "never"}},
    {"type": "create", "options": {"variant": "classic", "turn_score": 50}},
    {"type": "create", "options": {"variant": "classic", "deal": 0}},
    {"type": "create", "options": "classic"},
    {"type": "create", "options": {}, "daily": False},
]
DUTCH_CASES_PLAYING = [
    {"type": "add_computer", "seat": 1, "level": "easy"},
    {"type": "start"},
    {"type": "fill_computers", "level": "easy"},
]
DUTCH_CODES = {
    "bad_message", "bad_option", "no_computer_there", "ready_between_hands", "new_game_after_game_over",
    "hint_not_your_move", "not_started", "no_game", "computers_before_start", "started_already",
}  # fmt: skip


def english_detail(err: dict) -> str:
    """The part of the English sentence after its first colon (the detail), or the whole sentence."""
    english = worded(err, "en")
    return english.split(": ", 1)[1].rstrip(".") if ": " in english else english


class TestDutchTexts:
    async def test_no_dutch_error_text_repeats_its_english_sentence(self, server):
        host = await server.host("Anna")
        free = await server.connect("Bram")
        errors = []
        for msg in DUTCH_CASES_WAITING:
            errors.append(await host.error(**msg))
        for msg in DUTCH_CASES_FREE:
            errors.append(await free.error(**msg))
        await host.send("fill_computers", level="easy")
        await host.send("start")
        await host.until(lambda t: t["status"] == "playing")
        for msg in DUTCH_CASES_PLAYING:
            errors.append(await host.error(**msg))
        assert {e["code"] for e in errors} == DUTCH_CODES
        for err in errors:
            assert worded(err, "nl") != worded(err, "en"), err
            assert english_detail(err) not in worded(err, "nl"), err


class TestNames:
    async def test_a_family_emoji_name_is_accepted_and_a_lone_joiner_is_not(self, server):
        family = "Anna \U0001f468\u200d\U0001f469\u200d\U0001f467"
        p = await server.connect(None)
        await p.send("hello", version=1, name=family)
        assert (await p.expect("welcome"))["name"] == family
        for bad in ("\u200d", "\u200dAnna", "Anna\u200d", "An\u0000na"):
            q = await server.connect(None)
            err = await q.error("hello", version=1, name=bad)
            assert err["code"] == "bad_message" and err["field"] == "name", bad

    async def test_a_frame_that_is_not_utf8_closes_with_1007(self, server):
        p = await server.connect("Anna")
        await p.ws.send(b"\xff\xfe", text=True)
        with pytest.raises(ConnectionClosed):
            await p.recv(5)
        assert p.ws.close_code == 1007


class TestOldNames:
    def test_a_page_from_before_the_rename_may_still_send_the_old_command_names(self):
        """``add_bot``, ``remove_bot``, ``fill_bots`` and ``create``'s ``bot_level`` are read as the new names."""
        from hartenjagen.server.table.messages import AddComputer, FillComputers, RemoveComputer, parse_message

        def parsed(**msg):
            return parse_message(json.dumps(msg))

        assert parsed(type="add_bot", seat=1, level="easy") == AddComputer(seat=1, level="easy")
        assert parsed(type="remove_bot", seat=2) == RemoveComputer(seat=2)
        assert parsed(type="fill_bots", level="hard") == FillComputers(level="hard")
        old = parsed(type="create", options={}, bot_level="easy")
        assert old == parsed(type="create", options={}, computer_level="easy")
        assert old.computer_level == "easy" and "bot_level" not in old.to_wire()

    async def test_an_old_page_fills_the_table_with_the_old_name(self, server):
        p = await server.host("Anna", options={"variant": "classic"})
        await p.send("fill_bots", level="easy")
        t = await p.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
        assert [s["kind"] for s in t["seats"]] == ["person", "computer", "computer", "computer"]
