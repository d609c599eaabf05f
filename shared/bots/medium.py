"""The medium player: the nine rules of thumb of the tips for computer players, on the seat's view only."""

from __future__ import annotations

from ..cards import HEARTS, HEARTS_MASK, SUIT_MASKS, SUIT_OF, Mask, mask_cards, mask_names
from ..view import View
from .base import ComputerPlayer
from .knowledge import Knowledge, big_card, low, moon_threat_points, rank_low, rank_top, top
from .passing import choose_pass, is_moon_hand


class MediumComputerPlayer(ComputerPlayer):
    """Passes dangerous cards, flushes the queen, ducks, dumps on the leader, watches voids and moons."""

    level = "medium"

    def choose_pass(self, view: View) -> list[str]:
        """Pass high unprotected spades, Q♠ when short, a short suit, high hearts (tips 1 to 3, 8).

        When the cards go different ways (``pass_targets``), the partner gets the harmless ones.
        """
        k = Knowledge(view)
        cards = list(mask_cards(choose_pass(k.rules, k.hand, view["pass_count"])))
        targets = view.get("pass_targets")
        if targets and len(targets) == len(cards):
            cards = _order_for(k, cards, targets)
        return [mask_names(1 << c)[0] for c in cards]

    def choose_play(self, view: View) -> str:
        """Return the card to play by the tips: lead, follow or discard."""
        return mask_names(1 << play_card(Knowledge(view)))[0]


def moon_threat(k: Knowledge) -> int:
    """Return the other seat that holds every point card taken so far (and enough of them), or -1 (tip 9)."""
    pen = k.rules.penalty_mask
    holders = [s for s in range(k.seats) if k.taken[s] & pen]
    if len(holders) != 1 or holders[0] == k.seat:
        return -1
    s = holders[0]
    if s in partners(k):
        return -1  # a partner's moon is the team's
    if k.rules.points_of(k.taken[s] & pen) < moon_threat_points(k.rules):
        return -1
    return s


def shooting(k: Knowledge) -> bool:
    """Return True while this seat should go for the moon: nobody else has points and the hand is strong (tip 8)."""
    pen = k.rules.penalty_mask
    if k.counting_down or any(k.taken[s] & pen for s in range(k.seats) if s != k.seat):
        return False
    mine = k.rules.points_of(k.taken[k.seat] & pen)
    losers = sum(1 for c in mask_cards(k.hand) if k.unseen & SUIT_MASKS[SUIT_OF[c]] & ~((2 << c) - 1))
    if mine * 2 >= k.rules.moon_total and losers <= 1:
        return True
    return k.tricks_done <= 1 and losers <= 2 and is_moon_hand(k.rules, k.hand)


def play_card(k: Knowledge) -> int:
    """Return the card (int) the medium rules choose for this position."""
    legal = k.legal
    if legal & (legal - 1) == 0:
        return low(legal)
    if k.counting_down:
        return _want_points(k)
    if shooting(k):
        return _shoot(k)
    if not k.trick:
        return _lead(k)
    suit = SUIT_OF[k.trick[0][1]]
    if legal & SUIT_MASKS[suit]:
        return _follow(k, suit)
    return _discard(k)


def _lead(k: Knowledge) -> int:
    """Lead: flush the queen with low spades (tip 5), else the suit whose lowest card most surely loses."""
    legal = k.legal
    big, big_suit = _big(k)
    spades = legal & SUIT_MASKS[big_suit] if big >= 0 else 0
    threat = moon_threat(k)
    if threat >= 0 and legal & HEARTS_MASK:
        h = top(legal & HEARTS_MASK)
        if not k.unseen_in(HEARTS) >> h:  # our heart is the highest left: take one heart (tip 9)
            return h
    if _big_out(k) and spades and top(k.hand & SUIT_MASKS[big_suit]) < big and not _all_void(k, big_suit):
        return top(spades)
    best, best_score = -1, -1e9
    for s in range(4):
        m = legal & SUIT_MASKS[s]
        if not m:
            continue
        c = low(m)
        unseen = k.unseen_in(s)
        below = (unseen & ((1 << c) - 1)).bit_count()
        above = (unseen >> (c + 1)).bit_count()
        score = above - 3.0 * below
        if above == 0:
            score -= 20
        if s == big_suit and _big_out(k) and c > big:
            score -= 30  # a high card leads into the big penalty card (Q♠ in most games)
        if c == big:
            score -= 40
        if s == HEARTS:
            score -= 1.5
        voids = sum(1 for o in range(k.seats) if o != k.seat and k.voids[o] & SUIT_MASKS[s])
        score -= (2.0 if below else 0.5) * voids  # tip 7: a void seat dumps points on the winner
        if score > best_score:
            best, best_score = c, score
    return best


