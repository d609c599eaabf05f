"""The rules page explains every variant in Dutch and in English, and a phone user can find it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE, no_horizontal_scroll

VARIANTS = [
    "classic",
    "dutch",
    "dutch52",
    "omnibus",
    "spot_hearts",
    "hooligan",
    "black_maria",
    "parker_brothers",
    "belgian",
    "achterhoeks",
    "achterhoeks_bar",
    "chips",
    "three",
    "three_kitty",
    "five",
    "five_kitty",
    "dutch5",
    "three_jokers",
    "cancellation",
    "extreme",
]
OPEN_AT_FIRST = {"seats", "classic", "dutch", "playing"}
LOCALES = {"nl": "nl-NL", "en": "en-GB"}
# Words both languages use: names of games, a company and a region, and Dutch words English borrows or the reverse.
SHARED = {
    "hartenjagen",
    "omnibus",
    "hooligan",
    "parker",
    "brothers",
    "achterhoek",
    "achterhoeks",
    "team",
    "teams",
    "topper",
    "toppers",
    "kitty",
    "joker",
    "jokers",
    "host",  # Dutch players say "de host" (gastheer is a man only)
}

# Common words of one language that the other never uses: a rough check that no sentence stayed untranslated.
ENGLISH = {
    "the",
    "and",
    "with",
    "hearts",
    "card",
    "cards",
    "trick",
    "tricks",
    "points",
    "queen",
    "king",
    "jack",
    "spades",
    "clubs",
    "diamonds",
    "player",
    "players",
    "pass",
    "passing",
    "game",
    "moon",
    "sun",
    "every",
}
DUTCH = {
    "het",
    "een",
    "kaarten",
    "slag",
    "slagen",
    "punten",
    "schoppenvrouw",
    "speler",
    "spelers",
    "ronde",
    "doorgeven",
    "maan",
    "elke",
    "wie",
}


def open_rules(page: Page) -> None:
    page.click("[data-action=open][data-overlay=rules]")
    page.wait_for_selector(".dialog-rules details")


def rendered_sections(page: Page) -> dict[str, dict]:
    """Each section of the open rules page by id: heading, whole text (also when closed) and whether it is open."""
    rows = page.eval_on_selector_all(
        ".dialog-rules details[data-rules]",
        """els => els.map(d => ({ id: d.dataset.rules, heading: d.querySelector('summary h3').textContent,
                                  text: d.textContent, open: d.open }))""",
    )
    return {row["id"]: row for row in rows}


def words(text: str, at_least: int = 1) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text) if len(w) >= at_least}


def table(page: Page, lang: str) -> dict:
    return page.evaluate(f"async () => (await import('/js/i18n/{lang}.js')).default")


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_every_variant_has_a_section_under_its_display_name(open_page, shot, lang):
    page = open_page("/", viewport=PHONE, locale=LOCALES[lang])
    expect(page.locator("html")).to_have_attribute("lang", lang)
    texts = table(page, lang)
    open_rules(page)
    sections = rendered_sections(page)
    for variant in VARIANTS:
        name = texts[f"variant_{variant}"]
        assert variant in sections, f"no rules section for {variant}"
        assert sections[variant]["heading"] == name
        assert len(sections[variant]["text"]) > len(name) + 40  # more than a heading
        expect(page.locator(f'.rules-toc a[href="#rules-{variant}"]')).to_have_text(name)
    assert {i for i, s in sections.items() if s["open"]} == OPEN_AT_FIRST
    for key in ("gentleman", "passing", "toppers"):
        assert key in sections
    assert no_horizontal_scroll(page)

    # A link of the contents opens its closed section and brings it into view, with the focus on its heading.
    link = page.locator('.rules-toc a[href="#rules-achterhoeks"]')
    link.click()
    section = page.locator("details#rules-achterhoeks")
    expect(section).to_have_attribute("open", "")
    expect(section.locator("summary")).to_be_focused()
    expect(section.locator("p").first).to_be_in_viewport()
    assert "#" not in page.url
    shot(page, "achterhoeks")
    # Its summary closes it again, as any <details>.
    section.locator("summary").click()
    expect(section).not_to_have_attribute("open", "")


def test_dutch_sections_hold_no_english_words_of_their_english_headings(open_page):
    page = open_page("/", viewport=PHONE, locale="en-GB")
    open_rules(page)
    english = rendered_sections(page)
    page.keyboard.press("Escape")
    page.click("#top [data-action=lang][data-lang=nl]")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    open_rules(page)
    dutch = rendered_sections(page)
    assert list(dutch) == list(english)  # the same sections, in the same order
    for key, en in english.items():
        nl = dutch[key]
        assert nl["heading"] != en["heading"], key
        assert not words(nl["text"]) & ENGLISH, (key, sorted(words(nl["text"]) & ENGLISH))
        assert not words(en["text"]) & DUTCH, (key, sorted(words(en["text"]) & DUTCH))
        stray = (words(en["heading"], 3) - SHARED) & words(nl["text"])
        assert not stray, f"Dutch section {key!r} uses English words of {en['heading']!r}: {sorted(stray)}"
        stray = (words(nl["heading"], 3) - SHARED) & words(en["text"])
        assert not stray, f"English section {key!r} uses Dutch words of {nl['heading']!r}: {sorted(stray)}"


def test_both_rules_pages_have_the_same_sections_and_paragraph_counts(open_page):
    page = open_page("/")
    en, nl = table(page, "en"), table(page, "nl")

    def shape(rules: list[dict]) -> list[tuple]:
        return [(s["id"], len(s["p"]), "h" in s) for s in rules]

    assert shape(en["rules"]) == shape(nl["rules"])
    for key in (
        "topper_double_game",
        "topper_triple_game",
        "topper_nil_game",
        "topper_double_nil",
        "topper_triple_nil",
        "topper_absolute_topper",
        "team_ns",
        "team_ew",
        "chips",
    ):
        assert en[key] and nl[key] and en[key] != nl[key], key
    assert en["pot"] == nl["pot"] == "Pot"  # the same word in both languages
