"""Your player on every device: a one-time code moves the same player to another device; both keep working; a code
is used once; wrong codes count as guesses; a player sees and signs out the devices that hold them."""

from __future__ import annotations

import json

from hartenjagen.server.connection.closing import Close
from hartenjagen.server.players import devices as device_codes

from .conftest import both_stores
from .test_replays import get_json


async def answer(p, kind: str) -> dict:
    while True:
        msg = await p.recv(10.0)
        if msg["type"] in (kind, "error"):
            return msg


class TestDevices:
    @both_stores
    async def test_a_code_moves_the_player_and_a_second_use_is_refused(self, server, db_url):
        anna = await server.connect("Anna")
        token = anna.welcome["player_token"]
        await anna.send("device_code")
        got = await answer(anna, "device_code")
        assert got["type"] == "device_code", got
        code = got["code"]
        assert len(code) == 9 and code[4] == "-" and got["link"].endswith(f"/?device={code}")
        assert got["qr_svg"].startswith("<svg") and got["expires_at"] > 0

        phone = await server.connect("someone")  # a fresh device is a new anonymous player until it uses the code
        await phone.send("use_device_code", code=code.lower(), label="Phone")
        joined = await answer(phone, "device_joined")
        assert joined["type"] == "device_joined" and joined["name"] == "Anna"
        assert joined["player_token"] != token
        # the same player on both devices: the same statistics and games
        on_phone = await get_json(server, "/api/stats", joined["player_token"])
        assert on_phone == await get_json(server, "/api/stats", token)
        again = await server.connect("Anna", token=joined["player_token"])
        assert again.welcome["player_token"] == joined["player_token"]

        thief = await server.connect("Eva")
        await thief.send("use_device_code", code=code)
        refused = await answer(thief, "device_joined")
        assert refused["type"] == "error" and refused["code"] == "unknown_device_code"

        # Anna sees both devices, this one marked, and signs the phone out: its token holds nobody any more
        await anna.send("devices")
        listing = await answer(anna, "devices")
        assert len(listing["devices"]) == 2 and [d["this"] for d in listing["devices"]] == [True, False]
        assert listing["devices"][1]["label"] == "Phone"
        await anna.send("sign_out_device", device=listing["devices"][1]["id"])
        listing = await answer(anna, "devices")
        assert len(listing["devices"]) == 1
        # the phone's open connections close at once (4001 signed out), and its token greets nobody any more
        for c in (phone, again):
            await c.wait(lambda c=c: c.closed, timeout=2.0, what="the signed-out device closed")
            assert (c.close_code, c.ws.close_reason) == (Close.SIGNED_OUT.code, "signed out")
        fresh = await server.connect("Anna", token=joined["player_token"])
        assert fresh.welcome["player_token"] != joined["player_token"]
        await anna.sync()  # Anna's own device stays
        status, body = await get_json(server, "/api/stats", joined["player_token"])
        assert (status, body) == (404, {"error": "unknown_player"})
        status, body = await get_json(server, "/api/stats", token)
        assert status == 200 and body["name"] == "Anna"

    async def test_the_pages_of_the_player_that_asked_are_told_when_its_code_is_used(self, server):
        laptop = await server.connect("Anna")
        token = laptop.welcome["player_token"]
        other_tab = await server.connect("Anna", token=token)  # the same device, another page
        await laptop.send("device_code")
        code = (await answer(laptop, "device_code"))["code"]
        bystander = await server.connect("Eva")

        phone = await server.connect("someone")
        await phone.send("use_device_code", code=code.replace("-", "").lower(), label="Android · Chrome")
        joined = await answer(phone, "device_joined")
        await phone.send("devices")
        listing = (await answer(phone, "devices"))["devices"]
        new_device = next(d["id"] for d in listing if d["this"])
        for page in (laptop, other_tab):  # every page of the player: the code as shown, and the device it moved to
            told = await answer(page, "device_code_used")
            assert told == {"type": "device_code_used", "code": code, "label": "Android · Chrome", "device": new_device}
        # nobody else hears of it, nor does the new device itself
        for p in (phone, bystander):
            await p.sync()
            assert not [m for m in p.inbox if m["type"] == "device_code_used"], p.inbox
        again = await server.connect("Anna", token=joined["player_token"])  # the new device's later pages neither
        await again.sync()
        assert not [m for m in again.inbox if m["type"] == "device_code_used"]

    async def test_an_old_code_is_refused_and_wrong_codes_are_limited_like_table_codes(self, server, monkeypatch):
        anna = await server.connect("Anna")
        monkeypatch.setattr(device_codes, "CODE_SECONDS", -1.0)  # expired the moment it is made
        await anna.send("device_code")
        code = (await answer(anna, "device_code"))["code"]
        phone = await server.connect("Phone")
        await phone.send("use_device_code", code=code)
        assert (await answer(phone, "device_joined"))["code"] == "unknown_device_code"
        codes = []
        for _ in range(30):
            await phone.send("use_device_code", code="ABCD-EFGH")
            codes.append((await answer(phone, "device_joined"))["code"])
            if codes[-1] == "rate_limited":
                break
        assert codes[-1] == "rate_limited" and set(codes[:-1]) == {"unknown_device_code"}
        await phone.send("use_device_code", code="ABC")
        bad = await answer(phone, "device_joined")
        assert bad["code"] == "bad_message" and bad["field"] == "code"

    async def test_a_player_asks_for_a_few_codes_at_most(self, server):
        anna = await server.connect("Anna")
        got = []
        for _ in range(device_codes.CODES_PER_WINDOW + 1):
            await anna.send("device_code")
            got.append((await answer(anna, "device_code"))["type"])
        assert got == ["device_code"] * device_codes.CODES_PER_WINDOW + ["error"]


def test_the_code_alphabet_has_no_letters_that_read_alike():
    code = device_codes.new_code()
    assert len(code) == 8 and not set(code) & set("01OIL")
    assert json.dumps(device_codes.shown(code))


class TestSeatsOnAnotherDevice:
    async def test_the_new_device_finds_the_players_tables_and_takes_the_seat_without_its_token(self, server):
        anna = await server.host("Anna")
        code = anna.joined["code"]
        await anna.send("device_code")
        device = (await answer(anna, "device_code"))["code"]
        phone = await server.connect("someone")
        await phone.send("use_device_code", code=device)
        await answer(phone, "device_joined")
        await phone.send("my_tables")
        assert (await answer(phone, "my_tables"))["tables"] == [
            {"code": code, "seat": 0, "seats": 4, "status": "waiting", "variant": "classic"}
        ]
        await phone.send("resume", code=code)
        joined = await answer(phone, "joined")
        assert (joined["seat"], joined["seat_token"], joined["host"]) == (0, None, True)
        assert (await answer(anna, "left"))["code"] == code  # the newer connection has the seat
        # someone else cannot: no seat token and not the seat's player
        eva = await server.connect("Eva")
        assert (await eva.error("resume", code=code))["code"] == "bad_token"
        await eva.send("my_tables")
        assert (await answer(eva, "my_tables"))["tables"] == []
