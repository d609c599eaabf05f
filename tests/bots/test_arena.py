"""The arena plays duplicate deals (every deal in every seating) and reports figures as JSON."""

from __future__ import annotations

import json
from collections import defaultdict

from hartenjagen.server.cli import main
from hartenjagen.tools.arena import run_arena


def test_every_deal_is_played_once_in_each_seating():
    res = run_arena(["easy", "random", "random", "random"], hands=12, seed=4, keep_log=True)
    assert res["hands"] == 12 and res["deals"] == 3
    seats_of_easy = defaultdict(set)
    for entry in res["log"]:
        seats_of_easy[entry["deal"]].add(entry["seats"].index("easy"))
    assert seats_of_easy == {0: {0, 1, 2, 3}, 1: {0, 1, 2, 3}, 2: {0, 1, 2, 3}}


def test_the_same_seed_replays_the_same_scores():
    a = run_arena(["medium", "easy", "easy", "easy"], hands=8, seed=2, keep_log=True)
    b = run_arena(["medium", "easy", "easy", "easy"], hands=8, seed=2, jobs=2, keep_log=True)
    key = lambda e: (e["deal"], e["rotation"])  # noqa: E731
    assert sorted(a["log"], key=key) == sorted(b["log"], key=key)
    assert a["players"][0]["points_per_hand"] == b["players"][0]["points_per_hand"]


def test_json_output_has_the_figures_per_player(capsys):
    assert main(["arena", "--players", "medium,easy,easy,random", "--hands", "8", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    names = [p["name"] for p in out["players"]]
    assert names == ["medium", "easy", "random"]
    for p in out["players"]:
        for field in ("points_per_hand", "ci95", "decision_ms_median", "decision_ms_max", "win_rate", "moons"):
            assert field in p
    seats = {p["name"]: p["seats"] for p in out["players"]}
    assert seats == {"medium": 1, "easy": 2, "random": 1}
    # every hand hands out the deck's points: per-hand scores over all seats add up to 26 or a moon's 78
    total = sum(p["points_per_hand"] * p["seats"] for p in out["players"])
    assert 26 <= total <= 78
    assert {d["a"] for d in out["differences"]} == {"medium", "easy"}


def test_text_report_and_bad_players(capsys):
    assert main(["arena", "--players", "easy,easy,easy,easy", "--hands", "4"]) == 0
    text = capsys.readouterr().out
    assert "pts/hand" in text and "easy" in text
    assert main(["arena", "--players", "easy,easy,grandmaster,easy", "--hands", "4"]) == 2
    assert main(["arena", "--players", "easy,easy", "--hands", "4"]) == 2


def test_the_arena_plays_a_variant_with_its_options_and_refuses_one_it_does_not_have(capsys):
    """``--variant spot_hearts --option spot_form=2`` plays spot hearts form 2: Q♠ alone is 25 points."""
    res = run_arena(["easy", "medium", "easy", "medium"], 8, seed=3, variant="spot_hearts", options={"spot_form": 2},
                    keep_log=True)  # fmt: skip
    assert res["variant"] == "spot_hearts" and res["options"] == {"spot_form": 2}
    # form 2: hearts score their pips (2 + ... + 14 = 104) and Q♠ 25, so a hand hands out 129 (or a moon's worth)
    assert all(sum(d["scores"]) in (129, 3 * 129) for d in res["log"]), [d["scores"] for d in res["log"]]
    quick = ["--players", "easy,medium,easy,medium", "--hands", "4"]
    assert main(["arena", "--variant", "spot_hearts", "--option", "spot_form=2", *quick, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"spot_form": 2}
    assert main(["arena", "--variant", "chips", "--option", "spot_form=2", *quick]) == 2
    assert "spot_form" in capsys.readouterr().err


def test_a_five_seat_arena_rotates_every_deal_over_all_five_seats(capsys):
    res = run_arena(["medium", "easy", "easy", "easy", "easy"], hands=10, seed=5, variant="five_kitty", keep_log=True)
    assert (res["hands"], res["deals"], res["seatings"]) == (10, 2, 5)
    seats_of_medium = defaultdict(set)
    for entry in res["log"]:
        assert len(entry["scores"]) == 5
        seats_of_medium[entry["deal"]].add(entry["seats"].index("medium"))
    assert seats_of_medium == {0: set(range(5)), 1: set(range(5))}
    # the kitty's points count for its taker: every hand hands out 26, or a moon's 4 x 26
    assert all(sum(d["scores"]) in (26, 104) for d in res["log"]), [d["scores"] for d in res["log"]]
    # the command line asks for one level per seat, and says how many
    assert main(["arena", "--variant", "three", "--players", "easy,easy,easy,easy", "--hands", "3"]) == 2
    assert "3 comma-separated levels for three" in capsys.readouterr().err
    assert main(["arena", "--variant", "three", "--players", "medium,easy,easy", "--hands", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seatings"] == 3 and {p["name"]: p["seats"] for p in out["players"]} == {"medium": 1, "easy": 2}


def test_the_chips_arena_counts_chips_lost_per_hand_not_hearts():
    res = run_arena(["medium", "easy", "easy", "easy"], hands=8, seed=6, variant="chips", keep_log=True,
                    options={"start_chips": 20, "ante": 2, "hand_limit": 0})  # fmt: skip
    for d in res["log"]:
        # a seat loses at most the ante it paid; the pot (with what stayed from before) goes to the clean seats
        assert all(x <= 2 for x in d["scores"]), d["scores"]
    assert any(x < 0 for d in res["log"] for x in d["scores"])  # someone took a pot: won more than the ante
