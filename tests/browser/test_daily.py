"""Today's deal: the start screen offers it with today's board; its waiting room says whether the game counts."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from urllib.request import Request, urlopen

from playwright.sync_api import expect
from websockets.sync.client import connect

from hartenjagen.server.table.changes import fold

from .conftest import PHONE


def _today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


def _board(url: str, token: str | None = None) -> dict:
    headers = {"X-Player-Token": token} if token else {}
    with urlopen(Request(f"{url.rstrip('/')}/api/daily/{_today()}", headers=headers), timeout=10) as res:
        return json.load(res)


def _moment(v: dict) -> tuple:
    trick = v["trick"]["cards"] if v["trick"] else []
    return v["hand_no"], v["phase"], len(v["tricks"]), len(trick)


def play_daily_over_the_wire(url: str, name: str) -> str:
    """A whole daily game played by one person over the websocket (first legal card, first three cards
    to pass); return that person's player token. Quicker than clicking, and the browser is not what is
    tested here: it is the player who then comes back to the start screen."""
    with connect(url.replace("http://", "ws://").rstrip("/") + "/ws", open_timeout=10) as ws:
        # The server allows 20 messages a second (a burst of 40): stay under it.
        bucket = {"tokens": 30.0, "at": time.monotonic()}

        def send(msg: dict) -> None:
            now = time.monotonic()
            bucket["tokens"] = min(30.0, bucket["tokens"] + (now - bucket["at"]) * 15)
            bucket["at"] = now
            if bucket["tokens"] < 1:
                time.sleep((1 - bucket["tokens"]) / 15)
                bucket["tokens"] = 1.0
                bucket["at"] = time.monotonic()
            bucket["tokens"] -= 1
            ws.send(json.dumps(msg))

        send({"type": "hello", "version": 1, "name": name})
        token = None
        answered = None
        send({"type": "create", "options": {}, "daily": True})
        started = False
        table = None
        for _ in range(20_000):
            msg = json.loads(ws.recv(timeout=20))
            if msg["type"] == "update":  # compact changes fold into the previous table message
                msg = table = fold(table, msg)
            elif msg["type"] == "table":
                table = msg
            if msg["type"] == "welcome":
                token = msg["player_token"]
            if msg["type"] != "table":
                continue
            if msg["status"] == "waiting" and not started:
                assert msg["daily"] and msg["daily"]["counts"] is True
                send({"type": "start"})
                started = True
                continue
            v = msg["view"]
            if not v:
                continue
            if v["game_over"]:
                return token
            me = msg["you"]
            if _moment(v) == answered:
                continue
            if v["phase"] == "passing" and v["passed"] is None:
                send({"type": "pass", "cards": v["hand"][:3]})
            elif v["phase"] == "playing" and v["turn"] == me:
                send({"type": "play", "card": v["legal"][0]})
            elif v["phase"] == "hand_over" and me not in msg["ready"]:
                send({"type": "ready"})
            else:
                continue
            answered = _moment(v)
    raise AssertionError("the daily game did not end")


def test_todays_deal_counts_once_and_the_start_screen_shows_the_board(open_page, server_url, shot):
    # A first-timer: the board says so, and the waiting room says this game counts.
    page = open_page("/", viewport=PHONE, name="Eva")
    panel = page.locator("form[data-form=daily]")
    expect(panel.locator("h2")).to_contain_text("Today's deal")
    expect(panel.locator(".daily-you")).to_have_text("You have no counted game today yet.")
    panel.locator("button[type=submit]").click()
    page.wait_for_selector(".lobby")
    expect(page.locator(".lobby h2")).to_have_text("Today's deal")
    expect(page.locator("[data-daily-counts]")).to_have_text("This game counts for today's board.")
    expect(page.locator(".seat-card[data-kind=computer]")).to_have_count(3)
    assert _board(server_url)["deal"] is None  # today's number stays secret: it would give away every hand
    expect(page.locator("#top .deal-no")).to_have_count(0)
    shot(page, "waiting-counts")
    expect(page.locator("[data-action=remove_computer]")).to_have_count(0)  # the daily deal's computer players stay
    page.click("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")
    expect(page.locator("#top .deal-no")).to_have_count(0)
    expect(page.locator("[data-action=open][data-overlay=restart]")).to_have_count(0)  # no starting over here

    # Dora finishes today's deal; back on the start screen she sees her place on the board.
    token = play_daily_over_the_wire(server_url, "Dora")
    board = _board(server_url, token)
    assert board["you"] and board["played"]
    dora = open_page("/", locale="en-GB")
    dora.evaluate("t => localStorage.setItem('hartenjagen.player_token', t)", token)
    dora.reload()
    dora.fill("#name", "Dora")
    board_view = dora.locator("form[data-form=daily] .daily-board")
    expect(board_view.locator("tbody tr").first).to_be_visible()
    expect(board_view).to_contain_text("Dora")
    you = board["you"]
    unit = "point" if you["total"] == 1 else "points"
    expect(board_view.locator(".daily-you")).to_have_text(f"Your place: {you['place']} ({you['total']} {unit})")
    rows = board_view.locator("tbody tr")
    expect(rows).to_have_count(min(len(board["board"]), 10))
    first = board["board"][0]
    expect(rows.first.locator("td")).to_have_text([str(first["place"]), first["name"], str(first["total"])])
    shot(dora, "start-board")

    # A second daily game the same day is played, but does not count: the waiting room says so, in both languages.
    dora.locator("form[data-form=daily] button[type=submit]").click()
    dora.wait_for_selector(".lobby")
    notice = dora.locator("[data-daily-counts]")
    expect(notice).to_have_attribute("data-daily-counts", "false")
    expect(notice).to_have_text("You already played today's deal: this game will not count.")
    shot(dora, "waiting-not-counted")
    dora.click("[data-action=lang][data-lang=nl]")
    expect(notice).to_have_text("Je hebt het spel van vandaag al gespeeld: dit spel telt niet mee.")
    expect(dora.locator(".lobby h2")).to_have_text("Spel van de dag")
    expect(dora.locator("#top .deal-no")).to_have_count(0)
