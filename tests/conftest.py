"""Test-session setup shared by every folder."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings

from hartenjagen.shared.bots import kernel

# Property tests check behaviour, not speed: no deadline per example and no health check on how fast examples are
# made (both time a shared, busy machine; a game state takes a while to build when another process holds a core).
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")


def pytest_configure(config: pytest.Config) -> None:
    """Compile the hard player's kernel once, before any test or server times a decision (cached after that)."""
    kernel.warm()
