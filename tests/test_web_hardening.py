"""The service in the open: every number and id a request carries is checked before the
store; a table's id is checked before it is looked for and never echoed long; sign-in
does not tell which names exist; a seat's ``ok`` shows it its own card; websockets from
another site are refused."""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from fastapi import FastAPI
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.websockets import WebSocketDisconnect

from koloda.web.app import create_app
from koloda.web.limits import Limits
from tests.test_web import Client, Sock, create, db_url, sit, two_seated
from tests.test_web_accounts import CHEAP, GOOD, register
from tests.test_web_accounts import client_for as accounts_client

HUGE = ("9223372036854775808", "99999999999999999999", "-9223372036854775809",
        "-1", "abc", "1e3", "")


def _client(tmp_path: Path, **kw: Any) -> Client:
    app = create_app(db_url(tmp_path), bot_workers=0, bot_delay=0.0, tick=0.05,
                     limits=Limits(messages_per_second=1e6), password_hasher=CHEAP, **kw)
    client = Client(app, raise_server_exceptions=False)
    client.socks = []
    return client


def _number_params(app: FastAPI) -> list[tuple[str, str, str, str]]:
    """Every route's whole-number parameters: (kind, path, where, name)."""
    out = []
    routes = list(app.routes)
    while routes:
        route = routes.pop(0)
        included = getattr(route, "original_router", None)     # an included router's
        if included is not None:
            routes.extend(included.routes)
            continue
        if not isinstance(route, APIRoute | APIWebSocketRoute):
            continue
        kind = "ws" if isinstance(route, APIWebSocketRoute) else "http"
        dep = route.dependant
        for where, params in (("path", dep.path_params), ("query", dep.query_params)):
            for p in params:
                annotation = str(p.field_info.annotation)
                if "int" in annotation:
                    out.append((kind, route.path, where, p.name))
    return out


def _url(path: str, where: str, name: str, value: str) -> str:
    filled = path.replace("{game}", "durak").replace("{name}", "x") \
        .replace("{table_id}", "nothing-here").replace("{ticket}", "t")
    if where == "path":
        return filled.replace("{" + name + "}", value or "%20").replace("{game_id}", "1")
    return f"{filled.replace('{game_id}', '1')}?{name}={value}"


# ------------------------------------------------------------ numbers and ids
def test_huge_ids_and_offsets_raise_no_overflow_error_in_the_store(tmp_path: Path) -> None:
    """``/api/replays/9223372036854775808`` and ``offset=99999999999999999999`` (and
    every whole number of every route, huge, negative or no number) are a 422 with a
    one-line reason in both languages, never a 500."""
    with _client(tmp_path) as c:
        params = _number_params(c.app)          # type: ignore[arg-type]
        names = {(path, name) for _k, path, _w, name in params}
        # the routes that take a number: all of them walked below
        assert {("/api/replays/{game_id}", "game_id"), ("/api/replays/{game_id}", "at"),
                ("/g/{game_id}", "game_id"), ("/api/tables", "offset"),
                ("/api/tables", "limit"), ("/api/lobby", "offset"), ("/api/lobby", "limit"),
                ("/ws/lobby", "offset"), ("/ws/lobby", "limit"),
                ("/api/leaderboard/{game}", "offset"), ("/api/leaderboard/{game}", "limit"),
                ("/api/players/{name}", "recent")} <= names
        for kind, path, where, name in params:
            for value in HUGE:
                url = _url(path, where, name, value)
                if kind == "ws":
                    with pytest.raises(WebSocketDisconnect) as closed, \
                            c.websocket_connect(url) as ws:
                        ws.receive_json()
                    assert closed.value.code == 1008, url
                    continue
                res = c.get(url)
                assert res.status_code in (404, 422), (url, res.status_code, res.text)
                if res.status_code == 422:
                    body = res.json()
                    assert body["error"].startswith(f"{name}: "), (url, body)
                    assert "\n" not in body["error"] and body["error_ru"], body
        res = c.get("/api/replays/9223372036854775808")
        assert res.json()["error"] == "game_id: a whole number from 1 to 9223372036854775807"
        assert res.json()["error_ru"] == "game_id: целое число от 1 до 9223372036854775807"
        res = c.get("/api/leaderboard/durak?offset=99999999999999999999")
        assert res.json()["error"] == "offset: a whole number from 0 to 1000000000"
        # the largest id there can be is looked for, and not found
        assert c.get("/api/replays/9223372036854775807").status_code == 404
        # in bounds, as before: a page too long is cut to the longest
        assert c.get("/api/lobby?limit=100000").json()["limit"] == 500


def test_the_store_answers_none_for_an_id_no_database_holds(tmp_path: Path) -> None:
    from koloda.store import Store
    store = Store(db_url(tmp_path))
    try:
        for game_id in (2**63, 10**30, -(2**63) - 1, 0):
            assert store.record(game_id) is None
            assert store.game(game_id) is None
    finally:
        store.close()


def test_a_5000_character_table_id_is_not_echoed(tmp_path: Path) -> None:
    """A malformed table id (too long, or not of the server's characters) is not looked
    for; the answer repeats only a few of its characters — over HTTP and websocket."""
    long_id = "x" * 5000
    with _client(tmp_path) as c:
        made = create(c)
        for bad in (long_id, "a" * 17, "bad id!", "ab%2Fcd"):
            for url in (f"/api/tables/{bad}", f"/api/tables/{bad}/record"):
                res = c.get(url)
                assert res.status_code == 404, (url, res.text)
                assert len(res.text) < 200, res.text
            res = c.post(f"/api/tables/{bad}/sit", json={"seat": 1, "name": "Boris"})
            assert res.status_code == 404 and len(res.text) < 200
        res = c.get(f"/api/tables/{long_id}")
        assert res.json() == {"error": "no table 'xxxxxxxx…'", "error_ru": "стола «xxxxxxxx…» нет"}
        with c.websocket_connect(f"/ws/tables/{long_id}") as ws:
            refused = ws.receive_json()
        assert refused["code"] == "no_table"
        assert refused["reason"] == "no table 'xxxxxxxx…'"
        assert refused["reason_ru"] == "стола «xxxxxxxx…» нет"
        # a well-formed unknown id is named whole; a real one is found
        assert c.get("/api/tables/nothing-here").json()["error"] == "no table 'nothing-here'"
        assert c.get(f"/api/tables/{made['id']}").status_code == 200
        assert len(made["id"]) == 8


