"""Accounts: registering, signing in and out, the session cookie, CSRF,
names no guest can take, sign-in limits, and ranks and statistics that belong to accounts
— a guest named like an account never moves its rank."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from argon2 import PasswordHasher, profiles
from fastapi.testclient import TestClient

from koloda.store import Store
from koloda.web.app import create_app
from koloda.web.limits import Limits
from tests.test_store import played
from tests.test_web import Client, Sock, db_url, play

CHEAP = PasswordHasher.from_parameters(profiles.CHEAPEST)
GOOD = "tri-kozyrya-v-rukave"


def client_for(tmp_path: Path, base_url: str = "http://testserver") -> Client:
    app = create_app(db_url(tmp_path), bot_workers=0, bot_delay=0.0, tick=0.05,
                     limits=Limits(messages_per_second=1e6), password_hasher=CHEAP)
    client = Client(app, base_url=base_url)
    client.socks = []
    return client


def register(c: TestClient, name: str, password: str = GOOD) -> dict[str, Any]:
    res = c.post("/api/register", json={"name": name, "password": password})
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def csrf(c: TestClient) -> dict[str, str]:
    token = c.get("/api/me").json()["csrf"]
    assert token
    return {"X-CSRF-Token": token}


def new_table(c: TestClient, name: str, headers: dict[str, str] | None = None,
              players: int = 2) -> Any:
    return c.post("/api/tables", headers=headers or {}, json={
        "game": "durak", "players": players, "seats": [{"kind": "person"}] * players,
        "sit": 0, "name": name})


# -------------------------------------------------------------- register, sign in
def test_register_signs_in_with_an_httponly_samesite_lax_cookie_and_a_hashed_password(
        tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        assert c.get("/api/me").json() == {"account": None, "csrf": None}
        res = c.post("/api/register", json={"name": "Аня", "password": GOOD})
        assert res.status_code == 201, res.text
        cookie = res.headers["set-cookie"]
        assert cookie.startswith("koloda_session=")
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
        me = c.get("/api/me").json()
        assert me["account"]["name"] == "Аня" and me["csrf"]
    store = Store(db_url(tmp_path))
    try:
        found = store.credentials("аня")
        assert found is not None
        _account, digest = found
        assert digest.startswith("$argon2id$") and GOOD not in digest
    finally:
        store.close()


def test_the_session_cookie_is_secure_over_https(tmp_path: Path) -> None:
    with client_for(tmp_path, base_url="https://testserver") as c:
        res = c.post("/api/register", json={"name": "Аня", "password": GOOD})
        assert res.status_code == 201
        assert "Secure" in res.headers["set-cookie"]


def test_sign_out_closes_the_session_and_sign_in_opens_a_new_one(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        register(c, "Boris")
        old = c.cookies.get("koloda_session")
        res = c.post("/api/logout", headers=csrf(c))
        assert res.status_code == 200 and res.json()["account"] is None
        assert c.get("/api/me").json()["account"] is None
        # the old cookie opens nothing any more
        c.cookies.set("koloda_session", old)
        assert c.get("/api/me").json()["account"] is None
        c.cookies.clear()
        res = c.post("/api/login", json={"name": "BORIS", "password": GOOD})
        assert res.status_code == 200, res.text
        assert res.json()["account"]["name"] == "Boris"
        assert c.cookies.get("koloda_session") not in (None, old)


@pytest.mark.parametrize(("password", "said"), [
    ("short", "too short: at least 8"),
    ("Vasilisa", "may not be your name"),
    ("password123", "too easy to guess"),
    ("aaaaaaaaaaaa", "too easy to guess"),
    ("x" * 1100, "at most 1024"),
])
def test_a_weak_password_is_refused_saying_why(tmp_path: Path, password: str,
                                               said: str) -> None:
    with client_for(tmp_path) as c:
        res = c.post("/api/register", json={"name": "Vasilisa", "password": password})
        if len(password) > 1025:      # over the field's size: the request's own check
            assert res.status_code == 422
            return
        assert res.status_code == 400, res.text
        assert said in res.json()["error"] and res.json()["error_ru"]
        assert c.get("/api/me").json()["account"] is None


def test_a_wrong_password_and_an_unknown_name_are_said_alike(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        register(c, "Вера")
        c.cookies.clear()
        res = c.post("/api/login", json={"name": "вера", "password": "not-her-password"})
        assert res.status_code == 401
        assert res.json()["error"] == "wrong name or password"
        assert res.json()["error_ru"] == "неверное имя или пароль"
        res = c.post("/api/login", json={"name": "Глеб", "password": GOOD})
        assert res.status_code == 401
        assert res.json()["error"] == "wrong name or password"
        assert c.get("/api/me").json()["account"] is None


def test_a_registered_name_cannot_be_registered_again_in_another_case_or_form(
        tmp_path: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "Алёна")
    assert decomposed != "Алёна"
    with client_for(tmp_path) as c:
        register(c, "Алёна")
        c.cookies.clear()
        for other in ("АЛЁНА", decomposed, " алёна "):
            res = c.post("/api/register", json={"name": other, "password": GOOD + "!"})
            assert res.status_code == 409, other
            assert "already registered" in res.json()["error"]


def test_an_address_that_fails_a_name_backs_off_from_it(tmp_path: Path) -> None:
    """A few failures cost nothing; then that address waits before trying that name again
    (the right password too: it is the address that failed). Other addresses are not
    touched (tests/test_web_signin_names.py)."""
    with client_for(tmp_path) as c:
        register(c, "Dmitri")
        c.cookies.clear()
        codes = [c.post("/api/login", json={"name": "Dmitri", "password": f"wrong-{i}"})
                 .status_code for i in range(5)]
        assert codes == [401, 401, 401, 429, 429]
        res = c.post("/api/login", json={"name": "Dmitri", "password": GOOD})
        assert res.status_code == 429
        assert int(res.headers["Retry-After"]) >= 1
        assert "try again in" in res.json()["error"]
        assert "попробуйте через" in res.json()["error_ru"]


# ------------------------------------------------------------------------ CSRF
def test_a_cookie_session_request_without_its_csrf_token_is_refused(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        register(c, "Egor")
        res = new_table(c, "Egor")
        assert res.status_code == 403
        assert "X-CSRF-Token" in res.json()["error"]
        res = new_table(c, "Egor", headers={"X-CSRF-Token": "guessed"})
        assert res.status_code == 403
        assert not c.app.state.manager.tables   # type: ignore[attr-defined]
        res = new_table(c, "Egor", headers=csrf(c))
        assert res.status_code == 201, res.text


def test_a_cross_site_post_is_refused(tmp_path: Path) -> None:
    """A form or fetch from another site: its Origin (or Sec-Fetch-Site) gives it away —
    refused with or without a session, before anything is done."""
    with client_for(tmp_path) as c:
        register(c, "Fyodor")
        token = csrf(c)
        evil = {**token, "Origin": "https://evil.example"}
        assert new_table(c, "Fyodor", headers=evil).status_code == 403
        assert new_table(c, "Fyodor", headers={**token, "Sec-Fetch-Site": "cross-site"}
                         ).status_code == 403
        res = c.post("/api/logout", headers=evil)
        assert res.status_code == 403 and res.json()["error"].startswith("refused: this "
                                                                          "request came")
        assert c.get("/api/me").json()["account"]["name"] == "Fyodor"
        c.cookies.clear()     # login CSRF: signing a browser in from elsewhere
        res = c.post("/api/login", headers={"Origin": "https://evil.example"},
                     json={"name": "Fyodor", "password": GOOD})
        assert res.status_code == 403
        assert new_table(c, "Guest", headers={"Origin": "http://testserver"}
                         ).status_code == 201


# ------------------------------------------------------------- names at tables
def test_a_guest_cannot_sit_under_a_registered_name(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        register(c, "Ilya")
        c.cookies.clear()
        for name in ("Ilya", "ILYA", "  ilya "):
            res = new_table(c, name)
            assert res.status_code == 409, name
            assert "belongs to a registered player" in res.json()["error"]
        made = new_table(c, "Kira").json()
        res = c.post(f"/api/tables/{made['id']}/sit", json={"seat": 1, "name": "ilya"})
        assert res.status_code == 409


def test_a_signed_in_player_sits_under_the_accounts_own_name(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        register(c, "Lev")
        made = new_table(c, "someone else", headers=csrf(c)).json()
        (seat, _other) = made["table"]["seats"]
        assert seat["name"] == "Lev" and seat["registered"] is True


def test_a_match_played_signed_in_is_the_accounts_and_a_guests_is_not(
        tmp_path: Path) -> None:
    """Two people play Durak to its end: the account's seat is stored with its account
    (its statistics count it), the guest's by name only."""
    with client_for(tmp_path) as c:
        register(c, "Mila")
        made = new_table(c, "Mila", headers=csrf(c)).json()
        tid = made["id"]
        session = c.cookies.get("koloda_session")
        c.cookies.clear()             # another browser: a guest
        res = c.post(f"/api/tables/{tid}/sit", json={"seat": 1, "name": "Nikita"})
        assert res.status_code == 200, res.text
        token = res.json()["token"]
        c.cookies.set("koloda_session", session)
        socks = {0: Sock(c, tid, made["token"]), 1: Sock(c, tid, token)}
        play(socks, random.Random(3))
        socks[0].until(lambda s: s["game_id"] is not None)
        account_id = c.get("/api/me").json()["account"]["id"]
        stats = c.get("/api/me/stats").json()
        assert stats["name"] == "Mila" and stats["games"][0]["played"] == 1
    store = Store(db_url(tmp_path))
    try:
        (game,) = store.history(account=account_id)
        assert game.names == ["Mila", "Nikita"]
        assert store.stats("Mila") is None          # no name profile for the account
        nikita = store.stats("Nikita")
        assert nikita is not None and nikita.games[0].played == 1
    finally:
        store.close()


