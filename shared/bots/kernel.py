"""An optional compiled twin of the look-ahead rollout: the same plays, card for card, many deals in one call.

It needs the ``fast`` extra (numba, a wheel from the package registry). Without it, or with
``HEARTS_KERNEL=0`` in the environment, ``AVAILABLE`` is False and the hard player runs the
pure-Python ``rollout`` instead. Both read the same random draws and play the same cards, so a
seed, a view and a budget give the same decision either way (``tests/bots/test_kernel.py``).

It plays every table of one deck (cards as bits of a 52-bit mask) at any seat count, a kitty too (its unseen
cards are dealt to nobody, as in Python): ``Plan`` and ``covers``. Where a card may appear twice (several decks,
jokers) ``CountedPlan`` does the same on layered hands (three masks a seat): it deals from the seeds as
``CountedSampler.sample_from`` does, plays ``counted_rollout``'s cards and values the outcomes.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import pickle
from pathlib import Path
from typing import TYPE_CHECKING

from ..cards import Mask
from ..multiset import LAYER, LAYER0
from ..rules import Rules
from ..sim import doubler_mask
from .compiled import sources
from .counted import CountedSampler, stops_moon
from .inference import PLAY_FIELDS, Play
from .kernel_flags import (
    BIG,
    BIG_SUIT,
    DOUBLERS,
    FIRST_LEAD,
    FIRST_TRICK_POINTS,
    GROUP_MASK,
    GROUPS,
    HEARTS_MUST_BREAK,
    NO_MOON,
    PENALTY,
    QUEEN_BREAKS_HEARTS,
    QUEEN_MUST_GO,
    QUEEN_WAITS,
    THREAT,
)
from .knowledge import Knowledge, moon_threat_points, start_taken
from .rollout import big_bits  # it imports thumb.py: every helper the kernel compiles is marked (``sources``)
from .sampling import Sampler
from .value import ValueSpec

#: The fast extra is installed and not switched off (numba itself is imported only by ``warm``).
AVAILABLE = os.environ.get("HEARTS_KERNEL", "1") != "0" and importlib.util.find_spec("numba") is not None
if TYPE_CHECKING:  # imported by ``warm`` only, so that importing this module never imports numpy or numba
    from types import ModuleType

    import numpy as np

    from . import kernel_impl as _impl
    from .kernel_impl import Floats, Ints
else:
    _impl = None  # the compiled module, once ``warm`` has run
    np = None  # numpy, once ``warm`` has run

#: Per deal, per candidate: the cards each seat took and each seat's doubled tricks (``[taken, doubled]``), a
#: mask per seat.
Outcomes = list[list[list[list[int]]]]


def rule_flags(rules: Rules) -> tuple[int, ...]:
    """Return the rule fields the kernel reads, as plain integers, each at its named place (``kernel_flags``)."""
    flags = [0] * GROUP_MASK
    flags[PENALTY] = rules.penalty_mask
    flags[FIRST_TRICK_POINTS] = int(rules.first_trick_points)
    flags[QUEEN_BREAKS_HEARTS] = int(rules.queen_breaks_hearts)
    flags[QUEEN_WAITS] = int(rules.queen_waits)
    flags[QUEEN_MUST_GO] = int(rules.queen_must_go)
    flags[HEARTS_MUST_BREAK] = int(rules.hearts_must_break)
    flags[FIRST_LEAD] = rules.first_lead
    flags[DOUBLERS] = doubler_mask(rules)
    flags[BIG], flags[BIG_SUIT] = big_bits(rules)
    flags[NO_MOON] = int(rules.moon == "none")
    flags[THREAT] = moon_threat_points(rules)
    flags[GROUPS] = len(rules.point_groups)
    for mask, points in rules.point_groups:  # at GROUP_MASK + 2 g and GROUP_POINTS + 2 g (one deck's masks)
        flags += [mask, points]
    return tuple(flags)


#: The scoring features (``rules.scoring_features``) the compiled scorer and valuer (``kernel_impl._score``,
#: ``_score_c``, ``_value``) score and value as ``sim.hand_scorer`` and ``value.valuer`` do: points per penalty
#: card, the moon in each of its forms, counting down, and the ends of a points game. Rules with any other feature
#: (chips, teams, doublers, cancellers, the sun, bonus cards, or one not known yet) have their outcomes scored in
#: Python.
COMPILED_SCORING = frozenset(
    {
        "moon=others", "moon=self", "moon=choose", "moon=none",
        "end=reach", "end=dutch", "end_over", "exact_zero=False", "exact_zero=True", "tie=share", "tie=play_on",
    }
)  # fmt: skip


def compiled_scoring(rules: Rules) -> bool:
    """Return True when the kernel scores and values these rules itself: it names each of their scoring features."""
    return rules.scoring <= COMPILED_SCORING


def covers(rules: Rules) -> bool:
    """Return True for rules the compiled look-ahead plays: one deck, any seat count, a kitty too (not counted)."""
    return not rules.counted


def cache_folder() -> Path:
    """Return where numba keeps (or would keep) this kernel's cache, for this very source file's path.

    With ``NUMBA_CACHE_DIR`` set, numba keeps it in a folder of its own per source folder: the folder's name and
    the SHA-1 of its absolute path. Otherwise in ``__pycache__`` beside the source.
    """
    src = Path(__file__).with_name("kernel_impl.py")
    root = os.environ.get("NUMBA_CACHE_DIR")
    if not root:
        return src.parent / "__pycache__"
    folder = os.path.dirname(os.path.abspath(src))
    return Path(root) / f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


def cached() -> bool:
    """Return True when numba's cache holds the kernel compiled from this very source (loading it is quick).

    Reads numba's index the way numba does (its version, and a SHA-256 of the source) without importing
    numba, in the one folder numba would use for this source's path (``cache_folder``): a cache made for a copy
    of the code elsewhere does not count, nor one compiled from other helpers (``helpers_digest``). Where numba
    cannot write there (it then uses a user-wide folder) it answers False: an early ``warm``.
    """
    src = Path(__file__).with_name("kernel_impl.py")
    digest = hashlib.sha256(src.read_bytes()).digest()
    import importlib.metadata  # here: importing it costs the browser's worker, which never has numba, 30 ms or more

    try:
        version = importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return False
    folder = cache_folder()
    if not _helpers_fresh():
        return False
    for index in folder.glob("kernel_impl.batch-*.nbi") if folder.is_dir() else ():
        try:
            with index.open("rb") as f:
                if pickle.load(f) == version and digest in f.read():
                    return True
        except (OSError, pickle.UnpicklingError, EOFError):
            continue
    return False


def helpers_digest() -> str:
    """Return the SHA-256 of the files of the helpers compiled into the kernel (``compiled.sources``).

    numba checks its cache of the kernel against ``kernel_impl.py`` alone, though the compiled code holds the
    helpers too: ``warm`` keeps this digest beside the cache (``kernel_impl.helpers.sha256``) and forgets a cache
    made from other helpers.
    """
    digest = hashlib.sha256()
    for path in sources():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _helpers_stamp() -> Path:
    """The file beside numba's cache of the kernel that names the helpers it was compiled from."""
    return cache_folder() / "kernel_impl.helpers.sha256"


