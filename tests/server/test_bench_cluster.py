"""``hearts bench server --nodes``, small: one and two real nodes on PostgreSQL and Redis, figures in the JSON.

Through the shipped nginx config (the default) no frame is relayed; with ``--no-proxy`` people on random nodes are.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench(*extra: str) -> dict:
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "bench", "server", "--nodes", "1,2", "--tables", "4"]
    argv += ["--seconds", "2", "--warmup", "0.5", "--json", *extra]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])  # the last line is the JSON object


def test_through_the_proxy_every_person_plays_on_the_table_s_node() -> None:
    report = bench()
    runs = {r["nodes"]: r for r in report["runs"]}
    assert set(runs) == {1, 2}
    for n, run in runs.items():
        assert run["errors"] == {}, (n, run["errors"])
        assert run["connections"] == 16 and run["tables"] == 4, run
        assert run["proxy"] == "deploy/nginx.conf" and run["messages_delivered"] > 0
        assert run["frames_sent"] >= run["messages_delivered"] and run["relayed_frames"] == 0, run
        assert run["cpu_us_per_message"] > 0
        connections = [x["connections"] for x in run["per_node"]]
        assert sum(connections) == 16 and all(c % 4 == 0 for c in connections), connections  # whole tables a node
    assert report["relayed_share"] == 0.0
    assert report["cpu_ratio_vs_one_node"] == round(runs[2]["cpu_us_per_message"] / runs[1]["cpu_us_per_message"], 3)


def test_bench_server_nodes_reports_each_node_count_with_crossing_moves() -> None:
    report = bench("--no-proxy")
    runs = {r["nodes"]: r for r in report["runs"]}
    assert set(runs) == {1, 2}
    for n, run in runs.items():
        assert run["errors"] == {}, (n, run["errors"])
        assert run["connections"] == 16 and run["tables"] == 4, run
        assert len(run["per_node"]) == n
        for x in run["per_node"]:
            assert x["cpu_pct"] >= 0 and x["rss_kib"] > 0 and x["exit"] == 0, x
        moves = run["moves"]
        assert moves["all"]["moves"] > 0 and moves["all"]["p50_ms"] <= moves["all"]["p99_ms"]
        assert moves["all"]["moves"] == moves["local"]["moves"] + moves["crossing"]["moves"]
    assert runs[1]["crossing_players"] == 0 and runs[1]["moves"]["crossing"]["moves"] == 0
    assert runs[2]["crossing_players"] > 0 and runs[2]["moves"]["crossing"]["moves"] > 0
    assert runs[2]["moves"]["crossing_extra_p50_ms"] is not None
    assert report["estimate"]["nodes_for_100k"] >= 1
    assert runs[1]["relayed_frames"] == 0 and runs[2]["relayed_frames"] > 0 and report["relayed_share"] > 0
