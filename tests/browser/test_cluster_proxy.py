"""Two people through the shipped nginx config in front of three real nodes: the guest's page lands on another node
than the table's, is sent on to the table's node, plays there, and comes back there after a reload."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import expect
from server.test_cluster import Cluster

from hartenjagen.tools.nginx import NODES, Nginx
from server import pg

from .conftest import PHONE, create_table, fill_and_start, play_pages, view

T = TypeVar("T")


def health(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as resp:
        return json.loads(resp.read())


def aside(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a thread of its own (Playwright's sync API holds this thread's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Nginx, Cluster]]:
    """Three cluster nodes (a database and key prefix of their own) behind deploy/nginx.conf."""
    url = aside(pg.create_database())
    scene = Cluster(tmp_path, url)
    proxy = None
    try:
        nodes = [scene.start(name) for name in NODES]
        (tmp_path / "nginx").mkdir()
        proxy = Nginx.run({n.name: n.port for n in nodes}, tmp_path / "nginx")
        yield proxy, scene
    finally:
        if proxy is not None:
            proxy.stop()
        aside(scene.cleanup())
        aside(pg.drop_database(url))


def sockets_opened(page) -> list[str]:
    """The addresses the page opened websockets to, in order."""
    return [f.split("open ", 1)[1] for f in page.evaluate("() => window.__frames") if " open " in f]


def test_a_guest_through_the_proxy_plays_on_the_table_s_node_and_comes_back_there(site, open_page, shot):
    # site first: its proxy and nodes stop after the pages closed (a page whose proxy went first reconnects in vain)
    proxy, scene = site
    base = f"http://127.0.0.1:{proxy.port}"
    anna = open_page("/", name="Anna", server=base)
    code = create_table(anna)
    owner = next(n for n in scene.nodes if health(n.port)["tables"] == 1)

    bram = open_page("/", viewport=PHONE, locale="nl-NL", name="Bram", server=base)
    bram.fill("#code", code.lower())
    bram.click("form[data-form=join] button[type=submit]")
    bram.wait_for_selector(".lobby")
    expect(bram.locator(".seats")).to_contain_text("Anna")
    direct = f"ws://127.0.0.1:{proxy.port}/n/{owner.name}/ws"
    opened = sockets_opened(bram)
    assert opened[0] == f"ws://127.0.0.1:{proxy.port}/ws"  # the site's own address, on another node (least_conn)
    assert opened[-1] == direct, opened  # then straight to the table's node
    assert health(owner.port)["connections"] == 2  # both people on the table's node: nothing is relayed
    shot(bram, "guest-at-the-table-node")

    fill_and_start(anna)
    bram.wait_for_selector(".hand .card")
    # both pass and play (Bram's moves go over his connection to the table's node) until Bram has played twice
    play_pages([anna, bram], stop=lambda: len(view(bram)["hand"]) <= 11 and view(bram)["phase"] == "playing")
    seen = view(bram)["hand"]

    # Bram closes the page and opens it again: the site's address, then on to the table's node, seated as before
    bram.reload()
    bram.wait_for_selector(".hand .card")
    assert view(bram)["hand"] == seen and view(bram)["seat"] == 1
    assert sockets_opened(bram)[-1] == direct, sockets_opened(bram)
    assert health(owner.port)["connections"] == 2
    shot(bram, "guest-back-after-reload")
