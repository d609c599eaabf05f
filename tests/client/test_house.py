"""The browser client's house: one way in for messages, intents and HTTP answers (update.js and its sub-updates in
update/), words worded only by render/, storage and the network touched only by main.js's effects.

Behaviour is judged by the browser tests; these check the seams they cannot see: a page module that changed the state
beside update.js, a sub-update that wrote the storage or fetched, or a sentence built where the state changes, would
again give one idea two homes.
"""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "client" / "js"


def imports(path: Path) -> list[str]:
    """The modules ``path`` imports (their paths as written)."""
    return re.findall(r'^import [^;]*? from "([^"]+)";', path.read_text(), re.M)


UPDATE = [JS / "update.js", *sorted((JS / "update").glob("*.js"))]
# What only main.js's effects may do: write the browser's storage, fetch, or call the modules that write it.
STORAGE_WRITERS = (
    "saveSession",
    "forgetSession",
    "savePlayerToken",
    "markSignedOut",
    "startFresh",
    "savePrefs",
    "saveMuted",
    "keepStats",
    "fetchAnswer",
)


def test_update_js_imports_no_render_module_and_words_no_text():
    for path in UPDATE:
        assert not [m for m in imports(path) if "render/" in m], path.name
        text = path.read_text()
        assert not re.search(r"\bt\(", text), f"{path.name} keeps words as data; render/say.js words them"


def test_the_updates_write_no_storage_and_fetch_nothing():
    # storage writes and HTTP requests are effects main.js carries out; the answers come back as messages
    for path in UPDATE:
        text = path.read_text()
        assert not re.search(r"\blocalStorage\b|\bindexedDB\b|\bfetch\(|\bsetTimeout\(", text), path.name
        lists = re.findall(r"^import \{([^}]*)\} from", text, re.M)
        imported = {name.strip() for names in lists for name in names.split(",")}
        assert not imported & set(STORAGE_WRITERS), path.name


def test_only_the_updates_change_the_state():
    # every other module reads the state; a field written elsewhere would be a second writer beside update.js
    for path in JS.rglob("*.js"):
        if path in UPDATE:
            continue
        text = path.read_text()
        changes = re.findall(r"\bstate\.[\w.]+ *(?:=(?!=)|\+=|-=|\+\+|--)|Object\.assign\(state\b", text)
        assert not changes, (path.relative_to(JS).as_posix(), changes)


def test_every_server_message_and_every_intent_goes_through_update_js():
    main = (JS / "main.js").read_text()
    # one dispatcher: the socket and the offline table both hand their messages to the same function
    assert main.count("applyMessage(") == 1
    assert re.search(r"onMessage: \(msg\) => receive\(msg\)", main)
    assert re.search(r"onMessage: \(msg\) => receive\(msg, true\)", main)
    # the HTTP answers too: fetched for an effect, and handed back as a message
    assert main.count("applyAnswer(") == 1 and "fetchAnswer(effect.ask).then((answer) => run(applyAnswer(" in main
    # main.js, events.js and chat.js change no field of the state: they hand on intents
    for name in ("main.js", "events.js", "chat.js"):
        changes = re.findall(r"\bstate\.[\w.]+ *(?:=(?!=)|\+=|-=)", (JS / name).read_text())
        assert not changes, name
    assert not re.search(r"\bprefs\.\w+ *=(?!=)", main), "main.js changes no preference: an intent does"


def test_every_intent_the_page_sends_is_one_update_js_knows():
    # each sub-update names its intents in INTENTS (host commands that go as they are in PLAIN): `  type: (`
    update = "\n".join(path.read_text() for path in UPDATE)
    known = set(re.findall(r"^  (\w+): \(", update, re.M))
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
