"""docs/protocol.md names exactly the messages, events, error codes and table fields the server uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hartenjagen.server.connection.closing import Close
from hartenjagen.server.table.errors import CODES, PROBLEMS
from hartenjagen.server.table.messages import DECLARED
from hartenjagen.server.table.seat_view import Moment, table_message
from hartenjagen.server.table.table import Table
from hartenjagen.shared.reasons import REASONS
from hartenjagen.shared.review import REVIEW_REASONS
from hartenjagen.shared.variants import make_rules

from .wording import placeholders, texts

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()


def section(title: str) -> str:
    """The text of one ``##``/``###`` section of the document."""
    start = DOC.index(title)
    rest = DOC[start + len(title) :]
    end = re.search(r"\n#{2,3} ", rest)
    return rest[: end.start()] if end else rest


def first_column(text: str) -> set[str]:
    """The backticked names in the first column of the markdown tables in ``text``."""
    names: set[str] = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return names


def parameters(text: str) -> dict[str, set[str]]:
    """Each row's name (first column) with the backticked names in its second column (its parameters)."""
    rows: dict[str, set[str]] = {}
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = line.split("|")
            rows[cells[1].strip().strip("`")] = set(re.findall(r"`([a-z_]+)`", cells[2]))
    return rows


OUTGOING = ROOT / "server" / "table" / "outgoing.py"  # the one module that writes what the server sends


def server_source() -> str:
    """The module that builds what the table server sends."""
    return OUTGOING.read_text()


def test_no_module_but_outgoing_writes_a_message_to_a_client():
    """A message's type and fields are written in ``outgoing.py`` only (``changes.fold`` reads one, it sends none)."""
    reading = {ROOT / "server" / "table" / "changes.py"}
    for path in sorted((ROOT / "server").rglob("*.py")):
        if path != OUTGOING and path not in reading:
            assert not re.findall(r'"type": "([a-z_]+)"', path.read_text()), path.relative_to(ROOT)
    for name in re.findall(r"^def ([a-z_]+)\(", OUTGOING.read_text(), re.M):  # one function per message, by its type
        assert f'"type": "{name}"' in OUTGOING.read_text(), name


