"""docs/protocol.md names exactly the messages, events, error codes and table fields the server uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hartenjagen.server.net.closing import Close
from hartenjagen.server.table.errors import MESSAGES
from hartenjagen.server.table.messages import SCHEMAS
from hartenjagen.server.table.seat_view import Moment, table_message
from hartenjagen.server.table.table import Table
from hartenjagen.shared.rules import make_rules

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


def server_source() -> str:
    """The modules that build what the table server sends."""
    names = ("net/app.py", "net/hub.py", "table/seat_view.py", "table/changes.py", "table/update.py", "table/errors.py",
             "table/chat.py", "players/devices.py")  # fmt: skip
    paths = [ROOT / "server" / name for name in names] + sorted((ROOT / "server" / "handlers").glob("*.py"))
    return "\n".join(path.read_text() for path in paths)


class TestProtocolDoc:
    def test_every_client_message_is_documented_and_nothing_more(self):
        assert first_column(section("## Messages: client to server")) == set(SCHEMAS)

    def test_every_server_message_is_documented_and_nothing_more(self):
        sent = set(re.findall(r'"type": "([a-z_]+)"', server_source()))
        assert first_column(section("## Messages: server to client")) == sent

    def test_every_error_code_is_documented_and_nothing_more(self):
        assert first_column(section("## Errors")) == set(MESSAGES)

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
        from hartenjagen.server.table.commands import COMMANDS

        assert set(HANDLERS) | {"ping"} == set(SCHEMAS) == set(COMMANDS)  # ping is answered before any handler
