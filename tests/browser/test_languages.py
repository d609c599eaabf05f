"""Dutch and English both render on a phone and a desktop, with no horizontal scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, create_table, fill_and_start, no_horizontal_scroll, play_one_legal

TEXTS = {
    "nl": {
        "create": "Nieuwe tafel",
        "wait": "Wachtkamer",
        "pass": "Doorgeven naar links",
        "rules": "Spelregels",
        "scores": "Puntentabel",
        "card": "harten",
    },
    "en": {
        "create": "New table",
        "wait": "Waiting room",
        "pass": "Pass to the left",
        "rules": "Rules",
        "scores": "Score table",
        "card": "hearts",
    },
}


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["nl", "en"])
def test_texts_render_without_horizontal_scrolling(open_page, shot, lang, size):
    locale = {"nl": "nl-NL", "en": "en-US"}[lang]
    page = open_page("/", viewport=PHONE if size == "phone" else DESKTOP, locale=locale)
    words = TEXTS[lang]
    expect(page.locator("html")).to_have_attribute("lang", lang)  # picked from the browser's language
    expect(page.locator("form[data-form=create] h2")).to_have_text(words["create"])
    assert no_horizontal_scroll(page)
    shot(page, "start")

    page.fill("#name", "Anna-Sophie van den Berg"[:24])
    create_table(page)
    expect(page.locator(".lobby h2")).to_have_text(words["wait"])
    assert no_horizontal_scroll(page)
    shot(page, "waiting-room")

    fill_and_start(page)
    expect(page.locator("[data-action=pass]")).to_have_text(words["pass"])
    assert no_horizontal_scroll(page)
    labels = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(label for label in labels)
    box = page.locator(".hand .card").first.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 60  # large enough to tap
    shot(page, "table")

    page.click("[data-action=open][data-overlay=rules]")
    expect(page.locator(".dialog h2")).to_have_text(words["rules"])
    # at a table the rules open at its own game: its settings, then its game's section
    expect(page.locator(".dialog-rules .rules-here")).to_be_visible()
    assert page.locator(".dialog-rules h3").count() >= 2
    assert no_horizontal_scroll(page)
    shot(page, "rules")
    page.keyboard.press("Escape")

    for card in page.eval_on_selector_all(".hand .card", "els => els.slice(0, 3).map(e => e.dataset.card)"):
        page.locator(f'.hand .card[data-card="{card}"]').click()
    page.click("[data-action=pass]")
    play_one_legal(page)
    assert no_horizontal_scroll(page)
    shot(page, "playing")
    page.click("[data-action=open][data-overlay=scores]")
    expect(page.locator(".dialog h2")).to_have_text(words["scores"])
    assert no_horizontal_scroll(page)
    shot(page, "scores")


def test_both_translation_tables_have_the_same_keys(open_page):
    page = open_page("/")
    missing = page.evaluate(
        """async () => {
            const en = (await import('/js/i18n/en.js')).default;
            const nl = (await import('/js/i18n/nl.js')).default;
            const a = Object.keys(en), b = Object.keys(nl);
            return [a.filter(k => !b.includes(k)), b.filter(k => !a.includes(k))];
        }"""
    )
    assert missing == [[], []]


def test_a_notice_and_a_refusal_at_a_field_follow_a_switch_of_language(open_page):
    """What the page said stays said, in the language the person switches to (not in the one it was said in)."""
    page = open_page("/", name="Anna", locale="en-US")
    page.fill("#code", "ZZZZZZ")
    page.click("form[data-form=join] button[type=submit]")
    notice = page.locator("#screen .notice.error")
    expect(notice).to_have_text("There is no table with that code.")
    page.click("#top [data-action=lang][data-lang=nl]")
    expect(notice).to_have_text("Er is geen tafel met die code.")

    page.fill("#deal", "0")
    page.click("form[data-form=create] button[type=submit]")
    error = page.locator("#deal-error")
    expect(error).to_contain_text("Spelnummer geweigerd")
    page.click("#top [data-action=lang][data-lang=en]")
    expect(error).to_contain_text("Deal number refused")  # the server's own reason too, in English now
    expect(error).not_to_contain_text("geweigerd")
