"""Play now: the queue lives in the database, so two server processes
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
        assert len(queue._claim("durak", 2, "")[0]) == 2      # the first process claims two
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


# ------------------------------------------------------------------ told, not polled
def _push(c: TestClient, ticket: str) -> Any:
    """A page's push connection to its request (``/ws/playnow/<ticket>``)."""
    from tests.test_web import Sock
    return Sock(c, "", None, hello=False, path=f"/ws/playnow/{ticket}")


def _queue(c: TestClient) -> PlayNow:
    queue: PlayNow = c.app.state.playnow    # type: ignore[attr-defined]
    return queue


def test_a_match_made_by_a_second_client_reaches_the_first_clients_push_stream(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        _queue(c).recheck = 3600.0          # no look at the database: only news tells
        first = _ask(c, players=3, bot=None, name="Аня")
        push = _push(c, first["ticket"])
        try:
            now = push.recv()
            assert now["type"] == "playnow" and now["state"] == "waiting"
            assert now["waiting"] == 1 and now["waited"] >= 0 and "computers_in" not in now
            _ask(c, players=3, bot=None, name="Боря")      # one more waits with her
            more = push.recv()
            assert more["state"] == "waiting" and more["waiting"] == 2
            third = _ask(c, players=3, bot=None, name="Вера")   # the table is full
            assert third["state"] == "seated"
            told = push.recv()
            while told["state"] in ("waiting", "claimed"):
                # the third's arrival may wake the stream while the table is being made
                # (three waiting, or the rows claimed: seen on a busy machine); the next
                # news is the seating
                assert told["waiting"] == 3
                told = push.recv()
            assert told["state"] == "seated" and told["table"] == third["table"]
            assert told["seat"] == 0 and told["token"] and told["url"] == f"/t/{told['table']}"
            with pytest.raises(ConnectionError, match="1000"):     # the request ended
                push.recv()
        finally:
            push.close()
        seats = c.get(f"/api/tables/{told['table']}").json()["seats"]
        assert [s["name"] for s in seats] == ["Аня", "Боря", "Вера"]


def test_a_cancel_reaches_the_push_stream_and_an_unknown_ticket_is_refused(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        _queue(c).recheck = 3600.0
        req = _ask(c, bot=None, name="Аня")
        push = _push(c, req["ticket"])
        try:
            assert push.recv()["state"] == "waiting"
            c.delete(f"/api/playnow/{req['ticket']}")       # e.g. from another tab
            assert push.recv()["state"] == "cancelled"
            with pytest.raises(ConnectionError, match="1000"):
                push.recv()
        finally:
            push.close()
        nobody = _push(c, "no-such-ticket")
        try:
            refused = nobody.recv()
            assert refused["type"] == "refused" and "no such play-now request" in \
                refused["error"] and refused["error_ru"]
            with pytest.raises(ConnectionError, match="4404"):
                nobody.recv()
        finally:
            nobody.close()


def test_computers_fill_after_the_wait_and_the_push_says_so_without_a_poll(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        _queue(c).recheck = 3600.0      # the stream's own timer: computers are due
        req = _ask(c, players=2, bot="random", wait=1, name="Аня")
        push = _push(c, req["ticket"])
        try:
            first = push.recv()
            assert first["state"] == "waiting" and first["computers_in"] in (0, 1)
            seated = push.recv()
            while seated["state"] == "waiting":
                seated = push.recv()
            assert seated["state"] == "seated"
        finally:
            push.close()
        kinds = [s["kind"] for s in c.get(f"/api/tables/{seated['table']}").json()["seats"]]
        assert kinds == ["person", "computer"]


# ------------------------------------------------------------- claims are leases
def _row(queue: PlayNow, name: str, state: str = "waiting", **kw: Any) -> int:
    from koloda.web.playnow import PlayNowRow, _now
    with queue.sessions.begin() as s:
        row = PlayNowRow(ticket_hash=f"h-{name}", game="durak", players=2, bot="",
                         wait=None, name=name, account_id=None, created=_now(),
                         seen=_now(), state=state, version=1 if state != "waiting" else 0,
                         **kw)
        s.add(row)
        s.flush()
        return row.id


def _rows(queue: PlayNow) -> dict[str, Any]:
    from sqlalchemy import select

    from koloda.web.playnow import PlayNowRow
    with queue.sessions() as s:
        return {r.name: r for r in s.scalars(select(PlayNowRow))}


def test_a_claim_whose_process_died_returns_to_the_queue_and_is_seated_by_another(
        tmp_path: Path) -> None:
    """A claim is a lease: the claimer that died (its lease ran out) loses the requests,
    another process seats them; a claim whose claimer lives (its lease runs on) is left
    alone, and this process's own claims are renewed."""
    from datetime import timedelta

    from koloda.web.playnow import _now
    with client_for(tmp_path) as c:
        queue = _queue(c)
        past, future = _now() - timedelta(seconds=1), _now() + timedelta(seconds=60)
        for name in ("Аня", "Боря"):        # claimed by a server that died
            _row(queue, name, "claimed", claimed_by="dead", lease_until=past)
        _row(queue, "Вера", "claimed", claimed_by="alive", lease_until=future)
        mine = _row(queue, "Гоша", "claimed", claimed_by=queue.cluster.server_id,
                    lease_until=_now() + timedelta(seconds=1))
        queue._claiming.add(mine)
        before = _rows(queue)["Гоша"].lease_until
        c.portal.call(queue.sweep_once)     # type: ignore[union-attr]
        rows = _rows(queue)
        assert rows["Аня"].state == rows["Боря"].state == "seated"
        assert rows["Аня"].table_id == rows["Боря"].table_id is not None
        assert {rows["Аня"].seat, rows["Боря"].seat} == {0, 1}
        # seated by this process's claim, not the dead one's
        assert rows["Аня"].claimed_by == rows["Боря"].claimed_by == queue.cluster.server_id
        assert rows["Вера"].state == "claimed" and rows["Вера"].claimed_by == "alive"
        assert rows["Гоша"].state == "claimed" and rows["Гоша"].lease_until > before
        assert queue.returned >= 2
        seats = c.get(f"/api/tables/{rows['Аня'].table_id}").json()["seats"]
        assert {s["name"] for s in seats} == {"Аня", "Боря"}


def test_a_late_claimer_whose_lease_ran_out_seats_nobody_twice(tmp_path: Path) -> None:
    """A process too slow to renew: its claim went back to the queue (a new version), so
    its late 'seated' write changes nothing."""
    from datetime import timedelta

    from sqlalchemy import select

    from koloda.web.playnow import PlayNowRow, _now
    with client_for(tmp_path) as c:
        queue = _queue(c)
        row_id = _row(queue, "Аня", "claimed", claimed_by=queue.cluster.server_id,
                      lease_until=_now() - timedelta(seconds=1))
        with queue.sessions() as s:
            claimed = s.scalar(select(PlayNowRow).where(PlayNowRow.id == row_id))
        assert claimed is not None
        c.portal.call(queue.sweep_once)     # type: ignore[union-attr]
        assert _rows(queue)["Аня"].state == "waiting"      # back in the queue
        queue._release([claimed], again=False)               # the late claimer gives up
        assert _rows(queue)["Аня"].state == "waiting"      # …and changes nothing


# ------------------------------------------------------------ what a player sees
def test_a_waiting_request_says_how_long_and_how_many_wait_for_its_table(
        tmp_path: Path) -> None:
    from koloda.web.playnow import EXPIRE
    with client_for(tmp_path) as c:
        assert c.get("/api/playnow").json() == []
        first = _ask(c, players=3, bot=None, name="Аня")
        assert first["waited"] == 0 and first["expires_in"] == EXPIRE
        _ask(c, players=3, bot=None, name="Боря")
        _ask(c, players=2, bot="random", wait=60, name="Вера")
        state = c.get(f"/api/playnow/{first['ticket']}").json()
        assert state["waiting"] == 2 and state["players"] == 3
        queues = c.get("/api/playnow").json()
        assert [(q["game"], q["players"], q["bot"], q["waiting"]) for q in queues] == [
            ("durak", 2, "random", 1), ("durak", 3, None, 2)]
        assert all(q["longest"] >= 0 for q in queues)


def test_a_request_computers_never_fill_ends_expired_after_its_longest_wait(
        tmp_path: Path) -> None:
    from datetime import timedelta

    from sqlalchemy import update

    from koloda.web.playnow import EXPIRE, PlayNowRow, _now
    from koloda.web.texts import TEXTS
    with client_for(tmp_path) as c:
        queue = _queue(c)
        queue.recheck = 3600.0
        req = _ask(c, bot="random", wait=None, name="Аня")      # never computers
        assert req["state"] == "waiting" and "computers_in" not in req
        push = _push(c, req["ticket"])
        try:
            assert push.recv()["state"] == "waiting"
            with queue.sessions.begin() as s:       # as if she had waited that long
                s.execute(update(PlayNowRow).values(
                    created=_now() - timedelta(seconds=EXPIRE + 1)))
            c.portal.call(queue.sweep_once)     # type: ignore[union-attr]
            told = push.recv()
            assert told["state"] == "expired" and told["waited"] == EXPIRE
        finally:
            push.close()
        assert c.get(f"/api/playnow/{req['ticket']}").json()["state"] == "expired"
        said = c.get("/api/texts").json()
        assert "computers were never to sit down" in said["en"]["playnow_expired"]
        assert TEXTS["ru"]["playnow_expired"]


def test_one_address_may_keep_only_so_many_guest_requests_waiting(tmp_path: Path) -> None:
    from koloda.web.app import create_app
    from koloda.web.limits import Limits
    from tests.test_web import db_url
    app = create_app(db_url(tmp_path), bot_workers=0, bot_delay=0.0, tick=0.05,
                     limits=Limits(tables_per_client=2))
    with TestClient(app) as c:
        for players in (3, 4):
            _ask(c, players=players, bot=None, name="Аня")
        res = c.post("/api/playnow", json={"game": "durak", "players": 5, "name": "Аня"})
        assert res.status_code == 429 and "2 play-now requests" in res.json()["error"]


def test_an_older_queue_table_gets_the_lease_columns(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, inspect, text
    engine = create_engine(f"sqlite:///{tmp_path / 'koloda.db'}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE playnow_requests (id INTEGER PRIMARY KEY, "
                          "ticket_hash VARCHAR(64) UNIQUE, game VARCHAR(60), players INTEGER, "
                          "bot VARCHAR(40), wait INTEGER, name VARCHAR(200), "
                          "account_id INTEGER, client VARCHAR(100), created DATETIME, "
                          "seen DATETIME, state VARCHAR(12), version INTEGER, "
                          "table_id VARCHAR(40), seat INTEGER, token VARCHAR(64))"))
    engine.dispose()
    with client_for(tmp_path) as c:
        cols = {col["name"] for col in inspect(_queue(c).engine).get_columns("playnow_requests")}
        assert {"claimed_by", "lease_until"} <= cols
        assert _ask(c, bot=None, name="Аня")["state"] == "waiting"
