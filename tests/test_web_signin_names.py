"""Sign-in that cannot be turned against a name's owner (backoff per name and address, kept
in the database), and names that cannot pass for blank or for someone else (PRECIS
UsernameCaseMapped by userparts, and the confusables skeleton kept unique by the store)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
pytest.importorskip("precis_i18n")

from argon2 import PasswordHasher, profiles
from sqlalchemy import create_engine, text

from koloda.store import NameTaken, Store
from koloda.store.skeleton import skeleton
from koloda.web import accounts as accounts_module
from koloda.web.accounts import FREE_PAIR, Accounts, AuthError
from koloda.web.app import create_app
from koloda.web.limits import Limits
from tests.test_web import Client, db_url
from tests.test_web_accounts import new_table, register

CHEAP = PasswordHasher.from_parameters(profiles.CHEAPEST)
GOOD = "tri-kozyrya-v-rukave"

#: names that show as blank, as nothing, or as another name
BLANK_OR_STYLED = ["\u3164", "\u2800", "\u115f\u1160", "\u034f", "\u0301", "\U0001d415ера",
                   "\U0001d415\U0001d41e\U0001d42b\U0001d41a"]
#: names that look like «Vera»: Cyrillic е, full-width V, upper case Cyrillic
LOOK_LIKE_VERA = ["Vеra", "Ｖera", "VЕRA", "vera"]


class Clock:
    """The accounts' clock, moved by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.now

    def pass_(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(accounts_module, "_now", c)
    return c


def accounts_on(tmp_path: Path) -> Accounts:
    return Accounts(db_url(tmp_path), hasher=CHEAP)


def refused_wait(accounts: Accounts, name: str, password: str, client: str) -> float:
    """The backoff a sign-in is refused with (it must be refused with 429)."""
    with pytest.raises(AuthError) as err:
        accounts.login(name, password, client)
    assert err.value.status == 429, str(err.value)
    assert err.value.retry_after is not None
    return float(err.value.retry_after)


def fail_once(accounts: Accounts, clock: Clock, name: str, client: str) -> None:
    """One wrong password from ``client``, after waiting out whatever it must wait."""
    while True:
        try:
            accounts.login(name, "not-the-password", client)
        except AuthError as err:
            if err.status == 429:
                assert err.retry_after is not None
                clock.pass_(err.retry_after + 0.001)
                continue
            assert err.status == 401
            return
        raise AssertionError("a wrong password signed in")


def client_for(tmp_path: Path, address: str = "testclient") -> Client:
    app = create_app(db_url(tmp_path), bot_workers=0, bot_delay=0.0, tick=0.05,
                     limits=Limits(messages_per_second=1e6), password_hasher=CHEAP)
    client = Client(app, client=(address, 50000))
    client.socks = []
    return client


# ------------------------------------------------------------------------ sign-in
def test_the_owner_signs_in_from_a_clean_address_after_50_failures_from_another(
        tmp_path: Path, clock: Clock) -> None:
    accounts = accounts_on(tmp_path)
    accounts.register("Dmitri", GOOD)
    for _ in range(50):
        fail_once(accounts, clock, "Dmitri", "203.0.113.9")
    assert refused_wait(accounts, "Dmitri", GOOD, "203.0.113.9") > 0
    account, token = accounts.login("Dmitri", GOOD, "198.51.100.7")
    assert account.name == "Dmitri" and token
    accounts.close()


def test_one_wrong_try_a_minute_from_elsewhere_never_locks_the_owner_out(
        tmp_path: Path, clock: Clock) -> None:
    accounts = accounts_on(tmp_path)
    accounts.register("Dmitri", GOOD)
    for i in range(30):
        fail_once(accounts, clock, "Dmitri", f"203.0.113.{i % 5}")
        clock.pass_(60)
        accounts.login("Dmitri", GOOD, "198.51.100.7")
    accounts.close()


def test_the_failing_address_backs_off_with_growing_waits(tmp_path: Path,
                                                          clock: Clock) -> None:
    accounts = accounts_on(tmp_path)
    accounts.register("Dmitri", GOOD)
    for _ in range(FREE_PAIR - 1):
        fail_once(accounts, clock, "Dmitri", "203.0.113.9")
    waits = []
    for _ in range(6):
        fail_once(accounts, clock, "Dmitri", "203.0.113.9")
        waits.append(refused_wait(accounts, "Dmitri", GOOD, "203.0.113.9"))
    assert all(later > 1.9 * earlier
               for earlier, later in zip(waits, waits[1:], strict=False)), waits
    # and the backoff is no lockout: once waited out, the right password works
    clock.pass_(waits[-1] + 0.001)
    accounts.login("Dmitri", GOOD, "203.0.113.9")
    # which forgets that pair's failures: the next wrong password costs nothing again
    fail_once(accounts, clock, "Dmitri", "203.0.113.9")
    accounts.login("Dmitri", GOOD, "203.0.113.9")
    accounts.close()


def test_the_backoff_survives_a_new_accounts_on_the_same_database(
        tmp_path: Path, clock: Clock) -> None:
    first = accounts_on(tmp_path)
    first.register("Dmitri", GOOD)
    for _ in range(FREE_PAIR + 2):
        fail_once(first, clock, "Dmitri", "203.0.113.9")
    wait = refused_wait(first, "Dmitri", GOOD, "203.0.113.9")
    first.close()
    second = accounts_on(tmp_path)
    assert refused_wait(second, "Dmitri", GOOD, "203.0.113.9") == pytest.approx(wait)
    second.close()


def test_the_backoff_survives_a_server_restart_and_spares_other_addresses(
        tmp_path: Path) -> None:
    with client_for(tmp_path, "203.0.113.9") as c:
        register(c, "Dmitri")
        c.cookies.clear()
        codes = [c.post("/api/login", json={"name": "Dmitri", "password": f"w-{i}"})
                 .status_code for i in range(FREE_PAIR + 1)]
        assert codes == [401] * FREE_PAIR + [429]
    with client_for(tmp_path, "203.0.113.9") as c:
        res = c.post("/api/login", json={"name": "Dmitri", "password": GOOD})
        assert res.status_code == 429 and int(res.headers["Retry-After"]) >= 1
        assert res.json()["error"].startswith("too many sign-in attempts")
        assert res.json()["error_ru"].startswith("слишком много попыток входа")
    with client_for(tmp_path, "198.51.100.7") as c:
        res = c.post("/api/login", json={"name": "Dmitri", "password": GOOD})
        assert res.status_code == 200, res.text
        assert res.json()["account"]["name"] == "Dmitri"


def test_old_failures_are_forgotten(tmp_path: Path, clock: Clock) -> None:
    accounts = accounts_on(tmp_path)
    accounts.register("Dmitri", GOOD)
    for _ in range(FREE_PAIR + 3):
        fail_once(accounts, clock, "Dmitri", "203.0.113.9")
    clock.pass_(accounts_module.FORGET_AFTER.total_seconds() + 1)
    fail_once(accounts, clock, "Dmitri", "198.51.100.7")     # drops the old rows
    with accounts.store.engine.connect() as conn:
        rows = conn.execute(text("SELECT COUNT(*) FROM web_signin_failures")).scalar()
    assert rows == 2          # the new pair's and the new address's only
    accounts.login("Dmitri", GOOD, "203.0.113.9")
    accounts.close()


def test_an_unknown_name_and_a_wrong_password_answer_the_same(tmp_path: Path) -> None:
    def answer(c: Client, name: str) -> tuple[int, Any, str | None]:
        res = c.post("/api/login", json={"name": name, "password": "not-her-password"})
        return res.status_code, res.json(), res.headers.get("Retry-After")

    with client_for(tmp_path, "203.0.113.1") as c:
        register(c, "Vera")
        c.cookies.clear()
    with client_for(tmp_path, "203.0.113.2") as known, \
            client_for(tmp_path, "203.0.113.3") as unknown:
        for _ in range(FREE_PAIR + 1):
            assert answer(known, "Vera")[:2] == answer(unknown, "Nobody")[:2]
        status, said, retry = answer(known, "Vera")
        assert (status, said["error"]) == (429, "too many sign-in attempts; try again in 1 s")
        assert retry == answer(unknown, "Nobody")[2]


# -------------------------------------------------------------------------- names
@pytest.mark.parametrize("name", BLANK_OR_STYLED)
def test_a_blank_or_styled_name_is_refused_for_an_account_and_a_guest(
        tmp_path: Path, name: str) -> None:
    with client_for(tmp_path) as c:
        res = c.post("/api/register", json={"name": name, "password": GOOD})
        assert res.status_code == 400, name
        said = res.json()
        assert any(why in said["error"] for why in (
            "shows as blank", "combining mark", "styled or compatibility")), said
        assert said["error_ru"].startswith("имя:")
        seat = new_table(c, name)
        assert seat.status_code == 400
        assert seat.json() == said


@pytest.mark.parametrize("name", LOOK_LIKE_VERA)
def test_a_name_like_the_registered_vera_is_refused_for_an_account_and_a_guest(
        tmp_path: Path, name: str) -> None:
    with client_for(tmp_path) as c:
        register(c, "Vera")
        c.cookies.clear()
        res = c.post("/api/register", json={"name": name, "password": GOOD + "!"})
        assert res.status_code == 409, name
        seat = new_table(c, name)
        assert seat.status_code == 409
        if name.casefold() == "vera" or name == "Ｖera":      # the same name
            assert "already registered" in res.json()["error"]
            assert "belongs to a registered player" in seat.json()["error"]
        else:
            assert "looks like the registered name Vera" in res.json()["error"], res.json()
            assert "похоже на зарегистрированное имя" in res.json()["error_ru"]
            assert "looks like the registered name" in seat.json()["error"]


def test_cyrillic_latin_and_spaced_names_work(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        for name in ("Вера", "Аня", "Пётр", "Anna Maria", "Иван 2"):
            assert register(c, name)["account"]["name"] == name
            c.cookies.clear()
        for guest in ("Глеб", "Maria Anna", "bob_7", "Ёлка"):
            res = new_table(c, guest)
            assert res.status_code == 201, res.text


def test_a_full_width_name_is_shown_in_ordinary_letters(tmp_path: Path) -> None:
    with client_for(tmp_path) as c:
        assert register(c, "Ｋira")["account"]["name"] == "Kira"


def test_the_store_refuses_a_second_account_with_the_same_skeleton(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path))
    store.add_account("Vera", "x")
    with pytest.raises(NameTaken) as taken:
        store.add_account("Vеra", "x")
    assert taken.value.like == "Vera"
    assert store.account_like("VЕRA") == "Vera" and store.account_like("Vlad") is None
    store.close()


def test_accounts_made_before_skeletons_get_theirs_on_start(tmp_path: Path) -> None:
    """A store made before the column: the column is added, every account gets its
    skeleton, two old look-alikes both keep their accounts, and the index holds."""
    url = db_url(tmp_path)
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_accounts_skeleton"))
        conn.execute(text("ALTER TABLE accounts DROP COLUMN skeleton"))
        for i, name in enumerate(("Vera", "Vеra", "Пётр"), 1):
            conn.execute(text("INSERT INTO accounts (id, name, key, password_hash, created) "
                              "VALUES (:i, :n, :k, 'x', '2025-01-01 00:00:00')"),
                         {"i": i, "n": name, "k": name.casefold()})
    engine.dispose()
    store = Store(url)
    with store.engine.connect() as conn:
        got = dict(conn.execute(text("SELECT name, skeleton FROM accounts")).all())
    assert got["Vera"] == skeleton("Vera") and got["Пётр"] == skeleton("Пётр")
    assert got["Vеra"] == skeleton("Vera") + "\n2"
    with pytest.raises(NameTaken):
        store.add_account("VERA", "x")
    store.close()


# ------------------------------------------------------- SQLite and PostgreSQL alike
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.cluster)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield db_url(tmp_path)
        return
    pg = os.environ.get("KOLODA_TEST_PG")
    if not pg:
        pytest.skip("needs KOLODA_TEST_PG (postgresql://…); .ci/run starts it")
    pytest.importorskip("psycopg")
    from tests.test_web_cluster import _drop_pg_database, _new_pg_database
    url, name = _new_pg_database(pg)
    try:
        yield url
    finally:
        _drop_pg_database(pg, name)


def test_two_servers_on_one_database_share_the_backoff_and_the_skeletons(
        database: str, clock: Clock) -> None:
    one, two = Accounts(database, hasher=CHEAP), Accounts(database, hasher=CHEAP)
    one.register("Vera", GOOD)
    with pytest.raises(AuthError) as taken:
        two.register("Vеra", GOOD + "!")
    assert "looks like the registered name Vera" in str(taken.value)
    for i in range(FREE_PAIR + 2):
        fail_once(one if i % 2 else two, clock, "Vera", "203.0.113.9")
    assert refused_wait(one, "Vera", GOOD, "203.0.113.9") == \
        refused_wait(two, "Vera", GOOD, "203.0.113.9") > 1
    two.login("Vera", GOOD, "198.51.100.7")
    one.close()
    two.close()
