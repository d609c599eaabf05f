"""Taps: a double tap on a card plays it once and says nothing wrong; a refusal notice goes as
soon as the game moves on (it never stays beside "Your turn")."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .conftest import (
    DESKTOP,
    PHONE,
    create_table,
    fill_and_start,
    play_one_legal,
    resize,
    start_hearts,
    stop_hearts,
    view,
)

# Tap a card while it is not my turn; false when it is my turn (then nothing is tapped).
TAP_OFF_TURN = """() => {
    const v = window.hartenjagen.state.table.view;
    // off turn with at least two plays before mine: the refusal is shown well before my turn clears it
    if (v.phase !== 'playing' || (v.seat - v.turn + 4) % 4 < 2 || window.hartenjagen.state.inFlight) return false;
    // the notice lives until the next card is played: note it when it comes (a busy machine may be slower to look)
    window.refusalSeen = null;
    const look = () => {
        const notice = document.querySelector('.status .notice.refusal');
        if (notice && !window.refusalSeen) window.refusalSeen = notice.textContent;
    };
    new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
    document.querySelector('.hand .card').click();
    return true;
}"""


def _plays_sent(page) -> list[dict]:
    sent: list[dict] = []

    def frame(payload) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "play":
            sent.append(msg)

    page.on("websocket", lambda ws: ws.on("framesent", frame))
    return sent


def _refusal_then_my_turn(page, shot, label: str, your_turn: str) -> None:
    """Tap a card off turn (well after my own card): the refusal shows; at my next turn it is gone."""
    for _ in range(13):
        page.wait_for_timeout(600)  # longer than a double tap
        if page.evaluate(TAP_OFF_TURN):
            break
        play_one_legal(page)
    else:
        raise AssertionError("never off turn")
    notice = page.locator(".status .notice.refusal")
    assert page.wait_for_function("() => window.refusalSeen").json_value()  # the refusal said why
    if notice.count():  # still there (it goes with the next card played)
        shot(page, f"refusal-{label}")
    page.wait_for_selector(".hand .card.legal")
    expect(page.locator(".status .turn-line")).to_contain_text(your_turn)
    expect(notice).to_have_count(0)
    shot(page, f"your-turn-{label}")


def test_a_double_tap_plays_once_and_a_refusal_goes_when_the_game_moves_on(open_page, tmp_path, shot):
    # Computer players that take their time, as at a real table.
    proc, url = start_hearts("--port", "0", "--db", str(tmp_path / "hearts.db"), "--bot-delay", "1.5")
    try:
        down = ("ERR_CONNECTION_REFUSED",)
        page = open_page("/", viewport=PHONE, name="Anna", server=url, expected=down)
        plays = _plays_sent(page)
        create_table(page, passing="off")
        fill_and_start(page)

        # A double tap on a card that may be played: one card is sent, one leaves the hand, nothing is refused.
        page.wait_for_selector(".hand .card.legal")
        card = page.locator(".hand .card.legal").first
        name = card.get_attribute("data-card")
        size = len(view(page)["hand"])
        card.dblclick()
        page.wait_for_function("c => !window.hartenjagen.state.table.view.hand.includes(c)", arg=name)
        # a third tap, a moment later (the server has answered): still the same double tap, still nothing
        page.evaluate(TAP_OFF_TURN)
        page.wait_for_timeout(600)
        assert [p["card"] for p in plays] == [name]
        assert len(view(page)["hand"]) == size - 1
        expect(page.locator(".status .notice")).to_have_count(0)
        shot(page, "after-double-tap")

        # A real tap off turn says why; the notice goes when the game moves on, never beside "Your turn".
        _refusal_then_my_turn(page, shot, "phone-en", "Your turn")
        page.click("[data-action=lang][data-lang=nl]")
        resize(page, DESKTOP)
        _refusal_then_my_turn(page, shot, "desktop-nl", "Jij bent aan de beurt")
    finally:
        stop_hearts(proc)
