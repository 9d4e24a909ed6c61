"""Play now on many servers: two accounts pressing "play now" for 2-player
Durak on two server processes are seated at one table, and the first one's push stream,
held open on its own server, is told of the match the other server made — by the Redis
news, the servers never looking at the database for it meanwhile
(``KOLODA_PLAYNOW_RECHECK`` is an hour here). The ``sqlite`` case runs the same on one
process (told in memory)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.test_web_cluster import Server, Servers, httpx, servers, websockets

pytestmark = pytest.mark.cluster

__all__ = ["servers"]       # the fixture, for this module's tests


@pytest.fixture(autouse=True)
def _told_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set before the servers start (autouse fixtures come first)."""
    monkeypatch.setenv("KOLODA_PLAYNOW_RECHECK", "3600")


def _account(server: Server, name: str) -> Any:
    c = httpx.Client(base_url=server.http, timeout=20)
    res = c.post("/api/register", json={"name": name, "password": "tri-kozyrya-v-rukave"})
    assert res.status_code == 201, res.text
    c.headers["X-CSRF-Token"] = c.get("/api/me").json()["csrf"]
    return c


def test_two_accounts_on_two_servers_are_seated_at_one_table_and_the_first_is_told(
        servers: Servers) -> None:
    anna, boris = _account(servers[0], "Anna"), _account(servers[1], "Boris")
    ask = {"game": "durak", "players": 2, "bot": None}
    first = anna.post("/api/playnow", json=ask)
    assert first.status_code == 201, first.text
    ticket = first.json()["ticket"]

    async def wait_and_be_told() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(f"{servers[0].ws}/ws/playnow/{ticket}") as ws:
            now = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert now["type"] == "playnow" and now["state"] == "waiting", now
            second = await asyncio.to_thread(boris.post, "/api/playnow", json=ask)
            assert second.status_code == 201, second.text
            told = now
            while told["state"] in ("waiting", "claimed"):    # (the queue's news first)
                told = json.loads(await asyncio.wait_for(ws.recv(), 20))
            mine = dict(second.json())
            # Boris's own answer may come before the match: a sweep (every 1.5 s) on
            # Anna's server holds her row for an instant, and his claim skips a locked
            # row rather than waiting on it; the next sweep seats them both. Between, the
            # request may read "claimed": a server holds both rows and is making the table
            for _ in range(100):
                if mine["state"] not in ("waiting", "claimed"):
                    break
                await asyncio.sleep(0.2)
                res = await asyncio.to_thread(boris.get, f"/api/playnow/{mine['ticket']}")
                mine = dict(res.json(), ticket=mine["ticket"])
            return mine, told
    try:
        second, told = asyncio.run(wait_and_be_told())
        assert second["state"] == "seated" and told["state"] == "seated", (second, told)
        assert told["table"] == second["table"] and {told["seat"], second["seat"]} == {0, 1}
        seats = boris.get(f"/api/tables/{told['table']}").json()["seats"]
        assert {s["name"] for s in seats} == {"Anna", "Boris"}
        assert all(s["registered"] for s in seats)

        async def sit_with_the_pushed_token() -> dict[str, Any]:
            async with websockets.connect(f"{servers[1].ws}/ws/tables/{told['table']}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": told["token"]}))
                while True:
                    msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] in ("welcome", "refused"):
                        return msg
        welcome = asyncio.run(sit_with_the_pushed_token())
        assert welcome["type"] == "welcome" and welcome["seat"] == told["seat"], welcome
    finally:
        anna.close()
        boris.close()