def _follow(k: Knowledge, suit: int) -> int:
    """Follow suit: duck under the winner, dump Q♠ under A♠/K♠, play high on a pointless first trick."""
    legal = k.legal
    win_seat, win_card = k.winning()
    points = k.trick_points()
    last = len(k.trick) == 3
    below = legal & ((1 << win_card) - 1)
    above = legal & ~below
    big, big_suit = _big(k)
    if big >= 0 and legal >> big & 1 and win_card > big and win_seat not in partners(k):
        return big
    threat = moon_threat(k)
    if threat >= 0 and win_seat == threat and (points > 0 or suit == HEARTS or k.unseen & HEARTS_MASK) and above:
        return low(above)  # tip 9: take this trick from the shooter
    no_points = points <= 0 and (k.first_trick and not k.rules.first_trick_points)
    if no_points and not (suit == big_suit and _big_out(k)):
        return _highest_safe(above or legal, k)  # tip 4: the first trick carries no points
    friendly = win_seat in partners(k)
    nine = _nine(k, suit) & legal
    if nine and below & nine and not friendly and points > 0:
        return top(nine)  # the 9 doubles a trick that goes to the other side
    if nine and (below or above) & ~nine:
        below, above = below & ~nine or below, above & ~nine or above  # keep the 9 away from our own tricks
    if last:
        if points <= 0:
            return _highest_safe(legal, k)
        return top(below) if below else _highest_safe(legal, k)
    if below:
        return top(below)
    if suit == big_suit and _big_out(k):
        return low(legal)
    if points <= 0 and not any(k.voids[o] & SUIT_MASKS[suit] for o in _after(k)):
        return _highest_safe(legal, k)
    return low(legal)


def _discard(k: Knowledge) -> int:
    """Void in the led suit: Q♠ on the winner (tip 6, not when it ends the game badly), then high spades, hearts."""
    legal = k.legal
    win_seat, _ = k.winning()
    threat = moon_threat(k)
    pointless = legal & ~k.rules.penalty_mask & ~_bonus(k)
    if win_seat in partners(k):  # the trick is our team's: give it the bonus card, never points
        if legal & _bonus(k):
            return top(legal & _bonus(k))
        if pointless:
            return _void_maker(k, pointless)
        return min(mask_cards(legal), key=lambda c: (k.rules.card_points[c], c % 13))
    if threat >= 0:
        if win_seat == threat:
            return rank_top(pointless) if pointless else rank_low(legal)
        if legal & HEARTS_MASK:
            return top(legal & HEARTS_MASK)  # tip 9: a heart to anyone else stops the moon
    big, big_suit = _big(k)
    if big >= 0 and legal >> big & 1 and _may_give(k, win_seat, k.rules.card_points[big]):
        return big
    guards = legal & SUIT_MASKS[big_suit] & ~((2 << big) - 1) if big >= 0 else 0
    if _big_out(k) and guards:
        return top(guards)  # the high cards that would catch the big card later
    if legal & HEARTS_MASK:
        return top(legal & HEARTS_MASK)
    if pointless:
        return _void_maker(k, pointless)
    return rank_top(legal)


def _shoot(k: Knowledge) -> int:
    """Going for the moon: win every trick with points, lead winners, throw away losers."""
    legal = k.legal
    if not k.trick:
        winners = [c for c in mask_cards(legal) if not k.unseen & SUIT_MASKS[SUIT_OF[c]] & ~((2 << c) - 1)]
        if winners:
            return max(winners, key=lambda c: (SUIT_OF[c] != HEARTS, c % 13))
        return rank_top(legal)
    suit = SUIT_OF[k.trick[0][1]]
    if legal & SUIT_MASKS[suit]:
        return top(legal)
    pointless = legal & ~k.rules.penalty_mask
    return rank_low(pointless) if pointless else rank_low(legal)


