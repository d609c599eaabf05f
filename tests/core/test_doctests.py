"""The examples in docstrings run as written (each module imported under the name the installed package gives it)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import hartenjagen.server
import hartenjagen.shared

MODULES = sorted(
    info.name
    for package in (hartenjagen.shared, hartenjagen.server)
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    if not info.ispkg
    and ">>>" in (importlib.util.find_spec(info.name).loader.get_source(info.name) or "")
)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_module_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_the_modules_with_examples_are_found():
    assert {"hartenjagen.shared.rules", "hartenjagen.shared.game", "hartenjagen.server.table.daily"} <= set(MODULES)
