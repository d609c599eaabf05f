"""The README's test command starts its long tests first, spread over the test processes (``tests/conftest.py``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from conftest import pytest_collection_modifyitems


@dataclass
class Item:
    """What the ordering reads of a collected test: its id and whether it is marked long."""

    nodeid: str
    long: bool = False

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "long" and self.long else None


def runs(items: list[Item], workers: int) -> list[list[str]]:
    """The first run of tests each process gets, as worksteal deals them: equal runs of the collection, in order."""
    out, left, start = [], len(items), 0
    for k in range(workers):
        size = left // (workers - k)
        out.append([i.nodeid for i in items[start : start + size]])
        start, left = start + size, left - size
    return out


def test_each_process_begins_with_its_share_of_the_long_tests_and_a_modules_long_tests_stay_together(monkeypatch):
    quick = [Item(f"tests/a/test_{n}.py::t") for n in range(40)]
    wheel = [Item(f"tests/server/test_wheel.py::t{n}", long=True) for n in range(3)]
    chaos = [Item("tests/server/test_chaos.py::t", long=True)]
    journeys = [Item(f"tests/browser/test_j{n}.py::t", long=True) for n in range(5)]
    items = quick[:10] + journeys + quick[10:30] + wheel + quick[30:] + chaos
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "4")
    ordered = list(items)
    pytest_collection_modifyitems(pytest.Config, ordered)  # type: ignore[arg-type]
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in items)  # every test, once
    firsts = runs(ordered, 4)
    long_ids = {i.nodeid for i in items if i.long}
    counts = [sum(1 for t in run if t in long_ids) for run in firsts]
    assert sorted(counts) == [2, 2, 2, 3] and sum(counts) == 9  # spread, not all in one process's run
    for run, count in zip(firsts, counts, strict=True):
        assert set(run[:count]) <= long_ids  # each run begins with its long tests
    (wheel_run,) = [run for run in firsts if "tests/server/test_wheel.py::t0" in run]
    assert wheel_run[:3] == [i.nodeid for i in wheel]  # together: they share the module's built wheel
    quick_order = [i.nodeid for i in ordered if i.nodeid not in long_ids]
    assert quick_order == [i.nodeid for i in quick]  # the other tests keep their order


def test_in_one_process_the_order_is_the_collections(monkeypatch):
    items = [Item("tests/a.py::t"), Item("tests/b.py::t", long=True)]
    monkeypatch.delenv("PYTEST_XDIST_WORKER_COUNT", raising=False)
    ordered = list(items)
    pytest_collection_modifyitems(pytest.Config, ordered)  # type: ignore[arg-type]
    assert ordered == items
