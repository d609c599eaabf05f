"""The computer players' pace a host chooses: how it scales the pause before each computer move."""

from __future__ import annotations

#: ``slow``, ``normal`` and ``fast`` as factors of the pause (``hearts serve --bot-delay`` is the normal one).
PACE_FACTORS = {"slow": 2.0, "normal": 1.0, "fast": 0.35}
