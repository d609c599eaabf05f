"""The compiled look-ahead itself (numba): imported only by ``kernel.warm``, when the fast extra is installed.

Cards are bits of a 52-bit mask (one deck); every array of seats is sized by the table's seat count (``hands``,
``taken``), so the same compiled code plays three, four, five or more seats.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ..cards import HEARTS_MASK, QS, SUIT_MASKS
from .compiled import teach_numba
from .inference import IMPOSSIBLE
from .kernel_flags import (
    BIG,
    BIG_SUIT,
    DOUBLERS,
    FIRST_LEAD,
    FIRST_TRICK_POINTS,
    GROUP_MASK,
    GROUP_POINTS,
    GROUPS,
    HEARTS_MUST_BREAK,
    NO_MOON,
    PENALTY,
    QUEEN_BREAKS_HEARTS,
    QUEEN_MUST_GO,
    QUEEN_WAITS,
    THREAT,
)
from .policy import SCALE, K
from .sampling import ATTEMPTS, INV32, M32, RELAX_AT
from .thumb import moon_state, thumb_follow, thumb_lead

teach_numba()  # before any compiling: the rule of thumb's helpers (thumb.py) and int.bit_length/bit_count

S0, S1, S2, S3 = SUIT_MASKS
HM = HEARTS_MASK
QB = 1 << QS
SUITS = np.array(SUIT_MASKS, dtype=np.int64)  # one deck's suits, read by ``_legal``
Ints = npt.NDArray[np.int64]  # the kernel's arrays: masks, seats and counts
Floats = npt.NDArray[np.float64]  # the random draws and the valuer's weights
Bools = npt.NDArray[np.bool_]
#: A counted rollout's scratch arrays, made once per batch (``_work``): the trick's cards, its judgement (top card
#: and place), the next draw's index, the undecided cards waiting (1 x 3 layers), which trick cards cancelled.
Work = tuple[Ints, Ints, Ints, Ints, Bools]


@njit(cache=True)
def _msb(x: int) -> int:
    """Index of the highest set bit of a positive mask (``bit_length() - 1``, taught to numba in ``compiled``)."""
    return x.bit_length() - 1


@njit(cache=True)
def _popcount(x: int) -> int:
    """Number of set bits (``bit_count``, taught to numba in ``compiled``)."""
    return x.bit_count()


@njit(cache=True)
def _suit_mask(s: int) -> int:
    """The mask of suit ``s``."""
    if s == 0:
        return S0
    if s == 1:
        return S1
    if s == 2:
        return S2
    return S3


@njit(cache=True)
def _legal(flags: Ints, hand: int, led_suit: int, first_trick: bool, hearts_broken: bool, best: int) -> int:
    """``shared.legal.legal_mask`` over the kernel's rule flags, one deck's suits (``_legal_c``)."""
    return _legal_c(flags, SUITS, HM, hand, led_suit, first_trick, hearts_broken, best)


@njit(cache=True)
def _points(flags: Ints, m: int) -> int:
    """``rules.points_of``: the face points of the cards of ``m`` (the point groups ``kernel.rule_flags`` appends)."""
    v = 0
    for g in range(flags[GROUPS]):
        v += flags[GROUP_POINTS + 2 * g] * _popcount(m & flags[GROUP_MASK + 2 * g])
    return v


@njit(cache=True)
def _threat(flags: Ints, taken: Ints, shooter: int) -> int:
    """``rollout.moon_threat``: ``shooter`` once it has a third of the moon's points, else -1."""
    if shooter < 0 or _points(flags, taken[shooter] & flags[PENALTY]) < flags[THREAT]:
        return -1
    return shooter


@njit(cache=True)
def _scores(
    wts: Ints,
    legal: int,
    hands: Ints,
    seat: int,
    done: int,
    suit: int,
    best: int,
    played: int,
    penalty: int,
    big: int,
    big_suit: int,
    moon: int,
    prior: int,
    scratch: Ints,
) -> tuple[int, int]:
    """``policy.scores`` and ``policy.features``: ``scratch`` (2 x 64) gets the legal cards and their scores.

    Returns how many cards there are and the highest score.
    """
    n = hands.shape[0]
    h = hands[seat]
    rest = 0
    v0 = 0
    v1 = 0
    v2 = 0
    v3 = 0
    for o in range(n):
        if o != seat:
            x = hands[o]
            rest |= x
            v0 += 1 if not x & S0 else 0
            v1 += 1 if not x & S1 else 0
            v2 += 1 if not x & S2 else 0
            v3 += 1 if not x & S3 else 0
    if done == 0:
        kind = 0
    elif h & suit:
        kind = 1
    else:
        kind = 2
    w = kind * K
    top_score = 0
    nb = 0
    m = legal
    while m:
        b = m & -m
        m ^= b
        c = _msb(b)
        s = c // 13
        sm = _suit_mask(s)
        ours = h & sm
        mine = _popcount(ours)
        above = _popcount(rest & sm & ~((b << 1) - 1))
        below = _popcount(rest & sm & (b - 1))
        takes = 1 if kind == 0 or ((b & suit) != 0 and b > best) else 0
        sure = 1 if takes and above == 0 else 0
        voids = v0 if s == 0 else (v1 if s == 1 else (v2 if s == 2 else v3))
        score = wts[w] * (c - 13 * s)
        score += wts[w + 1] * (1 if b & penalty else 0)
        score += wts[w + 2] * (1 if b == big else 0)
        score += wts[w + 3] * (mine - 1)
        score += wts[w + 4] * _popcount(rest & sm)
        score += wts[w + 5] * above
        score += wts[w + 6] * below
        score += wts[w + 7] * takes
        score += wts[w + 8] * sure
        score += wts[w + 9] * (takes * _popcount(played & penalty))
        score += wts[w + 10] * (takes if played & big else 0)
        score += wts[w + 11] * (takes if rest & big else 0)
        score += wts[w + 12] * (takes if moon == 1 else 0)
        score += wts[w + 13] * (takes if moon == 2 else 0)
        score += wts[w + 14] * (1 if mine == 1 else 0)
        score += wts[w + 15] * voids
        score += wts[w + 16] * (1 if (ours & -ours) == b else 0)
        score += wts[w + 17] * (1 if (1 << _msb(ours)) == b else 0)
        score += wts[w + 18] * (1 if big != 0 and (b & big_suit) != 0 and b > big and (rest & big) != 0 else 0)
        score += wts[w + 19] * (takes if done == n - 1 else 0)
        score += wts[w + 20] * (1 if b == prior else 0)
        if nb == 0 or score > top_score:
            top_score = score
        scratch[0, nb] = b
        scratch[1, nb] = score
        nb += 1
    return nb, top_score


