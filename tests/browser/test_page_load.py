"""The first load: the start page names every module it needs, so a phone far from the server asks for them all at
once instead of one level of imports after another."""

from __future__ import annotations

# The page's modules as the browser loaded them, and the ones the page named up front.
MODULES = """() => ({
    loaded: performance.getEntriesByType('resource')
        .map((r) => new URL(r.name).pathname).filter((p) => p.startsWith('/js/')),
    preloaded: [...document.querySelectorAll('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname),
    scripts: [...document.querySelectorAll('script[type=module]')].map((s) => new URL(s.src).pathname),
})"""


def test_the_start_page_names_every_module_it_loads_and_no_other(open_page):
    page = open_page("/")
    page.wait_for_selector("form[data-form=create] button[type=submit]")
    found = page.evaluate(MODULES)
    loaded = set(found["loaded"]) - set(found["scripts"])
    assert len(loaded) > 20, loaded  # the app is many modules
    assert set(found["preloaded"]) == loaded, {
        "loaded but not named": sorted(loaded - set(found["preloaded"])),
        "named but not loaded": sorted(set(found["preloaded"]) - loaded),
    }
    assert len(found["preloaded"]) == len(set(found["preloaded"]))
