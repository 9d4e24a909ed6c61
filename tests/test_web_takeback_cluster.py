"""A takeback where several servers hold the table: it is stored like an action, so every
server's copy (and a restart's) plays it the same way, and a kill after it loses nothing."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

from tests.test_web_cluster import Servers, _create, httpx, servers, websockets

pytestmark = pytest.mark.cluster
__all__ = ["servers"]     # the fixture, used by name


async def _next(ws: Any, kind: str, until: float) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), until - time.monotonic()))
        if msg["type"] == kind or (msg["type"] == "refused" and kind == "ok"):
            return dict(msg)


async def _my_state(ws: Any, at_least: int, until: float) -> dict[str, Any]:
    while True:
        msg = await _next(ws, "state", until)
        if msg["version"] >= at_least and msg["view"]["to_move"] == 0:
            return msg


def test_a_takeback_is_seen_the_same_by_every_server(servers: Servers) -> None:
    seats = [{"kind": "person"}, {"kind": "computer", "bot": "random"}]
    table, token = _create(servers[0], seats, 2)
    until = time.monotonic() + 60

    async def play() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(f"{servers[0].ws}/ws/tables/{table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            before = await _my_state(ws, 0, until)
            await ws.send(json.dumps({"type": "act", "version": before["version"],
                                      "action": before["legal"][0]}))
            ok = await _next(ws, "ok", until)
            assert ok["type"] == "ok", ok
            after = await _my_state(ws, ok["version"], until)
            await ws.send(json.dumps({"type": "takeback", "version": after["version"]}))
            took = await _next(ws, "ok", until)
            assert took["type"] == "ok" and took["action"].startswith("takeback "), took
            back = await _my_state(ws, took["version"], until)
            assert back["view"] == before["view"] and back["legal"] == before["legal"]
            return before, back
    before, back = asyncio.run(play())
    # the other servers' copies and the lobby's view of the table agree with it
    for server in servers.servers:
        deadline = time.monotonic() + 10
        while True:
            info = httpx.get(f"{server.http}/api/tables/{table}", timeout=10).json()
            if info["version"] == back["version"] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert info["version"] == back["version"], (server.port, info["version"])

    async def watch(server: Any) -> dict[str, Any]:
        async with websockets.connect(f"{server.ws}/ws/tables/{table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": None}))
            return await _next(ws, "state", time.monotonic() + 10)
    seen = [asyncio.run(watch(s)) for s in servers.servers]
    assert len({json.dumps(s["view"], sort_keys=True) for s in seen}) == 1
    assert seen[0]["view"]["hand_sizes"] == before["view"]["hand_sizes"]
