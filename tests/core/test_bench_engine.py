"""`hearts bench engine` measures every variant and seat count, and gives the API's rate beside OpenSpiel's."""

from __future__ import annotations

import json

import pytest

from hartenjagen.server.cli import main


@pytest.mark.parametrize("variant", ["classic", "three_kitty", "five", "three_jokers", "cancellation"])
def test_the_engine_bench_prints_its_rates_for_every_kind_of_table(variant, capsys):
    assert main(["bench", "engine", "--seconds", "0.1", "--variant", variant, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == variant
    for key in ("api_hands_per_s", "playout_hands_per_s", "lookahead_hands_per_s", "search_python_hands_per_s"):
        assert out[key] > 0, key
    # the compiled search exists for one deck only (any seat count); OpenSpiel (when installed) plays classic only
    assert (out["search_kernel_hands_per_s"] is not None) == (variant in ("classic", "three_kitty", "five"))
