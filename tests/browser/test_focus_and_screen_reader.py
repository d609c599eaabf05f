"""Keyboard and screen reader: the focus moves to the main control of each new screen (never
left on the page's body), and a polite live region beside the trick tells every card played, who took the
trick and whose turn it is, in the player's language."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, create_table, fill_and_start, play_one_legal, resize, view

RANK_WORDS = {
    "en": "two three four five six seven eight nine ten jack queen king ace",
    "nl": "twee drie vier vijf zes zeven acht negen tien boer vrouw heer aas",
}
RANKS = {lang: dict(zip("23456789TJQKA", words.split(), strict=True)) for lang, words in RANK_WORDS.items()}
SUITS = {
    "en": {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"},
    "nl": {"C": "klaveren", "D": "ruiten", "S": "schoppen", "H": "harten"},
}


def played_line(lang: str, name: str, card: str) -> str:
    """ "Ellen plays the queen of spades" / "Ellen speelt schoppen vrouw"."""
    rank, suit = RANKS[lang][card[0]], SUITS[lang][card[1]]
    return f"{name} plays the {rank} of {suit}" if lang == "en" else f"{name} speelt {suit} {rank}"


# Every line written into the live region, in order, from now on.
RECORD_NEWS = """() => {
    window.news = [];
    new MutationObserver((records) => {
        for (const r of records) {
            if (!r.target.matches('[data-area=news]')) continue;
            for (const n of r.addedNodes) window.news.push(n.textContent);
        }
    }).observe(document.querySelector('#screen'), {childList: true, subtree: true});
}"""

MY_TURN_AFTER_A_TRICK = """() => {
    const v = window.hartenjagen.state.table.view;
    return v.tricks.length >= 1 && v.turn === v.seat;
}"""

MY_TURN_OR_DONE = """() => {
    const v = window.hartenjagen.state.table.view;
    return v.turn === v.seat || v.phase !== 'playing';
}"""

FOCUSED = "() => { const e = document.activeElement; return e === document.body ? 'body' : e.outerHTML.slice(0, 120); }"


def _names(page) -> list[str]:
    return page.evaluate("() => window.hartenjagen.state.table.seats.map(s => s.name)")


def test_focus_goes_to_the_main_control_after_create_fill_start_and_pass(open_page, shot):
    page = open_page("/", viewport=PHONE, name="Anna")
    page.click("form[data-form=create] button[type=submit]")
    page.wait_for_selector(".lobby .code")
    expect(page.locator("[data-action=fill_computers]")).to_be_focused()
    shot(page, "lobby-phone-en")
    page.keyboard.press("Enter")  # fill the empty seats
    expect(page.locator("[data-action=start]")).to_be_enabled()
    expect(page.locator("[data-action=start]")).to_be_focused()
    page.keyboard.press("Enter")  # start
    page.wait_for_selector(".hand .card")
    expect(page.locator('.hand .card[tabindex="0"]')).to_be_focused()
    shot(page, "passing-phone-en")

    # Three cards chosen with the keyboard, then Pass: the focus stays in the hand.
    for _ in range(3):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    expect(page.locator(".hand .card.selected")).to_have_count(3)
    page.locator("[data-action=pass]").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.hartenjagen.state.table.view.passed !== null")
    expect(page.locator('.hand .card[tabindex="0"]')).to_be_focused()
    assert page.evaluate(FOCUSED) != "body"

    # A dialog closed with Escape gives the focus back to the button that opened it.
    page.click("[data-action=lang][data-lang=nl]")
    resize(page, DESKTOP)
    scores = page.locator(".status [data-action=open][data-overlay=scores]")
    scores.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".dialog-scores .close")).to_be_focused()
    page.keyboard.press("Escape")
    expect(scores).to_be_focused()
    shot(page, "after-pass-desktop-nl")


def test_a_live_region_tells_each_card_the_taker_and_whose_turn(open_page, shot):
    page = open_page("/", name="Anna")
    create_table(page, passing="off")
    page.evaluate(RECORD_NEWS)
    fill_and_start(page)
    news = page.locator("[data-area=news]")
    expect(news).to_have_attribute("aria-live", "polite")

    # Play until a whole trick is in and it is my turn again.
    while not page.evaluate(MY_TURN_AFTER_A_TRICK):
        play_one_legal(page)
        page.wait_for_function(MY_TURN_OR_DONE)
    page.wait_for_function("() => window.news.includes('Your turn')")
    said = page.evaluate("window.news")
    names = _names(page)
    v = view(page)
    first = v["tricks"][0]
    for c in first["cards"]:
        assert played_line("en", names[c["seat"]], c["card"]) in said, (c, said)
    taker = "You take the trick" if first["winner"] == v["seat"] else f"{names[first['winner']]} takes the trick"
    assert taker in said, said
    assert any(line.endswith(" to play") for line in said) or v["tricks"][0]["leader"] == v["seat"], said
    shot(page, "news-desktop-en")

    # In Dutch: my card, then whose turn it is.
    page.click("[data-action=lang][data-lang=nl]")
    resize(page, PHONE)
    card = play_one_legal(page)
    mine = played_line("nl", "Anna", card)
    page.wait_for_function("l => window.news.includes(l)", arg=mine)
    page.wait_for_function(
        "() => window.news.slice(-3).some(l => l === 'Jij bent aan de beurt' || l.endsWith(' is aan de beurt')"
        " || l.endsWith(' pakt de slag') || l === 'Jij neemt de slag')"
    )
    assert news.evaluate("e => e.childElementCount") <= 12
    shot(page, "news-phone-nl")
