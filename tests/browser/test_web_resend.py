"""The table page sends a move again when the server was too busy with its address to
read it (``rate_limited``): it says it is waiting, waits what the server said
(``retry_after``), sends the same move again, and the move is played — the person clicks
once."""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from koloda.web.limits import Limits
from tests.browser.serving import ARGS, CHROMIUM, need_browser, serving
from tests.browser.test_web_browser import _click_a_move


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    # one message in 4 s: the page's hello, then a move, is one too many however slowly
    # a loaded machine clicks (a second page's hello is sent again after its wait too)
    with serving(tmp_path, limits=Limits(messages_per_second=0.25)) as url:
        yield url


def test_a_move_refused_as_too_fast_is_sent_again_after_the_wait_and_played(
        server: str) -> None:
    sync_playwright = need_browser()
    made = httpx.post(f"{server}/api/tables", json={
        "game": "durak", "players": 2, "seats": [{"kind": "person"}] * 2, "sit": 0,
        "name": "Аня", "settings": {"away_policy": "wait"}}, timeout=10).json()
    sat = httpx.post(f"{server}/api/tables/{made['id']}/sit",
                     json={"seat": 1, "name": "Боря"}, timeout=10).json()
    tokens = [made["token"], sat["token"]]
    sent: list[dict[str, object]] = []
    received: list[dict[str, object]] = []
    profile = tempfile.mkdtemp(prefix="koloda-chromium-")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": 1280, "height": 860}, locale="en-US", bypass_csp=True)
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))

            def watch(ws: Any) -> None:
                ws.on("framesent", lambda f: sent.append(json.loads(f)))
                ws.on("framereceived", lambda f: received.append(json.loads(f)))
            page.on("websocket", watch)
            # the page of the seat to move first
            page.goto(f"{server}/t/{made['id']}#token={tokens[0]}")
            page.wait_for_function("document.body.dataset.version !== undefined")
            if page.get_attribute("body", "data-my-turn") != "1":
                page.goto("about:blank")     # a new page load (not a hash change)
                page.goto(f"{server}/t/{made['id']}#token={tokens[1]}")
                page.wait_for_function("document.body.dataset.myTurn === '1'",
                                       timeout=20000)
            sent.clear()
            received.clear()
            # another connection from the same address spends its one message first,
            # so the click's move comes too fast however long the page took to get here
            ws_url = server.replace("http://", "ws://", 1)
            with connect(f"{ws_url}/ws/tables/{made['id']}") as spender:
                spender.send(json.dumps({"type": "hello", "token": None}))
                said = json.loads(spender.recv(timeout=10))
                # read (the one message spent now) or refused (spent already): either way
                # nothing more is read from this address for a while
                assert said["type"] == "welcome" or said.get("code") == "rate_limited", said
                _click_a_move(page, random.Random(3))
            page.wait_for_function("document.body.dataset.version === '1'", timeout=30000)
            browser.close()
            assert not errors, errors
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    limited = [m for m in received if m.get("code") == "rate_limited"]
    assert limited, "the move was not refused as too fast (the test did not test)"
    acts = [m for m in sent if m.get("type") == "act"]
    # the same move, sent again after the refusal, and acknowledged once
    assert len(acts) >= 2 and all(a == acts[0] for a in acts), acts
    assert sum(1 for m in received if m.get("type") == "ok") == 1
