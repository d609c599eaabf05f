"""Deal the unseen cards to the other seats, consistent with everything the seat knows (determinization).

Each deal is drawn from a 32-bit xorshift stream started from one seed, so the compiled twin
(``kernel``) can draw the very same deal, and the same rollout draws after it, from that seed.
"""

from __future__ import annotations

import random

from ..cards import Mask
from .knowledge import Knowledge

M32 = 0xFFFFFFFF
#: One over 2**32: turns a 32-bit state into a float in (0, 1), exactly in both twins.
INV32 = 1.0 / 4294967296.0
#: Attempts at a consistent deal; from ``RELAX_AT`` on, shown voids are ignored (nearly never needed).
ATTEMPTS = 40
RELAX_AT = 30


def seed_from(rng: random.Random) -> int:
    """Return a nonzero 32-bit stream seed drawn from ``rng``."""
    return rng.getrandbits(32) | 1


def floats(x: int, n: int) -> tuple[list[float], int]:
    """Return ``n`` floats in (0, 1) from the xorshift stream at state ``x``, and the state after them."""
    out = []
    for _ in range(n):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        out.append(x * INV32)
    return out, x


def shuffle_from(order: list[int], x: int) -> int:
    """Shuffle ``order`` in place (Fisher-Yates) from the xorshift stream at state ``x``; return the state after."""
    for i in range(len(order) - 1, 0, -1):
        x ^= (x << 13) & M32
        x ^= x >> 17
        x ^= (x << 5) & M32
        j = int(x * INV32 * (i + 1))
        order[i], order[j] = order[j], order[i]
    return x


class Sampler:
    """Draws hands for the other seats: known cards stay put, shown voids are respected, sizes match."""

    def __init__(self, k: Knowledge) -> None:
        self.seat = k.seat
        self.hand = k.hand
        n = self.seats = k.seats
        # the kitty cards this seat has not seen lie face down (or in another's tricks): a holder of their own,
        # the place after the last seat, with no void to respect
        self.others = [s for s in range(n) if s != k.seat] + ([n] if k.kitty_out else [])
        kitty = [0] if k.kitty_out else []
        self.fixed = [k.known[s] & k.unseen for s in range(n)] + kitty
        self.need = [k.sizes[s] - self.fixed[s].bit_count() for s in range(n)] + ([k.kitty_out] if kitty else [])
        voids = list(k.voids) + [0]
        free = k.unseen
        for s in self.others:
            free &= ~self.fixed[s]
        # cards ordered most-constrained first: a card only one seat may hold goes before a free one
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in range(52):
            if free >> c & 1:
                bit = 1 << c
                allowed = tuple(s for s in self.others if not voids[s] & bit)
                groups.setdefault(allowed, []).append(bit)
        self.groups = sorted(groups.items(), key=lambda item: len(item[0]))
        self.voids = voids

    def sample(self, rng: random.Random) -> list[Mask]:
        """Return a hand per seat (this seat's own included) drawn at random among the consistent ones."""
        return self.sample_from(seed_from(rng))[0]

    def sample_from(self, x: int) -> tuple[list[Mask], int]:
        """Return a hand per seat drawn from the xorshift stream at state ``x``, and the state after the deal."""
        hands, _, x = self.sample_with_kitty(x)
        return hands, x

    def sample_with_kitty(self, x: int) -> tuple[list[Mask], Mask, int]:
        """``sample_from``, and the unseen kitty cards of the deal (nobody plays them; a known taker counts them)."""
        for attempt in range(ATTEMPTS):
            relax = attempt >= RELAX_AT
            hands = list(self.fixed)
            hands[self.seat] = self.hand
            need = list(self.need)
            ok = True
            for allowed, bits in self.groups:
                seats = self.others if relax else allowed
                order = bits[:]
                x = shuffle_from(order, x)
                if len(seats) == len(self.others) and sum(need[s] for s in seats) == len(order):
                    # free to go anywhere (the last group): deal the shuffled cards out by the sizes
                    i = 0
                    for s in seats:
                        hands[s] |= sum(order[i : i + need[s]])
                        i += need[s]
                        need[s] = 0
                    continue
                for bit in order:
                    total = 0
                    for s in seats:
                        total += need[s]
                    if total <= 0:
                        ok = False
                        break
                    x ^= (x << 13) & M32
                    x ^= x >> 17
                    x ^= (x << 5) & M32
                    r = x * INV32 * total
                    for s in seats:
                        r -= need[s]
                        if r < 0 and need[s] > 0:
                            break
                    else:
                        s = next(y for y in seats if need[y] > 0)
                    hands[s] |= bit
                    need[s] -= 1
                if not ok:
                    break
            if ok:
                return hands[: self.seats], hands[self.seats] if len(hands) > self.seats else 0, x
        raise RuntimeError("no deal is consistent with this view")