def _helpers_fresh() -> bool:
    """Return True when the cache beside ``_helpers_stamp`` was compiled from the helpers as they are now."""
    try:
        return _helpers_stamp().read_text().strip() == helpers_digest()
    except OSError:
        return False


def _helpers_changed() -> bool:
    """Return True when the cache was compiled from other helpers than these (a stamp names others).

    No stamp at all is no change: a cache just forgotten (by this process or another, compiling now) has none.
    """
    return _helpers_stamp().is_file() and not _helpers_fresh()


def _stamp_helpers() -> None:
    """Write the helpers' digest beside the cache just compiled or loaded (where numba can write, else nowhere).

    A stamp that names these helpers already is left as it is: loading a cache writes nothing (a read-only image
    layer, or a cache shared by many processes, stays untouched).
    """
    if _helpers_fresh():
        return
    try:
        _helpers_stamp().write_text(helpers_digest() + "\n")
    except OSError:
        pass


def _forget_cache() -> None:
    """Delete this kernel's cache files (made under another module name, or from other helpers: ``helpers_digest``)."""
    folder = cache_folder()
    for path in [_helpers_stamp(), *folder.glob("kernel_impl.*.nb[ic]")] if folder.is_dir() else ():
        try:
            path.unlink()
        except OSError:
            pass


