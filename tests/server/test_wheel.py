"""The package as its users install it: a wheel in a fresh venv in an empty folder serves a whole game, and so does
the editable install of this checkout; either way the distribution adds one import name, ``hartenjagen``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import hartenjagen.server
from hartenjagen.server.config import client_dir
from hartenjagen.server.storage.migrations import load_migrations, migrations_dir
from hartenjagen.tools.wsclient import next_intent

from .crashkit import SERVING, Client, close_all

ROOT = Path(__file__).resolve().parents[2]
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTS_", "PYTHON", "VIRTUAL_ENV"))}


def run(cmd: list[str], cwd: Path, timeout: float = 300) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=CLEAN_ENV, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{cmd[:4]} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A wheel built from this checkout, installed into a fresh venv (the versions of constraints.txt)."""
    place = tmp_path_factory.mktemp("wheel")
    source = place / "source"  # a copy: building in the checkout would leave its build/ folder behind
    skip = shutil.ignore_patterns(".*", "build", "dist", "artifacts", "__pycache__", "*.db*")
    shutil.copytree(ROOT, source, ignore=skip)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(place / "dist"), str(source)], place)
    (wheel,) = (place / "dist").glob("hartenjagen-*.whl")
    run([sys.executable, "-m", "venv", str(place / "venv")], place)
    pip = [str(place / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    # the wheel with its own dependencies only (no extra) at the versions the tests passed with: the pins of
    # constraints.txt without their hashes (pip hashes nothing it does not install from a list of hashes)
    pins = place / "pins.txt"
    pins.write_text("".join(f"{line.split()[0]}\n" for line in (ROOT / "constraints.txt").read_text().splitlines()
                            if "==" in line and not line.startswith("#")))  # fmt: skip
    run([*pip, "-c", str(pins), str(wheel)], place)
    return place / "venv"


def serve(hearts: Path, folder: Path) -> tuple[subprocess.Popen, int]:
    """``hearts serve`` from an empty folder, no HEARTS_* variable set; returns the process and its port."""
    log = folder / "serve.out"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(hearts), "serve", "--port", "0", "--bot-delay", "0", "--bot-workers", "1", "--hard-ms", "10"],
            cwd=folder, env=CLEAN_ENV, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    for _ in range(600):
        found = SERVING.search(log.read_text(errors="replace"))
        if found:
            return proc, int(found.group(1))
        assert proc.poll() is None, log.read_text()
        time.sleep(0.05)
    raise AssertionError(f"hearts serve did not start:\n{log.read_text()}")


def get(port: int, path: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as resp:
        return resp.status, resp.read()


async def whole_game_with_hard_players(port: int) -> dict:
    """One person and three hard computer players play a game to 25 points; return the last table."""
    anna = await Client.open(f"ws://127.0.0.1:{port}/ws", "Anna")
    try:
        await anna.send("create", options={"variant": "classic", "end_score": 25, "deal": 31}, computer_level="hard")
        await anna.expect("joined")
        await anna.send("fill_computers", level="hard")
        await anna.send("start")
        for _ in range(2000):
            await anna.wait(lambda: anna.table is not None and anna.table["status"] != "waiting", timeout=30)
            t = anna.table
            if t["status"] == "finished":
                return t
            intent = next_intent(t)  # the shared scripted person (tools/wsclient.py)
            if intent is not None:
                await anna.send(**intent)
            await anna.wait(lambda n=t["seq"]: anna.table["seq"] > n, timeout=30)
        raise AssertionError("the game did not end")
    finally:
        await close_all([anna])


def check_serves_a_game(hearts: Path, folder: Path) -> None:
    proc, port = serve(hearts, folder)
    try:
        status, page = get(port, "/")
        assert status == 200 and b'src="/js/main.js"' in page  # the client came with the package
        assert get(port, "/js/main.js")[0] == 200 and get(port, "/healthz")[0] == 200
        last = asyncio.run(whole_game_with_hard_players(port))
        assert last["status"] == "finished" and max(last["view"]["totals"]) >= 25
    finally:
        proc.terminate()
        proc.wait(20)
    with sqlite3.connect(folder / "hearts.db") as con:  # every migration the package carries was applied
        applied = [r[0] for r in con.execute("SELECT version FROM schema_migrations ORDER BY version")]
        games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert applied == [v for v, _, _ in load_migrations(migrations_dir())] and games == 1


def test_a_wheel_in_a_fresh_venv_in_an_empty_folder_serves_a_whole_game_with_no_environment(installed, tmp_path):
    check_serves_a_game(installed / "bin" / "hearts", tmp_path)


def test_the_wheel_adds_one_import_name_of_its_own(installed):
    site = Path(run([str(installed / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                    installed).strip())  # fmt: skip
    ours = {p.name for p in site.iterdir() if p.name.startswith("hartenjagen")}
    assert ours == {"hartenjagen", next(n for n in ours if n.endswith(".dist-info"))}
    for name in ("server", "shared", "tools", "client", "migrations"):
        assert not (site / name).exists(), name
    assert {p.name for p in (site / "hartenjagen").iterdir()} >= {"server", "shared", "tools", "client", "migrations"}


def test_the_editable_install_maps_the_checkout_s_folders_and_serves_from_an_empty_folder(tmp_path):
    assert Path(hartenjagen.server.__file__).parent == ROOT / "server"
    assert client_dir() == ROOT / "client" and migrations_dir() == ROOT / "migrations"
    hearts = Path(sys.executable).with_name("hearts")
    proc, port = serve(hearts, tmp_path)
    try:
        status, page = get(port, "/")
        assert status == 200 and page == (ROOT / "client" / "index.html").read_bytes()
    finally:
        proc.terminate()
        proc.wait(20)
