"""The browser client's house: one way in for messages and intents (update.js), words worded only by render/.

Behaviour is judged by the browser tests; these check the seams they cannot see: a page module that changed the state
beside update.js, or a sentence built where the state changes, would again give one idea two homes.
"""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "client" / "js"


def imports(path: Path) -> list[str]:
    """The modules ``path`` imports (their paths as written)."""
    return re.findall(r'^import [^;]*? from "([^"]+)";', path.read_text(), re.M)


def test_update_js_imports_no_render_module_and_words_no_text():
    update = JS / "update.js"
    assert not [m for m in imports(update) if "render/" in m]
    text = update.read_text()
    assert not re.search(r"\bt\(", text), "update.js keeps words as data; render/say.js words them"


def test_every_server_message_and_every_intent_goes_through_update_js():
    main = (JS / "main.js").read_text()
    # one dispatcher: the socket and the offline table both hand their messages to the same function
    assert main.count("applyMessage(") == 1
    assert re.search(r"onMessage: \(msg\) => receive\(msg\)", main)
    assert re.search(r"onMessage: \(msg\) => receive\(msg, true\)", main)
    # main.js, events.js and chat.js change no field of the state: they hand on intents
    for name in ("main.js", "events.js", "chat.js"):
        source = (JS / name).read_text()
        body = source.split("/** The chat panel's clicks", 1)[-1] if name == "chat.js" else source
        changes = re.findall(r"\bstate\.[\w.]+ *(?:=(?!=)|\+=|-=)", body)
        assert not changes, name


def test_every_intent_the_page_sends_is_one_update_js_knows():
    update = (JS / "update.js").read_text()
    known = set(re.findall(r'^    case "(\w+)":', update, re.M)) | set(re.findall(r"^  (\w+): \(", update, re.M))
    sent: set[str] = set()
    for path in JS.rglob("*.js"):
        sent |= set(re.findall(r'dispatch\(\{ type: "(\w+)"', path.read_text()))
        sent |= set(re.findall(r'intent: \{ type: "(\w+)"', path.read_text()))
    assert sent and sent <= known, sorted(sent - known)


def test_no_inline_script_nor_style_for_the_content_security_policy():
    # The server's policy (server/net/security.py) allows the page's own files only: no script or style written in
    # index.html, and no style attribute in the HTML the renderer writes (render/dom.js sets `data-style` itself).
    index = (JS.parent / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", index), "a script in index.html: give it a file"
    assert not re.search(r"<style\b|\bstyle=|\bon[a-z]+=", index)
    for path in JS.rglob("*.js"):
        text = path.read_text()
        assert not re.search(r"""\sstyle=|<style\b|setAttribute\(\s*["']style""", text), path.name
        assert not re.search(r"\beval\(|new Function\(", text), path.name
