"""Play now (issue #20, item 1): the queue lives in the database, so two server processes
(here two apps on one SQLite file) seat two waiting accounts at one table; a request can
be cancelled; after its wait, computers fill the empty seats; a request is never seated
twice."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from koloda.web.playnow import PlayNow
from tests.test_web_accounts import client_for, csrf, register


def _ask(c: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "durak")
    body.setdefault("players", 2)
    res = c.post("/api/playnow", headers=csrf(c) if c.cookies else {}, json=body)
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def test_two_accounts_on_two_server_processes_are_seated_at_one_table(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as one, client_for(tmp_path) as two:
        register(one, "Аня")
        register(two, "Боря")
        first = _ask(one, bot=None)                   # people only
        assert first["state"] == "waiting" and first["waiting"] == 1
        assert one.get(f"/api/playnow/{first['ticket']}").json()["state"] == "waiting"
        second = _ask(two, bot=None)                  # the other process matches them
        assert second["state"] == "seated"
        mine = one.get(f"/api/playnow/{first['ticket']}").json()
        assert mine["state"] == "seated" and mine["table"] == second["table"]
        assert {mine["seat"], second["seat"]} == {0, 1}
        info = two.get(f"/api/tables/{second['table']}").json()
        names = {s["name"]: s for s in info["seats"]}
        assert set(names) == {"Аня", "Боря"}
        assert all(s["registered"] and s["kind"] == "person" for s in names.values())
        # each ticket's token is its own seat's
        from tests.test_web import Sock
        sock = Sock(two, second["table"], mine["token"])
        two.socks.append(sock)
        assert sock.state is not None and sock.state["seat"] == mine["seat"]
        # polled again: the same seat, no second table
        again = one.get(f"/api/playnow/{first['ticket']}").json()
        assert (again["table"], again["seat"]) == (mine["table"], mine["seat"])


def test_a_cancelled_request_is_never_seated(tmp_path: Path) -> None:
    with client_for(tmp_path) as one, client_for(tmp_path) as two:
        first = _ask(one, bot=None, name="Аня")      # guests queue too
        gone = one.delete(f"/api/playnow/{first['ticket']}").json()
        assert gone["state"] == "cancelled"
        second = _ask(two, bot=None, name="Боря")
        assert second["state"] == "waiting" and second["waiting"] == 1
        assert one.get(f"/api/playnow/{first['ticket']}").json()["state"] == "cancelled"
        assert one.get("/api/playnow/no-such-ticket").status_code == 404


def test_after_the_wait_computers_fill_the_empty_seats(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        req = _ask(c, players=3, bot="random", wait=1, name="Аня")
        assert req["state"] == "waiting" and req["computers_in"] == 1
        deadline = time.monotonic() + 10
        state = req
        while state["state"] == "waiting" and time.monotonic() < deadline:
            time.sleep(0.3)
            state = c.get(f"/api/playnow/{req['ticket']}").json()
        assert state["state"] == "seated" and state["seat"] == 0
        seats = c.get(f"/api/tables/{state['table']}").json()["seats"]
        assert [s["kind"] for s in seats] == ["person", "computer", "computer"]
        # people only, or never: nobody fills
        never = _ask(c, players=2, bot="random", wait=None, name="Боря")
        time.sleep(1.2)
        assert c.get(f"/api/playnow/{never['ticket']}").json()["state"] == "waiting"


def test_a_bad_request_says_what_is_wrong(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        for body, word in (({"game": "nope"}, "nope"), ({"game": "durak", "players": 9}, "9"),
                           ({"game": "durak", "bot": "genius"}, "genius"),
                           ({"game": "durak", "bot": "random", "wait": 9999}, "600")):
            res = c.post("/api/playnow", json=dict(body, name="Аня"))
            assert res.status_code == 400 and word in res.json()["error"], res.text
            assert res.json()["error_ru"]


def test_a_request_claimed_by_one_process_is_not_claimed_by_another(tmp_path: Path) -> None:
    """The version-checked claim: a process that read the rows before another claimed
    them claims nothing, and rolls its whole claim back."""
    from sqlalchemy import select

    from koloda.web.playnow import PlayNowRow, _Lost, _now
    with client_for(tmp_path) as c:
        queue: PlayNow = c.app.state.playnow    # type: ignore[attr-defined]
        with queue.sessions.begin() as s:
            for i in range(3):
                s.add(PlayNowRow(ticket_hash=f"h{i}", game="durak", players=2, bot="",
                                 wait=None, name=f"P{i}", account_id=None, created=_now(),
                                 seen=_now(), state="waiting", version=0))
        with queue.sessions() as s:
            read_early = list(s.scalars(select(PlayNowRow).order_by(PlayNowRow.id)))
        assert len(queue._claim("durak", 2, "")) == 2      # the first process claims two
        with pytest.raises(_Lost), queue.sessions.begin() as s:
            queue._mark(s, [read_early[2], read_early[0]])   # the second, late
        with queue.sessions() as s:
            states = list(s.scalars(select(PlayNowRow.state).order_by(PlayNowRow.id)))
        assert states == ["claimed", "claimed", "waiting"]   # the third not claimed either


def test_a_full_server_keeps_the_requests_waiting_instead_of_ending_them(
        tmp_path: Path) -> None:
    from koloda.web.app import create_app
    from koloda.web.limits import Limits
    from tests.test_web import db_url
    app = create_app(db_url(tmp_path), bot_workers=0, bot_delay=0.0, tick=0.05,
                     limits=Limits(max_tables=0))
    with TestClient(app) as c:
        first = _ask(c, bot=None, name="Аня")
        second = _ask(c, bot=None, name="Боря")      # a pair, but no room for its table
        for req in (first, second):
            state = c.get(f"/api/playnow/{req['ticket']}").json()
            assert state["state"] == "waiting" and state["waiting"] == 2
