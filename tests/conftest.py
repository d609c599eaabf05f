"""Test-session setup shared by every folder."""

from __future__ import annotations

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
