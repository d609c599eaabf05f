"""Where each rule field sits in the kernel's flags: ``kernel.rule_flags`` packs them, ``kernel_impl`` reads them.

Named ints, so that both sides say ``flags[QUEEN_WAITS]``, never ``flags[3]``. ``kernel_impl`` compiles these
numbers in: numba's cache is keyed on ``kernel_impl.py`` alone, so a change here needs a change there (or a fresh
cache) before a cached kernel reads the new places.
"""

from __future__ import annotations

PENALTY = 0  #: the penalty cards' mask (``Rules.penalty_mask``; its first layer where cards have copies)
FIRST_TRICK_POINTS = 1  #: 1 where points may go in the first trick
QUEEN_BREAKS_HEARTS = 2  #: 1 where Q♠ breaks hearts
QUEEN_WAITS = 3  #: 1 where Q♠ waits for hearts to be broken
QUEEN_MUST_GO = 4  #: 1 where Q♠ goes at the first chance not to take her (gentleman's rule 3)
HEARTS_MUST_BREAK = 5  #: 1 where hearts may be led only once broken
FIRST_LEAD = 6  #: the card that leads the first trick, or -1
DOUBLERS = 7  #: the cards that double their trick when they follow the led suit (``sim.doubler_mask``), or 0
BIG = 8  #: the card the rule of thumb dumps and keeps out of leads (``rollout.big_bits``), or 0
BIG_SUIT = 9  #: that card's suit mask, or 0
NO_MOON = 10  #: 1 where there is no moon rule (nobody needs stopping)
THREAT = 11  #: the points a lone point-taker needs before the rollouts stop its moon (``moon_threat_points``)
GROUPS = 12  #: how many point groups follow, each as its mask at ``GROUP_MASK + 2 g`` and its points after it
GROUP_MASK = 13  #: the first point group's mask (one deck's cards)
GROUP_POINTS = 14  #: the first point group's points per card
