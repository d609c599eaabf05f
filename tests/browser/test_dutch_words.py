"""The Dutch words players expect: "host" for whoever hosts (no gendered "gastheer"), "mars" where the Dutch rules
say mars, a Dutch heading for the ratings, and verbs that agree with a count of one."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, no_horizontal_scroll, resize, view
from .test_pace_claim_rematch import MY_TURN_OR_OVER, highest_legal
from .test_sides_seats_and_panels import PHONE_TALL

# A numbered deal of Dutch hartenjagen whose first hand gives South, playing her highest legal card against the
# table's medium computer players, every point card: a mars (found by playing it through the game core; the medium
# player answers the same view alike).
MARS_DEAL = 12


def test_dutch_players_read_host_mars_and_a_dutch_ratings_heading(open_page, shot):
    anna = open_page("/", viewport=DESKTOP, name="Anna", locale="nl-NL")
    anna.select_option("#variant", "dutch")
    anna.fill("#deal", str(MARS_DEAL))
    anna.click("form[data-form=create] button[type=submit]")
    anna.wait_for_selector(".lobby .code")
    code = anna.inner_text(".lobby .code").strip()
    expect(anna.locator(".lobby .badge.host")).to_have_text("host")

    # a friend opens the link: the invitation names the host with the same word
    bram = open_page(f"/t/{code}", viewport=PHONE_TALL, locale="nl-NL")
    bram.wait_for_selector(".invite")
    expect(bram.locator(".invite-host")).to_have_text("Host: Anna")
    assert no_horizontal_scroll(bram)
    shot(bram, "invite-phone-390-nl")

    anna.click("[data-action=fill_computers]")
    anna.click("[data-action=start]:not([disabled])")
    anna.wait_for_selector(".hand .card")
    for _ in range(8):
        anna.wait_for_function(MY_TURN_OR_OVER)
        v = view(anna)
        if v["phase"] != "playing":
            break
        card = highest_legal(v["legal"])
        anna.locator(f'.hand .card[data-card="{card}"]').first.click()
        anna.wait_for_function("n => window.hartenjagen.state.table.view.hand.length < n", arg=len(v["hand"]))
    # every point card is hers: she chooses, and the score table says "mars", as the Dutch rules call it
    anna.wait_for_function("() => window.hartenjagen.state.table.view.moon_choices.length > 0")
    anna.click("[data-action=moon][data-choice=others]")
    anna.wait_for_selector(".dialog-scores")
    scores = anna.locator(".dialog-scores")
    expect(scores.locator(".moon")).to_have_text("☾ mars")
    expect(scores.locator(".moon-note")).to_have_text("☾ Anna haalde een mars")
    shot(anna, "mars-scores-desktop-1280-nl")
    anna.keyboard.press("Escape")
    anna.click("[data-action=lang][data-lang=en]")
    anna.click(".status [data-overlay=scores]")
    expect(scores.locator(".moon-note")).to_have_text("☾ Anna made a mars")
    anna.keyboard.press("Escape")
    anna.click("[data-action=lang][data-lang=nl]")

    # the statistics in Dutch: the ratings under a Dutch heading, the moons counted under the rules' own words
    resize(anna, PHONE_TALL)
    anna.click("#top [data-overlay=stats]")
    stats = anna.locator(".dialog-stats")
    expect(stats.locator("#ratings-title")).to_have_text("Je rating per spel")
    expect(stats.locator("dt", has_text="strafkaarten")).to_have_text("Alle strafkaarten gepakt (maan of mars)")
    assert no_horizontal_scroll(anna)
    shot(anna, "stats-phone-390-nl")
    anna.click(".dialog-stats [data-action=close].close")
    anna.click("[data-action=lang][data-lang=en]")
    anna.click("#top [data-overlay=stats]")
    expect(stats.locator("#ratings-title")).to_have_text("Ratings")
    expect(stats.locator("dt", has_text="Moons")).to_have_text("Moons shot")