class TestProtocolDoc:
    def test_every_client_message_is_documented_and_nothing_more(self):
        assert first_column(section("## Messages: client to server")) == set(DECLARED)

    def test_every_client_message_s_fields_are_documented_as_declared(self):
        """Each row names exactly the declared fields a client sends, a ``?`` on each that may be left out."""
        rows = 0
        for line in section("## Messages: client to server").splitlines():
            if not line.startswith("| `"):
                continue
            kind, fields = (re.split(r"(?<!\\)\|", line)[n] for n in (1, 2))  # not at an escaped \|
            fields = re.sub(r"\([^()]*\)", "", fields)  # the notes in brackets name other things
            documented = {name: mark == "?" for name, mark in re.findall(r"`([a-z_]+)(\??)[:`]", fields)}
            declared = DECLARED[kind.strip().strip("`")]
            assert documented == {f.name: not f.required for f in declared.spec if not f.relayed}, kind
            rows += 1
        assert rows == len(DECLARED)

    def test_every_server_message_is_documented_and_nothing_more(self):
        sent = set(re.findall(r'"type": "([a-z_]+)"', server_source()))
        assert first_column(section("## Messages: server to client")) == sent

    def test_every_error_code_is_documented_and_nothing_more(self):
        assert first_column(section("## Errors")) == set(CODES)

    def test_every_error_code_and_field_problem_is_documented_with_its_parameters(self):
        assert parameters(section("## Errors")) == {code: set(params) for code, params in CODES.items()}
        assert parameters(section("### Field problems")) == {name: set(params) for name, params in PROBLEMS.items()}

    def test_every_reason_code_of_the_core_is_documented_with_its_parameters(self):
        assert parameters(section("### Reasons")) == {code: set(params) for code, params in REASONS.items()}

    def test_every_reason_code_of_a_review_is_documented_with_its_parameters(self):
        named = {code: set(params) for code, params in REVIEW_REASONS.items()}
        named["let_moon"].add("name")  # let_moon also names the seat's player, where the review knows it
        assert parameters(section("## Hand review")) == named

    def test_the_server_raises_exactly_the_declared_error_codes(self):
        """Every code the server raises is declared (and documented, above), and every declared code is raised."""
        source = "\n".join(p.read_text() for p in sorted((ROOT / "server").rglob("*.py")) if p.name != "errors.py")
        source += (ROOT / "shared" / "claim.py").read_text()  # a refused claim's reason is its code
        raised = set(re.findall(r'(?:ProtocolError|ClaimRefused|ReviewRefused)\(\s*"([a-z_]+)"', source))
        raised |= set(re.findall(r'(?:failed\(client|check_waiting\([\w.]+), "([a-z_]+)"', source))
        assert raised == set(CODES)
        problems = set(re.findall(r'(?:FieldProblem\(|problem=)"([a-z_]+)"', source))
        rules = (ROOT / "shared" / "variants.py").read_text()  # RulesError(option, f"message", "problem", ...)
        problems |= set(re.findall(r'f"[^"]*",\s*"([a-z_]+)"', rules))
        assert problems == set(PROBLEMS)

    def test_every_error_code_and_field_problem_has_its_sentence_in_english_and_in_dutch(self):
        """The client's i18n files word every code the server can send, with exactly the code's parameters."""
        en, nl = texts("en"), texts("nl")
        for code, params in CODES.items():
            extra = {"field"} if code in ("bad_message", "bad_option") else {"reason"} if code == "illegal" else set()
            for words in (en, nl):
                assert placeholders(words[f"error_{code}"]) == set(params) | extra, code
            assert en[f"error_{code}"] != nl[f"error_{code}"] or code == "illegal", code
        for problem, params in PROBLEMS.items():
            for words in (en, nl):
                assert placeholders(words[f"problem_{problem}"]) == set(params), problem
            assert en[f"problem_{problem}"] != nl[f"problem_{problem}"], problem

    def test_every_reason_of_the_core_and_of_a_review_has_its_sentence_in_english_and_in_dutch(self):
        """The core sends reasons as codes with parameters (a refused move, the view's refusals, a hand review's
        marks); the client's i18n files word each, with exactly the code's parameters, and no other code."""
        en, nl = texts("en"), texts("nl")
        for prefix, codes in (("refused", REASONS), ("review_reason", REVIEW_REASONS)):
            for words in (en, nl):
                assert {k for k in words if k.startswith(f"{prefix}_")} == {f"{prefix}_{code}" for code in codes}
            for code, params in codes.items():
                for words in (en, nl):
                    assert placeholders(words[f"{prefix}_{code}"]) == set(params), code
                assert en[f"{prefix}_{code}"] != nl[f"{prefix}_{code}"], code

    def test_every_event_is_documented_and_nothing_more(self):
        emitted = set(re.findall(r'emit\("([a-z_]+)"', (ROOT / "server" / "table" / "state.py").read_text()))
        assert first_column(section("### Events")) == emitted

    def test_the_table_example_has_exactly_the_fields_the_server_sends(self):
        example = json.loads(re.search(r"```json\n(.*?)```", section("### `table`"), re.S).group(1))
        table = Table.create("K7QXPM", make_rules({"variant": "classic"}), at=0.0)
        sent = table_message(table, 0, 0, Moment(table, 0.0))
        assert set(example) == set(sent)
        assert set(example["seats"][0]) == set(sent["seats"][0])

    def test_every_close_code_is_documented_and_nothing_more(self):
        """The server's own close codes (``server.closing.Close``) and the library's: each in the table, no other."""
        ours = {why.code for why in Close}
        library = {1000, 1002, 1007, 1009, 1011}  # normal, protocol error, bad UTF-8, too big, handler bug
        documented = {int(c) for c in re.findall(r"^\| (\d{4}) \|", section("### Close codes"), re.M)}
        assert ours == {1008, 1011, 1012, 1013, 4001}  # 4001: this device was signed out
        assert documented == ours | library
        table = section("### Close codes")
        for why in Close:  # and each reason's text, as the client and the logs show it
            assert f"`{why.reason}`" in table, why

    def test_every_message_a_client_may_send_has_its_handler_and_nothing_else_does(self):
        from hartenjagen.server.handlers import HANDLERS
        from hartenjagen.server.table.commands import TABLE_COMMAND
        from hartenjagen.server.table.messages import TABLE_COMMANDS

        assert set(HANDLERS) == set(DECLARED)
        assert set(TABLE_COMMAND) <= TABLE_COMMANDS  # a table command runs at a table only
