"""The one JSON encoder for everything the server writes: messages, stored log entries, links between nodes."""

from __future__ import annotations

import json

#: JSON without spaces. ``json.dumps`` with separators builds a new encoder on every call; this one is made once.
compact = json.JSONEncoder(separators=(",", ":")).encode
