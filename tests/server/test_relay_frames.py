"""The relay's frames between two nodes, without Redis: each node's frames go straight to the other's reader.

The edge holds a person's websocket; the owner holds the table. What the person sends travels to the owner's hub
in order; what the owner sends comes back to the person; closes, detaches, questions and timeouts as documented in
``server/cluster/relay.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from types import SimpleNamespace
from typing import Any

import pytest

import hartenjagen.server.cluster.relay as relay_module
from hartenjagen.server.cluster.relay import Relay
from hartenjagen.server.config import Config
from hartenjagen.server.connection.closing import Close
from hartenjagen.server.table.messages import ClientMessage, Join, Play, Resume

CARDS = ("2C", "3C", "4C")


class Person:
    """A websocket on the edge, as the relay sees it."""

    def __init__(self) -> None:
        self.player_id, self.name, self.address = 7, "Anna", "192.0.2.1"
        self.remote: str | None = None
        self.cid = ""
        self.pushed: list[Any] = []
        self.closed: list[Close] = []

    def push(self, message: Any) -> None:
        self.pushed.append(json.loads(message) if isinstance(message, str) else message)

    def close_soon(self, why: Close) -> None:
        self.closed.append(why)


class OwnerHub:
    """The owner's hub: records what it is asked to handle, answers questions."""

    def __init__(self) -> None:
        self.config = Config()
        self.handled: list[tuple[Any, ClientMessage]] = []
        self.gone: list[Any] = []
        self.seated: set[Any] = set()  # the connections at a table here

    async def handle(self, client: Any, msg: ClientMessage) -> None:
        await asyncio.sleep(0)  # a handler may wait: the next message of the same person still waits its turn
        self.handled.append((client, msg))

    def disconnected(self, client: Any) -> None:
        self.gone.append(client)

    def at_table(self, client: Any) -> bool:
        return client in self.seated

    def table_info(self, code: str, address: str, seat_token: str) -> tuple[int, dict[str, Any]]:
        return 200, {"code": code, "asked_by": address, "you": 1 if seat_token else None}


def linked() -> tuple[Relay, Relay, OwnerHub]:
    """An edge node and an owner node whose frames reach each other at once."""
    owner_hub = OwnerHub()
    edge = Relay(SimpleNamespace(node="edge", prefix="t:"), SimpleNamespace(config=Config()))
    owner = Relay(SimpleNamespace(node="owner", prefix="t:"), owner_hub)
    nodes = {"edge": edge, "owner": owner}
    for node in nodes.values():
        node.send = lambda to, frame: asyncio.get_running_loop().call_soon(nodes[to]._frame, frame)
    return edge, owner, owner_hub


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_a_person_s_messages_reach_the_owner_in_order_and_its_answers_come_back():
    edge, owner, hub = linked()
    anna = Person()
    edge.open(anna, "owner", Resume(code="ABCDEF"))
    for n in range(3):
        edge.forward(anna, anna.remote, Play(card=CARDS[n]))
    await settle()
    remote = hub.handled[0][0]
    assert (remote.player_id, remote.name, remote.address) == (7, "Anna", "192.0.2.1")
    assert [m for _, m in hub.handled] == [Resume(code="ABCDEF")] + [  # checked again at the owner
        Play(card=CARDS[n]) for n in range(3)
    ]
    hub.seated.add(remote)  # seated at the owner's table
    remote.push({"type": "table", "seq": 5})
    remote.push('{"type":"update","seq":6}')
    await settle()
    assert anna.pushed == [{"type": "table", "seq": 5}, {"type": "update", "seq": 6}]
    assert anna.remote == "owner"


async def test_a_close_from_the_owner_closes_the_person_with_its_reason_and_ends_the_link():
    edge, owner, hub = linked()
    anna = Person()
    edge.open(anna, "owner", Join(code="ABCDEF"))
    await settle()
    remote = hub.handled[0][0]
    remote.close_soon(Close.TABLE_MOVED)
    remote.close_soon(Close.BUSY)  # only the first close counts
    await settle()
    assert anna.closed == [Close.TABLE_MOVED] and anna.remote is None and not edge.relayed
    assert not owner.remotes


