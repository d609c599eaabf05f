"""`hearts bench step` times the server's own work for a move at many tables, and shows seats keeping their fields."""

from __future__ import annotations

import json

import pytest

from hartenjagen.server.cli import main
from hartenjagen.shared.variants import make_rules


@pytest.mark.parametrize("variant", ["classic", "three", "five_kitty", "three_jokers"])
def test_the_step_bench_times_moves_and_most_seats_keep_their_own_fields(variant, capsys):
    argv = ["bench", "step", "--tables", "12", "--moves", "400", "--variant", variant, "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"] == 400 and out["variant"] == variant
    assert out["cpu_us_per_move_median"] > 0 and out["bytes_sent_per_move"] > 100
    # the seat that moved and the one to play next are made afresh; the others keep what they were shown
    assert 1 <= out["seat_fields_made_per_move"] < make_rules({"variant": variant}).seats - 0.5
