"""Test-session setup shared by every folder."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings

from hartenjagen.shared.bots import kernel

# Property tests check behaviour, not speed: no deadline per example and no health check on how fast examples are
# made (both time a shared, busy machine; a game state takes a while to build when another process holds a core).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


def pytest_configure(config: pytest.Config) -> None:
    """Compile the hard player's kernel once, before any test or server times a decision (cached after that).

    On a fresh install the session's first process compiles its parts side by side: the counted look-ahead and the
    pass review's playouts in two other processes while it compiles the one-deck look-ahead (numba caches each part
    on its own), about half the time of one after another. The test processes then load them from the cache.
    """
    if kernel.AVAILABLE and not os.environ.get("PYTEST_XDIST_WORKER") and not kernel.cached():
        code = "import sys; from hartenjagen.shared.bots import kernel; kernel.compile_part(sys.argv[1])"
        beside = [subprocess.Popen([sys.executable, "-c", code, part]) for part in kernel.PARTS[1:]]
        kernel.compile_part(kernel.PARTS[0])
        for process in beside:
            process.wait()
    kernel.warm()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the long tests (``@pytest.mark.long``) first, spread over the test processes, so none is left at the end.

    pytest-xdist's worksteal hands each process an equal run of the collected tests, in order, and lets a process that
    ran out take the later half of another's queue. The long tests (browser journeys, the chaos minute, the benches)
    sat late in the collection, so whichever process drew them ran them one after another while the others idled:
    with a busy core the run took minutes longer than its work. Here each process's run begins with its share of the
    long tests, a module's long tests together (they may share a module-scoped fixture), the modules with the most
    long tests first, each to the process with the fewest so far; the other tests keep their order.
    """
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        if item.get_closest_marker("long") is not None:
            groups.setdefault(item.nodeid.split("::")[0], []).append(item)
    if not groups:
        return
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for group in sorted(groups.values(), key=len, reverse=True):
        min(shares, key=len).extend(group)
    chosen = {id(item) for group in groups.values() for item in group}
    rest = iter([item for item in items if id(item) not in chosen])
    ordered: list[pytest.Item] = []
    spill: list[pytest.Item] = []  # long tests past a process's whole run (never with today's few dozen)
    left = len(items)
    for k, share in enumerate(shares):
        size = left // (workers - k)  # as worksteal deals its first runs: what is left, over the processes left
        left -= size
        ordered += share[:size]
        spill += share[size:]
        ordered += itertools.islice(rest, size - len(share[:size]))
    items[:] = ordered + spill + list(rest)