@njit(cache=True)
def _pick(
    wts: Ints,
    legal: int,
    hands: Ints,
    seat: int,
    done: int,
    suit: int,
    best: int,
    played: int,
    penalty: int,
    big: int,
    big_suit: int,
    moon: int,
    prior: int,
    u: float,
    scratch: Ints,
) -> int:
    """``policy.pick``: a legal card bit drawn by the learned softmax (``u`` uniform); ``scratch`` as ``_scores``."""
    nb, top_score = _scores(wts, legal, hands, seat, done, suit, best, played, penalty, big, big_suit, moon, prior,
                            scratch)  # fmt: skip
    total = 0.0
    for i in range(nb):
        total += np.exp((scratch[1, i] - top_score) / SCALE)
    r = u * total
    for i in range(nb):
        r -= np.exp((scratch[1, i] - top_score) / SCALE)
        if r < 0:
            return scratch[0, i]
    return scratch[0, nb - 1]


@njit(cache=True)
def _chance(
    wts: Ints,
    legal: int,
    hands: Ints,
    seat: int,
    done: int,
    suit: int,
    best: int,
    played: int,
    penalty: int,
    big: int,
    big_suit: int,
    moon: int,
    prior: int,
    card: int,
    scratch: Ints,
) -> float:
    """``policy.chance``: the learned softmax's chance of ``card`` (0 when it is not legal)."""
    nb, top_score = _scores(wts, legal, hands, seat, done, suit, best, played, penalty, big, big_suit, moon, prior,
                            scratch)  # fmt: skip
    total = 0.0
    mine = 0.0
    for i in range(nb):
        e = np.exp((scratch[1, i] - top_score) / SCALE)
        total += e
        if scratch[0, i] == card:
            mine = e
    return mine / total


