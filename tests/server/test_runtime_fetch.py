"""The offline game's runtime: fetched once from a tarball checked against the pinned integrity hash, unpacked into
the client folder, served with long-lived caching; the engine's Python is served beside it."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
from pathlib import Path

import pytest

from hartenjagen.server.table.bundle import bundle_bytes
from hartenjagen.tools import runtime_fetch


def tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def pinned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, Path]:
    """A lock that pins a small stand-in tarball (written to ``tmp_path``)."""
    files = {"pyodide.mjs": b"export const loadPyodide = 1;", "pyodide.asm.wasm": b"\0asm", "extra.txt": b"not kept"}
    data = tarball(files)
    lock = {
        "package": "pyodide",
        "version": "0.0.1",
        "tarball": "https://registry.invalid/pyodide-0.0.1.tgz",
        "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode(),
        "files": ["pyodide.mjs", "pyodide.asm.wasm"],
    }
    lock_path = tmp_path / "lock.json"
    lock_path.write_text(json.dumps(lock))
    monkeypatch.setattr(runtime_fetch, "LOCK", lock_path)
    (tmp_path / "pyodide.tgz").write_bytes(data)
    return lock, tmp_path


def test_the_pinned_tarball_is_checked_unpacked_once_and_only_its_listed_files_kept(pinned):
    lock, tmp = pinned
    client = tmp / "client"
    folder = runtime_fetch.fetch(client, str(tmp / "pyodide.tgz"))
    assert folder == client / "runtime" / "pyodide-0.0.1"
    assert sorted(p.name for p in folder.iterdir()) == [".integrity", "pyodide.asm.wasm", "pyodide.mjs"]
    assert runtime_fetch.installed(client)
    # Installed: a second run reads nothing (the tarball named here does not even exist).
    assert runtime_fetch.fetch(client, str(tmp / "gone.tgz")) == folder


def test_a_tarball_that_does_not_match_the_pinned_hash_is_refused_and_nothing_is_installed(pinned, capsys):
    lock, tmp = pinned
    bad = tarball({"pyodide.mjs": b"something else", "pyodide.asm.wasm": b"\0asm"})
    (tmp / "bad.tgz").write_bytes(bad)
    code = runtime_fetch.main(["--client-dir", str(tmp / "client"), "--tarball", str(tmp / "bad.tgz")])
    assert code == 1
    assert "could not fetch pyodide 0.0.1" in capsys.readouterr().err
    assert not runtime_fetch.installed(tmp / "client")
    assert not (tmp / "client" / "runtime").exists()


def test_the_real_lock_pins_one_version_from_the_npm_registry_with_a_sha512_hash():
    lock = runtime_fetch.lock()
    assert lock["package"] == "pyodide"
    assert lock["tarball"] == f"https://registry.npmjs.org/pyodide/-/pyodide-{lock['version']}.tgz"
    assert lock["integrity"].startswith("sha512-")
    assert {"pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip"} <= set(lock["files"])


async def test_the_runtime_is_served_for_a_year_and_the_engine_with_no_cache(server, tmp_path):
    root = tmp_path / "client"
    folder = root / "runtime" / "pyodide-0.0.1"
    folder.mkdir(parents=True)
    (folder / "pyodide.asm.wasm").write_bytes(b"\0asm")
    (root / "index.html").write_text("<!doctype html>")
    server.app.root = root
    status, headers, body = await server.get("/runtime/pyodide-0.0.1/pyodide.asm.wasm")
    assert status == 200 and body == b"\0asm"
    assert headers["Content-Type"] == "application/wasm"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    status, headers, body = await server.get("/engine/python.json")
    assert status == 200 and headers["Cache-Control"] == "no-cache" and body == bundle_bytes()
    status, headers, _ = await server.get("/offline")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
