"""Every file the README and docs/*.md name exists, so a move or a rename that leaves the docs behind fails here.

A path from the top of the tree (``server/...``, ``shared/...``, ``client/...``, ``tools/...``, ``tests/...``) must be
there as written; a part of a path (``table/step.py``) or a module named alone (``step.py``) must end some file's path
under ``server/``, ``shared/``, ``tools/`` or ``tests/``. A capitalised word in a path (``pyodide-VERSION``) stands
for any name. A module named by its import path (``shared.view.view_for``) must be there, and so must the name it
ends with.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = {f"docs/{p.name}": p.read_text() for p in (ROOT / "docs").glob("*.md")} | {
    "README.md": (ROOT / "README.md").read_text()
}
TOPS = ("server", "shared", "client", "tools", "tests")
# A path from the top: not the tail of a longer path, nor part of a word or an address.
FROM_TOP = re.compile(r"(?<![\w./-])(?:" + "|".join(TOPS) + r")/[\w./*-]*")
# A module named alone or by the end of its path.
MODULE = re.compile(r"(?<![\w./-])[\w/-]*\b\w+\.py\b")
PLACEHOLDER = re.compile(r"[A-Z][A-Z_]+")
# A module by its import path, with or without the package name, perhaps followed by a name defined in it.
DOTTED = re.compile(r"(?<![\w./-])(?:hartenjagen\.)?((?:server|shared|tools)(?:\.\w+)+)")
PYTHON = ("server", "shared", "tools", "tests")
SOURCES = [p.relative_to(ROOT).as_posix() for top in PYTHON for p in (ROOT / top).rglob("*.py")]


def exists(path: str) -> bool:
    """Whether ``path`` (a file or a folder from the top of the tree) exists, a capitalised word matching any name."""
    path = path.rstrip(".")  # the end of a sentence
    pattern = PLACEHOLDER.sub("*", path.rstrip("/"))
    return (ROOT / path).exists() if pattern == path.rstrip("/") else any(ROOT.glob(pattern))


def test_every_path_from_the_top_of_the_tree_the_docs_name_exists():
    missing = sorted({f"{doc}: {m}" for doc, text in DOCS.items() for m in FROM_TOP.findall(text) if not exists(m)})
    assert missing == [], missing


def test_every_module_the_docs_name_by_itself_or_by_the_end_of_its_path_exists():
    def known(name: str) -> bool:
        if name.startswith(tuple(top + "/" for top in TOPS)):
            return True  # checked whole by the test above
        return any(source == name or source.endswith("/" + name) for source in SOURCES)

    missing = sorted({f"{doc}: {m}" for doc, text in DOCS.items() for m in MODULE.findall(text) if not known(m)})
    assert missing == [], missing


def importable(dotted: str) -> bool:
    """Whether ``dotted`` names a package, a module, or a name defined at the top of a module."""
    parts = dotted.split(".")
    here = ROOT
    for n, part in enumerate(parts):
        if (here / part).is_dir():
            here = here / part
            continue
        module = here / f"{part}.py"
        if not module.is_file():
            return False
        rest = parts[n + 1 :]
        if not rest:
            return True
        defined = rf"^(?:(?:async )?def |class ){rest[0]}\b|^{rest[0]}\b\s*[:=]"
        return len(rest) == 1 and re.search(defined, module.read_text(), re.M) is not None
    return True


def test_every_module_the_docs_name_by_its_import_path_exists():
    missing = sorted({f"{doc}: {m}" for doc, text in DOCS.items() for m in DOTTED.findall(text) if not importable(m)})
    assert missing == [], missing


def test_the_checks_read_what_the_docs_say():
    assert exists("server/table/step.py") and exists("client/runtime/pyodide-VERSION/")
    assert not exists("server/tables.py")
    text = "`server/table/step.py` and `tables.py`, `net/hub.py`, https://example.org/server/x.py"
    assert FROM_TOP.findall(text) == ["server/table/step.py"]
    assert MODULE.findall(text) == ["server/table/step.py", "tables.py", "net/hub.py"]
    assert importable("shared.view.view_for") and importable("server.table")
    assert not importable("server.daily.daily_deal") and not importable("shared.view.nothing_of_that_name")
    found = DOTTED.findall("(`hartenjagen.server.table.step.settle`), shared.bots.")
    assert found == ["server.table.step.settle", "shared.bots"]
