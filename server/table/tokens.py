"""Secret tokens (players' and seats'): stored and compared only as their hash."""

from __future__ import annotations

import hashlib


def token_hash(token: str) -> str:
    """Return the SHA-256 (hex) under which a secret token is stored: never the token itself."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
