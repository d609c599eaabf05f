"""``hearts train``: learn the hard player's rollout policy from its own games.

Each round plays games of computer players (the hard one by default, with its rule-of-thumb rollouts) and keeps the
positions where the player to move has a choice, with every hand known. The policy is a linear softmax over
``policy.features`` of each legal card (the rule of thumb's own card is one of them), fitted by cross-entropy
(Adam, numpy) to one of two targets:

- ``choices`` (the default): the card the player chose, so the rollouts play the way the players at the table do;
- ``playouts``: every legal card is played out to the hand's end many times in the true deal with the current
  rollout policy (the compiled look-ahead's ``kernel.play_out``; the same random draws for every card of a position) and
  valued as the points the others took on average less the mover's own; the target is a softmax of those values,
  so each round learns the card that playing out with the last round's policy found best.

Seeded: the same arguments write the same model (``policy_model.py``, a Python module, so the browser loads it too).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hartenjagen.shared.bots import kernel, make_player
from hartenjagen.shared.bots.knowledge import Knowledge, start_taken
from hartenjagen.shared.bots.policy import FEATURES, KINDS, SCALE, VERSION, K, context, features, kind_of
from hartenjagen.shared.bots.rollout import big_bits, first_shooter, moon_state, rollout
from hartenjagen.shared.bots.sampling import seed_from
from hartenjagen.shared.cards import SUIT_MASKS, parse_card
from hartenjagen.shared.deal import seeded_deal
from hartenjagen.shared.game import GAME_OVER, PASSING, PLAYING, Game
from hartenjagen.shared.rules import Rules
from hartenjagen.shared.sim import hand_scorer
from hartenjagen.shared.variants import make_rules
from hartenjagen.shared.view import view_for

from .arena import progress_bar

if TYPE_CHECKING:  # numpy comes with the fast extra: imported where a command needs it, so ``hearts`` runs without
    import numpy as np

#: Where the shipped model lives (a Python module, so the browser's worker loads it like any other code).
MODEL = Path(__file__).resolve().parents[1] / "shared" / "bots" / "policy_model.py"
#: The rollouts' chance of a random card while labelling, as in the hard player's look-ahead.
WHIM = 0.08
#: Random draws per playout (``hard.DRAWS``).
DRAWS = 64

Position = dict[str, Any]


def play_positions(rules: Rules, count: int, seed: int, level: str = "medium") -> list[Position]:
    """Play games of ``level`` players from seeded deals; return ``count`` positions where the mover has a choice.

    Each position keeps the card its player chose (``chosen``).
    """
    out: list[Position] = []
    options: dict[str, Any] = {"learned": False} if level == "hard" else {}
    bots = [make_player(level, seed * 101 + s, **options) for s in range(rules.seats)]
    game = Game(rules)
    deal = 0
    while len(out) < count:
        if game.phase == GAME_OVER:
            game = Game(rules)
        game.deal(seeded_deal(rules, seed, deal))
        deal += 1
        while game.phase in (PASSING, PLAYING):
            for seat in game.to_act():
                view = view_for(game, seat)
                if game.phase == PLAYING and len(view["legal"]) > 1 and not game.counting_down and len(out) < count:
                    k = Knowledge(view)
                    out.append(
                        {
                            "hands": list(game.hands),
                            "seat": seat,
                            "taken": start_taken(k, 0),
                            "leader": k.leader,
                            "trick": k.trick_bits(),
                            "first": k.first_trick,
                            "broken": k.hearts_broken,
                            "legal": k.legal,
                        }
                    )
                intent = bots[seat].decide(view)
                if out and out[-1]["seat"] == seat and "chosen" not in out[-1] and intent.get("card"):
                    out[-1]["chosen"] = 1 << parse_card(intent["card"])
                game.apply({**intent, "seat": seat})
    return out


def bits(mask: int) -> list[int]:
    """The set bits of a mask, low to high."""
    out = []
    while mask:
        b = mask & -mask
        out.append(b)
        mask ^= b
    return out


def label(
    rules: Rules, positions: list[Position], reps: int, weights: tuple[int, ...], rng: random.Random
) -> list[np.ndarray]:
    """Each position's value per legal card: the mean over ``reps`` playouts of the others' points less the mover's."""
    import numpy as np

    n = rules.seats
    hands, taken, leaders, tricks, firsts, brokens, states = [], [], [], [], [], [], []
    for p in positions:
        seeds = [seed_from(rng) for _ in range(reps)]
        for b in bits(p["legal"]):
            after = list(p["hands"])
            after[p["seat"]] ^= b
            for x in seeds:
                hands.append(after)
                taken.append(p["taken"])
                leaders.append(p["leader"])
                tricks.append(p["trick"] + [b])
                firsts.append(p["first"])
                brokens.append(p["broken"])
                states.append(x)
    outs = kernel.play_out(rules, hands, taken, leaders, tricks, firsts, brokens, states, DRAWS, False, WHIM, weights)
    score = hand_scorer(rules)
    scores = np.array([score(t, d) for t, d in outs], dtype=np.float64)
    values: list[np.ndarray] = []
    i = 0
    for p in positions:
        seat = p["seat"]
        m = len(bits(p["legal"]))
        block = scores[i : i + m * reps].reshape(m, reps, n)
        i += m * reps
        own = block[:, :, seat]
        others = (block.sum(axis=2) - own) / (n - 1)
        values.append((others - own).mean(axis=1))
    return values


