"""No module of the project imports another in a circle, through any path (docs/house.md, The rooms).

Every import counts: at the top of a module, inside a function, and under ``TYPE_CHECKING``. The graph is grimp's,
the one ``lint-imports`` checks the layers on (``[tool.importlinter]`` in pyproject.toml); docs/house.md lists the
rooms in the order of those layers.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]

PACKAGES = ("hartenjagen.server", "hartenjagen.shared", "hartenjagen.tools")


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Return every set of modules that import each other in a circle (the graph's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            module, imported = work[-1]
            step = next(imported, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    work.append((step, iter(sorted(graph.find_modules_directly_imported_by(step)))))
                elif step in stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                part = []
                while True:
                    other = stack.pop()
                    part.append(other)
                    if other == module:
                        break
                if len(part) > 1 or module in graph.find_modules_directly_imported_by(module):
                    found.append(sorted(part))
    return found


def said(graph: grimp.ImportGraph, part: list[str]) -> str:
    """The imports inside one circle, a line each, with where they are written."""
    inside = set(part)
    lines = []
    for module in part:
        for other in sorted(graph.find_modules_directly_imported_by(module) & inside):
            for detail in graph.get_import_details(importer=module, imported=other):
                lines.append(f"  {module} -> {other} (line {detail['line_number']}: {detail['line_contents']})")
    return "\n".join(lines)


def test_no_module_imports_another_in_a_circle():
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert len(graph.modules) > 100  # the packages were found (not an empty graph that passes by itself)
    found = circles(graph)
    assert not found, "modules that import each other in a circle:\n" + "\n\n".join(said(graph, p) for p in found)


def test_the_circle_finder_finds_a_circle_through_three_modules_and_none_in_a_line():
    graph = grimp.ImportGraph()
    for module in ("a", "a.one", "a.two", "a.three", "a.four"):
        graph.add_module(module)
    graph.add_import(importer="a.one", imported="a.two")
    graph.add_import(importer="a.two", imported="a.three")
    graph.add_import(importer="a.four", imported="a.one")
    assert circles(graph) == []
    graph.add_import(importer="a.three", imported="a.one")
    assert circles(graph) == [["a.one", "a.three", "a.two"]]


def test_docs_house_md_lists_the_rooms_of_server_in_the_order_of_the_layers_lint_imports_checks():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (layers,) = [c["layers"] for c in contracts if c["type"] == "layers" and c["containers"] == ["hartenjagen.server"]]
    rooms = (ROOT / "docs" / "house.md").read_text().split("## The rooms", 1)[1].split("```")[1]
    heads = [m.group(1) for line in rooms.splitlines() if (m := re.match(r"  (\w[\w./]*(?:, [\w./]+)*)", line))]
    shown = [name.removesuffix("/").removesuffix(".py") for head in heads for name in head.split(", ")]
    assert shown == [name.strip() for layer in layers for name in layer.split("|")]


def test_the_readme_test_command_runs_lint_imports_after_the_type_check_and_before_the_tests():
    readme = [line.strip() for line in (ROOT / "README.md").read_text().splitlines()]
    (command,) = [line for line in readme if line.startswith("apt-get update") and "pytest" in line]
    steps = command.split(" && ")
    assert steps.index(".venv/bin/mypy") < steps.index(".venv/bin/lint-imports") < steps.index(".venv/bin/pytest")
    test_extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert any(need.split(">")[0].strip() == "import-linter" for need in test_extra)
    assert len(re.findall(r"^import-linter==\S+ \\$", (ROOT / "constraints.txt").read_text(), re.M)) == 1
    assert "import-linter" not in (ROOT / "constraints-server.txt").read_text()  # a server runs no test tools