def warm() -> bool:
    """Import and compile the kernel (or load it from numba's cache) now, not inside a timed decision.

    Returns False when the kernel is not available. The first call on a fresh install compiles for
    about 20 s (one process, this 2-core machine) and writes numba's cache; later processes load it in well under a
    second.
    """
    global _impl, np
    if not AVAILABLE:
        return False
    if _impl is None:
        import numpy

        if _helpers_changed():  # compiled from other helpers (numba would load it all the same): compile afresh
            _forget_cache()
        from . import kernel_impl

        np = numpy
        try:
            _first_call(kernel_impl)
        except ImportError:  # numba's cache of this file was written under another module name: compile afresh
            _forget_cache()
            importlib.reload(kernel_impl)
            _first_call(kernel_impl)
        _stamp_helpers()
        _impl = kernel_impl
    return True


def _first_call(kernel_impl: ModuleType, parts: tuple[str, ...] = ("batch", "counted_plan", "playouts")) -> None:
    """Call the kernel once on a tiny input: numba compiles it, or loads it from its cache.

    The compiled code serves every seat count (array lengths are not part of its types): four seats here. ``parts``
    names the entry points to call (numba compiles and caches each on its own: ``compile_part``).
    """
    flags = np.array(rule_flags(_classic()), dtype=np.int64)
    z4 = np.zeros(4, dtype=np.int64)
    one = np.ones(1, dtype=np.int64)
    others = np.array([1, 2, 3], dtype=np.int64)
    if "batch" in parts:
        kernel_impl.batch(
            flags, one, 4, 0, z4, z4, others, one, np.zeros(2, dtype=np.int64), np.zeros((1, 3), np.int64),
            np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64), 0, z4, z4, 0, np.zeros(0, dtype=np.int64),
            False, False, False, 0.08, True, np.zeros(6, dtype=np.int64), one, one, np.zeros(3), z4,
            np.zeros(6, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
        )  # fmt: skip
        kernel_impl.likelihoods(
            flags, one, 0, z4, z4, others, one, np.zeros(2, dtype=np.int64), np.zeros((1, 3), np.int64),
            np.zeros(1, dtype=np.int64), 0, 4, np.zeros((0, 10), dtype=np.int64), np.zeros(63, dtype=np.int64),
        )  # fmt: skip
    z43 = np.zeros((4, 3), dtype=np.int64)
    z3 = np.zeros(3, dtype=np.int64)
    if "counted_plan" in parts:
        kernel_impl.counted_plan(
            flags, kernel_impl.SUITS, kernel_impl.HM, True, np.zeros(0, dtype=np.int64), 4, z3, z43, z4, 0, others,
            one, np.zeros(2, dtype=np.int64), np.zeros((1, 3), np.int64), one, one, 0, z43, 0,
            np.zeros(0, dtype=np.int64), False, False, z3, 0, False, 0.08, True, np.zeros(6, dtype=np.int64), z3,
            np.zeros((1, 3), np.int64), one, np.zeros(3), z4, np.zeros(6, dtype=np.int64), np.zeros(0, dtype=np.int64),
        )  # fmt: skip
        clubs = np.array([[1 << s, 0, 0] for s in range(4)], dtype=np.int64)  # a card each: one trick
        kernel_impl.counted_playout(
            flags, kernel_impl.SUITS, kernel_impl.HM, True, clubs, z43.copy(), 0, np.zeros(0, dtype=np.int64), False,
            False, np.zeros(1), False, 0.08,
        )  # fmt: skip
    if "playouts" in parts:
        z14 = np.zeros((1, 4), dtype=np.int64)
        kernel_impl.playouts(
            flags, z14, z14, np.zeros(1, dtype=np.int64), z14, np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.bool_),
            np.zeros(1, dtype=np.bool_), one, 4, False, 0.08, np.zeros(0, dtype=np.int64),
        )  # fmt: skip


#: The kernel's entry points, each compiled (and cached by numba) on its own.
PARTS = ("batch", "counted_plan", "playouts")


