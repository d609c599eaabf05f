"""The start screen's forms: the table code's example is not forced into capitals (what is typed
still is), and no dropdown cuts off its text, on a phone or a desktop, in English or Dutch."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE

# For every visible dropdown: the room its text has (inside the padding, beside the arrow) and the width
# of its longest option in its own font.
MEASURE_SELECTS = """() => {
    const ctx = document.createElement('canvas').getContext('2d');
    return [...document.querySelectorAll('select')].filter(s => s.getClientRects().length).map(s => {
        const cs = getComputedStyle(s);
        ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
        const texts = [...s.options].map(o => o.text);
        const widest = Math.max(...texts.map(t => ctx.measureText(t).width));
        return {id: s.id, room, widest, text: texts[texts.map(t => ctx.measureText(t).width).indexOf(widest)]};
    });
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-GB", "nl-NL"])
def test_code_example_keeps_its_case_and_dropdowns_show_their_whole_text(open_page, shot, size, locale):
    page = open_page("/", viewport=PHONE if size == "phone" else DESKTOP, locale=locale, name="Anna")
    code = page.locator("#code")
    assert code.evaluate("e => getComputedStyle(e, '::placeholder').textTransform") == "none"
    assert code.evaluate("e => getComputedStyle(e).textTransform") == "uppercase"  # the typed code
    code.fill("k7qx")
    assert code.evaluate("e => getComputedStyle(e).textTransform") == "uppercase"
    code.fill("")
    shot(page, "start")

    for variant in ("classic", "dutch"):
        page.select_option("#variant", variant)
        seen = page.evaluate(MEASURE_SELECTS)
        assert len(seen) >= 5
        for s in seen:
            assert s["widest"] <= s["room"], s
        if variant == "dutch":
            # in one step in the page: the start page may be redrawn meanwhile (the server's welcome arriving)
            page.evaluate(
                "() => document.querySelector('.variant-options[data-variant=dutch]').scrollIntoView({block:'nearest'})"
            )
            shot(page, "dutch-options")
