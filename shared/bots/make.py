"""``make_player``: a computer player of any level, by name."""

from __future__ import annotations

from typing import Unpack

from .base import LEVELS, ComputerPlayer, HardOptions
from .easy import EasyComputerPlayer
from .medium import MediumComputerPlayer


def make_player(level: str, seed: int | None = None, **options: Unpack[HardOptions]) -> ComputerPlayer:
    """Return a computer player of ``level`` ("easy", "medium", "hard", or "random").

    ``options`` go to the level's constructor (the hard player takes ``budget_ms``).
    """
    if level == "random":
        return ComputerPlayer(seed)
    if level == "easy":
        return EasyComputerPlayer(seed)
    if level == "medium":
        return MediumComputerPlayer(seed)
    if level == "hard":
        # loaded at its first use: the browser's worker starts without the look-ahead's modules (it warms them later)
        from .hard import HardComputerPlayer

        return HardComputerPlayer(seed, **options)
    raise ValueError(f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}")
