"""``--allocator``: the server runs on jemalloc when asked, says so, and its leak watch still counts live memory."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

from hartenjagen.server import allocator

from .crashkit import ServerProcess

CHECKOUT = Path(__file__).resolve().parents[2]
JEMALLOC = allocator.jemalloc_path()


def healthz(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
        return json.loads(answer.read())


async def wait_until(cond, what: str, timeout: float = 60.0) -> None:
    """Wait until ``cond()`` holds; fail naming ``what`` if it never does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await asyncio.to_thread(cond):
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.1)


async def test_on_jemalloc_healthz_counts_live_bytes_and_they_come_back_when_silent_sockets_are_closed(tmp_path):
    assert JEMALLOC is not None, "the tests' install step puts Debian's libjemalloc2 on the machine"
    server = ServerProcess(tmp_path / "j.db", tmp_path, "jemalloc", extra=["--allocator", "jemalloc"])
    server.extra += ["--hello-timeout", "3"]  # time to open them all before the first is closed, on a busy machine
    try:
        server.start()
        maps = Path(f"/proc/{server.pid}/maps").read_text()
        assert JEMALLOC in maps  # the same process id, started again with the library preloaded
        health = await asyncio.to_thread(healthz, server.port)
        assert health["allocator"] == "jemalloc" and "allocated_blocks" not in health
        baseline = health["allocated_bytes"]
        assert baseline > 1_000_000  # the interpreter's start-up alone holds megabytes: a real count, not a zero
        sockets = []
        for _ in range(4):
            sockets += await asyncio.gather(*(connect(server.url, ping_interval=None) for _ in range(50)))
        grown = (await asyncio.to_thread(healthz, server.port))["allocated_bytes"]
        assert grown > baseline + 200 * 1024  # each open connection holds some KiB
        await asyncio.gather(*(ws.wait_closed() for ws in sockets))
        assert {ws.close_code for ws in sockets} == {1008}  # no hello: closed by the server
        del sockets

        def back() -> bool:
            now = healthz(server.port)
            return now["connections"] == 0 and now["allocated_bytes"] < baseline + (grown - baseline) // 4

        await wait_until(back, "the closed connections' memory counted as free again")
    finally:
        server.cleanup()


def test_the_restart_keeps_what_is_preloaded_and_the_operators_settings_and_never_loops(monkeypatch):
    monkeypatch.setattr(allocator, "jemalloc_path", lambda: "/usr/lib/libjemalloc.so.2")
    monkeypatch.setattr(allocator, "in_use", lambda: "pymalloc")
    faked = {"LD_PRELOAD": "/usr/lib/faketime/libfaketime.so.1", "MALLOC_CONF": "narenas:1", "HOME": "/root"}
    argv, env = allocator.restart_argv("jemalloc", faked)
    assert argv[0] == sys.executable and argv[1:] == sys.orig_argv[1:]  # the same command, started again
    assert env["LD_PRELOAD"] == "/usr/lib/libjemalloc.so.2:/usr/lib/faketime/libfaketime.so.1"
    assert env["PYTHONMALLOC"] == "malloc" and env["MALLOC_CONF"] == "narenas:1" and env["HOME"] == "/root"
    assert allocator.restart_argv("auto", faked) is not None
    assert allocator.restart_argv("pymalloc", faked) is None
    assert allocator.restart_argv("jemalloc", env) is None  # preloaded once already: go on, never start again


def test_asking_for_jemalloc_where_it_is_not_installed_is_a_clear_error_and_auto_goes_on_without_it():
    code = (
        "import sys\nfrom hartenjagen.server import allocator\nallocator.jemalloc_path = lambda: None\n"
        "from hartenjagen.server.cli import main\nsys.exit(main())"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTS_")}
    argv = [sys.executable, "-c", code, "serve", "--port", "0", "--db", "/dev/null/x.db"]
    done = subprocess.run([*argv, "--allocator", "jemalloc"], cwd=CHECKOUT, env=env, capture_output=True, text=True)
    assert done.returncode == 2
    assert "--allocator jemalloc: libjemalloc.so.2 is not installed (Debian: apt-get install libjemalloc2)" in (
        done.stderr
    )
    # auto goes on with Python's own allocator: here to the database folder's own clear error
    done = subprocess.run([*argv, "--allocator", "auto"], cwd=CHECKOUT, env=env, capture_output=True, text=True)
    assert "--allocator" not in done.stderr and "/dev/null" in done.stderr, done.stderr
