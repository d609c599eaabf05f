"""The pinned lists hold every package an install needs, on Debian's own Python 3.11.2 as on a newer 3.11.

Both are installed with ``--require-hashes``, which refuses any package that is needed but not listed. A lock made
under a newer 3.11 once left out what only older ones need (redis's async-timeout below 3.11.3), so the README's
commands and the Docker image failed on Debian bookworm's Python. Each list is walked here from ``pyproject.toml``,
through the installed packages' own requirements, with the markers read for each interpreter.
"""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYTHONS = ("3.11.2", "3.11.14")  # Debian bookworm's, and a recent 3.11


def pinned(name: str) -> set[str]:
    """The packages a constraints file pins, by canonical name."""
    text = (ROOT / name).read_text()
    return {canonicalize_name(m) for m in re.findall(r"^([A-Za-z0-9_.-]+)==", text, re.M)}


def needed(extras: list[str], python: str) -> set[str]:
    """Every package the project with ``extras`` needs under ``python``, walked through the installed metadata."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    if extras == ["*"]:
        extras = sorted(project["optional-dependencies"])
    todo = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        todo += [Requirement(r) for r in project["optional-dependencies"][extra]]
    env = {"python_version": python.rsplit(".", 1)[0], "python_full_version": python, "sys_platform": "linux"}
    seen: set[str] = set()
    while todo:
        req = todo.pop()
        wanted = req.marker is None or any(req.marker.evaluate({**env, "extra": e}) for e in ["", *req.extras])
        name = canonicalize_name(req.name)
        if not wanted or name in seen or name == "hartenjagen":
            continue
        seen.add(name)
        try:
            requires = metadata.requires(req.name) or []
        except metadata.PackageNotFoundError:
            continue  # needed, so it must be pinned; what it needs in turn is checked where it is installed
        for line in requires:
            inner = Requirement(line)
            if inner.marker is None or any(inner.marker.evaluate({**env, "extra": e}) for e in ["", *req.extras]):
                todo.append(Requirement(str(inner.name) + (f"[{','.join(inner.extras)}]" if inner.extras else "")))
    return seen


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize(
    ("listing", "extras"),
    [("constraints.txt", ["*"]), ("constraints-server.txt", ["cluster", "fast", "metrics", "speed"])],
)
def test_every_package_an_install_needs_is_pinned_with_its_hash(listing, extras, python):
    missing = needed(extras, python) - pinned(listing)
    assert not missing, f"{listing} lacks {sorted(missing)} under Python {python}: run bash tools/lock.sh"


def test_the_lists_pin_what_redis_needs_on_debians_python():
    # the case that broke: redis asks for async-timeout only below Python 3.11.3
    assert "async-timeout" in needed(["cluster"], "3.11.2") and "async-timeout" not in needed(["cluster"], "3.11.14")
    assert "async-timeout" in pinned("constraints.txt") and "async-timeout" in pinned("constraints-server.txt")