def compile_part(name: str) -> None:
    """Compile one entry point of the kernel into numba's cache (or load it), so that processes can share the work.

    ``warm`` in a later process then loads every part from the cache; the test session compiles the parts side by
    side this way on a fresh install.
    """
    global np
    if name not in PARTS:
        raise ValueError(f"no kernel part {name!r}; choose one of {', '.join(PARTS)}")
    import numpy

    if _helpers_changed():
        _forget_cache()
    from . import kernel_impl

    np = numpy
    _first_call(kernel_impl, (name,))
    _stamp_helpers()


def playouts(
    rules: Rules,
    hands: list[list[Mask]],
    leaders: list[int],
    states: list[int],
    draws: int,
    greedy: bool,
    whim: float,
) -> list[list[list[int]]]:
    """Play each set of whole hands from its first trick (``rollout`` from the deal), with its own random draws.

    Each set's ``draws`` draws are ``sampling.floats(state, draws)`` of its state in ``states``, used in a cycle.
    Returns ``[taken, doubled]`` per set: the cards each seat took and of each seat's doubled tricks, as the
    pure-Python ``rollout`` gives them for the same hands, leader and draws (the pass review's look-ahead).
    """
    n = rules.seats
    fresh = [[0] * n for _ in hands]
    return play_out(rules, hands, fresh, leaders, [[] for _ in hands], [True] * len(hands), [False] * len(hands),
                    states, draws, greedy, whim)  # fmt: skip


def play_out(
    rules: Rules,
    hands: list[list[Mask]],
    taken: list[list[Mask]],
    leaders: list[int],
    tricks: list[list[Mask]],
    firsts: list[bool],
    brokens: list[bool],
    states: list[int],
    draws: int,
    greedy: bool,
    whim: float,
    weights: tuple[int, ...] | None = None,
) -> list[list[list[int]]]:
    """Play each position to the hand's end as ``rollout`` does, each with its own draws: ``[taken, doubled]`` each.

    A position is the hands, the cards taken so far, who leads the trick in play and its cards, the first trick or
    not, hearts broken or not; its ``draws`` draws are ``sampling.floats(state, draws)``, used in a cycle. With
    ``weights`` the rollouts draw from the learned policy (``policy.pick``).
    """
    warm()
    n = rules.seats
    m = len(hands)
    trick_bits = np.zeros((m, n), dtype=np.int64)
    for i, trick in enumerate(tricks):
        trick_bits[i, : len(trick)] = trick
    outs = _impl.playouts(
        np.array(rule_flags(rules), dtype=np.int64), np.array(hands, dtype=np.int64).reshape(m, n),
        np.array(taken, dtype=np.int64).reshape(m, n), np.array(leaders, dtype=np.int64), trick_bits,
        np.array([len(t) for t in tricks], dtype=np.int64), np.array(firsts, dtype=np.bool_),
        np.array(brokens, dtype=np.bool_), np.array(states, dtype=np.int64), draws, greedy, whim,
        np.array(weights or (), dtype=np.int64),
    )  # fmt: skip
    result: list[list[list[int]]] = outs.tolist()
    return result


def _classic() -> Rules:
    from ..variants import make_rules

    return make_rules({"variant": "classic"})


class Valuing:
    """The scoring and the valuer of one decision as the kernel reads them (``sim.hand_scorer``, ``value.valuer``)."""

    def __init__(self, k: Knowledge, spec: ValueSpec) -> None:
        rules = k.rules
        down = k.counting_down
        moon = rules.moon
        choice = "others" if moon in ("none", "choose") else moon
        self.sc_i = np.array(
            [rules.penalty_mask & LAYER0, moon != "none" and not down, choice == "self", rules.moon_total, down,
             spec.rival],
            dtype=np.int64,
        )  # fmt: skip
        self.val_f = np.array([spec.share, spec.worth, 1.0 if spec.near else 0.0], dtype=np.float64)
        self.totals = np.array(spec.totals, dtype=np.int64)
        self.ends = np.array(
            [spec.exact and down, spec.reach, rules.end_over, rules.end_score, rules.end == "dutch" and down,
             spec.exact],
            dtype=np.int64,
        )  # fmt: skip
        # every copy of a card where the deck has copies: three layers each
        self.pen = np.array(_layers(rules.penalty_mask), dtype=np.int64)
        self.g_mask = np.array([_layers(m) for m, _ in rules.groups] or [[0, 0, 0]], dtype=np.int64).reshape(-1, 3)
        self.g_val = np.array([v for _, v in rules.groups] or [0], dtype=np.int64)