# ----------------------------------------------------------------------- ranks
def test_a_guest_named_like_an_account_does_not_move_its_rank(tmp_path: Path) -> None:
    """Anyone could once move another person's rank by typing their name.
    An opendaum-33 match whose seat 0 is merely *named* «Аня» moves no rank of the
    account «Аня» (and makes no profile of that name); played by the account, it does."""
    store = Store(db_url(tmp_path))
    try:
        anya = store.add_account("Аня", CHEAP.hash(GOOD))
        seats = [{"name": "аня", "kind": "human"}, {"name": "Боря", "kind": "human"},
                 {"name": "Вера", "kind": "human"}]
        by_name = store.add_game(played("opendaum-33", 1, seats))
        assert [r.player for r in by_name.rank_changes] == ["Боря", "Вера"]
        account = store.account(anya.id)
        assert account is not None and account.rank is None
        assert store.stats("аня") is None and store.rank_of("аня") is None
        stats = store.account_stats(anya.id)
        assert stats is not None and stats.games == [] and stats.rank_history == []
        # the same seat played by the account, in another match
        record = played("opendaum-33", 2, [{"name": "Аня", "kind": "human"}, *seats[1:]])
        mine = store.add_game(record, accounts={0: anya.id})
        assert mine.rank_changes[0].player == "Аня"
        account = store.account(anya.id)
        assert account is not None and account.rank == mine.rank_changes[0].after
        stats = store.account_stats(anya.id)
        assert stats is not None and stats.games[0].played == 1
        assert len(stats.rank_history) == 1
    finally:
        store.close()


