"""Table codes: six letters and digits without look-alikes, made at random, and the one check of a code sent in."""

from __future__ import annotations

import secrets

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 6
CODE_MAX = 16  # what a client may send: longer is never a code (and never echoed)


def new_code(taken: set[str] | dict) -> str:
    """Return a random table code not in ``taken``."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def table_code(value: object) -> str | None:
    """Return ``value`` as a code to look up (trimmed, upper case), or None when it cannot be one.

    >>> table_code(" k7qxpm "), table_code("K7-QXP"), table_code("é"), table_code(7)
    ('K7QXPM', None, None, None)
    """
    code = value.strip().upper() if isinstance(value, str) else ""
    return code if 1 <= len(code) <= CODE_MAX and code.isascii() and code.isalnum() else None
