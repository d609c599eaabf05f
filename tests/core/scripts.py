"""Helpers for the core tests: hands written as strings, scripted tricks, random legal play."""

from __future__ import annotations

import random

from hartenjagen.shared.cards import mask_names, parse_card, parse_mask
from hartenjagen.shared.game import MOON_CHOICE, PASSING, PLAYING, Game

SEAT_LETTERS = "SWNE"


def hand(text: str) -> int:
    """Return the mask of space-separated card names: ``hand("2C QS AH")``."""
    return parse_mask(text.split())


def names(text: str) -> list[str]:
    """Return the card names of ``text`` in the order the core lists a mask (suit, then rank)."""
    return mask_names(hand(text))


def parse_tricks(script: str) -> list[list[tuple[int, int]]]:
    """Parse tricks written one per line as ``S:7C W:8C N:9C E:TC`` into [(seat, card)] lists."""
    tricks = []
    for line in script.strip().splitlines():
        line = line.split("#")[0].strip()
        if line:
            tricks.append([(SEAT_LETTERS.index(p[0]), parse_card(p[2:])) for p in line.split()])
    return tricks


def rotate(script: str, k: int) -> str:
    """Return the script with every seat moved ``k`` places on in play order (S->W->N->E)."""
    out = []
    for line in script.strip().splitlines():
        out.append(" ".join(SEAT_LETTERS[(SEAT_LETTERS.index(p[0]) + k) % 4] + p[1:] for p in line.split()))
    return "\n".join(out)


def deal_of(script: str) -> list[int]:
    """Return the four hands that a scripted hand plays: every seat holds exactly the cards it plays."""
    hands = [0, 0, 0, 0]
    for trick in parse_tricks(script):
        for seat, c in trick:
            hands[seat] |= 1 << c
    return hands


def play_script(game: Game, script: str) -> None:
    """Play every card of a script through the public API (the engine checks turn and legality)."""
    for trick in parse_tricks(script):
        for seat, c in trick:
            game.play(seat, c)


def deal_and_play(game: Game, script: str) -> None:
    """Deal the hands a script needs, then play it."""
    game.deal(deal_of(script))
    play_script(game, script)


def random_step(game: Game, rng: random.Random) -> None:
    """Take one random legal action for a seat the game waits for."""
    if game.phase == PASSING:
        seat = rng.choice(game.to_act())
        cards = rng.sample(mask_names(game.hands[seat] & ~game.rules.no_pass), len(game.pass_targets))
        game.pass_cards(seat, parse_mask(cards))
    elif game.phase == PLAYING:
        seat = game.turn
        game.play(seat, parse_card(rng.choice(mask_names(game.legal(seat)))))
    elif game.phase == MOON_CHOICE:
        game.choose_moon(game.moon_seat, rng.choice(["others", "self"]))
    else:
        raise AssertionError(f"nothing to do in phase {game.phase}")


def play_hand(game: Game, rng: random.Random, seed: int) -> None:
    """Deal a seeded hand and play it to its end (moon choice included) at random."""
    game.deal_seeded(seed)
    while game.phase in (PASSING, PLAYING, MOON_CHOICE):
        random_step(game, rng)
