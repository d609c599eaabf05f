"""The documentation matches the code it describes: a claim that drifts fails here, not in a reader's hands.

docs/protocol.md's table options, reason codes, endpoints and /healthz; every flag and HEARTS_* variable the docs
and the README name; counts docs/cluster.md states; the README short, with a link to every doc; and no issue or
seed-document number anywhere (say what is meant).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

import hartenjagen.shared.rules  # noqa: F401 (the variants table loads through the rules)
from hartenjagen.server import settings
from hartenjagen.server.cli import build_parser
from hartenjagen.server.net.app import ENDPOINTS, ROUTES
from hartenjagen.server.storage.migrations import load_migrations
from hartenjagen.shared.reasons import REASONS
from hartenjagen.shared.variants import _CHOICES, _RANGES, VARIANTS

from .test_protocol_doc import DOC, section

ROOT = Path(__file__).resolve().parents[2]
DOCS = {p.name: p.read_text() for p in (ROOT / "docs").glob("*.md")} | {"README.md": (ROOT / "README.md").read_text()}


def table_rows(text: str) -> list[list[str]]:
    rows = [line.strip().strip("|").split("|") for line in text.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row] for row in rows]


def test_the_table_options_are_exactly_each_variant_s_options_with_their_defaults_and_values():
    text = section("### Table options (`create.options`)")
    rows = {r[0].strip("`"): r for r in table_rows(text) if r[0].startswith("`") and r[0].strip("`") in VARIANTS}
    assert set(rows) == set(VARIANTS)
    for name, variant in VARIANTS.items():
        shown = dict(re.findall(r"`([a-z_0-9]+)` (\S+?)(?:,|$)", rows[name][2]))
        assert {k: json.loads(v) for k, v in shown.items()} == variant.options, name
    known = set(_CHOICES) | set(_RANGES)
    values = {r[0].strip("`"): r[1] for r in table_rows(text) if r[0].strip("`") in known}
    every = {k for v in VARIANTS.values() for k in v.options}
    assert set(values) == every
    for option, text in values.items():
        if option in _RANGES:
            assert text == "a whole number from {} to {}".format(*_RANGES[option]), option
        else:
            assert [json.loads(v) for v in re.findall(r"`([^`]+)`", text)] == list(_CHOICES[option]), option


def test_every_reason_a_refused_move_can_give_is_documented():
    illegal = next(r for r in table_rows(section("## Errors")) if r[0] == "`illegal`")[-1]  # its "when"
    named = set(re.findall(r"`([a-z_]+)`", illegal)) & set(REASONS)
    internal = {"bad_event", "bad_deal"}  # a stored game that does not replay: never the answer to a move
    assert named == set(REASONS) - internal


def test_every_endpoint_is_documented_with_its_methods_and_nothing_more():
    rows = [r for r in table_rows(DOC[: DOC.index("## ")]) if r[0].startswith("`/")]
    documented = {r[0].strip("`"): tuple(m.strip() for m in r[1].split(",")) for r in rows}
    assert documented == {route.path: route.methods for route in ROUTES}
    assert set(documented) == set(ENDPOINTS)


async def test_the_healthz_example_has_exactly_the_fields_the_server_sends(server):
    example = json.loads(re.search(r"```json\n(\{\"status\".*?)```", DOC, re.S).group(1))
    status, _, body = await server.get("/healthz")
    sent = json.loads(body)
    assert status == 200 and set(example) == set(sent)
    assert set(example["hard_player"]) == set(sent["hard_player"])
    assert set(example["under_way"]) == set(sent["under_way"])


def all_flags() -> set[str]:
    """Every option of every ``hearts`` subcommand."""
    flags: set[str] = set()

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            flags.update(o for o in action.option_strings if o.startswith("--"))
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)

    walk(build_parser())
    return flags


def test_every_flag_the_docs_name_is_a_flag_of_the_hearts_command():
    named = {f for text in DOCS.values() for f in re.findall(r"(?<![\w-])--[a-z][a-z-]+", text)}
    outside = {  # docker, image_check.sh, pytest, pip, tools/lock.sh, valgrind, py-spy
        "--build", "--network", "--clean", "--dist", "--exclude-editable", "--require-hashes", "--no-deps", "--upgrade",
        "--tool", "--callgrind-out-file", "--rate", "--format", "--threads",
    }  # fmt: skip
    assert named - outside <= all_flags(), sorted(named - outside - all_flags())
    assert {s.flag for s in settings.SETTINGS} <= named  # and every setting is documented


def test_every_variable_the_docs_name_is_read_somewhere():
    named = {v for text in DOCS.values() for v in re.findall(r"\bHEARTS_[A-Z_]+[A-Z]\b", text)}
    server = {s.env for s in settings.SETTINGS} | {env for env, _ in settings.ENVIRONMENT_ONLY}
    around = {  # read by the compose file, the tests (their Chromium) and tools/ensure_services.sh, not by the server
        "HEARTS_PG_PASSWORD", "HEARTS_REDIS_PASSWORD", "HEARTS_TEST_PG", "HEARTS_TEST_REDIS", "HEARTS_PG_PORT",
        "HEARTS_REDIS_PORT", "HEARTS_CHROMIUM",
    }  # fmt: skip
    assert named <= server | around, sorted(named - server - around)
    for env in around & named:
        where = subprocess.run(["grep", "-rlF", env, "deploy", "tests", "tools"], cwd=ROOT, capture_output=True,
                               text=True).stdout  # fmt: skip
        assert where, f"{env} is documented but nothing reads it"


def test_the_counts_docs_cluster_states_are_the_code_s():
    words = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
             "thirteen": 13}  # fmt: skip
    cluster = DOCS["cluster.md"]
    lua = re.search(r"(\w+) small Lua scripts", cluster).group(1)
    registered = sum(path.read_text().count("register_script(") for path in (ROOT / "server" / "cluster").glob("*.py"))
    assert words[lua] == registered
    differ, total = re.search(r"(\w+) of the (\w+) migrations so far have a `\.pg\.sql`", cluster).groups()
    differ = differ.lower()
    migrations = ROOT / "migrations"
    assert words[total] == len(load_migrations(migrations))
    assert words[differ] == len(list(migrations.glob("*.pg.sql")))


def test_the_readme_is_short_and_links_every_doc():
    readme = DOCS["README.md"]
    assert len(readme.splitlines()) < 250  # what it is, the two commands, the layout in brief, links; figures in docs/
    docs = sorted(name for name in DOCS if name != "README.md")
    assert [name for name in docs if f"`docs/{name}`" not in readme] == []


NUMBERED = re.compile(r"\b(?:[Ii]ssues? \d+|[Ss]eeds? 0\d\d)\b")


def test_no_issue_or_seed_document_numbers_in_code_or_docs():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    found = []
    for name in tracked:
        if name.endswith((".png", ".jsonl", ".svg")) or name.startswith("tests/server/test_docs.py"):
            continue
        path = ROOT / name
        text = path.read_text(errors="replace") if path.is_file() else ""
        for match in NUMBERED.finditer(text):  # no leading ".*": a long line is scanned once, not once per place
            start = text.rfind("\n", 0, match.start()) + 1
            end = text.find("\n", match.end())
            found.append(f"{name}: {text[start : end if end >= 0 else None].strip()[:100]}")
    assert found == [], found