def _want_points(k: Knowledge) -> int:
    """Dutch second half: everyone wants points; win tricks with points, keep point cards to take them."""
    legal = k.legal
    if not k.trick:
        h = legal & HEARTS_MASK
        if h and not k.unseen_in(HEARTS) >> top(h):
            return top(h)
        return rank_top(legal)
    suit = SUIT_OF[k.trick[0][1]]
    _, win_card = k.winning()
    if legal & SUIT_MASKS[suit]:
        above = legal & ~((1 << win_card) - 1)
        if above:
            return top(above)
        pointless = legal & ~k.rules.penalty_mask
        return low(pointless or legal)
    pointless = legal & ~k.rules.penalty_mask
    return rank_low(pointless or legal)


def _all_void(k: Knowledge, suit: int) -> bool:
    """Return True when every other seat has shown a void in ``suit``."""
    return all(k.voids[o] & SUIT_MASKS[suit] for o in range(k.seats) if o != k.seat)


def _highest_safe(m: Mask, k: Knowledge) -> int:
    """Return the highest card of one suit, avoiding the big penalty card when another card is available."""
    big, _ = _big(k)
    rest = m & ~(1 << big) if big >= 0 else m
    return top(rest) if rest else top(m)


def _may_give(k: Knowledge, seat: int, points: int) -> bool:
    """Return False when giving ``points`` to ``seat`` would end the game while we are not lowest (tip 6)."""
    if k.rules.end != "reach":
        return True
    taken = k.points_taken()
    if k.totals[seat] + taken[seat] + points < k.rules.end_score:
        return True
    mine = k.totals[k.seat] + taken[k.seat]
    return all(mine < k.totals[s] + taken[s] + (points if s == seat else 0) for s in range(k.seats) if s != k.seat)


def _void_maker(k: Knowledge, m: Mask) -> int:
    """Return the high card from the shortest suit: discarding it gets closer to a void."""
    best, best_score = -1, -1e9
    for s in range(4):
        cards = m & SUIT_MASKS[s]
        if cards:
            c = top(cards)
            score = c % 13 - 2.0 * (k.hand & SUIT_MASKS[s]).bit_count()
            if score > best_score:
                best, best_score = c, score
    return best


def _bonus(k: Knowledge) -> Mask:
    """Return the cards worth negative points (the J♦ option): never give those away."""
    return sum(1 << c for c, p in enumerate(k.rules.card_points) if p < 0)


def _big(k: Knowledge) -> tuple[int, int]:
    """The big penalty card of these rules and its suit (see ``_big_of``)."""
    return big_card(k.rules)


def _big_out(k: Knowledge) -> bool:
    """Return True when the big penalty card is still in another seat's hand."""
    big, _ = _big(k)
    return big >= 0 and bool(k.unseen >> big & 1)


def partners(k: Knowledge) -> tuple[int, ...]:
    """Return the seats on this seat's team (its partner across in a team game; none otherwise)."""
    teams = k.rules.teams
    if not teams:
        return ()
    return tuple(s for s in range(k.seats) if s != k.seat and teams[s] == teams[k.seat])


def _nine(k: Knowledge, suit: int) -> Mask:
    """Return the card of ``suit`` that doubles its trick (the 9 of Achterhoeks), or 0."""
    rank = k.rules.trick_doubler
    return 1 << (13 * suit + rank) & k.rules.deck if rank >= 0 else 0


def _danger(k: Knowledge, card: int) -> tuple[int, int]:
    """How much a card hurts whoever holds it: its points first, then its rank."""
    return (k.rules.card_points[card], card % 13)


def _order_for(k: Knowledge, cards: list[int], targets: list[int]) -> list[int]:
    """Order passed cards for their targets: the partner (if any) gets the least dangerous card."""
    mates = partners(k)
    ranked = sorted(cards, key=lambda c: _danger(k, c))  # harmless first
    out: list[int] = [-1] * len(targets)
    for i, t in enumerate(targets):
        if t in mates:
            out[i] = ranked.pop(0)
    for i in range(len(targets)):
        if out[i] < 0:
            out[i] = ranked.pop()
    return out


def _after(k: Knowledge) -> list[int]:
    """Return the seats still to play to the current trick after this one."""
    return [(k.seat + i) % k.seats for i in range(1, k.seats - len(k.trick))]