def test_an_account_is_never_given_to_a_computer_seat(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path))
    try:
        anya = store.add_account("Аня", CHEAP.hash(GOOD))
        record = played("durak", 1, [{"name": "Аня", "kind": "human"},
                                     {"name": "Bot", "kind": "bot", "bot": "random"}])
        with pytest.raises(Exception, match="computer's"):
            store.add_game(record, accounts={1: anya.id})
        with pytest.raises(Exception, match="no account 99"):
            store.add_game(record, accounts={0: 99})
    finally:
        store.close()


def test_an_older_store_gets_the_account_column(tmp_path: Path) -> None:
    """A database made before accounts (its seats without account_id) opens and stores."""
    import sqlite3
    with sqlite3.connect(tmp_path / "koloda.db") as con:
        con.execute("CREATE TABLE seats (id INTEGER PRIMARY KEY, game_id INTEGER, "
                    "seat INTEGER, name VARCHAR(200), kind VARCHAR(20), bot VARCHAR(60), "
                    "player_id INTEGER, score FLOAT, outcome VARCHAR(10))")
    store = Store(db_url(tmp_path))
    try:
        anya = store.add_account("Аня", CHEAP.hash(GOOD))
        store.add_game(played("durak", 2, [{"name": "Аня", "kind": "human"},
                                           {"name": "B", "kind": "human"}]),
                       accounts={0: anya.id})
        stats = store.account_stats(anya.id)
        assert stats is not None and stats.games[0].played == 1
    finally:
        store.close()


def test_a_seat_taken_signed_in_stays_the_accounts_after_a_restart(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        register(c, "Olga")
        made = new_table(c, "Olga", headers=csrf(c)).json()
        account_id = c.get("/api/me").json()["account"]["id"]
    with client_for(tmp_path) as c:
        table = c.app.state.manager.get(made["id"])  # type: ignore[attr-defined]
        assert table is not None
        assert [s.account_id for s in table.seats] == [account_id, None]
        assert c.get(f"/api/tables/{made['id']}").json()["seats"][0]["registered"] is True


def test_an_account_counts_its_connections_from_every_address(tmp_path: Path,
                                                              monkeypatch: Any) -> None:
    """Connections are limited per address and per account: signed in, a person opening
    websockets from ever new addresses still has ``connections_per_client`` at most; a
    guest on those addresses is not held back by the account's count."""
    import koloda.web.table_routes as web_routes
    addresses = (f"10.0.2.{i}" for i in range(1000))
    monkeypatch.setattr(web_routes, "_client", lambda conn: next(addresses))
    app = create_app(db_url(tmp_path), bot_workers=0, bot_delay=0.0, tick=0.05,
                     limits=Limits(messages_per_second=1e6, connections_per_client=2),
                     password_hasher=CHEAP)
    with Client(app, base_url="http://testserver") as c:
        c.socks = []
        register(c, "Аня")
        tid = new_table(c, "Аня", csrf(c)).json()["id"]
        socks = [Sock(c, tid, None) for _ in range(2)]
        extra = Sock(c, tid, None, hello=False)
        msg = extra.recv()
        assert msg["code"] == "too_many_connections", msg
        extra.close()
        c.post("/api/logout", headers=csrf(c))
        guest = Sock(c, tid, None)             # a guest from a new address: room
        assert guest.state is not None
        for s in socks:
            s.close()
