"""A dropped connection: a visible reconnecting state, then the same seat and table as before."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import create_table, fill_and_start, hand_cards, play_one_legal, view


def test_dropped_connection_reconnects_and_restores_the_table(open_page, shot):
    page = open_page("/", name="Anna")
    code = create_table(page, passing="off")
    fill_and_start(page)
    play_one_legal(page)
    before = view(page)
    seq = page.evaluate("() => window.hartenjagen.state.seq")

    # The network stays down until the page has shown it: every new connection is dropped at once till then.
    down = {"still": True}

    def network(ws) -> None:
        if down["still"]:
            ws.close(code=1011, reason="network down")
        else:
            ws.connect_to_server()

    page.route_web_socket("**/ws", network)
    page.evaluate("() => window.hartenjagen.connection.drop()")
    expect(page.locator("#conn .reconnecting")).to_be_visible()
    shot(page, "reconnecting")
    down["still"] = False  # the network is back: the next try (at most four seconds on) reaches the server
    expect(page.locator("#conn .reconnecting")).to_have_count(0)
    page.wait_for_function("() => window.hartenjagen.state.conn === 'online'")

    # The same seat, the same hand and the same score; the table can be played on.
    after = view(page)
    assert page.evaluate("() => window.hartenjagen.state.session.code") == code
    assert after["seat"] == before["seat"]
    assert sorted(after["hand"]) == sorted(hand_cards(page))
    assert set(after["hand"]) <= set(before["hand"])
    assert page.evaluate("() => window.hartenjagen.state.seq") >= seq
    assert page.url.endswith(f"/t/{code}")
    play_one_legal(page)
    shot(page, "restored")


def test_reload_returns_to_the_same_seat(open_page, shot):
    page = open_page("/", name="Anna")
    code = create_table(page, passing="off")
    fill_and_start(page)
    play_one_legal(page)
    hand = sorted(view(page)["hand"])
    page.reload()
    page.wait_for_selector(".hand .card")
    assert sorted(hand_cards(page)) == hand
    assert page.url.endswith(f"/t/{code}")
    shot(page, "after-reload")


# In the page: when each of its connections opens and closes (performance.now(), in ms).
NOTE_SOCKETS = """() => {
    window.__sockets = [];
    const Real = window.WebSocket;
    window.WebSocket = class extends Real {
        constructor(...args) {
            super(...args);
            window.__sockets.push(['open', performance.now()]);
            this.addEventListener('close', () => window.__sockets.push(['close', performance.now()]));
        }
    };
}"""


def test_a_server_that_takes_the_connection_and_drops_it_at_once_gets_longer_and_longer_pauses(open_page):
    page = open_page("/", name="Anna")

    def drop_at_once(ws) -> None:  # the connection is taken, and closed as soon as the page says hello
        ws.on_message(lambda _: ws.close(code=1011, reason="try again"))

    page.route_web_socket("**/ws", drop_at_once)
    page.context.add_init_script(f"({NOTE_SOCKETS})()")
    page.reload()
    page.fill("#code", "ABCDEF")
    page.click("form[data-form=join] button[type=submit]")
    page.wait_for_function("() => window.__sockets.filter(([what]) => what === 'open').length >= 5", timeout=20_000)
    log = page.evaluate("() => window.__sockets")
    # the pause between a connection's close and the next try, as the page waited it (a timer fires late on a busy
    # machine, never early): a quarter, a half, one, two seconds, not a try four times a second
    pauses = [b[1] - a[1] for a, b in zip(log, log[1:], strict=False) if a[0] == "close" and b[0] == "open"]
    assert len(pauses) >= 4, log
    for n, pause in enumerate(pauses[:4]):
        assert pause >= 0.98 * 250 * 2**n, pauses
    expect(page.locator("#conn .reconnecting")).to_be_visible()