class Plan:
    """One decision's fixed inputs as arrays: the sampler's groups, the position, the scoring and the valuer."""

    def __init__(
        self,
        k: Knowledge,
        sampler: Sampler,
        spec: ValueSpec,
        draws: int,
        whim: float = 0.08,
        weights: tuple[int, ...] | None = None,
    ) -> None:
        warm()
        rules = k.rules
        self.wts = np.array(weights or (), dtype=np.int64)  # the learned rollout policy, or none: the rule of thumb
        self.draws = draws
        self.whim = whim
        self.seat = k.seat
        self.flags = np.array(rule_flags(rules), dtype=np.int64)
        # the holders a card may go to: the other seats, and the kitty's unseen cards after the last seat
        self.g_bits, self.g_start, self.g_seats, self.g_n = _group_arrays(sampler.groups, len(sampler.others))
        self.hand = sampler.hand
        self.fixed = np.array(sampler.fixed, dtype=np.int64)  # a mask per holder
        self.need = np.array(sampler.need, dtype=np.int64)
        self.others = np.array(sampler.others, dtype=np.int64)
        self.taken = np.array(start_taken(k, 0), dtype=np.int64)  # a kitty's cards count for its known taker
        self.owed = np.array(k.kitty_owed, dtype=np.int64)
        self.doubled = np.array(k.doubled, dtype=np.int64)
        self.leader = k.leader
        self.trick = np.array(k.trick_bits(), dtype=np.int64)
        self.first_trick = k.first_trick
        self.hearts_broken = k.hearts_broken
        self.greedy = k.counting_down
        # scored in the kernel when it names every scoring feature of the variant (card points and the moon alone)
        self.scoring = compiled_scoring(rules)
        valuing = Valuing(k, spec)
        self.sc_i, self.val_f, self.totals, self.ends = valuing.sc_i, valuing.val_f, valuing.totals, valuing.ends
        self.g_mask = np.array([m for m, _ in rules.point_groups] or [0], dtype=np.int64)
        self.g_val = np.array([v for _, v in rules.point_groups] or [0], dtype=np.int64)

    def _batch(self, seeds: list[int], cands: list[Mask], scoring: bool) -> tuple[Floats, Ints]:
        """Call the kernel: the values per deal and candidate when ``scoring``, else the outcomes unscored."""
        vals, outs, ok = _impl.batch(
            self.flags,
            np.array(seeds, dtype=np.int64),
            self.draws,
            self.hand,
            self.fixed,
            self.need,
            self.others,
            self.g_bits,
            self.g_start,
            self.g_seats,
            self.g_n,
            np.array(cands, dtype=np.int64),
            self.seat,
            self.taken,
            self.doubled,
            self.leader,
            self.trick,
            self.first_trick,
            self.hearts_broken,
            self.greedy,
            self.whim,
            scoring,
            self.sc_i,
            self.g_mask,
            self.g_val,
            self.val_f,
            self.totals,
            self.ends,
            self.owed,
            self.wts,
        )
        if not ok:
            raise RuntimeError("no deal is consistent with this view")
        return vals, outs

    def run(self, seeds: list[int], cands: list[Mask]) -> tuple[list[list[float]] | None, Outcomes]:
        """Play each candidate bit on the deal of each seed: values per deal and candidate.

        When the kernel does not score this variant, it gives ``[deal][candidate] = [taken, doubled]`` instead.
        """
        vals, outs = self._batch(seeds, cands, self.scoring)
        if self.scoring:
            return vals.tolist(), []
        return None, outs.tolist()

    def points(self, seeds: list[int], cands: list[Mask]) -> list[list[float]] | None:
        """The seat's own score change for the hand per deal and candidate (scored in the kernel), or None.

        None where the kernel does not score the variant (see ``scoring``): then ``outcomes`` and Python's scoring.
        """
        if not self.scoring:
            return None
        val_f, self.val_f = self.val_f, np.zeros(3, dtype=np.float64)  # the value is then -score[seat], exactly
        try:
            vals, _ = self._batch(seeds, cands, True)
        finally:
            self.val_f = val_f
        return [[-v for v in row] for row in vals.tolist()]

    def likelihoods(self, seeds: list[int], plays: list[Play], weights: tuple[int, ...]) -> list[float]:
        """``inference.log_likelihood`` of the deal of each seed, by the policy of ``weights``."""
        table = np.array(plays, dtype=np.int64).reshape(-1, PLAY_FIELDS)
        out, ok = _impl.likelihoods(
            self.flags, np.array(seeds, dtype=np.int64), self.hand, self.fixed, self.need, self.others, self.g_bits,
            self.g_start, self.g_seats, self.g_n, self.seat, self.taken.shape[0], table,
            np.array(weights, dtype=np.int64),
        )  # fmt: skip
        if not ok:
            raise RuntimeError("no deal is consistent with this view")
        result: list[float] = out.tolist()
        return result

    def outcomes(self, seeds: list[int], cands: list[Mask]) -> Outcomes:
        """Play each candidate bit on the deal of each seed; return the outcomes unscored.

        ``[deal][candidate]`` is ``[taken, doubled]``: the cards each seat took, and of each seat's doubled tricks.
        """
        outcomes: Outcomes = self._batch(seeds, cands, False)[1].tolist()
        return outcomes


