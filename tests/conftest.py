"""Test-session setup shared by every folder."""

from __future__ import annotations

import pytest

from hartenjagen.shared.bots import kernel


def pytest_configure(config: pytest.Config) -> None:
    """Compile the hard player's kernel once, before any test or server times a decision (cached after that)."""
    kernel.warm()
