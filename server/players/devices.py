"""Your player on every device: one-time codes (ten minutes, used once) that move a player to another device.

The statistics dialog asks for a code (``device_code``) and shows it with a QR code of its link; the other device
enters it (``use_device_code``) and gets a token of its own for the same player, so both keep working; ``devices``
lists the devices that hold the player and ``sign_out_device`` drops one. Codes are kept hashed; a wrong code counts
as a guess, limited as table codes are.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from typing import Any, Protocol

from ..table import outgoing
from ..table.codes import CODE_ALPHABET
from ..table.errors import ProtocolError
from ..table.messages import DEVICE_CODE_LENGTH

CODE_SECONDS = 600.0  # a code is good for ten minutes
CODES_PER_WINDOW, CODE_WINDOW = 5, 600.0  # codes one player may ask for in ten minutes


def new_code() -> str:
    """Return a fresh one-time code (letters and digits that cannot be mistaken for each other)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(DEVICE_CODE_LENGTH))


def shown(code: str) -> str:
    """Return a code as people read it: two groups of four."""
    return f"{code[:4]}-{code[4:]}"


def qr_svg(text: str) -> str:
    """Return a QR code of ``text`` as an SVG image (``segno``: a well-kept pure-Python encoder)."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=4, border=2, dark="#111", light="#fff")


class DeviceStore(Protocol):
    """What device codes keep in the store (``storage.store.Store`` has it; players/ does not import storage/)."""

    async def new_device_code(self, player_id: int, code: str, expires_at: float) -> None:
        """Keep a one-time code (its hash) that moves ``player_id`` to another device until ``expires_at``."""

    async def use_device_code(self, code: str, label: str, now: float) -> tuple[int, str, str] | None:
        """Use a code once: a new device token for its player; return ``(id, token, name)``, or None if not valid."""

    async def devices(self, player_id: int) -> list[dict[str, Any]]:
        """Return the devices that hold ``player_id``."""


class DeviceCodes:
    """The hub's part: asks for codes (limited per player), uses them, lists and signs out devices."""

    def __init__(self, store: DeviceStore) -> None:
        self.store = store
        self.asked: dict[int, deque[float]] = {}

    def _limit(self, player_id: int, now: float) -> None:
        times = self.asked.setdefault(player_id, deque())
        while times and now - times[0] >= CODE_WINDOW:
            times.popleft()
        if len(times) >= CODES_PER_WINDOW:
            raise ProtocolError("device_codes_limited")
        times.append(now)
        if len(self.asked) > 10_000:
            self.asked = {p: t for p, t in self.asked.items() if t and now - t[-1] < CODE_WINDOW}

    async def ask(self, player_id: int, origin: str) -> dict[str, Any]:
        """Return the ``device_code`` message: a new code, when it expires, and a QR code of its link."""
        now = time.time()
        self._limit(player_id, now)
        code = new_code()
        await self.store.new_device_code(player_id, code, now + CODE_SECONDS)
        link = f"{origin}/?device={shown(code)}"
        return outgoing.device_code(shown(code), now + CODE_SECONDS, link, qr_svg(link))

    async def use(self, code: str, label: str) -> tuple[int, str, str] | None:
        """Use a code: ``(player id, new token, name)``, or None for a code that is not valid (a guess)."""
        return await self.store.use_device_code(code, label, time.time())

    async def listing(self, player_id: int, this_token_hash: str | None) -> dict[str, Any]:
        """Return the ``devices`` message: every device holding the player, this one marked."""
        devices = await self.store.devices(player_id)
        for d in devices:
            d["this"] = this_token_hash is not None and this_token_hash.startswith(d["id"])
        return outgoing.devices(devices)
