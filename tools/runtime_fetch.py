"""Fetch the browser's Python runtime (the npm registry's ``pyodide``) once, checked against its pinned hash.

The offline game runs the project's own ``shared/`` core in a Web Worker on Pyodide. Its files (about 13 MB) are not
committed and not downloaded at each start: this step fetches the one version pinned in ``pyodide.lock.json`` (with
the registry's sha512 integrity hash), checks it, and unpacks the files the worker loads into the client folder
(``client/runtime/pyodide-VERSION/``), where ``hearts serve`` serves them with long-lived caching. Run again, it does
nothing when the files are there and match the lock. It needs only the standard library, so the Docker build runs it
as ``python3 tools/runtime_fetch.py`` before the package is installed.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.request
from pathlib import Path

LOCK = Path(__file__).resolve().parent / "pyodide.lock.json"
STAMP = ".integrity"  # the tarball's integrity hash, written last: files without it are an unfinished fetch


def lock() -> dict:
    """Return the pinned runtime: package, version, tarball address, integrity hash and the files kept."""
    return json.loads(LOCK.read_text())


def default_client_dir() -> Path:
    """The client folder ``hearts serve`` serves (``HEARTS_CLIENT_DIR`` or ``client/`` beside ``tools/``)."""
    env = os.environ.get("HEARTS_CLIENT_DIR")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "client"


def runtime_dir(client: Path, pinned: dict | None = None) -> Path:
    """Return the folder the pinned runtime lives in under the client folder ``client``."""
    pinned = pinned or lock()
    return client / "runtime" / f"{pinned['package']}-{pinned['version']}"


def installed(client: Path) -> bool:
    """Return True if the pinned runtime's files are all in place under ``client``."""
    pinned = lock()
    folder = runtime_dir(client, pinned)
    stamp = folder / STAMP
    return (
        stamp.is_file()
        and stamp.read_text().strip() == pinned["integrity"]
        and all((folder / name).is_file() for name in pinned["files"])
    )


def check_integrity(data: bytes, integrity: str) -> None:
    """Raise ValueError unless ``data`` has the npm ``integrity`` hash (``sha512-<base64>``)."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm not in ("sha512", "sha384", "sha256"):
        raise ValueError(f"unsupported integrity algorithm {algorithm!r}")
    got = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if got != expected:
        raise ValueError(f"the tarball's {algorithm} is {got}, the lock pins {expected}")


def unpack(data: bytes, folder: Path, names: list[str]) -> None:
    """Write the files ``names`` from the npm tarball ``data`` (under ``package/``) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in names:
            member = tar.getmember(f"package/{name}")
            source = tar.extractfile(member)
            if source is None:
                raise ValueError(f"{name} is not a file in the tarball")
            part = folder / (name + ".part")
            part.write_bytes(source.read())
            part.replace(folder / name)


def fetch(client: Path, tarball: str | None = None) -> Path:
    """Fetch, check and unpack the pinned runtime under ``client`` unless it is there; return its folder."""
    pinned = lock()
    folder = runtime_dir(client, pinned)
    if installed(client):
        return folder
    if tarball:
        data = Path(tarball).read_bytes()
    else:
        with urllib.request.urlopen(pinned["tarball"], timeout=120) as answer:
            data = answer.read()
    check_integrity(data, pinned["integrity"])
    (folder / STAMP).unlink(missing_ok=True)
    unpack(data, folder, pinned["files"])
    (folder / STAMP).write_text(pinned["integrity"] + "\n")
    return folder


def main(argv: list[str] | None = None) -> int:
    """Fetch the runtime from the command line (``hearts fetch-runtime`` or ``python3 tools/runtime_fetch.py``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the fetch's options to ``parser``."""
    parser.add_argument("--client-dir", type=Path, default=None, help="the client folder (default: the served one)")
    parser.add_argument("--tarball", default=None, help="a local copy of the pinned tarball instead of the registry")


def run(args: argparse.Namespace) -> int:
    """Fetch as ``args`` say; print where the runtime is, or why it could not be fetched (exit code 1)."""
    client = args.client_dir or default_client_dir()
    pinned = lock()
    try:
        folder = fetch(client, args.tarball)
    except (OSError, ValueError, KeyError, tarfile.TarError) as exc:
        print(f"could not fetch {pinned['package']} {pinned['version']}: {exc}", file=sys.stderr)
        return 1
    size = sum((folder / name).stat().st_size for name in pinned["files"])
    print(f"{pinned['package']} {pinned['version']} in {folder} ({size / 1e6:.1f} MB, integrity checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
