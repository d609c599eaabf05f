"""Deal the unseen cards to the other seats, consistent with everything the seat knows (determinization)."""

from __future__ import annotations

import random

from ..cards import Mask
from .knowledge import Knowledge


class Sampler:
    """Draws hands for the other seats: known cards stay put, shown voids are respected, sizes match."""

    def __init__(self, k: Knowledge) -> None:
        self.seat = k.seat
        self.hand = k.hand
        self.others = [s for s in range(4) if s != k.seat]
        self.fixed = [k.known[s] & k.unseen for s in range(4)]
        self.need = [k.sizes[s] - self.fixed[s].bit_count() for s in range(4)]
        free = k.unseen
        for s in self.others:
            free &= ~self.fixed[s]
        # cards ordered most-constrained first: a card only one seat may hold goes before a free one
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in range(52):
            if free >> c & 1:
                bit = 1 << c
                allowed = tuple(s for s in self.others if not k.voids[s] & bit)
                groups.setdefault(allowed, []).append(bit)
        self.groups = sorted(groups.items(), key=lambda item: len(item[0]))
        self.voids = k.voids

    def sample(self, rng: random.Random) -> list[Mask]:
        """Return four hands (this seat's own included) drawn at random among the consistent ones."""
        rand = rng.random
        for attempt in range(40):
            relax = attempt >= 30  # nearly never: fall back to ignoring shown voids
            hands = list(self.fixed)
            hands[self.seat] = self.hand
            need = list(self.need)
            ok = True
            for allowed, bits in self.groups:
                seats = self.others if relax else allowed
                order = bits[:]
                rng.shuffle(order)
                if len(seats) == 3 and sum(need[s] for s in seats) == len(order):
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
                    r = rand() * total
                    for s in seats:
                        r -= need[s]
                        if r < 0 and need[s] > 0:
                            break
                    else:
                        s = next(x for x in seats if need[x] > 0)
                    hands[s] |= bit
                    need[s] -= 1
                if not ok:
                    break
            if ok:
                return hands
        raise RuntimeError("no deal is consistent with this view")
