"""The offline game's Python: the project's own files the browser's worker runs, and the hash that names them.

The worker (``client/js/offline/worker.js``) runs on Pyodide the same ``shared/`` core and computer players the server
runs, and the whole I/O-free table package ``server/table/`` an online table is built from, with
``server/table/offline.py`` in the place of the hub (a test checks the package imports nothing else of the server's).
``GET /engine/python.json`` sends them in one answer, with the runtime's files and ``shared_hash``: the SHA-256 of
every ``shared/`` file, which ``/healthz`` reports too and the worker computes again from the files it loaded.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

TABLE = Path(__file__).resolve().parent  # server/table/: the whole package ships, importing only itself and shared/
BUNDLE_PATH = "/engine/python.json"


def shared_files() -> dict[str, bytes]:
    """Return every ``shared/`` Python file by its path under the package (``hartenjagen/shared/...``)."""
    from hartenjagen import shared

    folder = Path(shared.__file__).resolve().parent
    return {
        "hartenjagen/shared/" + path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*.py"))
    }


def files_hash(files: dict[str, bytes]) -> str:
    """Return the SHA-256 that names a set of files: each path, a zero byte, its bytes, a zero byte, in path order."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + files[path] + b"\0")
    return digest.hexdigest()


@cache
def shared_hash() -> str:
    """Return the hash of the ``shared/`` files this server runs."""
    return files_hash(shared_files())


def server_files() -> dict[str, bytes]:
    """Return the server's table package (every module of ``server/table/``) by its path under the package."""
    files = {"hartenjagen/server/__init__.py": (TABLE.parent / "__init__.py").read_bytes()}
    for path in sorted(TABLE.glob("*.py")):
        files[f"hartenjagen/server/table/{path.name}"] = path.read_bytes()
    return files


def runtime_files() -> dict[str, Any]:
    """Return the pinned runtime's URL folder, files and each file's size in bytes (``tools/pyodide.lock.json``).

    The sizes are read from the files fetched: the page shows how many megabytes have come while the offline game
    starts.
    """
    from hartenjagen.tools.runtime_fetch import default_client_dir, lock, runtime_dir

    pinned = lock()
    folder = runtime_dir(default_client_dir(), pinned)
    files = [name for name in pinned["files"] if name != "package.json"]
    return {
        "base": f"/runtime/{pinned['package']}-{pinned['version']}/",
        "files": files,
        "sizes": {name: (folder / name).stat().st_size for name in files if (folder / name).is_file()},
        "version": pinned["version"],
    }


@cache
def bundle_bytes() -> bytes:
    """Return the JSON answer of ``/engine/python.json`` (built once: the files do not change while serving)."""
    files = {**shared_files(), **server_files(), "hartenjagen/__init__.py": b""}
    body = {
        "shared_hash": shared_hash(),
        "runtime": runtime_files(),
        "files": {path: data.decode("utf-8") for path, data in sorted(files.items())},
    }
    return json.dumps(body, separators=(",", ":")).encode()
