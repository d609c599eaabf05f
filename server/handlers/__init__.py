"""The handlers of client messages, grouped by concern; ``HANDLERS`` is the one table from message type to handler.

Each handler binds itself to its messages with ``@handles`` (``binding.py``). The messages are declared once, in
``server/table/messages.py``: importing this package fails while a declared message has no handler.
"""

from __future__ import annotations

from ..table.messages import DECLARED
from . import host, identity, new_tables, play, reports, seating
from .binding import HANDLERS, Handler, handles

__all__ = ["HANDLERS", "Handler", "handles", "host", "identity", "new_tables", "play", "reports", "seating"]

if HANDLERS.keys() != DECLARED.keys():
    raise ImportError(
        f"client messages without a handler: {sorted(DECLARED.keys() - HANDLERS.keys())}; "
        f"handlers of no declared message: {sorted(HANDLERS.keys() - DECLARED.keys())}"
    )