def _group_arrays(groups: list[tuple[tuple[int, ...], list[int]]], width: int) -> tuple[Ints, Ints, Ints, Ints]:
    """A sampler's groups as the kernel reads them: members in one row, starts, holders (padded) and their count.

    The members are cards (counted decks) or bits (one deck); each group's holders are padded to ``width``.
    """
    members: list[int] = []
    start = [0]
    seats: list[list[int]] = []
    width = max(1, width)
    for allowed, group in groups:
        members.extend(group)
        start.append(len(members))
        seats.append(list(allowed) + [0] * (width - len(allowed)))
    return (
        np.array(members or [0], dtype=np.int64),
        np.array(start, dtype=np.int64),
        np.array(seats or [[0] * width], dtype=np.int64).reshape(-1, width),
        np.array([len(a) for a, _ in groups], dtype=np.int64),
    )


def _layers(m: Mask) -> list[int]:
    """A layered mask as its three layers (``multiset``)."""
    return [m & LAYER0, m >> LAYER & LAYER0, m >> (2 * LAYER) & LAYER0]


def counted_flags(rules: Rules, moon: bool = True) -> Ints:
    """The kernel's rule flags where a card may appear more than once (``counted.counted_rollout``'s reading)."""
    flags = list(rule_flags(rules))
    flags[PENALTY] &= LAYER0  # the penalty mask's first layer: a second joker's point sits in its next layer
    flags[NO_MOON] = int(not stops_moon(rules, moon))
    return np.array(flags, dtype=np.int64)


def counted_play_out(
    rules: Rules,
    hands: list[Mask],
    taken: list[Mask],
    leader: int,
    trick: list[int],
    first_trick: bool,
    hearts_broken: bool,
    draws: list[float],
    greedy: bool,
    whim: float,
    moon: bool = True,
) -> list[Mask]:
    """Play one position to the hand's end as ``counted_rollout`` does, with these draws in a cycle; the cards taken.

    Hands and taken cards are layered masks (``multiset``), the trick's cards are card numbers.
    """
    warm()
    n = rules.seats
    hs = np.array([_layers(h) for h in hands], dtype=np.int64).reshape(n, 3)
    got = np.array([_layers(t) for t in taken], dtype=np.int64).reshape(n, 3)
    _impl.counted_playout(
        counted_flags(rules, moon), np.array(rules.suit_masks, dtype=np.int64), rules.hearts_mask,
        rules.identical == "cancel", hs, got, leader, np.array(trick, dtype=np.int64), first_trick, hearts_broken,
        np.array(draws, dtype=np.float64), greedy, whim,
    )  # fmt: skip
    return [int(got[s, 0]) | int(got[s, 1]) << LAYER | int(got[s, 2]) << (2 * LAYER) for s in range(n)]


