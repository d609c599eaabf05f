"""Which memory allocator the server runs on, and how much memory it holds live.

Python's own allocator (pymalloc, the default) hands memory back to the system only in whole arenas of 1 MiB, and a
few objects made while a burst of connections came and went keep most of them: after 1,000 sockets that never said
hello the server stays about 10 MiB above where it was (the next bursts reuse it). Debian's jemalloc
(``libjemalloc2``), with the interpreter asking it for every allocation (``PYTHONMALLOC=malloc``), keeps 4 to 6 MiB
of it, at no CPU cost the capacity bench could see (docs/benchmarks.md). ``--allocator jemalloc`` starts the server
again once with the library preloaded; ``auto`` does so where it is installed.

Under jemalloc the interpreter counts no live blocks (``sys.getallocatedblocks`` is 0), so ``/healthz`` reports
jemalloc's own count of live bytes instead (``allocated_bytes``); under pymalloc it reports ``allocated_blocks``.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
import sysconfig
from typing import Any

CHOICES = ("pymalloc", "jemalloc", "auto")
LIBRARY = "libjemalloc.so.2"
# purge freed pages from a thread of jemalloc's own, one second after they fall free; keep no lazily freed pages
DECAY = "background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0"


def jemalloc_path() -> str | None:
    """Where Debian (or a local build) put jemalloc's shared library, or None where it is not installed."""
    folders = [f"/usr/lib/{sysconfig.get_config_var('MULTIARCH') or ''}", "/usr/lib", "/usr/local/lib", "/lib"]
    for folder in folders:
        path = os.path.join(folder, LIBRARY)
        if os.path.isfile(path):
            return path
    return None


@functools.cache  # the allocator is chosen at start and never changes
def _mallctl() -> Any:
    """The control function of jemalloc where this process runs on jemalloc, else None."""
    if os.environ.get("PYTHONMALLOC") != "malloc":
        return None  # pymalloc serves the interpreter even if jemalloc is loaded: it is not ours to count
    try:
        return ctypes.CDLL(None).mallctl
    except (AttributeError, OSError):
        return None


def in_use() -> str:
    """The allocator this process runs on: ``jemalloc``, ``pymalloc`` or ``malloc`` (the C library's)."""
    if _mallctl() is not None:
        return "jemalloc"
    return "pymalloc" if sys.getallocatedblocks() > 0 else "malloc"


def restart_argv(choice: str, environ: dict[str, str]) -> tuple[list[str], dict[str, str]] | None:
    """The command and environment to start this process again on jemalloc, or None to go on as it is.

    Raises ValueError when jemalloc is asked for and not installed.
    """
    if choice == "pymalloc" or in_use() == "jemalloc":
        return None
    path = jemalloc_path()
    if path is None:
        if choice == "jemalloc":
            raise ValueError(f"{LIBRARY} is not installed (Debian: apt-get install libjemalloc2)")
        return None
    preload = [p for p in environ.get("LD_PRELOAD", "").split(":") if p]
    if path in preload and environ.get("PYTHONMALLOC") == "malloc":
        return None  # preloaded once already and still not in use: never loop
    env = dict(environ)
    env["LD_PRELOAD"] = ":".join([path, *[p for p in preload if p != path]])
    env["PYTHONMALLOC"] = "malloc"
    env.setdefault("MALLOC_CONF", DECAY)
    return [sys.executable, *sys.orig_argv[1:]], env


def adopt(choice: str) -> None:
    """Start this process again on jemalloc where ``choice`` and the machine say so; return only to go on as it is."""
    again = restart_argv(choice, dict(os.environ))
    if again is not None:
        argv, env = again
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(argv[0], argv, env)


def live_memory() -> dict[str, int]:
    """For ``/healthz``: jemalloc's live bytes (``allocated_bytes``), or the interpreter's live blocks."""
    mallctl = _mallctl()
    if mallctl is None:
        return {"allocated_blocks": sys.getallocatedblocks()}
    epoch = ctypes.c_uint64(1)
    mallctl(b"epoch", None, None, ctypes.byref(epoch), ctypes.c_size_t(ctypes.sizeof(epoch)))  # refresh the stats
    value = ctypes.c_size_t(0)
    size = ctypes.c_size_t(ctypes.sizeof(value))
    mallctl(b"stats.allocated", ctypes.byref(value), ctypes.byref(size), None, ctypes.c_size_t(0))
    return {"allocated_bytes": value.value}


def live_figure(health: dict[str, Any]) -> tuple[int, str]:
    """Read the live memory figure of a ``/healthz`` body: (value, ``bytes`` or ``blocks``)."""
    if "allocated_bytes" in health:
        return int(health["allocated_bytes"]), "bytes"
    return int(health.get("allocated_blocks", 0)), "blocks"
