"""What one server allows: table creation per client and in all (exact caps), idle
tables expiring, body and field sizes, connections and messages per client, names."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from koloda.web.limits import Limits
from koloda.web.tables import TableError, TableManager
from tests.test_web import Sock, client_for, create, db_url, server_table

TWO = [{"kind": "person"}, {"kind": "person"}]


def _manager(tmp_path: Path, **limits: Any) -> TableManager:
    return TableManager(db_url(tmp_path), bot_workers=0, bot_delay=0, use_store=False,
                        tick=0.05, limits=Limits(**limits))


# --------------------------------------------------------------- table creation
def test_one_client_cannot_shut_table_creation_for_everyone(tmp_path: Path) -> None:
    """One address may have ``tables_per_client`` tables in play; others still create."""
    async def scenario() -> tuple[list[str], int]:
        m = _manager(tmp_path, tables_per_client=3, creations_per_minute=1000)
        await m.start()
        try:
            errors = []
            for _ in range(5):
                try:
                    await m.create("durak", 2, {}, TWO, None, None, {}, client="10.0.0.1")
                except TableError as exc:
                    errors.append(f"{exc.status} {exc}")
            await m.create("durak", 2, {}, TWO, None, None, {}, client="10.0.0.2")
            return errors, m.playing()
        finally:
            await m.stop()
    errors, playing = asyncio.run(scenario())
    assert playing == 4
    assert errors == ["429 you have 3 tables in play, the most one address may have; "
                      "finish or leave one first"] * 2


def test_an_account_from_many_addresses_is_one_client(tmp_path: Path) -> None:
    """Limits are per address and per account: one account creating from new addresses
    each time still has ``tables_per_client`` tables at most."""
    async def scenario() -> list[int]:
        m = _manager(tmp_path, tables_per_client=2, creations_per_minute=1000)
        await m.start()
        try:
            refused = []
            for i in range(4):
                try:
                    await m.create("durak", 2, {}, TWO, "Anna", 0, {}, client=f"10.0.1.{i}",
                                   account_id=7)
                except TableError as exc:
                    refused.append(exc.status)
            # another account (and a guest) from the same addresses is not held back
            await m.create("durak", 2, {}, TWO, "Boris", 0, {}, client="10.0.1.0",
                           account_id=8)
            return [*refused, m.playing()]
        finally:
            await m.stop()
    assert asyncio.run(scenario()) == [429, 429, 3]


def test_the_server_wide_table_cap_is_exact_under_concurrent_creation(
        tmp_path: Path) -> None:
    """Many creations at once never overshoot the cap (it was 5 022 with 5 000)."""
    async def scenario() -> tuple[int, int, set[int]]:
        m = _manager(tmp_path, max_tables=25, tables_per_client=10**6,
                     creations_per_minute=10**6)
        await m.start()
        try:
            got = await asyncio.gather(*(
                m.create("durak", 2, {}, TWO, None, None, {}, client=f"10.0.{i}.1")
                for i in range(80)), return_exceptions=True)
            statuses = {g.status for g in got if isinstance(g, TableError)}
            return sum(1 for g in got if not isinstance(g, BaseException)), m.playing(), \
                statuses
        finally:
            await m.stop()
    made, playing, statuses = asyncio.run(scenario())
    assert made == playing == 25
    assert statuses == {503}


def test_creating_tables_too_fast_is_refused_with_retry_after(tmp_path: Path) -> None:
    with client_for(tmp_path, limits=Limits(creations_per_minute=2)) as c:
        create(c)
        create(c)
        res = c.post("/api/tables", json={"game": "durak", "players": 2, "seats": TWO})
        assert res.status_code == 429
        assert "too many tables created from your address" in res.json()["error"]
        assert res.json()["error_ru"].startswith("с вашего адреса")
        assert int(res.headers["retry-after"]) >= 1


def test_a_finished_table_no_longer_counts_against_its_creator(tmp_path: Path) -> None:
    async def scenario() -> int:
        m = _manager(tmp_path, tables_per_client=1, creations_per_minute=1000)
        await m.start()
        try:
            seats = [{"kind": "computer", "bot": "random"}] * 2
            table, _, _ = await m.create("durak", 2, {}, seats, None, None, {}, client="a")
            for _ in range(400):
                if table.finished:
                    break
                await asyncio.sleep(0.01)
            await m.create("durak", 2, {}, TWO, None, None, {}, client="a")
            return m.playing()
        finally:
            await m.stop()
    assert asyncio.run(scenario()) == 1


# ------------------------------------------------------------------ idle tables
def test_idle_tables_expire_stored_as_abandoned_and_are_not_reloaded(
        tmp_path: Path) -> None:
    """Waiting for an away person, or for anyone to sit: after the idle timeout the
    table is stored as abandoned (its actions kept), refuses moves, leaves the lobby,
    tells its watchers, and is not resumed by the next start."""
    with client_for(tmp_path, limits=Limits(idle_timeout=0.6)) as c:
        away = create(c, "durak", settings={"away_policy": "wait", "away_timeout": 1})
        nobody = create(c, "durak", sit=None)
        watched = create(c, "durak")
        busy = create(c, "durak", seats=[{"kind": "computer", "bot": "random"}] * 2,
                      sit=None)
        me = Sock(c, watched["id"], watched["token"])
        closed = me.expect("closed", timeout=5)
        assert closed["reason"] == "abandoned" and closed["text_ru"]
        state = me.until(lambda s: s["closed"] == "abandoned", timeout=5)
        assert state["legal"] == []
        refused = me.act("take", state["version"])
        assert refused["code"] == "abandoned" and refused["reason_ru"]
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(
                server_table(c, t["id"]).abandoned for t in (away, nobody)):
            time.sleep(0.05)
        assert all(server_table(c, t["id"]).abandoned for t in (away, nobody, watched))
        while time.monotonic() < deadline and not server_table(c, busy["id"]).finished:
            time.sleep(0.05)
        assert server_table(c, busy["id"]).finished        # played on to its end
        assert c.get("/api/tables").json() == []
        assert not server_table(c, busy["id"]).abandoned
        me.close()
    with sqlite3.connect(tmp_path / "koloda.db") as db:
        rows = dict(db.execute("select id, abandoned is not null from web_tables"))
    assert rows == {away["id"]: 1, nobody["id"]: 1, watched["id"]: 1, busy["id"]: 0}
    with client_for(tmp_path) as c:
        manager = c.app.state.manager  # type: ignore[attr-defined]
        assert manager.tables == {}
        info = c.get(f"/api/tables/{away['id']}").json()   # kept: still shown
        assert info["abandoned"] is True and info["finished"] is False


def test_tables_idle_while_the_server_was_down_are_abandoned_at_start(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        made = create(c, "durak")
    time.sleep(0.4)
    with client_for(tmp_path, limits=Limits(idle_timeout=0.3)) as c:
        assert c.app.state.manager.tables == {}  # type: ignore[attr-defined]
        assert c.get(f"/api/tables/{made['id']}").json()["abandoned"] is True
    with client_for(tmp_path) as c:      # and never again
        assert c.app.state.manager.tables == {}  # type: ignore[attr-defined]


# ------------------------------------------------------------------------ names
@pytest.mark.parametrize(("name", "what"), [
    ("\u202eecilA", "a text-direction override (U+202E, character 1)"),
    ("Ali\u200bce", "an invisible (zero-width) character (U+200B, character 4)"),
    ("Al\x00ice", "NUL (U+0000, character 3)"),
    ("Al\x07ice", "a control character (U+0007, character 3)"),
    ("Alice\u2066", "a text-direction override (U+2066, character 6)"),
    ("Al\ufeffice", "an invisible (zero-width) character (U+FEFF, character 3)"),
    ("Al\nice", "a control character (U+000A, character 3)"),
])
def test_names_with_control_zero_width_or_bidi_characters_are_refused(
        tmp_path: Path, name: str, what: str) -> None:
    with client_for(tmp_path) as c:
        res = c.post("/api/tables", json={"game": "durak", "players": 2, "seats": TWO,
                                          "sit": 0, "name": name})
        assert res.status_code == 400
        assert res.json()["error"] == f"name: {what} may not be in a name"
        assert res.json()["error_ru"].startswith("имя: ")
        tid = create(c, sit=None)["id"]
        res = c.post(f"/api/tables/{tid}/sit", json={"seat": 0, "name": name})
        assert res.status_code == 400 and what in res.json()["error"]
        assert c.get(f"/api/tables/{tid}").json()["seats"][0]["taken"] is False


def test_names_are_normalised_to_nfc(tmp_path: Path) -> None:
    """«Алёна» typed with a combining diaeresis is the same name as the composed one."""
    with client_for(tmp_path) as c:
        made = create(c, name="Але\u0308на  Ивановна")
        assert made["table"]["seats"][0]["name"] == "Алёна Ивановна"


# ------------------------------------------------------------------ HTTP sizes
def test_a_50_mb_body_is_refused_with_413_before_it_is_parsed(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        big = b'{"game": "durak", "seats": [], "options": {"' + b"x" * (50 << 20) + b'": 1}}'
        res = c.post("/api/tables", content=big,
                     headers={"content-type": "application/json"})
        assert res.status_code == 413
        assert res.json()["error"] == "request body too large: at most 65536 bytes"
        assert len(res.content) < 300

        def chunks() -> Any:               # no Content-Length: counted as it comes
            yield b'{"game": "durak", "options": {"'
            for _ in range(200):
                yield b"x" * 4096
        res = c.post("/api/tables", content=chunks(),
                     headers={"content-type": "application/json"})
        assert res.status_code == 413
        assert c.get("/api/tables").json() == []


def test_a_huge_option_name_or_value_is_refused_and_never_echoed(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        for options, words in [({"y" * 60000: 1}, "an option name is at most 40"),
                               ({"games": "z" * 60000}, "options.games: a text value"),
                               ({f"o{i}": 1 for i in range(300)}, "at most 40 options"),
                               ({"games": [[[1]]]}, "options.games: a number")]:
            res = c.post("/api/tables", json={"game": "durak", "players": 2,
                                              "seats": TWO, "options": options})
            assert res.status_code == 400, res.text
            assert words in res.json()["error"] and res.json()["error_ru"]
            assert len(res.content) < 500
        res = c.post("/api/tables", json={"game": "durak", "players": 2, "seats": TWO,
                                          "sit": 0, "name": "n" * 60000})
        assert res.status_code == 422 and len(res.content) < 500   # FastAPI's, no echo
        assert "name" in res.text
        assert c.get("/api/tables").json() == []


# ------------------------------------------------- connections and messages
def test_connections_per_client_are_limited(tmp_path: Path) -> None:
    with client_for(tmp_path, limits=Limits(connections_per_client=3)) as c:
        tid = create(c)["id"]
        socks = [Sock(c, tid, None) for _ in range(3)]
        extra = Sock(c, tid, None, hello=False)
        msg = extra.recv()
        assert msg["code"] == "too_many_connections" and "at most 3" in msg["reason"]
        assert msg["reason_ru"]
        with pytest.raises(ConnectionError, match="1013"):
            extra.recv()
        extra.close()
        socks[0].close()
        time.sleep(0.1)
        again = Sock(c, tid, None)          # room again
        assert again.state is not None


def test_messages_per_client_are_rate_limited_and_a_flood_is_closed(
        tmp_path: Path) -> None:
    with client_for(tmp_path, limits=Limits(messages_per_second=5)) as c:
        tid = create(c)["id"]
        s = Sock(c, tid, None)        # the hello took one of the 5 of this second
        for i in range(20):
            s.send({"type": "ping", "id": i})
        answers = [s.recv() for _ in range(20)]
        codes = [a.get("code", a["type"]) for a in answers]
        assert codes.count("pong") == 4 and codes.count("rate_limited") == 16
        limited = next(a for a in answers if a.get("code") == "rate_limited")
        assert "at most 5 a second" in limited["reason"] and limited["reason_ru"]
        # the refusal says when to send again; sent again then, it is served (at most
        # a few tries: the window frees its places one by one)
        assert 0 < limited["retry_after"] <= 1
        wait, tries = limited["retry_after"], 0
        while True:
            time.sleep(wait)
            tries += 1
            s.send({"type": "ping", "id": "later"})
            answer = s.recv()
            while answer["type"] not in ("pong", "refused"):   # a seats or state frame
                answer = s.recv()
            if answer["type"] == "pong":
                break
            assert answer["code"] == "rate_limited" and tries < 10, answer
            wait = answer["retry_after"]
        assert answer["id"] == "later"     # still served at the rate
        for i in range(200):                          # a flood: closed
            s.send({"type": "ping", "id": i})
        with pytest.raises(ConnectionError):
            while True:
                s.recv(timeout=5)
        s.close()


# ------------------------------------------------------------------------ lobby
def test_the_lobby_is_paginated_and_keeps_its_shape(tmp_path: Path) -> None:
    """At 5 000 tables the lobby was 3.1 MB, polled every 3 s: now a page (100 by
    default), the same list of tables, with the total and the next page in headers."""
    with client_for(tmp_path, limits=Limits(lobby_page=3)) as c:
        ids = [create(c, sit=None)["id"] for _ in range(7)]
        create(c, "pyanitsy", sit=None)
        res = c.get("/api/tables")
        first = res.json()
        assert isinstance(first, list) and len(first) == 3
        assert set(first[0]) >= {"id", "game", "seats", "open_seats", "version"}
        assert res.headers["x-total-count"] == "8"
        assert res.headers["link"] == '</api/tables?offset=3&limit=3>; rel="next"'
        seen = [t["id"] for t in first]
        url = "/api/tables?offset=3&limit=3"
        while True:
            res = c.get(url)
            seen += [t["id"] for t in res.json()]
            if "link" not in res.headers:
                break
            url = res.headers["link"][1:].split(">")[0]
        assert len(seen) == 8 and set(ids) <= set(seen)
        durak = c.get("/api/lobby?game=durak&limit=50").json()
        assert durak["total"] == 7 and len(durak["tables"]) == 7 and durak["limit"] == 50
        assert c.get("/api/lobby?limit=100000").json()["limit"] == 500


def test_the_lobby_is_pushed_when_it_changes(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    import koloda.web.table_routes as web_routes
    import koloda.web.tables as web_tables
    monkeypatch.setattr(web_routes, "LOBBY_PUSH", 0.05)
    monkeypatch.setattr(web_tables, "LOBBY_FRESH", 0.0)
    with client_for(tmp_path) as c:
        create(c, sit=None)
        with c.websocket_connect("/ws/lobby?limit=10") as ws:
            first = json.loads(ws.receive_text())
            assert first["type"] == "lobby" and first["total"] == 1
            create(c, sit=None)
            second = json.loads(ws.receive_text())
            assert second["total"] == 2 and len(second["tables"]) == 2


def test_an_ended_match_not_yet_stored_is_never_abandoned(tmp_path: Path) -> None:
    """Its store failed (to be tried again at the next start): idle or not, it must stay
    a table to finish, never become an abandoned one."""
    async def scenario() -> tuple[bool, bool, bool]:
        m = TableManager(db_url(tmp_path), bot_workers=0, bot_delay=0, use_store=True,
                         tick=0.05, limits=Limits(idle_timeout=0.2))

        def broken(*_args: Any) -> int:
            raise OSError("disk full")
        m.finisher.store_game = broken  # type: ignore[method-assign]
        await m.start()
        try:
            seats = [{"kind": "computer", "bot": "random"}] * 2
            table, _, _ = await m.create("durak", 2, {}, seats, None, None, {})
            for _ in range(300):
                if table.match.is_over and not table.finishing:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.6)
            return table.match.is_over, table.finished, table.abandoned
        finally:
            await m.stop()
    assert asyncio.run(scenario()) == (True, False, False)
