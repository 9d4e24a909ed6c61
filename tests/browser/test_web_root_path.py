"""Served under a path prefix in a real browser (Debian's chromium driven by Playwright):
``koloda serve --root-path /koloda`` behind a proxy that strips ``/koloda``. The lobby
loads with every file it asks for found, its live feed opens under the prefix, and a
table made from its form opens at ``/koloda/t/<id>`` and is dealt over its websocket."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving

PREFIX = "/koloda"


class StripPrefix:
    """What nginx's ``location /koloda/ { proxy_pass http://koloda/; }`` and uvicorn's
    ``root_path`` make of a request, in one process: uvicorn has put the prefix in front
    of the path it got, so a path the proxy would have passed on (one under the prefix)
    comes as ``/koloda/koloda/…``; anything else the proxy would not have passed (404)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            doubled = PREFIX + PREFIX
            path = scope["path"]
            if path != doubled and not path.startswith(doubled + "/"):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await send({"type": "http.response.start", "status": 404, "headers": []})
                await send({"type": "http.response.body", "body": b"outside the prefix"})
                return
            scope = {**scope, "path": path[len(PREFIX):] or "/",
                     "raw_path": scope["raw_path"][len(PREFIX):] or b"/"}
        await self.app(scope, receive, send)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The address people open: ``http://127.0.0.1:N/koloda``."""
    with serving(tmp_path, wrap=StripPrefix, root_path=PREFIX) as address:
        yield address


def test_under_a_path_prefix_the_lobby_loads_whole_and_opens_a_table(server: str) -> None:
    sync_playwright = need_browser()
    profile = tempfile.mkdtemp(prefix="koloda-chromium-")
    with sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport={"width": 1280, "height": 860}, locale="en-US",
            bypass_csp=True)  # the page needs no eval; the test's waits do
        try:
            page = browser.new_page()
            errors: list[str] = []
            missing: list[str] = []
            sockets: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("requestfailed", lambda r: missing.append(f"{r.url} {r.failure}"))
            page.on("response", lambda r: missing.append(f"{r.status} {r.url}")
                    if r.status >= 400 else None)
            page.on("websocket", lambda ws: sockets.append(ws.url))
            page.goto(server + "/")
            page.wait_for_selector("#game option", state="attached")
            page.wait_for_function("document.querySelector('#leaderboard-link') !== null")
            assert page.get_attribute("#leaderboard-link", "href", timeout=5000) \
                .startswith(f"{PREFIX}/leaderboard/")
            assert page.get_attribute("a.brand", "href") == f"{PREFIX}/"
            page.wait_for_function("window.performance.getEntriesByType('resource').length > 3")
            assert any(f"{PREFIX}/ws/lobby" in u for u in sockets), sockets
            page.fill("#my-name", "Аня")
            page.select_option("#game", "durak")
            page.select_option("#players", "2")
            page.select_option("select[name=seat-1-bot]", "random")
            page.click("#create")
            page.wait_for_url(f"**{PREFIX}/t/*")
            page.wait_for_function("document.body.dataset.version !== undefined")
            assert page.get_attribute("body", "data-seat") == "0"
            assert any(f"{PREFIX}/ws/tables/" in u for u in sockets), sockets
            page.wait_for_function("[...document.images].length > 0 && [...document.images]"
                                   ".every((i) => i.complete && i.naturalWidth > 0)")
            assert all(src.startswith(f"{PREFIX}/static/") for src in page.eval_on_selector_all(
                "img", "(imgs) => imgs.map((i) => i.getAttribute('src'))"))
            assert not missing, missing
            assert not errors, errors
        finally:
            browser.close()