def rule_of_thumb(rules: Rules, p: Position, rng: random.Random) -> int:
    """The card the rule-of-thumb rollout plays at a position (a lead's suit order is random)."""
    trace: list[int] = []
    rollout(rules, list(p["hands"]), list(p["taken"]), p["leader"], list(p["trick"]), p["first"], p["broken"],
            rng.random, whim=0.0, trace=trace)  # fmt: skip
    return trace[0]


def feature_rows(rules: Rules, p: Position, rng: random.Random) -> np.ndarray:
    """The features of each legal card of a position, placed in its kind of play's block (cards, kinds x K)."""
    import numpy as np

    big, big_suit = big_bits(rules)
    prior = rule_of_thumb(rules, p, rng)
    hands, seat, trick = p["hands"], p["seat"], p["trick"]
    done = len(trick)
    suit = best = played = 0
    if trick:
        suit = SUIT_MASKS[(trick[0].bit_length() - 1) // 13]
        for b in trick:
            if b & suit and b > best:
                best = b
            played |= b
    h = hands[seat]
    rest, voids = context(hands, seat)
    kind = kind_of(done, h & suit)
    moon = moon_state(first_shooter(rules, p["taken"]), seat)
    cards = bits(p["legal"])
    x = np.zeros((len(cards), len(KINDS) * K))
    for j, b in enumerate(cards):
        f = features(b, h, rest, voids, kind, suit, best, played, done, rules.seats, rules.penalty_mask, big,
                     big_suit, moon, prior)  # fmt: skip
        x[j, kind * K : (kind + 1) * K] = f
    return x


def fit(
    xs: list[np.ndarray], values: list[np.ndarray], start: np.ndarray, temperature: float, steps: int, l2: float
) -> tuple[np.ndarray, float, float, float, float]:
    """Fit the weights: a softmax over each position's cards against a softmax of their values (Adam, full batch).

    Returns the weights, the loss, how often the policy's card is the best-valued one, and the mean points the
    policy's card loses against the best one (its regret) on these positions, and the rule of thumb's regret.
    """
    import numpy as np

    x = np.concatenate(xs)
    sizes = np.array([len(v) for v in values])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    v = np.concatenate(values)
    target = np.exp((v - np.repeat(np.maximum.reduceat(v, starts), sizes)) / temperature)
    target /= np.repeat(np.add.reduceat(target, starts), sizes)
    scale = np.maximum(np.abs(x).max(axis=0), 1.0)  # features on one scale while fitting
    xn = x / scale
    w = start * scale
    m1 = np.zeros_like(w)
    m2 = np.zeros_like(w)
    lr, b1, b2 = 0.05, 0.9, 0.999
    count = len(values)
    for t in range(1, steps + 1):
        z = xn @ w
        z -= np.repeat(np.maximum.reduceat(z, starts), sizes)
        e = np.exp(z)
        p = e / np.repeat(np.add.reduceat(e, starts), sizes)
        grad = xn.T @ (p - target) / count + l2 * w
        m1 = b1 * m1 + (1 - b1) * grad
        m2 = b2 * m2 + (1 - b2) * grad * grad
        w -= lr * (m1 / (1 - b1**t)) / (np.sqrt(m2 / (1 - b2**t)) + 1e-8)
    z = xn @ w
    z -= np.repeat(np.maximum.reduceat(z, starts), sizes)
    e = np.exp(z)
    p = e / np.repeat(np.add.reduceat(e, starts), sizes)
    loss = float(-(target * np.log(p + 1e-12)).sum() / count)
    weights = w / scale
    # the policy's own card (highest integer score, lowest card on a tie) against the best valued one
    scores = x @ np.round(weights * SCALE)
    hits = regret = prior_regret = 0.0
    prior = x[:, K - 1 :: K].sum(axis=1)  # the rule of thumb's card, in whichever kind's block
    for s0, size in zip(starts, sizes, strict=True):
        chosen = s0 + int(np.argmax(scores[s0 : s0 + size]))
        top = float(v[s0 : s0 + size].max())
        hits += v[chosen] >= top
        regret += top - v[chosen]
        prior_regret += top - v[s0 + int(np.argmax(prior[s0 : s0 + size]))]
    return weights, loss, hits / count, regret / count, prior_regret / count


def write_model(path: Path, weights: tuple[int, ...], made_by: str, log: list[dict[str, Any]]) -> None:
    """Write the model as a Python module: its version, the command that made it, the weights by kind of play."""
    rows = []
    for kind, name in enumerate(KINDS):
        rows.append(f"    # {name}")
        for i, feature in enumerate(FEATURES):
            rows.append(f"    {weights[kind * K + i]},  # {feature}")
    summary = [", ".join(f"{k} {v}" for k, v in r.items()) for r in log]
    text = (
        '"""The learned rollout policy\'s weights (``policy.py``): written by ``hearts train``, not by hand."""\n\n'
        "#: Bumped when the features change; a model of another version is not loaded.\n"
        f"VERSION = {VERSION}\n"
        f"#: The command that made these weights.\nMADE_BY = {made_by!r}\n"
        "#: The training run's figures per round.\nLOG = (\n" + "".join(f"    {line!r},\n" for line in summary) + ")\n"
        "#: One integer per feature and kind of play (lead, follow, discard), scaled by ``policy.SCALE``.\n"
        "WEIGHTS: tuple[int, ...] = (\n" + "\n".join(rows) + "\n)\n"
    )
    path.write_text(text)


def train(args: argparse.Namespace) -> int:
    """Run the rounds of ``hearts train`` and write the model."""
    if not kernel.AVAILABLE:
        print("hearts train needs the compiled look-ahead: pip install -e '.[fast]'", file=sys.stderr)
        return 2
    import numpy as np

    rules = make_rules({"variant": args.variant})
    rng = random.Random(args.seed)
    weights: tuple[int, ...] = ()
    w = np.zeros(len(KINDS) * K)
    log: list[dict[str, Any]] = []
    started = time.perf_counter()
    bar = progress_bar if sys.stderr.isatty() else None
    for r in range(args.rounds):
        t0 = time.perf_counter()
        xs: list[np.ndarray] = []
        values: list[np.ndarray] = []
        done = 0
        for chunk in range(0, args.positions, 500):
            count = min(500, args.positions - chunk)
            positions = play_positions(rules, count, args.seed * 7919 + r * 1009 + chunk, args.players)
            if args.target == "choices":  # the players' own cards: a value of 1 against 0, a near one-hot target
                values.extend(np.array([1.0 if b == p["chosen"] else 0.0 for b in bits(p["legal"])]) for p in positions)
            else:
                values.extend(label(rules, positions, args.reps, weights, rng))
            xs.extend(feature_rows(rules, p, rng) for p in positions)
            done += count
            if bar:
                bar(done + r * args.positions, args.rounds * args.positions)
        temperature = 0.05 if args.target == "choices" else args.temperature
        w, loss, best, regret, prior_regret = fit(xs, values, w, temperature, args.steps, args.l2)
        weights = tuple(int(round(float(x) * SCALE)) for x in w)
        playouts = sum(len(v) for v in values) * args.reps
        seconds = round(time.perf_counter() - t0, 1)
        entry: dict[str, Any] = {"round": r + 1, "positions": args.positions, "seconds": seconds}
        entry["loss"] = round(loss, 4)
        if args.target == "choices":  # how often the policy's likeliest card is the player's, against the rule of thumb
            entry.update(agrees=round(best, 4), rule_of_thumb_agrees=round(1 - prior_regret, 4))
        else:
            entry.update(playouts=playouts, best=round(best, 4), regret=round(regret, 3),
                         rule_of_thumb_regret=round(prior_regret, 3))  # fmt: skip
        log.append(entry)
        print(json.dumps(entry), flush=True)
    made_by = (
        f"hearts train --variant {args.variant} --players {args.players} --target {args.target} --rounds {args.rounds} "
        f"--positions {args.positions} --seed {args.seed}"
        + (f" --reps {args.reps} --temperature {args.temperature}" if args.target == "playouts" else "")
    )
    if args.out:
        write_model(Path(args.out), weights, made_by, log)
    print(f"{args.rounds} rounds in {time.perf_counter() - started:.0f} s; model: {args.out or '(not written)'}")
    return 0


def add_train_parser(sub: Any) -> None:
    """Add the ``train`` subcommand to the ``hearts`` command's subparsers."""
    p = sub.add_parser("train", help="learn the hard player's rollout policy by self-play (needs the fast extra)")
    p.add_argument("--variant", default="classic")
    p.add_argument("--rounds", type=int, default=1, help="rounds, each on new positions (default 1)")
    p.add_argument("--positions", type=int, default=60_000, help="positions learned from per round (default 60000)")
    p.add_argument("--reps", type=int, default=32, help="playouts per legal card of a position (default 32)")
    p.add_argument("--temperature", type=float, default=1.0, help="points per unit of the target softmax")
    p.add_argument("--steps", type=int, default=600, help="optimiser steps per round (default 600)")
    p.add_argument("--l2", type=float, default=1e-4, help="weight decay (default 1e-4)")
    p.add_argument("--players", default="hard", help="the level whose games give the positions (default hard)")
    p.add_argument(
        "--target", choices=["choices", "playouts"], default="choices",
        help="learn the players' own cards (default), or the card playing out with the last policy finds best",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=str(MODEL), help="the model file to write (default: the shipped one)")
    p.set_defaults(func=train)
