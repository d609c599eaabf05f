"""A game of Hearts as the fold of its events: deal, pass, play and moon choice.

>>> from hartenjagen.shared.variants import CLASSIC
>>> g = Game(CLASSIC)
>>> g.deal_seeded(1)
>>> str(g.phase), g.pass_offset
('passing', 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, NoReturn

from . import multiset
from .cards import (
    CARD_NAMES,
    JOKER,
    Mask,
    mask_cards,
    mask_list,
    mask_names,
    parse_card,
    parse_mask,
)
from .deal import secure_deal, seeded_deal
from .exchange import chosen_cards, event_cards, exchange
from .legal import legal_mask, refusal
from .multiset import LAYER0
from .reasons import IllegalAction, Params
from .rules import Rules
from .scoring import (
    Parts,
    chip_shares,
    hand_deltas,
    is_over,
    passed_end,
    seat_parts,
    seat_points,
    shooter_of,
    sun_of,
    toppers,
)
from .trick import CountedTrick, Trick
from .variants import make_rules


def _part(i: int, seats: int) -> str:
    """What the i-th mask of a deal is: a hand, or the kitty after the hands."""
    return "hand" if i < seats else "kitty"


class Phase(StrEnum):
    """Where a game is: each value is the plain string the views and the protocol carry."""

    DEALING = "dealing"
    PASSING = "passing"
    PLAYING = "playing"
    MOON_CHOICE = "moon_choice"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


DEALING, PASSING, PLAYING, MOON_CHOICE, HAND_OVER, GAME_OVER = Phase


class Game:
    """The whole state of one game; change it only through deal, pass, play and moon events."""

    __slots__ = (
        "rules", "events", "phase", "hand_no", "seats", "totals", "history", "turned", "counting_down", "winners",
        "losers", "toppers", "chips", "pot", "hands", "dealt", "passes", "pass_orders", "received", "sent",
        "passed_to", "received_from", "_points", "taken", "doubled", "kitty", "kitty_takers", "kitty_taken", "tricks",
        "pending", "voided", "jokers_played", "trick", "turn", "_legal", "hearts_broken", "pass_offset", "pass_form",
        "pass_targets", "moon_seat", "moon_points",
    )  # fmt: skip

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.events: list[dict[str, Any]] = []
        self.phase = DEALING
        self.hand_no = -1
        self.seats = n = rules.seats
        self.totals = [0] * n
        self.history: list[dict[str, Any]] = []
        self.turned = False  # dutch: someone reached the turn score; counting goes down next hand
        self.counting_down = False  # dutch: this hand's points are subtracted
        self.winners: list[int] = []
        self.losers: list[int] = []  # at the end of a points game: the seats that reached or passed the end score
        self.toppers: list[dict[str, Any]] = []
        self.chips = [rules.start_chips] * n
        self.pot = 0
        self._new_hand_state()

    def _new_hand_state(self) -> None:
        n = self.seats
        self.hands: list[Mask] = [0] * n
        self.dealt: list[Mask] = [0] * n
        self.passes: list[Mask | None] = [None] * n
        self.pass_orders: list[list[int]] = [[] for _ in range(n)]
        self.received: list[Mask] = [0] * n
        self.sent: list[list[Mask]] = [[0] * n for _ in range(n)]  # sent[s][to]: cards s passed to seat to
        self.passed_to: list[list[int] | None] = [None] * n  # per seat: the seat each passed card went to
        self.received_from: list[list[int] | None] = [None] * n  # per seat: where each received card came from
        self._points: tuple[int, list[int], Parts] = (-1, [], ([], []))  # points_taken and seat_parts, per tricks
        self.taken: list[Mask] = [0] * n  # the cards of the tricks each seat won (a kitty it took is not in)
        self.doubled: list[Mask] = [0] * n  # the cards of each seat's doubled tricks
        self.kitty: list[int] = []  # the kitty's cards, low to high, dealt face down
        self.kitty_takers: list[int] = []  # per kitty card: the seat that took it, or -1 while it lies there
        self.kitty_taken: list[Mask] = [0] * n  # the kitty cards each seat took (only it has seen them)
        self.tricks: list[Trick] = []
        self.pending: Mask = 0  # cards of undecided tricks, for the next decided trick's winner (layered)
        self.voided: Mask = 0  # cards still undecided when the hand ended: they count for nobody
        self.jokers_played = 0  # jokers played in this hand's finished tricks
        self.trick = self._new_trick(0)
        self.turn = -1
        self._legal = -1  # the mask legal() found for the current turn (-1: not worked out yet)
        self.hearts_broken = False
        self.pass_offset = 0
        self.pass_form = "hold"
        self.pass_targets: tuple[int, ...] = ()
        self.moon_seat = -1
        self.moon_points: list[int] = [0] * n

    # ------------------------------------------------------------------ queries

    @property
    def pass_direction(self) -> str | None:
        """Return the current hand's passing form: left, right, across, hold, scatter, left_right, pot (or None)."""
        return self.pass_form if self.hand_no >= 0 else None

    def to_act(self) -> list[int]:
        """Return the seats whose action the game waits for."""
        if self.phase == PASSING:
            return [s for s in range(self.seats) if self.passes[s] is None]
        if self.phase == PLAYING:
            return [self.turn]
        if self.phase == MOON_CHOICE:
            return [self.moon_seat]
        return []

    def _context(self) -> tuple[int, bool, int]:
        trick = self.trick
        return trick.led, not self.tricks, trick.top

    def legal(self, seat: int) -> Mask:
        """Return the mask of cards ``seat`` may play now (empty when it is not its turn)."""
        if self.phase is not PLAYING or seat != self.turn:  # the phase is always one of Phase's members
            return 0
        legal = self._legal
        if legal < 0:  # once per turn: asked again (the view, the move itself) it is the same
            trick = self.trick
            legal = self._legal = legal_mask(
                self.rules, self.hands[seat] & LAYER0, trick.led, not self.tricks, self.hearts_broken, trick.top
            )
        return legal

    def hand_refusal(self, seat: int) -> tuple[str, Params] | None:
        """Return the reason ``seat`` may play no card at all now (not its turn, not the playing phase), or None."""
        if self.phase != PLAYING:
            return "wrong_phase", {"phase": self.phase}
        if seat != self.turn:
            return "not_your_turn", {}
        return None

    def refusals(self, seat: int) -> dict[int, tuple[str, Params]]:
        """Return, for every card in ``seat``'s hand it may not play now, the reason code and params."""
        hand = self.hands[seat] & LAYER0  # each different card once
        whole = self.hand_refusal(seat)
        if whole is not None:
            return {c: whole for c in mask_cards(hand)}
        led, first, best = self._context()
        broken, rules = self.hearts_broken, self.rules
        legal = legal_mask(rules, hand, led, first, broken, best)
        suit = rules.suit_masks[led] if led >= 0 else 0
        # a card off the suit led while the hand holds that suit: always the first reason (``refusal``), one copy
        follow = ("must_follow_suit", {"suit": led}) if hand & suit else None
        return {
            c: follow if follow is not None and not suit >> c & 1 else refusal(rules, hand, led, first, broken, c, best)
            for c in mask_cards(hand & ~legal)
        }

    def points_taken(self) -> list[int]:
        """Return the points each seat has taken in tricks so far this hand (doubled tricks and the queens' effects in).

        A kitty counts only when the hand is scored: until then only its taker knows what it holds.
        Taken cards change only when a trick ends, so the count is kept per number of tricks.
        """
        return list(self._counted()[1])

    def _counted(self) -> tuple[int, list[int], Parts]:
        """The number of tricks done, ``points_taken`` and the ``seat_parts`` it adds up, worked out once per trick."""
        done = len(self.tricks)
        if self._points[0] != done:
            penalty, bonus = parts = seat_parts(self.rules, self.taken, self.doubled)
            self._points = (done, [p + b for p, b in zip(penalty, bonus, strict=True)], parts)
        return self._points

    # ------------------------------------------------------------------ events

    def apply(self, event: Mapping[str, Any]) -> None:
        """Apply one event given as plain data (as stored in ``events`` or read from JSON)."""
        try:
            kind = event["type"]
            if kind == "deal":
                parse = multiset.parse if self.rules.counted else parse_mask
                hands = [parse(h) for h in event["hands"]]
                if self.rules.kitty:
                    hands.append(parse(event["kitty"]))
                self.deal(hands)
            elif kind == "pass":
                cards = [parse_card(c) for c in event["cards"]]  # in order: it says where each card goes
                if len(set(cards)) != len(cards) and not self.rules.counted:
                    raise ValueError(f"duplicate card in {event['cards']!r}")
                self.pass_cards(event["seat"], cards)
            elif kind == "play":
                self.play(event["seat"], parse_card(event["card"]))
            elif kind == "moon":
                self.choose_moon(event["seat"], event["choice"])
            else:
                raise IllegalAction("bad_event", detail=f"unknown type {kind!r}")
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, IllegalAction):
                raise
            raise IllegalAction("bad_event", detail=str(exc)) from None

    def deal(self, hands: list[Mask]) -> None:
        """Start the next hand with a hand (mask) per seat and, where the variant has a kitty, the kitty's mask last."""
        if self.phase not in (DEALING, HAND_OVER):
            raise IllegalAction("wrong_phase", phase=self.phase)
        rules = self.rules
        n = self.seats
        parts = n + (1 if rules.kitty else 0)
        if not isinstance(hands, (list, tuple)) or len(hands) != parts or any(type(h) is not int for h in hands):
            kitty = " and the kitty" if rules.kitty else ""
            raise IllegalAction("bad_deal", detail=f"{n} hands{kitty} are needed")
        union = 0
        for i, h in enumerate(hands):
            size = rules.hand_size if i < n else rules.kitty
            if rules.counted:
                if h.bit_count() != size or h < 0 or h != multiset.from_cards(multiset.cards(h)):
                    raise IllegalAction("bad_deal", detail=f"the {_part(i, n)} needs {size} cards of the deck")
                try:
                    union = multiset.add(union, h)
                except ValueError:
                    union = -1
                continue
            if h.bit_count() != size or h & union or h & ~rules.deck:
                raise IllegalAction("bad_deal", detail=f"the {_part(i, n)} needs {size} distinct cards of the deck")
            union |= h
        if rules.counted and union != rules.deck:
            raise IllegalAction("bad_deal", detail="the hands and the kitty must hold the deck exactly")
        names = multiset.names if rules.counted else mask_names
        event: dict[str, Any] = {
            "type": "deal",
            "hand_no": self.hand_no + 1,
            "hands": [names(h) for h in hands[:n]],
        }
        if rules.kitty:
            event["kitty"] = names(hands[n])
        self.events.append(event)
        if self.hand_no >= 0:  # a new game's hand state is new already
            self._new_hand_state()
        self.hand_no += 1
        self.counting_down = self.turned
        self.hands = list(hands[:n])
        self.dealt = list(hands[:n])
        if rules.kitty:
            self.kitty = multiset.cards(hands[n])
            self.kitty_takers = [-1] * rules.kitty
        if rules.ante:
            for s in range(n):
                paid = min(rules.ante, self.chips[s])
                self.chips[s] -= paid
                self.pot += paid
        self.pass_form, self.pass_targets, self.pass_offset = rules.passing(self.hand_no)
        if self.pass_targets:
            self.phase = PASSING
        else:
            self._start_play()

    def deal_seeded(self, seed: int) -> None:
        """Deal the next hand of numbered deal ``seed`` (the same cards on every machine)."""
        self.deal(seeded_deal(self.rules, seed, self.hand_no + 1))

    def deal_secure(self) -> None:
        """Deal the next hand from the operating system's secure random source."""
        self.deal(secure_deal(self.rules))

    def pass_cards(self, seat: int, cards: Mask | Iterable[int]) -> None:
        """Choose the cards ``seat`` passes; once every seat has chosen, they are exchanged."""
        if self.phase != PASSING:
            raise IllegalAction("wrong_phase", seat, phase=self.phase)
        n = self.seats
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction("bad_event", detail=f"no seat {seat!r}")
        if self.passes[seat] is not None:
            raise IllegalAction("already_passed", seat)
        targets = self.pass_targets
        order, mask = chosen_cards(self.rules, self.hands[seat], seat, targets, cards)
        self.events.append({"type": "pass", "seat": seat, "cards": event_cards(targets, order)})
        self.passes[seat] = mask
        self.pass_orders[seat] = order
        pot = not any(targets)
        off = self.pass_offset  # the one offset of every card (left, right, across), else 0
        if off:
            self.passed_to[seat] = [(seat + off) % n] * len(targets)
        elif not pot:  # each card goes to a known seat (listed in card order, as the view lists cards)
            self.passed_to[seat] = [(seat + t) % n for _, t in sorted(zip(order, targets, strict=True))]
        if None not in self.passes:
            key = f"pot:{self.hand_no}:" + ",".join(f"{h:x}" for h in self.dealt) if pot else ""
            self.received, self.sent = exchange(targets, self.pass_orders, self.hands, key, self.rules.counted)
            if off:  # every card a seat received came from the one seat that passes to it
                self.received_from = [[(s - off) % n] * len(targets) for s in range(n)]
            elif not pot and self.rules.counted:  # two identical cards may come from two seats: by card, then seat
                got: list[list[tuple[int, int]]] = [[] for _ in range(n)]
                for s in range(n):
                    for c, t in zip(self.pass_orders[s], targets, strict=True):
                        got[(s + t) % n].append((c, s))
                self.received_from = [[s for _, s in sorted(pairs)] for pairs in got]
            elif not pot:
                came = {c: s for s in range(n) for c in self.pass_orders[s]}  # each passed card: who passed it
                self.received_from = [[came[c] for c in mask_list(self.received[s])] for s in range(n)]
            self._start_play()

    def _start_play(self) -> None:
        rules = self.rules
        n = self.seats
        after_dealer = rules.dealer(self.hand_no) + 1
        leader = after_dealer % n  # also where every copy of the card that leads lies in the kitty
        if rules.first_lead >= 0:  # with two decks two may hold it: the one nearest the dealer's left leads
            bit = 1 << rules.first_lead
            leader = next((s % n for s in range(after_dealer, after_dealer + n) if self.hands[s % n] & bit), leader)
        self.trick = self._new_trick(leader)
        self.turn = leader
        self._legal = -1
        self.phase = PLAYING

    def play(self, seat: int, card: int) -> None:
        """Play ``card`` for ``seat``; raise IllegalAction (state unchanged) if the rules refuse it."""
        if self.phase is not PLAYING:
            raise IllegalAction("wrong_phase", seat, phase=self.phase)
        if type(seat) is not int or seat != self.turn:
            raise IllegalAction("not_your_turn", seat)
        if type(card) is not int or not 0 <= card <= 52:  # 52: the joker
            raise IllegalAction("bad_event", seat, detail=f"not a card: {card!r}")
        legal = self._legal
        if legal < 0:
            legal = self.legal(seat)
        bit = 1 << card
        if not legal & bit:  # the legal cards are cards of the hand
            self._refuse(seat, card)
        self._legal = -1
        rules = self.rules
        if rules.counted:
            self._play_counted(seat, card)
            return
        self.events.append({"type": "play", "seat": seat, "card": CARD_NAMES[card]})
        self.hands[seat] ^= bit
        trick = self.trick
        cards = trick.cards
        if not cards:  # Trick.add written out: every card of a game comes through here
            trick.led = card // 13
            trick.top = card
            trick.top_at = 0
        elif card > trick.top and card // 13 == trick.led:
            trick.top = card
            trick.top_at = len(cards)
        cards.append(card)
        trick.bits |= bit
        if bit & rules.breaking:
            self.hearts_broken = True
        n = self.seats
        if len(cards) < n:
            self.turn = (seat + 1) % n
            return
        suit = trick.led
        winner = (trick.leader + trick.top_at) % n
        trick.winner = winner
        won = trick.bits
        self.taken[winner] |= won
        if rules.trick_doubler >= 0 and won >> (13 * suit + rules.trick_doubler) & 1:
            trick.doubled = True
            self.doubled[winner] |= won
        self.tricks.append(trick)
        if rules.kitty:
            self._take_kitty(winner, won)
        if len(self.tricks) == rules.hand_size:
            self.trick = Trick(winner, n)
            self.turn = -1
            self._end_hand()
        else:
            self.trick = Trick(winner, n)
            self.turn = winner

    def _refuse(self, seat: int, card: int) -> NoReturn:
        """Raise why ``seat`` may not play ``card`` on its turn: not in its hand, or the rule that refuses it."""
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalAction("not_in_hand", seat, card=CARD_NAMES[card])
        led, first, best = self._context()
        code, params = refusal(self.rules, hand & LAYER0, led, first, self.hearts_broken, card, best)
        raise IllegalAction(code, seat, **params)  # as the view gives it for that card

    def _new_trick(self, leader: int) -> Trick:
        """A new empty trick led by ``leader``: the counted kind where a card may appear twice."""
        rules = self.rules
        if rules.counted:
            return CountedTrick(leader, self.seats, rules.identical, self.jokers_played)
        return Trick(leader, self.seats)

    def names(self, m: Mask) -> list[str]:
        """Return the card names of a mask of this game's deck (a card twice where the deck has it twice)."""
        return multiset.names(m) if self.rules.counted else mask_names(m)

    def _play_counted(self, seat: int, card: int) -> None:
        """Play a legal card of a deck with copies: undecided tricks wait for the next decided one's winner."""
        rules, n = self.rules, self.seats
        self.events.append({"type": "play", "seat": seat, "card": CARD_NAMES[card]})
        self.hands[seat] = multiset.remove_card(self.hands[seat], card)
        trick = self.trick
        trick.add(card)
        if rules.breaking >> card & 1:
            self.hearts_broken = True
        if len(trick.cards) < n:
            self.turn = (seat + 1) % n
            return
        self.tricks.append(trick)
        self.jokers_played += trick.cards.count(JOKER)
        if trick.top_at < 0:  # every card of the led suit cancelled: the cards stay, the same leader leads again
            self.pending = multiset.add(self.pending, trick.bits)
            leader = trick.leader
        else:
            leader = (trick.leader + trick.top_at) % n
            trick.winner = leader
            won = multiset.add(trick.bits, self.pending)
            self.pending = 0
            self.taken[leader] = multiset.add(self.taken[leader], won)
            if rules.kitty:
                self._take_kitty(leader, won)
        self.trick = self._new_trick(leader)
        if len(self.tricks) == rules.hand_size:
            self.voided, self.pending = self.pending, 0
            for i, taker in enumerate(self.kitty_takers):
                if taker < 0:  # no trick was decided after the kitty's: it counts for nobody either
                    self.voided = multiset.add_card(self.voided, self.kitty[i])
            self.turn = -1
            self._end_hand()
        else:
            self.turn = leader

    def _take_kitty(self, winner: int, won: Mask) -> None:
        """Give the kitty (or the next kitty card) to a trick's winner when the variant's kitty rule says so."""
        takers = self.kitty_takers
        if -1 not in takers:
            return
        how = self.rules.kitty_rule
        last = len(self.tricks) == self.rules.hand_size
        if how == "first_two":
            give: Iterable[int] = [takers.index(-1)]
        elif how == "first_points" and not won & self.rules.penalty_mask and not last:
            return  # the kitty waits for the first trick with points (the last trick takes it if none has)
        else:
            give = range(len(takers))
        for i in give:
            takers[i] = winner
            self.kitty_taken[winner] = multiset.add_card(self.kitty_taken[winner], self.kitty[i])

    def scored_taken(self) -> list[Mask]:
        """Return every seat's cards that count for the hand: its tricks and the kitty cards it took."""
        if not self.kitty:
            return self.taken
        return [multiset.add(t, k) for t, k in zip(self.taken, self.kitty_taken, strict=True)]

    def counted_cards(self) -> list[Mask]:
        """Return each seat's cards that change its score this hand (``Rules.counting_mask``), the kitty's included."""
        mask = self.rules.counting_mask
        return [t & mask for t in self.scored_taken()]

    def _end_hand(self) -> None:
        rules = self.rules
        taken = self.scored_taken()
        points = seat_points(rules, taken, self.doubled) if self.kitty else self.points_taken()
        self.moon_points = points
        shooter = shooter_of(rules, taken)
        if sun_of(rules, taken) >= 0:
            shooter = -1  # taking every trick scores as the sun (or doormars), not as a moon
        if shooter >= 0 and not self.counting_down:
            if rules.moon == "choose":
                self.moon_seat = shooter
                self.phase = MOON_CHOICE
                return
            self._score(shooter, rules.moon)
        else:
            self._score(shooter, None)

    def choose_moon(self, seat: int, choice: str) -> None:
        """Let the moon shooter choose: "others" (all to the others) or "self" (all off their own score)."""
        if self.phase != MOON_CHOICE:
            raise IllegalAction("wrong_phase", seat, phase=self.phase)
        if seat != self.moon_seat:
            raise IllegalAction("not_your_turn", seat)
        if choice not in ("others", "self"):
            raise IllegalAction("bad_moon_choice", seat, choices=["others", "self"])
        self.events.append({"type": "moon", "seat": seat, "choice": choice})
        self._score(seat, choice)

    def _score(self, shooter: int, choice: str | None) -> None:
        rules = self.rules
        points = self.moon_points
        taken = self.scored_taken()
        parts = None if self.kitty else self._counted()[2]  # the kitty's cards count now: worked out afresh
        delta = hand_deltas(rules, taken, self.counting_down, choice, self.doubled, parts)
        totals = self.totals
        n = self.seats
        for s in range(n):
            new = totals[s] + delta[s]
            if rules.exact_zero and self.counting_down and new < 0:
                new = -new  # overshooting zero bounces back up
            totals[s] = new
        result = {
            "hand_no": self.hand_no,
            "points": list(points),
            "scores": delta,
            "totals": list(totals),
            "moon": shooter if shooter >= 0 else None,
            "moon_choice": choice,
            "counting_down": self.counting_down,
        }
        if rules.kitty:
            result["kitty_takers"] = list(self.kitty_takers)
        if rules.identical == "cancel":
            result["voided"] = self.names(self.voided)  # cards of the undecided last tricks: nobody's
        if rules.sun:
            sun = sun_of(rules, taken)
            result["sun"] = sun if sun >= 0 else None
        if rules.start_chips:
            won = chip_shares(rules, taken, self.pot)
            for s in range(n):
                self.chips[s] += won[s]
            self.pot -= sum(won)
            result.update({"chips_won": won, "chips": list(self.chips), "pot": self.pot})
        self.history.append(result)
        self.moon_seat = -1
        if rules.end == "chips":
            self._end_chips()
            return
        over = is_over(rules, totals, self.counting_down)
        if rules.end == "dutch" and not self.counting_down and max(totals) >= rules.turn_score:
            self.turned = True
        low = min(totals)
        winners = [s for s in range(n) if totals[s] == low]
        self._finish(over, winners)
        if self.phase == GAME_OVER and rules.end == "reach":
            self.losers = [s for s in range(n) if passed_end(rules, totals[s])]
            self.toppers = toppers(rules, totals, winners, self.hand_no + 1)

    def _end_chips(self) -> None:
        """A chips game ends when one seat holds every chip, or after the hand limit: most chips win."""
        chips, rules = self.chips, self.rules
        everything = rules.start_chips * self.seats
        over = max(chips) == everything or (rules.hand_limit > 0 and self.hand_no + 1 >= rules.hand_limit)
        high = max(chips)
        self._finish(over, [s for s in range(self.seats) if chips[s] == high])
        if self.phase == GAME_OVER:
            self.losers = [s for s in range(self.seats) if chips[s] == min(chips)]

    def _finish(self, over: bool, winners: list[int]) -> None:
        if over and self.rules.tie == "play_on" and len(winners) > 1:
            over = False
        if over:
            self.winners = winners
            self.phase = GAME_OVER
        else:
            self.phase = HAND_OVER

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """Return the game as plain data: the rules' options and the event list."""
        return {"rules": self.rules.to_json(), "events": [dict(e) for e in self.events]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game by folding its events over fresh state."""
        return cls.replay(make_rules(data["rules"]), data["events"])

    @classmethod
    def replay(cls, rules: Rules, events: Iterable[Mapping[str, Any]]) -> Game:
        """Return the game that results from applying ``events`` in order."""
        game = cls(rules)
        for e in events:
            game.apply(e)
        return game

    def snapshot(self) -> dict[str, Any]:
        """Return the complete state as plain data (server-side only: it holds every hand)."""
        return {
            "phase": self.phase,
            "hand_no": self.hand_no,
            "hands": [self.names(h) for h in self.hands],
            "passes": [self.names(p) if p is not None else None for p in self.passes],
            "pass_orders": [[CARD_NAMES[c] for c in o] for o in self.pass_orders],
            "received": [self.names(r) for r in self.received],
            "sent": [[self.names(m) for m in row] for row in self.sent],
            "taken": [self.names(t) for t in self.taken],
            "doubled": [mask_names(t) for t in self.doubled],
            "pending": self.names(self.pending),
            "voided": self.names(self.voided),
            "kitty": [CARD_NAMES[c] for c in self.kitty],
            "kitty_takers": list(self.kitty_takers),
            "tricks": [t.to_json() for t in self.tricks],
            "trick": self.trick.to_json(),
            "turn": self.turn,
            "hearts_broken": self.hearts_broken,
            "totals": list(self.totals),
            "history": [dict(h) for h in self.history],
            "turned": self.turned,
            "counting_down": self.counting_down,
            "moon_seat": self.moon_seat,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "toppers": [dict(t) for t in self.toppers],
            "chips": list(self.chips),
            "pot": self.pot,
        }
