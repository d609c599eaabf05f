"""Compression: large messages are deflated, small ones go as they are, and no zlib state stays per connection."""

from __future__ import annotations

import json

import pytest
from websockets.asyncio.client import connect
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from hartenjagen.server.net.compression import LargeOnlyDeflate


def _pair() -> tuple[LargeOnlyDeflate, PerMessageDeflate]:
    server = LargeOnlyDeflate(True, True, 15, 12, {"memLevel": 5}, threshold=1024)
    client = PerMessageDeflate(True, True, 12, 15)
    return server, client


def test_a_short_message_goes_as_it_is_and_a_long_one_compressed_and_both_arrive_whole():
    server, client = _pair()
    short = json.dumps({"type": "update", "set": {"seq": 7}}).encode()
    sent = server.encode(Frame(Opcode.TEXT, short))
    assert not sent.rsv1 and sent.data == short
    assert client.decode(sent).data == short
    long = json.dumps({"type": "table", "view": {"tricks": [{"leader": i, "cards": ["QS"] * 4} for i in range(40)]}})
    sent = server.encode(Frame(Opcode.TEXT, long.encode()))
    assert sent.rsv1 and len(sent.data) < len(long) / 3
    assert client.decode(sent).data == long.encode()
    assert not hasattr(server, "encoder")  # no compressor is kept between messages


async def test_the_server_offers_deflate_without_context_takeover_and_the_game_plays(server):
    async with connect(server.url) as ws:
        agreed = ws.response.headers["Sec-WebSocket-Extensions"]
        assert "permessage-deflate" in agreed and "server_no_context_takeover" in agreed
        assert "client_no_context_takeover" in agreed
        await ws.send(json.dumps({"type": "hello", "version": 1, "name": "Anna"}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        await ws.send(json.dumps({"type": "create", "options": {"variant": "classic"}}))
        assert json.loads(await ws.recv())["type"] == "joined"
        table = json.loads(await ws.recv())
        assert table["type"] == "table" and table["seats"][0]["name"] == "Anna"


def test_the_compression_mode_comes_from_hearts_compression_and_a_wrong_one_is_named():
    from hartenjagen.server.settings import config_from_env

    assert config_from_env({}).compression == "large"
    assert config_from_env({"HEARTS_COMPRESSION": "off"}).compression == "off"
    with pytest.raises(ValueError, match="HEARTS_COMPRESSION='zip' is not one of large, all, off"):
        config_from_env({"HEARTS_COMPRESSION": "zip"})


@pytest.mark.parametrize("mode", ["all", "off"])
async def test_every_compression_mode_plays(make_server, mode):
    srv = await make_server(compression=mode)
    host = await srv.host("Anna")
    await host.send("fill_computers", level="easy")
    table = await host.until(lambda t: all(s["kind"] != "empty" for s in t["seats"]))
    assert table["seats"][1]["kind"] == "computer"
