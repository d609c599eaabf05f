"""``hearts bench server`` end to end, small: both servers, every phase, figures in the JSON report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_server_small_run_reports_every_figure() -> None:
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "bench", "server", "--tables", "4", "--seconds", "3"]
    argv += ["--warmup", "1", "--idle-connections", "50", "--memory-tables", "10", "--rounds", "2"]
    argv += ["--settle", "0.5", "--json"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=55)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    for side in ("ours", "bare"):
        res = report[side]
        play = res["play"]
        assert play["moves"] > 0 and play["messages"] > 0
        for key in ("latency_p50_ms", "latency_p99_ms", "latency_max_ms", "messages_per_s", "median_message_bytes"):
            assert isinstance(play[key], (int, float)) and play[key] > 0, (side, key, play)
        assert play["latency_p50_ms"] <= play["latency_p99_ms"] <= play["latency_max_ms"]
        assert play["cpu_us_per_message"] >= 0
        assert res["ramp"]["players"] == 16 and res["ramp"]["players_per_s"] > 0
        assert res["restart"]["players"] == 16 and res["restart"]["all_back_s"] > 0
        assert res["idle"]["connections"] == 50 and res["idle"]["rss_after_kib"] > 0
        for phase in ("ramp", "play", "restart", "idle"):
            assert res[phase]["errors"] == {}, (side, phase, res[phase]["errors"])
    memory = report["memory"]
    assert memory["baseline_rss_kib"] > 0 and memory["baseline_live"] > 0 and len(memory["rounds"]) == 2
    assert memory["allocator"] == "pymalloc" and memory["live_unit"] == "blocks"  # the default allocator
    assert all(r["live"] > 0 for r in memory["rounds"])
    assert all(r["tables"] == 10 and r["open_tables"] == 0 for r in memory["rounds"])
    assert memory["errors"] == {}
    names = {g["goal"] for g in report["goals"]}
    assert len(names) == 7
    errors = next(g for g in report["goals"] if g["goal"].startswith("errors"))
    assert errors["ours"] == 0 and errors["bare"] == 0


def test_bench_server_bots_plays_the_variant_and_seat_count_asked_for() -> None:
    """``--bots`` with ``--variant``/``--option``: tables of that game (one person, computer players in every other
    seat), and the computer moves measured; options the rules refuse get a sentence and exit code 2."""
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "bench", "server", "--bots", "easy", "--tables", "1"]
    argv += ["--variant", "five", "--seconds", "3", "--warmup", "0.5", "--think", "0.02,0.05", "--bot-delay", "0"]
    done = subprocess.run([*argv, "--json"], cwd=ROOT, capture_output=True, text=True, timeout=55)
    assert done.returncode == 0, done.stderr[-3000:]
    (run,) = json.loads(done.stdout)["runs"]
    assert run["options"] == {"variant": "five"} and run["errors"] == []
    easy = run["quiet"]["easy"]
    assert easy["computer_moves"] > 0 and easy["person_moves"] > 0, run
    refused = subprocess.run([*argv, "--option", "seats=13"], cwd=ROOT, capture_output=True, text=True, timeout=55)
    assert refused.returncode == 2 and "seats" in refused.stderr, refused.stderr
    # without --bots the scripted people play classic Hearts: a variant is refused, not silently dropped
    plain = [sys.executable, "-m", "hartenjagen.server.cli", "bench", "server", "--variant", "five"]
    ignored = subprocess.run(plain, cwd=ROOT, capture_output=True, text=True, timeout=55)
    assert ignored.returncode == 2 and "--bots" in ignored.stderr, ignored.stderr


def test_bench_server_idle_connections_say_hello_and_stay_through_play_and_restart() -> None:
    """``--idle``: more connections that got ``welcome`` stay open on both servers; memory per idle connection."""
    argv = [sys.executable, "-m", "hartenjagen.server.cli", "bench", "server", "--tables", "1", "--idle", "20"]
    argv += ["--seconds", "2", "--warmup", "0.5", "--settle", "0.3", "--skip", "idle,memory", "--json"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=55)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["settings"]["idle"] == 20
    for side in ("ours", "bare"):
        held, restart = report[side]["held"], report[side]["restart"]
        assert held["idle"] == 20 and held["connections"] == 24 and held["errors"] == {}, (side, held)
        assert held["rss_with_idle_kib"] > 0 and "kib_per_idle_connection" in held
        assert restart["idle_back"] == 20 and restart["players"] == 4 and restart["errors"] == {}, (side, restart)
        assert report[side]["play"]["errors"] == {}
    goals = {g["goal"] for g in report["goals"]}
    assert "memory per idle connection, held (KiB)" in goals