async def test_leaving_the_table_hands_the_connection_back_to_the_edge():
    edge, owner, hub = linked()
    anna = Person()
    edge.open(anna, "owner", Join(code="ABCDEF"))
    await settle()
    remote = hub.handled[0][0]
    hub.seated.discard(remote)  # left: the owner's last message, then the edge serves it again
    remote.push({"type": "left", "code": "ABCDEF"})
    await settle()
    assert anna.pushed == [{"type": "left", "code": "ABCDEF"}] and anna.remote is None and not owner.remotes


async def test_a_message_for_a_connection_the_owner_no_longer_serves_hands_it_back():
    edge, owner, hub = linked()
    anna = Person()
    edge.open(anna, "owner", Join(code="ABCDEF"))
    await settle()
    owner.remotes.clear()  # the owner forgot it (a restart of its hub, say)
    edge.forward(anna, anna.remote, Play(card="2C"))
    await settle()
    assert anna.remote is None and not edge.relayed and len(hub.handled) == 1


async def test_a_person_gone_at_the_edge_is_disconnected_at_the_owner():
    edge, owner, hub = linked()
    anna = Person()
    edge.open(anna, "owner", Join(code="ABCDEF"))
    await settle()
    remote = hub.handled[0][0]
    edge.gone(anna)
    await settle()
    assert hub.gone == [remote] and not owner.remotes and anna.remote is None


async def test_a_question_about_a_table_gets_the_owner_s_answer():
    edge, owner, _ = linked()
    assert await edge.ask("owner", "ABCDEF", "192.0.2.9", "token") == (
        200,
        {"code": "ABCDEF", "asked_by": "192.0.2.9", "you": 1},
    )
    assert not edge.questions


async def test_an_owner_that_does_not_answer_an_open_sends_the_person_back_with_server_busy(monkeypatch):
    monkeypatch.setattr(relay_module, "OPEN_TIMEOUT", 0.01)
    edge, _, _ = linked()
    edge.send = lambda to, frame: None  # the owner died a moment ago: nothing arrives there
    anna = Person()
    edge.open(anna, "owner", Resume(code="ABCDEF"))
    for _ in range(100):
        if anna.closed:
            break
        await asyncio.sleep(0.01)
    assert anna.pushed[0]["code"] == "server_busy" and anna.closed == [Close.TABLE_MOVING]
    assert anna.remote is None and not edge.relayed


@pytest.mark.parametrize("frame", ["o" + "edge\x1f1\x1f{not json", "x", "m", "c{cid}\x1fNO_SUCH_REASON"])
async def test_a_malformed_frame_is_logged_by_its_kind_and_changes_nothing(frame, caplog):
    edge, owner, hub = linked()
    anna = Person()
    edge.open(anna, "owner", Join(code="ABCDEF"))
    await settle()
    caplog.set_level(logging.ERROR)
    for node in (edge, owner):
        node._frame(frame.replace("{cid}", anna.cid))  # a close of Anna's relayed connection, for no known reason
    await settle()
    assert "bad frame of kind" in caplog.text and "not json" not in caplog.text
    assert len(hub.handled) == 1 and anna.closed == [] and anna.remote == "owner"


async def test_a_relayed_refusal_to_come_back_later_closes_the_person_even_at_no_table_of_the_owners(monkeypatch):
    """The owner's database does not answer a relayed ``resume``: the person is told ``server_busy`` and closed
    (1013), so that the browser comes back by itself. Before, the refusal handed the connection back to the edge (it
    sat at no table of the owner's) and the edge dropped the close that followed: the person waited on an open
    connection for good."""
    from hartenjagen.server.table.errors import ProtocolError

    edge, owner, hub = linked()

    async def busy(client: Any, msg: ClientMessage) -> None:
        raise ProtocolError("server_busy")

    monkeypatch.setattr(hub, "handle", busy)
    anna = Person()
    edge.open(anna, "owner", Resume(code="ABCDEF", seat_token="s" * 20))
    await settle()
    assert [m["code"] for m in anna.pushed if m["type"] == "error"] == ["server_busy"]
    assert anna.closed == [Close.BUSY] and anna.remote is None and not edge.relayed and not owner.remotes
