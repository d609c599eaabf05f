"""``compact``: orjson where the speed extra installed it, else the standard library; the same JSON either way."""

from __future__ import annotations

import json

from hartenjagen.server.table.jsontext import compact, standard
from hartenjagen.server.table.table import Table
from hartenjagen.shared.variants import make_rules

VALUES = [
    {"type": "update", "set": {"seq": 3}, "view": {"hand": ["2C", "QS"], "to_act": [0]}, "events": []},
    {1: "int_keys", 2: {3: None}},
    ("a tuple", True, False, None, 0, -1, 2**63 - 1, 0.1, 1e16, 1.5e-7),
    'Zoë speelt 2♣ \u2028 \n \t " \\ \x00',
    "a lone surrogate \ud800",  # orjson refuses it: the standard library writes it
    2**70,  # past 64 bits: the standard library
]


def test_compact_writes_what_the_standard_library_reads_back_alike_and_no_spaces() -> None:
    for value in VALUES:
        assert json.loads(compact(value)) == json.loads(standard(value)), value
    assert compact(VALUES[0]) == standard(VALUES[0])  # ASCII and whole numbers: the very same text
    assert " " not in compact(VALUES[0]) + compact(VALUES[1])


def test_a_stored_log_restores_alike_with_characters_escaped_or_not() -> None:
    table = Table.create("JSON01", make_rules({"variant": "classic"}), at=0.0)
    for name in ("Zoë", "Anaïs ♣", "Bram", "Cor"):
        table.seating.seat_person(None, None, name, None)
    written = [text for _, text in table.take_unsaved()]
    escaped = [standard(json.loads(text)) for text in written]  # as the standard library wrote it before
    assert any("\\u" in text for text in escaped)
    names = [[s.name for s in Table.restore("JSON01", log).seats] for log in (written, escaped)]
    assert names[0] == names[1] == ["Zoë", "Anaïs ♣", "Bram", "Cor"]
