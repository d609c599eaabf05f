"""Computer players: they decide from a seat's view (JSON data) and their own memory, nothing else."""

from __future__ import annotations

from .base import LEVELS, ComputerPlayer
from .make import make_player

__all__ = ["LEVELS", "ComputerPlayer", "make_player"]