# ------------------------------------------------------------------- sign-in
def test_sign_in_says_which_names_exist_no_more(tmp_path: Path) -> None:
    """An unknown name and a wrong password get the same status and text; registering
    still says a name is taken."""
    with accounts_client(tmp_path) as c:
        register(c, "Вера")
        c.cookies.clear()
        wrong = c.post("/api/login", json={"name": "вера", "password": "not-her-password"})
        unknown = c.post("/api/login", json={"name": "Глеб", "password": GOOD})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json() == {
            "error": "wrong name or password", "error_ru": "неверное имя или пароль"}
        taken = c.post("/api/register", json={"name": "ВЕРА", "password": GOOD + "!"})
        assert taken.status_code == 409 and "already registered" in taken.json()["error"]


def test_sign_in_of_an_unknown_name_runs_the_password_hash(tmp_path: Path) -> None:
    """The time does not tell either: an unknown name's password is checked with the
    same argon2 verify (against a dummy hash) as a registered one's."""
    from koloda.web.accounts import Accounts, AuthError

    class Counting(type(CHEAP)):                        # type: ignore[misc]
        verified = 0

        def verify(self, digest: Any, password: Any) -> Any:
            Counting.verified += 1
            return super().verify(digest, password)
    hasher = Counting(time_cost=CHEAP.time_cost, memory_cost=CHEAP.memory_cost,
                      parallelism=CHEAP.parallelism, hash_len=CHEAP.hash_len,
                      salt_len=CHEAP.salt_len)
    accounts = Accounts(db_url(tmp_path), hasher=hasher)
    try:
        accounts.register("Вера", GOOD)
        said = []
        for name in ("Вера", "Глеб", "Глеб"):
            before = Counting.verified
            with pytest.raises(AuthError) as refused:
                accounts.login(name, "not-the-password")
            assert Counting.verified == before + 1, name
            said.append((refused.value.status, str(refused.value)))
        assert len(set(said)) == 1
    finally:
        accounts.close()


# ----------------------------------------------------------- a seat's own card
def _deal_ending_table(c: Client, rng: random.Random) -> tuple[dict[int, Sock], Any]:
    """A two-seat Opendaum table (a match of many deals)."""
    tid, socks, _frames = two_seated(c, "opendaum")
    return socks, c.app.state.manager.get(tid)          # type: ignore[attr-defined]


def test_the_players_own_last_card_comes_back_in_its_ok(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The ``ok`` of a seat's own action shows it the action as it sent it, also when
    the action ended the deal (the next deal hides those card texts from it), and the
    server logs no redaction for it."""
    rng = random.Random(7)
    caplog.set_level(logging.WARNING, logger="koloda.web")
    with _client(tmp_path) as c:
        ended = 0
        for _match in range(6):
            socks, table = _deal_ending_table(c, rng)
            while ended < 3:
                st = socks[0].state
                assert st is not None
                if st["view"]["match_over"]:
                    break
                mover = st["view"]["to_move"]
                mine = socks[mover].until(lambda s, v=st["version"]: s["version"] == v)
                action = rng.choice(mine["legal"])
                deals = len(table.match.deals)
                answer = socks[mover].act(action)
                assert answer["type"] == "ok", answer
                assert "??" not in answer["action"], answer
                assert answer["action"].split() == action.split(), (answer, action)
                if len(table.match.deals) > deals and any(
                        w in table.hidden_for(mover) for w in action.split()):
                    ended += 1      # the case: its cards are hidden from it now
                for s in socks.values():
                    s.until(lambda x, v=answer["version"]: x["version"] == v)
            for s in socks.values():
                s.close()
            if ended >= 3:
                break
        assert ended >= 1, "no deal ended on a card hidden from its player next deal"
    assert not [r for r in caplog.records if "redacted" in r.getMessage()]


# ------------------------------------------------------------------ origins
def test_websockets_accept_any_origin_no_longer(tmp_path: Path) -> None:
    """A websocket whose Origin is another site is closed (1008) before it is
    accepted; the served origin (http or https, the Host it came to) and no Origin at
    all are let in."""
    with _client(tmp_path) as c:
        made = create(c)
        tid = made["id"]
        for path in (f"/ws/tables/{tid}", "/ws/lobby", "/ws/playnow/t"):
            for origin in ("http://evil.example", "null", "http://testserver.evil",
                           "https://evil.example"):
                with pytest.raises(WebSocketDisconnect) as closed, \
                        c.websocket_connect(path, headers={"origin": origin}) as ws:
                    ws.receive_json()
                assert closed.value.code == 1008, (path, origin)
        for headers in ({"origin": "http://testserver"}, {"origin": "https://testserver"},
                        {}):
            with c.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
                ws.send_json({"type": "hello", "token": None})
                assert ws.receive_json()["type"] == "welcome"
            with c.websocket_connect("/ws/lobby", headers=headers) as ws:
                assert ws.receive_json()["type"] == "lobby"
        token = sit(c, tid, 1, "Boris")
        sock = Sock(c, tid, token)
        assert sock.seat == 1
        sock.close()
        time.sleep(0)
