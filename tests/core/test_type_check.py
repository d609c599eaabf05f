"""The type checker: the README's test command runs the pinned mypy over the rules core and the server before the tests.

The core is checked strictly, the server strictly but for bare ``dict``/``list`` and returning a value typed Any.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _test_command() -> str:
    readme = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()]
    (command,) = [line for line in readme if line.startswith("apt-get update") and "pytest" in line]
    return command


def test_the_test_command_type_checks_the_core_after_the_install_and_before_the_tests():
    command = _test_command()
    steps = command.split(" && ")
    assert ".venv/bin/mypy" in steps
    mypy = steps.index(".venv/bin/mypy")
    assert steps.index(next(s for s in steps if "pip install" in s)) < mypy < steps.index(".venv/bin/pytest")
    assert (ROOT / ".ci" / "run").read_text().rstrip("\n").splitlines()[-1] == command


def pinned(path: Path) -> dict[str, str]:
    """A hashed list's packages and versions (names as PyPI normalises them)."""
    found = re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", path.read_text(), re.M)
    return {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in found}


def test_every_install_is_pinned_with_hashes_and_the_server_s_list_at_the_same_versions():
    everything, server = pinned(ROOT / "constraints.txt"), pinned(ROOT / "constraints-server.txt")
    for path, pins in ((ROOT / "constraints.txt", everything), (ROOT / "constraints-server.txt", server)):
        text = path.read_text()
        blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.split("\n", 3)[3].strip())  # after the three comment lines
        assert len(blocks) == len(pins) and all("--hash=sha256:" in block for block in blocks), path
    assert server.items() <= everything.items()  # one set of versions
    assert {"websockets", "aiosqlite", "asyncpg", "redis", "numba", "prometheus-client", "orjson"} <= set(server)
    assert not {"pytest", "playwright", "mypy", "ruff"} & set(server)  # a server runs no test tools
    readme = (ROOT / "README.md").read_text()
    assert "pip install --require-hashes -r constraints-server.txt && .venv/bin/pip install --no-deps -e ." in readme
    assert "pip install --require-hashes -r constraints.txt && .venv/bin/pip install --no-deps -e ." in readme


def test_mypy_comes_with_the_test_extra_at_the_pinned_version_and_checks_shared_and_server():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(need.split(">")[0].strip() == "mypy" for need in project["project"]["optional-dependencies"]["test"])
    pins = (ROOT / "constraints.txt").read_text().splitlines()
    assert len([pin for pin in pins if pin.startswith("mypy==")]) == 1
    config = project["tool"]["mypy"]
    assert config["packages"] == ["hartenjagen.shared", "hartenjagen.server"] and config["strict"] is True
    (server,) = [o for o in config["overrides"] if o["module"] == ["hartenjagen.server.*"]]
    assert server == {"module": ["hartenjagen.server.*"], "disallow_any_generics": False, "warn_return_any": False}
    # under its import name: typecheck/hartenjagen/ links each folder of the package that the server imports
    assert config["mypy_path"] == "$MYPY_CONFIG_FILE_DIR/typecheck"
    links = ROOT / "typecheck" / "hartenjagen"
    folders = {link.name: link.resolve() for link in links.iterdir()}
    assert folders == {name: ROOT / name for name in ("server", "shared", "tools")}


def test_the_projects_mypy_settings_refuse_an_untyped_function_and_a_wrong_type(tmp_path):
    loose = tmp_path / "loose.py"
    loose.write_text("def add(a, b):\n    return a + b\n\n\ndef half(n: int) -> int:\n    return n / 2\n")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", "/dev/null",
         str(loose)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "loose.py:1: error: Function is missing a type annotation" in done.stdout
    assert "loose.py:6: error: Incompatible return value type" in done.stdout