class CountedPlan:
    """``Plan`` where a card may appear more than once: layered hands, the counted trick, scored on layers."""

    def __init__(
        self, k: Knowledge, sampler: CountedSampler, spec: ValueSpec, draws: int, whim: float, moon: bool = True
    ) -> None:
        warm()
        rules = k.rules
        n = k.seats
        self.draws, self.whim, self.seat = draws, whim, k.seat
        self.flags = counted_flags(rules, moon)
        self.suits = np.array(rules.suit_masks, dtype=np.int64)
        self.hm = rules.hearts_mask
        self.cancel = rules.identical == "cancel"
        self.g_cards, self.g_start, self.g_seats, self.g_n = _group_arrays(sampler.groups, len(sampler.others))
        self.hand = np.array(_layers(sampler.hand), dtype=np.int64)
        self.fixed = np.array([_layers(h) for h in sampler.fixed], dtype=np.int64).reshape(n, 3)
        self.need = np.array(sampler.need, dtype=np.int64)
        self.kitty = sampler.kitty
        self.others = np.array(sampler.others, dtype=np.int64)
        self.taken = np.array([_layers(t) for t in start_taken(k, 0)], dtype=np.int64).reshape(n, 3)
        self.owed = np.array(k.kitty_owed, dtype=np.int64)
        self.leader = k.leader
        self.trick = np.array([c for _, c in k.trick], dtype=np.int64)
        self.first_trick, self.hearts_broken = k.first_trick, k.hearts_broken
        self.pending = np.array(_layers(k.pending), dtype=np.int64)
        self.jokers_played = k.jokers_played
        self.greedy = k.counting_down
        self.scoring = compiled_scoring(rules)
        self.valuing = Valuing(k, spec)

    def _batch(self, seeds: list[int], cands: list[int], scoring: bool) -> tuple[Floats, Ints]:
        """Call the kernel: the values per deal and candidate when ``scoring``, else the cards taken."""
        v = self.valuing
        vals, outs, ok = _impl.counted_plan(
            self.flags, self.suits, self.hm, self.cancel, np.array(seeds, dtype=np.int64), self.draws, self.hand,
            self.fixed, self.need, self.kitty, self.others, self.g_cards, self.g_start, self.g_seats, self.g_n,
            np.array(cands, dtype=np.int64), self.seat, self.taken, self.leader, self.trick, self.first_trick,
            self.hearts_broken, self.pending, self.jokers_played, self.greedy, self.whim, scoring, v.sc_i, v.pen,
            v.g_mask, v.g_val, v.val_f, v.totals, v.ends, self.owed,
        )  # fmt: skip
        if not ok:
            raise RuntimeError("no deal is consistent with this view")
        return vals, outs

    def run(self, seeds: list[int], cands: list[int]) -> tuple[list[list[float]] | None, list[list[list[Mask]]]]:
        """Play each candidate card on the deal of each seed: values per deal and candidate.

        Where the kernel does not score the variant, ``[deal][candidate]`` = the layered cards each seat took.
        """
        if self.scoring:
            return self._batch(seeds, cands, True)[0].tolist(), []
        return None, self.outcomes(seeds, cands)

    def points(self, seeds: list[int], cands: list[int]) -> list[list[float]] | None:
        """The seat's own score change for the hand per deal and candidate (scored in the kernel), or None.

        None where the kernel does not score the variant: then ``outcomes`` and Python's scoring.
        """
        if not self.scoring:
            return None
        v = self.valuing
        val_f, v.val_f = v.val_f, np.zeros(3, dtype=np.float64)  # the value is then -score[seat], exactly
        try:
            vals, _ = self._batch(seeds, cands, True)
        finally:
            v.val_f = val_f
        return [[-x for x in row] for row in vals.tolist()]

    def outcomes(self, seeds: list[int], cands: list[int]) -> list[list[list[Mask]]]:
        """``[deal][candidate]`` = the layered cards each seat took, as ``counted_rollout`` gives them."""
        outs = self._batch(seeds, cands, False)[1]
        return [[[t[0] | t[1] << LAYER | t[2] << (2 * LAYER) for t in cand] for cand in deal] for deal in outs.tolist()]
