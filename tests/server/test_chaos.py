"""A short ``hearts bench chaos``: three nodes play on while every kind of fault strikes at random; nothing is lost.

Real processes and services, all of the bench's own (its own PostgreSQL, Redis, fault proxies and nginx; never the
shared ones the other tests use): nodes killed mid-hand and mid-commit, paused, cut off from Redis, their clocks
jumped; Redis restarted empty and with its keys; PostgreSQL killed and slowed. The checker then holds every event the
people were shown against the PostgreSQL log, and every finished game against its replay (``tools/chaos_check.py``).
``tools/ensure_services.sh`` installs what it needs (PostgreSQL's binaries, redis-server, nginx, libfaketime).
"""

from __future__ import annotations

from hartenjagen.tools.bench_chaos import KINDS, Settings, format_report, run
from hartenjagen.tools.chaos_services import missing
from hartenjagen.tools.nginx import nginx_binary


def test_a_minute_of_every_fault_loses_nothing_forks_nothing_and_everyone_gets_their_seat_back(tmp_path):
    assert missing() is None and nginx_binary() is not None, "run tools/ensure_services.sh"
    settings = Settings(seconds=45, seed=7, lease_ms=3000, each=1, logs=str(tmp_path), progress=False)
    result, outcome = run(settings)
    print(format_report(result, outcome))
    assert all(result["faults_by_kind"][kind] >= 1 for kind in KINDS), result["faults_by_kind"]
    assert result["events_shown"] > 500 and result["games_checked"] >= 1
    assert result["shown_not_stored"] == 0 and result["forks"] == 0
    assert result["people_lost"] == 0
    assert result["log_gaps"] == result["damaged_logs"] == 0
    assert result["games_not_recorded"] == result["replay_mismatches"] == result["replays_missing"] == 0
    assert result["cut_late_appends"] == 0 and result["node_log"]["tracebacks"] == 0
    assert result["resume_p99_s"] < 15, result  # (the 600 s runs hold it under 10 s; a busy test machine less so)
    assert result["clean"], format_report(result, outcome)
