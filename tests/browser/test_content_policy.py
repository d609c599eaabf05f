"""The page under the server's Content-Security-Policy: it runs on its own files alone, styles what it draws from
script (``data-style``), and markup can neither script nor style it."""

from __future__ import annotations

import urllib.request

from hartenjagen.server.net.security import SECURITY_HEADERS

# In the page: the renderer's own way to style, then what the policy must refuse (each refusal is an event).
TRY_THE_POLICY = """async () => {
    window.__refused = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__refused.push(e.effectiveDirective));
    const {patch} = await import('/js/render/dom.js');
    const area = document.createElement('div');
    document.body.append(area);
    patch(area, '<b data-style="color: rgb(1, 2, 3)">drawn</b><i style="color: rgb(4, 5, 6)">markup</i>');
    const script = document.createElement('script');
    script.textContent = 'window.__ran = true';
    document.body.append(script);
    let evaluated = true;
    try { (0, eval)('1'); } catch (e) { evaluated = false; }
    return {
        drawn: getComputedStyle(area.querySelector('b')).color,
        markup: getComputedStyle(area.querySelector('i')).color === 'rgb(4, 5, 6)',
        ran: Boolean(window.__ran),
        evaluated,
    };
}"""


def test_markup_can_neither_script_nor_style_the_page_while_the_renderer_styles_from_script(open_page, server_url):
    for path in ("/", "/js/main.js", "/css/app.css", "/sw.js", "/js/offline/worker.js", "/manifest.webmanifest"):
        with urllib.request.urlopen(server_url.rstrip("/") + path, timeout=10) as answer:
            assert all(answer.headers[name] == value for name, value in SECURITY_HEADERS), path
    page = open_page("/", expected=("Content Security Policy",))  # the refusals below are the browser's errors
    page.wait_for_selector("form[data-form=create] button[type=submit]")
    got = page.evaluate(TRY_THE_POLICY)
    assert got == {"drawn": "rgb(1, 2, 3)", "markup": False, "ran": False, "evaluated": False}
    page.wait_for_function("() => ['style-src-attr', 'script-src-elem', 'script-src'].every((d) => "
                           "window.__refused.includes(d))")  # fmt: skip
