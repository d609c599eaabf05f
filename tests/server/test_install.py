"""The files that make the client installable: the manifest, its icons and the service worker at /sw.js."""

from __future__ import annotations

import json


class TestInstallFiles:
    async def test_the_service_worker_is_javascript_at_the_root_and_never_kept_stale(self, server):
        status, headers, body = await server.get("/sw.js")
        assert status == 200
        assert headers["Content-Type"].startswith("text/javascript")
        # no-cache: the browser asks again on every check, so a new version gets through
        assert headers["Cache-Control"] == "no-cache"
        # at /sw.js its scope is / by itself: no header widens it
        assert "Service-Worker-Allowed" not in headers
        assert b'addEventListener("fetch"' in body

    async def test_the_manifest_and_every_icon_it_names_are_served(self, server):
        status, headers, body = await server.get("/manifest.webmanifest")
        assert status == 200 and headers["Content-Type"] == "application/manifest+json"
        manifest = json.loads(body)
        assert manifest["name"] and manifest["short_name"] and manifest["start_url"] == "/"
        assert manifest["display"] == "standalone" and manifest["theme_color"]
        assert manifest["icons"]
        for icon in manifest["icons"]:
            status, headers, _ = await server.get(icon["src"])
            assert status == 200, icon
            assert headers["Content-Type"] == icon["type"], icon

    async def test_the_page_links_the_manifest_and_registers_the_worker(self, server):
        _, _, page = await server.get("/")
        assert b'<link rel="manifest" href="/manifest.webmanifest">' in page
        assert b'<meta name="theme-color"' in page
        assert b'src="/js/install.js"' in page
        _, _, script = await server.get("/js/install.js")
        assert b'register("/sw.js", { scope: "/" })' in script
