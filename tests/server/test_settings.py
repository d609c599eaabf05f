"""Every setting of ``hearts serve`` is written once (server/settings.py): flags, variables, bounds, docs/server.md."""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path

import pytest

from hartenjagen.server import settings
from hartenjagen.server.config import Config
from hartenjagen.server.serve_cli import add_serve_parser

ROOT = Path(__file__).resolve().parents[2]


def parse(argv: list[str], env: dict[str, str] | None = None) -> argparse.Namespace:
    """Parse ``hearts serve`` flags as the command does, with ``env`` as the environment."""
    parser = argparse.ArgumentParser()
    for problem in settings.add_arguments(parser, env or {}):
        print(f"warning: {problem}", file=sys.stderr)
    return parser.parse_args(argv)


def test_hearts_serve_takes_its_flags_from_the_settings():
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers())
    flags = {a.dest for a in parser._subparsers._group_actions[0].choices["serve"]._actions} - {"help"}
    assert flags == set(settings.BY_NAME)


def test_every_config_field_is_a_setting_or_named_internal_and_never_both():
    fields = {f.name for f in dataclasses.fields(Config)}
    flags = set(settings.BY_NAME)
    assert flags | settings.INTERNAL == fields and not flags & settings.INTERNAL


def test_docs_server_shows_the_synopsis_and_the_table_the_settings_make():
    doc = (ROOT / "docs" / "server.md").read_text()
    assert "    " + settings.synopsis() + "\n" in doc
    block = re.search(r"<!-- settings:[^\n]*-->\n(.*?)\n<!-- /settings -->", doc, re.S).group(1)
    assert block == settings.markdown()


def test_every_variable_the_server_reads_is_a_setting_or_listed():
    source = "\n".join(p.read_text() for d in ("server", "shared") for p in (ROOT / d).rglob("*.py"))
    read = set(re.findall(r"""environ(?:\.get)?[\[(]["'](HEARTS_[A-Z_]+)["']""", source))
    known = {s.env for s in settings.SETTINGS} | {env for env, _ in settings.ENVIRONMENT_ONLY}
    assert read and read <= known, read - known


def test_a_flag_beats_its_variable_which_beats_the_default_and_values_are_kept_in_bounds():
    args = parse(["--hard-ms", "1", "--grace", "-3"], env={"HEARTS_HARD_MS": "300", "HEARTS_PORT": "9000"})
    config = settings.config_from(args)
    assert (config.hard_ms, config.grace, config.port, config.bot_delay) == (5.0, 0.0, 9000, Config().bot_delay)
    assert settings.config_from(parse(["--review-wait", "99"])).review_wait == 8.0


def test_a_bad_variable_is_named_and_the_default_used(capsys):
    args = parse([], env={"HEARTS_GRACE": "soon", "HEARTS_COMPRESSION": "zip"})
    assert args.grace == Config().grace and args.compression == Config().compression
    err = capsys.readouterr().err
    assert "HEARTS_GRACE='soon' is not a valid float" in err and "HEARTS_COMPRESSION='zip' is not one of" in err


def test_a_bad_flag_is_refused_by_the_parser():
    with pytest.raises(SystemExit):
        parse(["--compression", "zip"])