@njit(cache=True)
def _rollout(
    flags: Ints,
    hands: Ints,
    taken: Ints,
    doubled: Ints,
    leader: int,
    trick: Ints,
    ntrick: int,
    first_trick: bool,
    hearts_broken: bool,
    draws: Floats,
    greedy: bool,
    whim: float,
    wts: Ints,
    scratch: Ints,
) -> None:
    """``shared.bots.rollout.rollout`` on arrays, drawing from ``draws`` in a cycle; fills ``taken``/``doubled``.

    One entry per seat in ``hands``, ``taken`` and ``doubled``: the table's seat count is their length. ``wts``
    holds the learned policy's weights (``policy.pick``), or nothing for the rule of thumb; ``scratch`` its room.
    """
    n = hands.shape[0]
    penalty, ftp, qb_breaks = flags[PENALTY], flags[FIRST_TRICK_POINTS], flags[QUEEN_BREAKS_HEARTS]
    qwait, qgo, nines = flags[QUEEN_WAITS], flags[QUEEN_MUST_GO], flags[DOUBLERS]
    big, big_suit = flags[BIG], flags[BIG_SUIT]  # the card the rule of thumb dumps (Q♠ in Black Lady), and its suit
    nd = draws.shape[0]
    di = 0
    no_points_first = first_trick and not ftp
    strict = qwait or qgo
    learned = wts.shape[0] > 0 and not greedy
    seat = leader
    suit = 0
    best = 0
    played = 0
    winner = leader
    done = ntrick
    shooter = -2 if flags[NO_MOON] else -1  # without a moon rule nobody needs stopping
    for s in range(n):
        if taken[s] & penalty:
            shooter = s if shooter == -1 else -2
    threat = _threat(flags, taken, shooter)
    if ntrick:
        suit = _suit_mask(_msb(trick[0]) // 13)
        for i in range(ntrick):
            b = trick[i]
            if b & suit and b > best:
                best = b
                winner = seat
            played |= b
            seat += 1
            if seat == n:
                seat = 0
    while True:
        if done == 0:
            h = hands[seat]
            if not h:
                break
            legal = _legal(flags, h, -1, first_trick, hearts_broken, -1)
            if legal & (legal - 1):
                r = draws[di % nd]
                di += 1
                if r < whim:
                    k = int(draws[di % nd] * _popcount(legal))
                    di += 1
                    while k:
                        legal &= legal - 1
                        k -= 1
                    b = legal & -legal
                else:
                    k = int(draws[di % nd] * 4)
                    di += 1
                    rest = 0  # every other seat's cards
                    if not greedy:
                        for o in range(n):
                            if o != seat:
                                rest |= hands[o]
                    b = thumb_lead(legal, rest, k, greedy, big)
                    if learned:  # the learned policy, told the rule of thumb's card
                        moon = moon_state(shooter, seat)
                        u = draws[di % nd]
                        di += 1
                        b = _pick(wts, legal, hands, seat, 0, 0, 0, 0, penalty, big, big_suit, moon, b, u, scratch)
            else:
                b = legal
            hands[seat] = h ^ b
            suit = _suit_mask(_msb(b) // 13)
            best = b
            played = b
            winner = seat
            seat += 1
            if seat == n:
                seat = 0
            done = 1
        while done < n:
            h = hands[seat]
            follow = h & suit
            if strict:
                broken = hearts_broken or (played & HM) != 0 or (qb_breaks and (played & QB) != 0)
                legal = _legal(flags, h, _msb(suit) // 13, first_trick, broken, _msb(best))
            else:
                legal = follow if follow else h
                if no_points_first:
                    safe = legal & ~penalty
                    if safe:
                        legal = safe
            if not legal & (legal - 1):
                b = legal
            else:
                r = draws[di % nd]
                di += 1
                if r < whim:
                    k = int(draws[di % nd] * _popcount(legal))
                    di += 1
                    while k:
                        legal &= legal - 1
                        k -= 1
                    b = legal & -legal
                else:
                    last = done == n - 1
                    b = thumb_follow(
                        legal, follow, greedy, big, big_suit, penalty, suit, best, played, winner, threat, last
                    )
                if learned and r >= whim:  # the learned policy, told the rule of thumb's card
                    moon = moon_state(shooter, seat)
                    u = draws[di % nd]
                    di += 1
                    b = _pick(
                        wts, legal, hands, seat, done, suit, best, played, penalty, big, big_suit, moon, b, u, scratch
                    )
            hands[seat] = h ^ b
            played |= b
            if b & suit and b > best:
                best = b
                winner = seat
            seat += 1
            if seat == n:
                seat = 0
            done += 1
        if played & HM or (qb_breaks and played & QB):
            hearts_broken = True
        taken[winner] |= played
        if played & suit & nines:
            doubled[winner] |= played
        if played & penalty and shooter != winner:
            shooter = winner if shooter == -1 else -2
        if shooter >= 0 and threat < 0:
            threat = _threat(flags, taken, shooter)
        elif shooter < 0:
            threat = -1
        seat = winner
        done = 0
        first_trick = False
        no_points_first = False


@njit(cache=True)
def _step(x: int) -> int:
    """One step of the 32-bit xorshift stream (``sampling.floats``)."""
    x ^= (x << 13) & M32
    x ^= x >> 17
    x ^= (x << 5) & M32
    return x


@njit(cache=True)
def _shuffle(order: Ints, m: int, x: int) -> int:
    """``sampling.shuffle_from`` on the first ``m`` entries of ``order``: the stream state after."""
    for i in range(m - 1, 0, -1):
        x = _step(x)
        j = int(x * INV32 * (i + 1))
        t = order[i]
        order[i] = order[j]
        order[j] = t
    return x


@njit(cache=True)
def _sample(
    x: int,
    seat: int,
    hand: int,
    fixed: Ints,
    need0: Ints,
    others: Ints,
    g_bits: Ints,
    g_start: Ints,
    g_seats: Ints,
    g_n: Ints,
    hands: Ints,
    order: Ints,
    need: Ints,
) -> int:
    """``Sampler.sample_from`` on arrays: fill ``hands``; return the stream state after, or 0 when nothing fits.

    A holder per seat, and one more after the last seat where unseen kitty cards lie face down (``fixed``,
    ``need0`` and ``hands`` have one entry per holder); ``others`` lists every holder but ``seat``.
    """
    ng = g_n.shape[0]
    nh = fixed.shape[0]
    no = others.shape[0]
    for attempt in range(ATTEMPTS):
        relax = attempt >= RELAX_AT
        for s in range(nh):
            hands[s] = fixed[s]
            need[s] = need0[s]
        hands[seat] = hand
        ok = True
        for g in range(ng):
            lo = g_start[g]
            m = g_start[g + 1] - lo
            for i in range(m):
                order[i] = g_bits[lo + i]
            x = _shuffle(order, m, x)
            seats = others if relax else g_seats[g]
            ns = no if relax else g_n[g]
            tot = 0
            for q in range(ns):
                tot += need[seats[q]]
            if ns == no and tot == m:
                i = 0
                for q in range(no):
                    s = seats[q]
                    for _ in range(need[s]):
                        hands[s] |= order[i]
                        i += 1
                    need[s] = 0
                continue
            for i in range(m):
                total = 0
                for q in range(ns):
                    total += need[seats[q]]
                if total <= 0:
                    ok = False
                    break
                x = _step(x)
                r = x * INV32 * total
                pick = -1
                for q in range(ns):
                    s = seats[q]
                    r -= need[s]
                    if r < 0 and need[s] > 0:
                        pick = s
                        break
                if pick < 0:
                    for q in range(ns):
                        if need[seats[q]] > 0:
                            pick = seats[q]
                            break
                hands[pick] |= order[i]
                need[pick] -= 1
            if not ok:
                break
        if ok:
            return x
    return 0


@njit(cache=True)
def _score(
    taken: Ints,
    pen: int,
    has_moon: bool,
    self_moon: bool,
    moon_total: int,
    g_mask: Ints,
    g_val: Ints,
    down: bool,
    out: Ints,
) -> None:
    """``sim.hand_scorer``'s simple path: fill ``out`` with the hand's score change per seat."""
    n = taken.shape[0]
    if has_moon:
        for s in range(n):
            if taken[s] & pen == pen:
                for y in range(n):
                    if self_moon:
                        out[y] = -moon_total if y == s else 0
                    else:
                        out[y] = 0 if y == s else moon_total
                return
    for s in range(n):
        v = 0
        for g in range(g_mask.shape[0]):
            v += g_val[g] * _popcount(taken[s] & g_mask[g])
        out[s] = -v if down else v


@njit(cache=True)
def _value(sc: Ints, seat: int, rival: int, share: float, near: bool, totals: Ints, ends: Ints, worth: float) -> float:
    """The hard player's ``value`` of one outcome's scores (``hard._valuer``), the same float operations."""
    u = -sc[seat] + share * sc[rival]
    if near:
        n = sc.shape[0]
        exact_down, reach, end_over, end_score = ends[0], ends[1], ends[2], ends[3]
        dutch_down, exact = ends[4], ends[5]
        new = np.empty(n, dtype=np.int64)
        for s in range(n):
            t = totals[s] + sc[s]
            new[s] = -t if exact_down and t < 0 else t
        hi = new[0]
        low = new[0]
        for s in range(1, n):
            hi = max(hi, new[s])
            low = min(low, new[s])
        over = False
        if reach:
            over = hi > end_score if end_over else hi >= end_score
        elif dutch_down:
            for s in range(n):
                if (new[s] == 0) if exact else (new[s] <= 0):
                    over = True
        if over:
            if new[seat] == low:
                c = 0
                for s in range(n):
                    if new[s] == low:
                        c += 1
                u += worth / c
            else:
                u -= worth
    return u


@njit(cache=True)
def batch(
    flags: Ints,
    seeds: Ints,
    ndraws: int,
    hand: int,
    fixed: Ints,
    need0: Ints,
    others: Ints,
    g_bits: Ints,
    g_start: Ints,
    g_seats: Ints,
    g_n: Ints,
    cands: Ints,
    seat: int,
    taken0: Ints,
    doubled0: Ints,
    leader: int,
    trick: Ints,
    first_trick: bool,
    hearts_broken: bool,
    greedy: bool,
    whim: float,
    scoring: bool,
    sc_i: Ints,
    g_mask: Ints,
    g_val: Ints,
    val_f: Floats,
    totals: Ints,
    ends: Ints,
    owed: Ints,
    wts: Ints,
) -> tuple[Floats, Ints, bool]:
    """Draw a deal per seed and play every candidate on it: values (deals, candidates) when scoring.

    Without ``scoring`` it gives the cards taken and doubled instead, shape (deals, candidates, 2, seats). The
    seat count is the length of ``taken0``; the sampler's holders (a kitty's unseen cards too) that of ``fixed``.
    ``owed`` gives, per unseen kitty card from low to high, the seat that took it or -1 (``knowledge.start_taken``).
    """
    nd = seeds.shape[0]
    a = cands.shape[0]
    n = taken0.shape[0]
    vals = np.zeros((nd, a), dtype=np.float64)
    outs = np.zeros((nd if not scoring else 0, a, 2, n), dtype=np.int64)
    nt = trick.shape[0]
    tr = np.zeros(nt + 1, dtype=np.int64)
    tr[:nt] = trick
    hs = np.zeros(n, dtype=np.int64)
    deal = np.zeros(fixed.shape[0], dtype=np.int64)  # the kitty's unseen cards after the seats: nobody plays them
    need = np.zeros(fixed.shape[0], dtype=np.int64)
    order = np.zeros(52, dtype=np.int64)
    draws = np.zeros(ndraws, dtype=np.float64)
    tk = np.zeros(n, dtype=np.int64)
    kt = np.zeros(n, dtype=np.int64)  # the deal's cards taken before the first candidate: a taken kitty counted
    db = np.zeros(n, dtype=np.int64)
    sc = np.zeros(n, dtype=np.int64)
    scratch = np.zeros((2, 64), dtype=np.int64)
    counted_kitty = fixed.shape[0] > n and owed.shape[0] > 0 and owed.max() >= 0
    pen, has_moon, self_moon, moon_total, down, rival = sc_i[0], sc_i[1], sc_i[2], sc_i[3], sc_i[4], sc_i[5]
    share, worth, near = val_f[0], val_f[1], val_f[2] != 0.0
    for d in range(nd):
        x = _sample(seeds[d], seat, hand, fixed, need0, others, g_bits, g_start, g_seats, g_n, deal, order, need)
        if x == 0:
            return vals, outs, False  # nothing consistent: the caller raises
        for i in range(ndraws):
            x = _step(x)
            draws[i] = x * INV32
        for s in range(n):
            kt[s] = taken0[s]
        if counted_kitty:
            m = deal[n]
            i = 0
            while m and i < owed.shape[0]:
                low = m & -m
                if owed[i] >= 0:
                    kt[owed[i]] |= low
                m ^= low
                i += 1
        for j in range(a):
            b = cands[j]
            for s in range(n):
                hs[s] = deal[s]
                tk[s] = kt[s]
                db[s] = doubled0[s]
            hs[seat] ^= b
            tr[nt] = b
            _rollout(
                flags, hs, tk, db, leader, tr, nt + 1, first_trick, hearts_broken, draws, greedy, whim, wts, scratch
            )
            if scoring:
                _score(tk, pen, has_moon != 0, self_moon != 0, moon_total, g_mask, g_val, down != 0, sc)
                vals[d, j] = _value(sc, seat, rival, share, near, totals, ends, worth)
            else:
                for s in range(n):
                    outs[d, j, 0, s] = tk[s]
                    outs[d, j, 1, s] = db[s]
    return vals, outs, True


@njit(cache=True)
def likelihoods(
    flags: Ints,
    seeds: Ints,
    hand: int,
    fixed: Ints,
    need0: Ints,
    others: Ints,
    g_bits: Ints,
    g_start: Ints,
    g_seats: Ints,
    g_n: Ints,
    seat: int,
    n: int,
    plays: Ints,
    wts: Ints,
) -> tuple[Floats, bool]:
    """``inference.log_likelihood`` of the deal of each seed (drawn as ``batch`` draws it): one float per seed.

    ``plays`` holds one ``inference.Play`` a row. False where no deal fits (the caller raises).
    """
    nd = seeds.shape[0]
    out = np.zeros(nd, dtype=np.float64)
    deal = np.zeros(fixed.shape[0], dtype=np.int64)
    need = np.zeros(fixed.shape[0], dtype=np.int64)
    order = np.zeros(52, dtype=np.int64)
    hs = np.zeros(n, dtype=np.int64)
    scratch = np.zeros((2, 64), dtype=np.int64)
    penalty, big, big_suit = flags[PENALTY], flags[BIG], flags[BIG_SUIT]
    for d in range(nd):
        x = _sample(seeds[d], seat, hand, fixed, need0, others, g_bits, g_start, g_seats, g_n, deal, order, need)
        if x == 0:
            return out, False
        for s in range(n):
            hs[s] = deal[s]
        total = 0.0
        for i in range(plays.shape[0] - 1, -1, -1):
            ps, b, done, suit, best = plays[i, 0], plays[i, 1], plays[i, 2], plays[i, 3], plays[i, 4]
            played, winner, first, broken, shooter = plays[i, 5], plays[i, 6], plays[i, 7], plays[i, 8], plays[i, 9]
            threat = plays[i, 10]
            hs[ps] |= b
            if ps == seat:
                continue
            h = hs[ps]
            if done:
                legal = _legal(flags, h, _msb(suit) // 13, first != 0, broken != 0, _msb(best))
            else:
                legal = _legal(flags, h, -1, first != 0, broken != 0, -1)
            if not legal & b:
                total += IMPOSSIBLE
                continue
            if not legal & (legal - 1):
                continue
            moon = moon_state(shooter, ps)
            if done == 0:
                rest = 0
                for o in range(n):
                    if o != ps:
                        rest |= hs[o]
                p = 0.0
                last = -1
                q = 0.0
                for k in range(4):
                    prior = thumb_lead(legal, rest, k, False, big)
                    if prior != last:  # the same card from another first suit: the same chance
                        q = _chance(wts, legal, hs, ps, 0, 0, 0, 0, penalty, big, big_suit, moon, prior, b, scratch)
                        last = prior
                    p += q
                p *= 0.25
            else:
                prior = thumb_follow(
                    legal, h & suit, False, big, big_suit, penalty, suit, best, played, winner, threat, done == n - 1
                )
                p = _chance(wts, legal, hs, ps, done, suit, best, played, penalty, big, big_suit, moon, prior, b,
                            scratch)  # fmt: skip
            total += max(IMPOSSIBLE, np.log(p)) if p > 0.0 else IMPOSSIBLE
        out[d] = total
    return out, True


@njit(cache=True)
def playouts(
    flags: Ints,
    hands: Ints,
    taken: Ints,
    leaders: Ints,
    tricks: Ints,
    ntricks: Ints,
    firsts: Bools,
    brokens: Bools,
    states: Ints,
    ndraws: int,
    greedy: bool,
    whim: float,
    wts: Ints,
) -> Ints:
    """Play each position to the hand's end (``rollout``; the learned policy when ``wts``): the cards taken.

    Row ``i`` of ``hands``/``taken`` (positions, seats) is one position: whoever leads the trick in ``tricks[i]``
    (its first ``ntricks[i]`` card bits), the first trick or not, hearts broken or not; its ``ndraws`` random draws
    come from the xorshift stream at ``states[i]`` (``sampling.floats``), used in a cycle. Returns the cards each
    seat took and of its doubled tricks, shape (positions, 2, seats): the pass review's whole hands, the trainer's
    positions.
    """
    m = hands.shape[0]
    n = hands.shape[1]
    outs = np.zeros((m, 2, n), dtype=np.int64)
    hs = np.zeros(n, dtype=np.int64)
    tk = np.zeros(n, dtype=np.int64)
    db = np.zeros(n, dtype=np.int64)
    draws = np.zeros(ndraws, dtype=np.float64)
    scratch = np.zeros((2, 64), dtype=np.int64)
    for i in range(m):
        x = states[i]
        for d in range(ndraws):
            x = _step(x)
            draws[d] = x * INV32
        for s in range(n):
            hs[s] = hands[i, s]
            tk[s] = taken[i, s]
            db[s] = 0
        _rollout(
            flags,
            hs,
            tk,
            db,
            leaders[i],
            tricks[i],
            ntricks[i],
            firsts[i],
            brokens[i],
            draws,
            greedy,
            whim,
            wts,
            scratch,
        )
        for s in range(n):
            outs[i, 0, s] = tk[s]
            outs[i, 1, s] = db[s]
    return outs


# --- tables where a card may appear more than once (two or three decks, jokers): ``counted.py`` on arrays ---
# A layered hand is three masks, one per copy (``multiset``: layer k holds the cards of which there are more than k).

JK = 52  # the joker's card index (``cards.JOKER``): a heart that ranks by the order jokers are played


@njit(cache=True)
def _legal_c(
    flags: Ints, suits: Ints, hm: int, hand: int, led_suit: int, first_trick: bool, hearts_broken: bool, best: int
) -> int:
    """``shared.legal.legal_mask`` with the variant's own suit masks (the joker is a heart)."""
    penalty, ftp, qwait, qgo = flags[PENALTY], flags[FIRST_TRICK_POINTS], flags[QUEEN_WAITS], flags[QUEEN_MUST_GO]
    hmb, first_lead = flags[HEARTS_MUST_BREAK], flags[FIRST_LEAD]
    waits = qwait and not hearts_broken and (hand & QB) != 0
    if led_suit < 0:
        if first_trick and first_lead >= 0:
            first = 1 << first_lead
            if hand & first:
                return first
        legal = hand
        if first_trick and not ftp:
            safe = legal & ~penalty
            if safe:
                legal = safe
        if waits and legal != QB:
            legal &= ~QB
        if hmb and not hearts_broken:
            safe = legal & ~hm
            if safe:
                legal = safe
        return legal
    follow = hand & suits[led_suit]
    legal = follow if follow else hand
    if first_trick and not ftp:
        safe = legal & ~penalty
        if safe:
            legal = safe
    if waits and legal & QB and legal != QB:
        legal &= ~QB
    if qgo and legal & QB and (not follow or (led_suit == 2 and best > QS)):
        legal = QB
    return legal


@njit(cache=True)
def _suit_of(c: int) -> int:
    """``cards.SUIT_OF``: the joker is a heart."""
    return 3 if c == JK else c // 13


@njit(cache=True)
def _nth_bit(m: int, k: int) -> int:
    """The ``k``-th lowest card of a mask (``multiset.cards(m)[k]`` for one layer)."""
    while k:
        m &= m - 1
        k -= 1
    return _msb(m & -m)


@njit(cache=True)
def _judge(cards: Ints, nc: int, cancel: bool, jokers_before: int, out: Ints, cancelled: Bools) -> None:
    """``CountedTrick.add``'s ranking: ``out`` = [top card, its place], both -1 when every led card is cancelled.

    ``cancelled`` is scratch space of at least ``nc`` entries.
    """
    for i in range(nc):
        cancelled[i] = False
    if cancel:  # the first two identical cards cancel; a third keeps its rank
        for i in range(nc):
            for j in range(i):
                if cards[j] == cards[i] and not cancelled[j]:
                    first = True  # j is the first of its kind in the trick
                    for q in range(j):
                        if cards[q] == cards[j]:
                            first = False
                            break
                    if first:
                        cancelled[j] = True
                        cancelled[i] = True
                    break
    led = _suit_of(cards[0])
    jokers = jokers_before
    best, top, top_at = -2, -1, -1
    for i in range(nc):
        c = cards[i]
        if c == JK:
            rank = 13 if jokers == 0 else -1
            jokers += 1
        else:
            rank = c % 13
        if not cancelled[i] and _suit_of(c) == led and rank > best:
            best = rank
            top = c
            top_at = i
    out[0] = top
    out[1] = top_at


@njit(cache=True)
def _add_card(h: Ints, s: int, c: int) -> None:
    """``multiset.add_card`` on row ``s`` of a layered array."""
    b = 1 << c
    for k in range(3):
        if not h[s, k] & b:
            h[s, k] |= b
            return


@njit(cache=True)
def _remove_card(h: Ints, s: int, c: int) -> None:
    """``multiset.remove_card`` on row ``s``: its highest layer goes."""
    b = 1 << c
    for k in range(2, -1, -1):
        if h[s, k] & b:
            h[s, k] ^= b
            return


@njit(cache=True)
def _choose_c(
    flags: Ints,
    suits: Ints,
    hm: int,
    hand: int,
    cards: Ints,
    nc: int,
    top: int,
    tbits: int,
    n: int,
    first_trick: bool,
    broken: bool,
    draws: Floats,
    di: Ints,
    greedy: bool,
    whim: float,
    taking: int,
    threat: int,
) -> int:
    """``counted._choose``: the rule-of-thumb card for one seat (``di[0]`` is the next draw's index).

    ``taking`` is the seat the trick goes to so far (-1: none yet, or undecided), ``threat`` the possible moon
    shooter to stop or -1.
    """
    nd = draws.shape[0]
    penalty = flags[PENALTY]
    led = _suit_of(cards[0]) if nc else -1
    legal = _legal_c(flags, suits, hm, hand, led, first_trick, broken, top)
    if not legal & (legal - 1):
        return _msb(legal)
    r = draws[di[0] % nd]
    di[0] += 1
    if r < whim:
        k = int(draws[di[0] % nd] * _popcount(legal))
        di[0] += 1
        return _nth_bit(legal, k)
    jb = 1 << JK
    if led < 0:
        start = int(draws[di[0] % nd] * 4)
        di[0] += 1
        for i in range(4):
            x = legal & suits[(start + i) & 3] & ~jb
            if x:
                if greedy:
                    return _msb(x)
                low = x & -x
                if low == QB and x != low:
                    x ^= low
                    low = x & -x
                return _msb(low)
        k = int(draws[di[0] % nd] * _popcount(legal))
        di[0] += 1
        return _nth_bit(legal, k)
    follow = legal & suits[led]
    stop = threat >= 0 and taking == threat and not greedy  # the trick goes to a possible moon shooter
    if follow:
        if greedy:
            return _msb(follow)
        if stop and ((tbits & penalty) != 0 or led == 3):
            above = follow & ~((2 << top) - 1) & ~jb
            if above:  # take this trick from it with the lowest card that does
                return _msb(above & -above)
        below = follow & ((1 << top) - 1) & ~jb if top >= 0 else 0
        if below:
            return _msb(below)
        if nc == n - 1 and not tbits & penalty:
            x = follow & ~QB
            if not x:
                x = follow
            return _msb(x)
        return _msb(follow & -follow)
    if greedy:
        x = legal & ~penalty
        if not x:
            x = legal
        return _msb(x & -x)
    m = legal
    if stop and legal & ~penalty:
        m = legal & ~penalty  # give a possible moon shooter nothing: the highest-ranked card without points
    elif legal & QB:
        return QS
    elif legal & hm:
        return _msb(legal & hm)
    best, pick = -1, -1
    while m:
        c = _msb(m & -m)
        m &= m - 1
        key = (c % 13) * 64 + c
        if key > best:
            best = key
            pick = c
    return pick


@njit(cache=True)
def _points_c(flags: Ints, taken: Ints, s: int) -> int:
    """``rules.points_of`` of row ``s``'s penalty cards, every copy counted (``counted.counted_rollout``)."""
    v = 0
    for k in range(3):
        v += _points(flags, taken[s, k] & flags[PENALTY])
    return v


@njit(cache=True)
def _work(n: int) -> Work:
    """Scratch arrays for ``_counted_rollout`` at ``n`` seats."""
    return (
        np.zeros(n, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((1, 3), dtype=np.int64),
        np.zeros(n, dtype=np.bool_),
    )


@njit(cache=True)
def _counted_rollout(
    flags: Ints,
    suits: Ints,
    hm: int,
    cancel: bool,
    hands: Ints,
    taken: Ints,
    leader: int,
    trick: Ints,
    ntrick: int,
    first_trick: bool,
    broken: bool,
    pending: Ints,
    jokers_played: int,
    draws: Floats,
    greedy: bool,
    whim: float,
    work: Work,
) -> None:
    """``counted.counted_rollout`` on layered arrays (seats x 3): finish the hand, adding to ``taken``.

    ``work`` holds the scratch arrays, made once per batch (``_work``).
    """
    n = hands.shape[0]
    qb_breaks = flags[QUEEN_BREAKS_HEARTS]
    cards, judged, di, pend, cancelled = work
    di[0] = 0
    for k in range(3):
        pend[0, k] = pending[k]
    nc = 0
    tbits = 0  # the different cards in the trick (its first layer)
    judged[0] = -1
    judged[1] = -1
    for i in range(ntrick):
        cards[nc] = trick[i]
        nc += 1
        tbits |= 1 << trick[i]
        _judge(cards, nc, cancel, jokers_played, judged, cancelled)
    seat = (leader + ntrick) % n
    penalty = flags[PENALTY]  # the penalty cards' first layer
    # the only seat that has taken points so far, -1 for nobody, -2 for several or no moon to stop (``first_shooter``;
    # ``counted.stops_moon``); the threat once it has a third of the moon's points (``moon_threat``)
    shooter = -2 if flags[NO_MOON] else -1
    for s in range(n):
        if taken[s, 0] & penalty:
            shooter = s if shooter == -1 else -2
    threat = shooter if shooter >= 0 and _points_c(flags, taken, shooter) >= flags[THREAT] else -1
    while True:
        while nc < n:
            taking = (leader + judged[1]) % n if judged[1] >= 0 else -1
            c = _choose_c(
                flags,
                suits,
                hm,
                hands[seat, 0],
                cards,
                nc,
                judged[0],
                tbits,
                n,
                first_trick,
                broken,
                draws,
                di,
                greedy,
                whim,
                taking,
                threat,
            )
            _remove_card(hands, seat, c)
            cards[nc] = c
            nc += 1
            tbits |= 1 << c
            _judge(cards, nc, cancel, jokers_played, judged, cancelled)
            if hm >> c & 1 or (c == QS and qb_breaks):
                broken = True
            seat = (seat + 1) % n
        for i in range(nc):
            if cards[i] == JK:
                jokers_played += 1
        if judged[1] < 0:  # undecided: its cards wait for the next decided trick
            for i in range(nc):
                _add_card(pend, 0, cards[i])
        else:
            leader = (leader + judged[1]) % n
            got = tbits | pend[0, 0]  # the different cards it takes (the first layers)
            for i in range(nc):
                _add_card(taken, leader, cards[i])
            for k in range(3):
                m = pend[0, k]
                while m:
                    _add_card(taken, leader, _msb(m & -m))
                    m &= m - 1
                pend[0, k] = 0
            if got & penalty and shooter != leader:
                shooter = leader if shooter == -1 else -2
            if shooter >= 0 and threat < 0:
                threat = shooter if _points_c(flags, taken, shooter) >= flags[THREAT] else -1
            elif shooter < 0:
                threat = -1
        first_trick = False
        if not (hands[leader, 0] | hands[leader, 1] | hands[leader, 2]):
            return
        nc = 0
        tbits = 0
        judged[0] = -1
        judged[1] = -1
        seat = leader


@njit(cache=True)
def counted_playout(
    flags: Ints,
    suits: Ints,
    hm: int,
    cancel: bool,
    hands: Ints,
    taken: Ints,
    leader: int,
    trick: Ints,
    first_trick: bool,
    broken: bool,
    draws: Floats,
    greedy: bool,
    whim: float,
) -> None:
    """One ``_counted_rollout`` from a position (``kernel.counted_play_out``): ``taken`` gets the cards taken."""
    pending = np.zeros(3, dtype=np.int64)
    _counted_rollout(
        flags, suits, hm, cancel, hands, taken, leader, trick, trick.shape[0], first_trick, broken, pending, 0,
        draws, greedy, whim, _work(hands.shape[0]),
    )  # fmt: skip


@njit(cache=True)
def _sample_c(
    x: int,
    seat: int,
    hand: Ints,
    fixed: Ints,
    need0: Ints,
    kitty0: int,
    others: Ints,
    g_cards: Ints,
    g_start: Ints,
    g_seats: Ints,
    g_n: Ints,
    hands: Ints,
    order: Ints,
    need: Ints,
) -> int:
    """``CountedSampler.sample_with_kitty`` on layered arrays: the stream state after the deal, or 0 if none fits.

    ``hands`` gets a row per seat, then the unseen kitty cards. ``hand`` and ``fixed`` are layered (3 masks a
    seat); ``g_cards`` lists each group's unseen cards with their copies, ``g_start`` where each group begins,
    ``g_seats``/``g_n`` the seats that may hold them.
    """
    ng = g_n.shape[0]
    n = fixed.shape[0]
    no = others.shape[0]
    for attempt in range(ATTEMPTS):
        relax = attempt >= RELAX_AT
        for s in range(n):
            for k in range(3):
                hands[s, k] = fixed[s, k]
            need[s] = need0[s]
        for k in range(3):
            hands[n, k] = 0
        kitty = kitty0
        ok = True
        for g in range(ng):
            lo = g_start[g]
            m = g_start[g + 1] - lo
            for i in range(m):
                order[i] = g_cards[lo + i]
            x = _shuffle(order, m, x)
            seats = others if relax else g_seats[g]
            ns = no if relax else g_n[g]
            for i in range(m):
                total = kitty
                for q in range(ns):
                    total += need[seats[q]]
                if total <= 0:
                    ok = False
                    break
                x = _step(x)
                r = x * INV32 * total
                if r < kitty:
                    kitty -= 1
                    _add_card(hands, n, order[i])
                    continue
                r -= kitty
                pick = -1
                for q in range(ns):
                    s = seats[q]
                    r -= need[s]
                    if r < 0 and need[s] > 0:
                        pick = s
                        break
                if pick < 0:
                    for q in range(ns):
                        if need[seats[q]] > 0:
                            pick = seats[q]
                            break
                _add_card(hands, pick, order[i])
                need[pick] -= 1
            if not ok:
                break
        if ok:
            for k in range(3):
                hands[seat, k] = hand[k]
            return x
    return 0


@njit(cache=True)
def _score_c(
    taken: Ints,
    pen: Ints,
    has_moon: bool,
    self_moon: bool,
    moon_total: int,
    g_mask: Ints,
    g_val: Ints,
    down: bool,
    out: Ints,
) -> None:
    """``_score`` on layered masks (seats x 3; ``pen`` and each row of ``g_mask`` three layers)."""
    n = taken.shape[0]
    if has_moon:
        for s in range(n):
            if (
                (taken[s, 0] & pen[0]) == pen[0]
                and (taken[s, 1] & pen[1]) == pen[1]
                and (taken[s, 2] & pen[2]) == pen[2]
            ):
                for y in range(n):
                    if self_moon:
                        out[y] = -moon_total if y == s else 0
                    else:
                        out[y] = 0 if y == s else moon_total
                return
    for s in range(n):
        v = 0
        for g in range(g_mask.shape[0]):
            for k in range(3):
                v += g_val[g] * _popcount(taken[s, k] & g_mask[g, k])
        out[s] = -v if down else v


@njit(cache=True)
def counted_plan(
    flags: Ints,
    suits: Ints,
    hm: int,
    cancel: bool,
    seeds: Ints,
    ndraws: int,
    hand: Ints,
    fixed: Ints,
    need0: Ints,
    kitty0: int,
    others: Ints,
    g_cards: Ints,
    g_start: Ints,
    g_seats: Ints,
    g_n: Ints,
    cands: Ints,
    seat: int,
    taken0: Ints,
    leader: int,
    trick: Ints,
    first_trick: bool,
    broken: bool,
    pending: Ints,
    jokers_played: int,
    greedy: bool,
    whim: float,
    scoring: bool,
    sc_i: Ints,
    pen: Ints,
    g_mask: Ints,
    g_val: Ints,
    val_f: Floats,
    totals: Ints,
    ends: Ints,
    owed: Ints,
) -> tuple[Floats, Ints, bool]:
    """Draw a layered deal per seed and play every candidate on it: the value per (deal, candidate) when scoring.

    ``batch`` for tables where a card may appear more than once: the deals of ``CountedSampler.sample_from``, the
    rollouts of ``counted_rollout``, scored as ``sim.hand_scorer`` and valued as ``value.valuer``. Without
    ``scoring`` it gives the layered cards each seat took instead, shape (deals, candidates, seats, 3).
    """
    nd = seeds.shape[0]
    n = fixed.shape[0]
    a = cands.shape[0]
    nt = trick.shape[0]
    vals = np.zeros((nd, a), dtype=np.float64)
    outs = np.zeros((nd if not scoring else 0, a, n, 3), dtype=np.int64)
    deal = np.zeros((n + 1, 3), dtype=np.int64)  # a layered hand per seat, then the unseen kitty cards
    hs = np.zeros((n, 3), dtype=np.int64)
    tk = np.zeros((n, 3), dtype=np.int64)
    kt = np.zeros((n, 3), dtype=np.int64)  # the deal's cards taken before the first candidate: a taken kitty counted
    counted_kitty = owed.shape[0] > 0 and owed.max() >= 0
    need = np.zeros(n, dtype=np.int64)
    order = np.zeros(max(1, g_cards.shape[0]), dtype=np.int64)
    draws = np.zeros(ndraws, dtype=np.float64)
    sc = np.zeros(n, dtype=np.int64)
    tr = np.zeros(nt + 1, dtype=np.int64)
    tr[:nt] = trick
    work = _work(n)
    has_moon, self_moon, moon_total, down, rival = sc_i[1] != 0, sc_i[2] != 0, sc_i[3], sc_i[4] != 0, sc_i[5]
    share, worth, near = val_f[0], val_f[1], val_f[2] != 0.0
    for d in range(nd):
        x = _sample_c(
            seeds[d], seat, hand, fixed, need0, kitty0, others, g_cards, g_start, g_seats, g_n, deal, order, need
        )
        if x == 0:
            return vals, outs, False  # nothing consistent: the caller raises
        for i in range(ndraws):
            x = _step(x)
            draws[i] = x * INV32
        for s in range(n):
            for k in range(3):
                kt[s, k] = taken0[s, k]
        if counted_kitty:  # the kitty's cards low to high, each copy once, to the seats that took them
            i = 0
            for c in range(JK + 1):
                for k in range(3):
                    if deal[n, k] >> c & 1 and i < owed.shape[0]:
                        if owed[i] >= 0:
                            _add_card(kt, owed[i], c)
                        i += 1
        for j in range(a):
            c = cands[j]
            for s in range(n):
                for k in range(3):
                    hs[s, k] = deal[s, k]
                    tk[s, k] = kt[s, k]
            _remove_card(hs, seat, c)
            tr[nt] = c
            _counted_rollout(
                flags,
                suits,
                hm,
                cancel,
                hs,
                tk,
                leader,
                tr,
                nt + 1,
                first_trick,
                broken,
                pending,
                jokers_played,
                draws,
                greedy,
                whim,
                work,
            )
            if scoring:
                _score_c(tk, pen, has_moon, self_moon, moon_total, g_mask, g_val, down, sc)
                vals[d, j] = _value(sc, seat, rival, share, near, totals, ends, worth)
            else:
                for s in range(n):
                    for k in range(3):
                        outs[d, j, s, k] = tk[s, k]
    return vals, outs, True
