"""The server's classes are composed, not assembled from mixins: no class has more than one base of the project's.

A table is its stored state with its presence, runtime and command objects as fields; a store and a cluster node hold
one object per concern. A base from outside the project (``ABC``, ``typing.Protocol``, ``Exception``) does not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _module_name(path: Path) -> str:
    """``server/table/table.py`` -> ``hartenjagen.server.table.table``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("hartenjagen", *parts))


def _project_names(tree: ast.Module, module: str) -> set[str]:
    """The names a module binds to something of the project: its own classes and what it imports from the project."""
    names = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level > 0 or source.startswith("hartenjagen."):
                names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.startswith("hartenjagen.")}
    return names


def _root(expr: ast.expr) -> str | None:
    """The first name of a base expression (``abc.ABC`` -> ``abc``, ``Generic[T]`` -> ``Generic``)."""
    while isinstance(expr, ast.Attribute | ast.Subscript | ast.Call):
        expr = expr.value if not isinstance(expr, ast.Call) else expr.func
    return expr.id if isinstance(expr, ast.Name) else None


def project_bases() -> dict[str, list[str]]:
    """Every class in server/ with the bases it takes from the project, by ``module.Class``."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "server").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        module = _module_name(path)
        ours = _project_names(tree, module)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b) for b in node.bases if _root(b) in ours]
                found[f"{module}.{node.name}"] = bases
    return found


def test_no_class_in_the_server_has_more_than_one_base_of_the_projects():
    found = project_bases()
    assert len(found) > 100  # the walk reached the server's classes
    mixed = {name: bases for name, bases in found.items() if len(bases) > 1}
    assert not mixed, f"classes assembled from more than one project base (hold the parts as fields): {mixed}"


def test_the_walk_counts_project_bases_and_leaves_outside_ones_out():
    tree = ast.parse(
        "from abc import ABC\nimport typing\nfrom .state import TableState\nfrom . import parts\n"
        "class Local: ...\n"
        "class A(TableState, parts.Runtime, Local, ABC, typing.Protocol): ...\n"
    )
    ours = _project_names(tree, "hartenjagen.server.table.x")
    a = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "A")
    assert [ast.unparse(b) for b in a.bases if _root(b) in ours] == ["TableState", "parts.Runtime", "Local"]


def test_the_table_its_store_and_its_cluster_node_hold_their_parts():
    found = project_bases()
    assert found["hartenjagen.server.table.table.Table"] == ["TableState"]
    assert found["hartenjagen.server.storage.sql_store.SqlStore"] == ["Store"]
    assert found["hartenjagen.server.cluster.node.Cluster"] == []
    for part in ("seating.Seating", "hosting.Hosting", "turns.Turns"):
        assert found[f"hartenjagen.server.table.{part}"] == []
