"""Pace as card-room players expect it: the computer players' speed (the host's choice applies at the table), the
animation speed, playing the only legal card by itself, claiming the rest of the tricks, and a rematch vote."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from hartenjagen.shared.cards import parse_card, rank_of
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.variants import VARIANTS, make_rules

from .conftest import (
    DESKTOP,
    create_table,
    hand_cards,
    no_horizontal_scroll,
    play_pages,
    play_until_game_over,
    resize,
    view,
)
from .test_sides_seats_and_panels import PHONE_TALL, WIDE, open_by_link

# A numbered deal (classic, no passing) whose first hand gives South, playing her highest legal card against the
# table's medium computer players, a claim that holds on the real cards at her turn in the tenth trick, and one that
# holds whatever the others hold (the view's claim) at her turn in the twelfth (found by playing it through
# shared/claim.py; the medium player answers the same view alike).
CLAIM_DEAL = 27175


def options(page: Page) -> None:
    page.click("#top [data-overlay=options]")
    page.wait_for_selector(".dialog-options")


def choose(page: Page, pref: str, value: str) -> None:
    page.click(f".dialog-options [data-pref={pref}][data-value={value}]")
    page.wait_for_function("([p, v]) => String(window.hartenjagen.state.prefs[p]) === v", arg=[pref, value])


def start_with_bots(page: Page) -> None:
    page.click("[data-action=fill_computers]")
    page.click("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")


def test_the_options_offer_computer_speed_animation_speed_and_auto_play_and_keep_them(open_page, shot):
    for size, label in ((PHONE_TALL, "phone-390"), (WIDE, "desktop-1920")):
        page = open_page("/", viewport=size, name="Anna")
        options(page)
        dialog = page.locator(".dialog-options")
        expect(dialog).to_contain_text("Computer players' speed")
        expect(dialog.locator("[data-pref=computerPace]")).to_have_text(["slow", "normal", "fast"])
        expect(dialog.locator("[data-pref=anim]")).to_have_text(["slow", "normal", "fast", "off"])
        expect(dialog).to_contain_text("Play automatically when only one card is legal")
        expect(dialog.locator("[data-pref=computerPace][aria-pressed=true]")).to_have_text("normal")
        choose(page, "computerPace", "fast")
        choose(page, "anim", "off")
        choose(page, "autoPlay", "true")
        expect(page.locator("html")).to_have_attribute("data-anim", "off")
        assert no_horizontal_scroll(page)
        shot(page, f"options-{label}")
        page.reload()
        prefs = page.evaluate("() => window.hartenjagen.state.prefs")
        assert (prefs["computerPace"], prefs["anim"], prefs["autoPlay"]) == ("fast", "off", True)
        expect(page.locator("html")).to_have_attribute("data-anim", "off")
    # in Dutch
    options(page)
    page.click(".dialog-options [data-lang=nl]")
    expect(page.locator(".dialog-options")).to_contain_text("Snelheid van de computerspelers")
    expect(page.locator(".dialog-options")).to_contain_text("Automatisch spelen als er maar één kaart mag")


def test_a_computer_speed_saved_under_its_old_name_is_read_once_and_moved(open_page):
    page = open_page("/", viewport=WIDE, name="Anna")
    page.evaluate(
        """() => {
          const prefs = JSON.parse(localStorage.getItem('hartenjagen.prefs') || '{}');
          delete prefs.computerPace;
          localStorage.setItem('hartenjagen.prefs', JSON.stringify({...prefs, botPace: 'slow'}));
        }"""
    )
    page.reload()
    assert page.evaluate("() => window.hartenjagen.state.prefs.computerPace") == "slow"
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('hartenjagen.prefs'))")
    assert saved["computerPace"] == "slow" and "botPace" not in saved


def test_the_hosts_computer_speed_goes_to_the_table_and_a_guest_sees_it_applies(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    options(anna)
    choose(anna, "computerPace", "slow")
    anna.keyboard.press("Escape")
    code = create_table(anna)
    # joined as host: her preference is sent, and the table says it
    anna.wait_for_function("() => window.hartenjagen.state.table.pace === 'slow'")
    # she changes it at the table: the table follows
    options(anna)
    choose(anna, "computerPace", "fast")
    anna.wait_for_function("() => window.hartenjagen.state.table.pace === 'fast'")
    expect(anna.locator(".dialog-options [data-pace-note]")).to_have_count(0)
    expect(anna.locator(".dialog-options [data-pref=computerPace]:disabled")).to_have_count(0)
    anna.keyboard.press("Escape")

    # a guest who prefers slow computers: at this table the host's speed applies, and his Options show that one,
    # read-only, with a note that the host sets it; his own choice waits for the tables he hosts
    bram = open_page("/", viewport=PHONE_TALL, name="Bram")
    options(bram)
    choose(bram, "computerPace", "slow")
    bram.keyboard.press("Escape")
    bram.goto(bram.url.rstrip("/") + f"/t/{code}")  # his name is saved: the link seats him at once
    bram.wait_for_selector(".lobby")
    options(bram)
    paces = bram.locator(".dialog-options [data-pref=computerPace]")
    expect(paces).to_have_text(["slow", "normal", "fast"])
    expect(bram.locator(".dialog-options [data-pref=computerPace][aria-pressed=true]")).to_have_text("fast")
    for i in range(3):
        expect(paces.nth(i)).to_be_disabled()
    note = bram.locator(".dialog-options [data-pace-note]")
    expect(note).to_have_text("The host sets the speed at this table; your own choice applies at tables you host.")
    assert no_horizontal_scroll(bram)
    shot(bram, "pace-guest-phone-390")
    assert bram.evaluate("() => window.hartenjagen.state.prefs.computerPace") == "slow"
    # the host changes it: the guest's Options follow the table
    options(anna)
    choose(anna, "computerPace", "normal")
    expect(bram.locator(".dialog-options [data-pref=computerPace][aria-pressed=true]")).to_have_text("normal")
    expect(note).to_have_attribute("data-pace-note", "normal")
    bram.click(".dialog-options [data-lang=nl]")
    expect(note).to_have_text(
        "Aan deze tafel kiest de host de snelheid; je eigen keuze geldt aan tafels waar jij de host bent."
    )
    expect(bram.locator(".dialog-options [data-pref=computerPace][aria-pressed=true]")).to_have_text("normaal")
    shot(bram, "pace-guest-phone-390-nl")
    expect(bram.locator(".notice.error")).to_have_count(0)  # nothing was sent that the server refuses


SHOWN_TRICK = "() => { const s = window.hartenjagen.state.trickShow; return s ? s.slideUntil - s.until : null; }"
DURATION = """(cls) => {
    const probe = document.createElement('div');
    probe.innerHTML = `<div class="trick ${cls}"><div class="card"></div></div><div class="played enter-bottom"></div>`;
    document.body.append(probe);
    const slide = getComputedStyle(probe.querySelector('.card'));
    const enter = getComputedStyle(probe.querySelector('.played'));
    const out = [slide.animationName, slide.animationDuration, enter.animationName, enter.animationDuration];
    probe.remove();
    return out;
}"""


def test_the_animation_speed_scales_the_held_trick_and_the_animations_or_stops_them(open_page, shot):
    page = open_page("/", viewport=WIDE, name="Anna")
    options(page)
    choose(page, "anim", "slow")
    page.keyboard.press("Escape")
    assert page.evaluate(DURATION, "slide-bottom") == ["to-bottom", "0.72s", "from-bottom", "0.4s"]
    create_table(page, passing="off")
    start_with_bots(page)
    play_pages([page], stop=lambda: page.evaluate(SHOWN_TRICK) is not None)
    assert page.evaluate(SHOWN_TRICK) == 720  # the slide, 450 ms at normal speed

    options(page)
    choose(page, "anim", "off")
    page.keyboard.press("Escape")
    assert page.evaluate(DURATION, "slide-bottom")[0::2] == ["none", "none"]
    page.evaluate("() => { window.hartenjagen.state.trickShow = null; }")
    play_pages([page], stop=lambda: page.evaluate(SHOWN_TRICK) is not None)
    assert page.evaluate(SHOWN_TRICK) == 0  # no slide: the trick is held briefly and goes
    shot(page, "animations-off-desktop-1920")


def deal_with_two_of_clubs() -> int:
    """A numbered deal (classic, no passing) whose first hand gives South the two of clubs: her first card is forced."""
    rules = make_rules({"variant": "classic", "passing": "off"})
    two = parse_card("2C")
    return next(n for n in range(1, 1000) if (seeded_deal(rules, n, 0)[0] >> two) & 1)


# The view at this seat's turn or the hand's end, read in the same moment as the condition (an only card may play
# itself right after it: a second read could already see the next turn).
MY_TURN_OR_OVER = (
    "() => { const v = window.hartenjagen.state.table.view; return (v.phase !== 'playing' || v.turn === v.seat) && v; }"
)

RECORD_SENDS = """() => {
    const conn = window.hartenjagen.connection;
    window.sent = [];
    const send = conn.send.bind(conn);
    conn.send = (msg) => { window.sent.push(msg); return send(msg); };
}"""


def test_the_only_legal_card_plays_itself_once_per_decision(open_page, shot):
    page = open_page("/", viewport=PHONE_TALL, name="Anna")
    options(page)
    choose(page, "autoPlay", "true")
    page.keyboard.press("Escape")
    page.fill("#deal", str(deal_with_two_of_clubs()))
    create_table(page, passing="off")
    page.evaluate(RECORD_SENDS)
    start_with_bots(page)
    by_itself = 0
    for _ in range(13):
        v = page.wait_for_function(MY_TURN_OR_OVER).json_value()
        if v["phase"] != "playing":
            break
        left = len(v["hand"])
        if len(v["legal"]) == 1:
            by_itself += 1  # no tap: the card goes after a short moment
            if by_itself == 1:
                shot(page, "only-card-waits-phone-390")
        else:
            page.locator(f'.hand .card[data-card="{v["legal"][0]}"]').first.click()
        page.wait_for_function("n => window.hartenjagen.state.table.view.hand.length < n", arg=left)
    assert by_itself >= 1  # the two of clubs led the first trick by itself
    plays = page.evaluate("() => window.sent.filter((m) => m.type === 'play').length")
    assert plays == 13 - len(view(page)["hand"])  # one play per decision, never twice
    assert len(hand_cards(page)) == len(view(page)["hand"])


# Every line the news region for screen readers gets (it keeps only its last few).
RECORD_NEWS = """() => {
    window.news = [];
    const region = document.querySelector('[data-area=news]');
    new MutationObserver((changes) => {
        for (const c of changes) for (const n of c.addedNodes) window.news.push(n.textContent);
    }).observe(region, {childList: true});
}"""


def test_the_claim_button_is_offered_where_the_server_takes_claims(open_page):
    # the table message says whether this variant takes claims (one deck, no jokers); the client only reads it
    page = open_page("/", name="Anna")
    page.select_option("#variant", "three_jokers")
    page.click("form[data-form=create] button[type=submit]")
    page.wait_for_selector(".lobby .code")
    assert page.evaluate("() => window.hartenjagen.state.table.claims") is False
    page.click("[data-action=fill_computers]")
    page.click("[data-action=start]:not([disabled])")
    page.wait_for_selector(".hand .card")
    play_until_game_over(page, stop=lambda v: v["phase"] == "playing" and v["turn"] == v["seat"])
    expect(page.locator(".hand .card.legal").first).to_be_visible()
    assert page.locator("[data-action=claim]").count() == 0  # your turn in play, and no claim offered
    assert {v for v in VARIANTS if make_rules({"variant": v}).counted} >= {"three_jokers"}


def highest_legal(legal: list[str]) -> str:
    """South's card in the claim deal: the highest legal one (of equal ranks, the first in the core's card order)."""
    cards = sorted(parse_card(c) for c in legal)
    best = max(cards, key=rank_of)
    return legal[[parse_card(c) for c in legal].index(best)]


def test_the_claim_is_offered_only_once_it_holds_and_then_plays_the_hand_out(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna")
    anna.fill("#deal", str(CLAIM_DEAL))
    code = create_table(anna, passing="off")
    start_with_bots(anna)
    eva = open_by_link(open_page, code, PHONE_TALL, "Eva")  # every seat is taken: she watches
    eva.wait_for_selector(".player.watching")
    eva.evaluate(RECORD_NEWS)

    # at each of her turns before it holds whatever the others hold, her turn is drawn with no claim to press
    turns = 0
    for _ in range(13):
        anna.wait_for_function(MY_TURN_OR_OVER)
        v = view(anna)
        assert v["phase"] == "playing"
        if v["claim"]:
            break
        expect(anna.locator(".status [data-action=hint]")).to_be_visible()
        expect(anna.locator("[data-action=claim]")).to_have_count(0)
        if turns == 0:
            shot(anna, "no-claim-first-trick-desktop-1280")
        card = highest_legal(v["legal"])
        anna.locator(f'.hand .card[data-card="{card}"]').first.click()
        anna.wait_for_function("n => window.hartenjagen.state.table.view.hand.length < n", arg=13 - turns)
        turns += 1
    # from what she may know (her cards and the cards played), the claim is sure with two tricks to go
    assert turns == 11
    claim = anna.locator(".status [data-action=claim]")
    expect(claim).to_have_text("Claim the rest")
    anna.click("[data-action=lang][data-lang=nl]")
    expect(claim).to_have_text("De rest claimen")
    resize(anna, PHONE_TALL)
    assert no_horizontal_scroll(anna)
    shot(anna, "claim-offered-phone-390-nl")
    anna.click("[data-action=lang][data-lang=en]")
    resize(anna, DESKTOP)
    claim.click()
    anna.wait_for_function("() => window.hartenjagen.state.table.view.phase !== 'playing'")

    # the claim held: every remaining trick is hers, the hand is over, and everyone is told who claimed
    v = view(anna)
    assert v["phase"] in ("hand_over", "game_over")
    assert all(t["winner"] == 0 for t in v["tricks"][-2:])
    expect(anna.locator(".status .notice.info")).to_have_text("You claim the rest of the tricks.")
    eva.wait_for_function("() => window.hartenjagen.state.table.view.phase !== 'playing'")
    news = eva.evaluate("() => window.news")
    assert "Anna claims the rest of the tricks." in news
    assert "Anna takes the trick" in news[news.index("Anna claims the rest of the tricks.") :]  # then the plays
    expect(eva.locator(".status .notice")).to_have_text("Anna claims the rest of the tricks.")
    eva.keyboard.press("Escape")
    shot(eva, "claim-watcher-phone-390")
    anna.wait_for_selector(".dialog-scores")
    expect(anna.locator(".dialog-scores [data-score-note]")).to_have_text("You claim the rest of the tricks.")
    shot(anna, "claim-held-desktop-1280")


def test_play_again_with_the_same_people_when_everyone_agrees(open_page, shot):
    anna = open_page("/", viewport=WIDE, name="Anna")
    anna.fill("#opt-classic-end_score", "25")
    code = create_table(anna, passing="off")
    bram = open_by_link(open_page, code, PHONE_TALL, "Bram", locale="nl-NL")  # his page speaks Dutch
    bram.wait_for_selector(".lobby")
    start_with_bots(anna)
    play_pages([anna, bram])
    first = anna.evaluate("() => window.hartenjagen.state.table.replay.id")

    for page in (anna, bram):
        page.wait_for_selector(".dialog-scores [data-action=rematch]")
    expect(bram.locator(".dialog-scores [data-action=rematch]")).to_have_text("Nog een spel met dezelfde mensen")
    anna.click(".dialog-scores [data-action=rematch]")
    # one person agreed: the verb agrees with one ("agrees", "doet"), as with two it would with two
    expect(anna.locator(".dialog-scores [data-rematch]")).to_have_text("1 of 2 agrees: Anna")
    expect(anna.locator(".dialog-scores [data-action=rematch]")).to_have_text("You agreed to play again")
    expect(anna.locator(".dialog-scores [data-action=rematch]")).to_be_disabled()
    expect(bram.locator(".dialog-scores [data-rematch]")).to_have_text("1 van de 2 doet weer mee: Anna")
    assert no_horizontal_scroll(bram)
    shot(bram, "rematch-one-agrees-phone-390")
    shot(anna, "rematch-one-agrees-desktop-1920")

    # Bram agrees too: a new game is dealt, from its first hand, the score table closed
    bram.click(".dialog-scores [data-action=rematch]")
    for page in (anna, bram):
        page.wait_for_function(
            "() => { const t = window.hartenjagen.state.table; return t.status === 'playing' && t.view"
            " && !t.view.game_over && t.view.history.length === 0; }"
        )
        expect(page.locator(".dialog-scores")).to_have_count(0)
        expect(page.locator(".hand .card")).to_have_count(13)
        assert page.evaluate("() => window.hartenjagen.state.table.rematch") == []
    shot(bram, "rematch-new-game-phone-390")
    assert anna.evaluate("() => window.hartenjagen.state.table.replay") is None and first  # a new, unfinished game
