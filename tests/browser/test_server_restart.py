"""A server restart (SIGTERM, close code 1012): a banner says so, and everyone is back at their seat by themselves."""

from __future__ import annotations

import json
import socket

from playwright.sync_api import expect

from .conftest import PHONE, create_table, hand_cards, play_one_legal, start_hearts, stop_hearts, view

BACK_MS = 20_000  # the client retries with growing pauses of at most 4 s


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _record_sent(page) -> list[dict]:
    """Every message the page sends over its websockets, in order."""
    sent: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))))
    return sent


def test_a_restarting_server_shows_a_banner_and_everyone_comes_back_to_their_seat(open_page, tmp_path, shot):
    port = str(_free_port())
    db = str(tmp_path / "hearts.db")
    proc, url = start_hearts("--port", port, "--db", db)
    try:
        down = ("ERR_CONNECTION_REFUSED",)  # the browser notes each try while the server is down
        anna = open_page("/", name="Anna", server=url, expected=down)
        anna_sent = _record_sent(anna)
        code = create_table(anna, passing="off")
        bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram", server=url, expected=down)
        bram.fill("#code", code)
        bram.click("form[data-form=join] button[type=submit]")
        bram.wait_for_selector(".lobby")
        anna.click("[data-action=fill_computers]")
        anna.click("[data-action=start]:not([disabled])")
        anna.wait_for_selector(".hand .card")
        bram.wait_for_selector(".hand .card")
        for _ in range(2):  # Anna plays until she has played a card (she may have to wait for Bram)
            if view(anna)["hand"] and len(view(anna)["hand"]) < 13:
                break
            if view(bram)["turn"] == view(bram)["seat"]:
                play_one_legal(bram)
            if view(anna)["turn"] == view(anna)["seat"]:
                play_one_legal(anna)
        before = {p: (sorted(hand_cards(p)), p.evaluate("window.hartenjagen.state.seq")) for p in (anna, bram)}
        token = anna.evaluate("window.hartenjagen.state.session.seat_token")

        stop_hearts(proc)  # SIGTERM: every connection is closed with 1012
        banner = anna.locator("#conn [data-conn=restarting]")
        expect(banner).to_have_text("The server is restarting… you'll be back in a moment")
        expect(bram.locator("#conn [data-conn=restarting]")).to_have_text("De server start opnieuw… zo ben je terug")
        expect(anna.locator("#conn .reconnecting")).to_have_count(0)  # this banner, not the one of a lost connection
        shot(anna, "banner-desktop")
        shot(bram, "banner-phone-nl")
        anna_sent.clear()

        proc, again = start_hearts("--port", port, "--db", db)  # the same port and database
        assert again == url
        for page in (anna, bram):
            expect(page.locator("#conn [data-conn]")).to_have_count(0, timeout=BACK_MS)
            page.wait_for_function("() => window.hartenjagen.state.conn === 'online'")
            page.wait_for_function("c => window.hartenjagen.state.table?.code === c", arg=code)
            cards, seq = before[page]
            expect(page.locator(".hand .card")).to_have_count(len(cards))
            assert sorted(hand_cards(page)) == cards
            assert page.evaluate("window.hartenjagen.state.seq") >= seq
            assert page.url.endswith(f"/t/{code}")
        shot(anna, "back")

        # Anna's client greeted the new server and then asked for her seat back with her seat token and last event.
        kinds = [m["type"] for m in anna_sent if m["type"] != "ping"]
        assert kinds[:2] == ["hello", "resume"], kinds
        resume = next(m for m in anna_sent if m["type"] == "resume")
        assert resume["code"] == code and resume["seat_token"] == token
        assert resume["last_seq"] == before[anna][1]

        # The game goes on: the computer players move again, and Anna gets to play (after Bram, if he is next).
        for _ in range(100):
            mine, seq = anna.evaluate("() => [window.hartenjagen.state.table.view, window.hartenjagen.state.seq]")
            his = view(bram)
            if mine["turn"] == mine["seat"]:
                play_one_legal(anna)
                break
            if his["turn"] == his["seat"]:
                play_one_legal(bram)
            elif mine["turn"] == his["seat"]:  # Bram's page learns it is his turn
                bram.wait_for_function(
                    "() => { const v = window.hartenjagen.state.table.view; return v.turn === v.seat; }"
                )
            else:  # a computer player is thinking: wait for its move
                anna.wait_for_function("s => window.hartenjagen.state.seq > s", arg=seq)
        else:
            raise AssertionError("Anna never got the turn after the restart")
    finally:
        stop_hearts(proc)
