"""Many ``koloda serve`` processes on one PostgreSQL and one Redis play as one server.

Real processes on loopback ports, real websocket clients. With ``KOLODA_TEST_PG`` (a
PostgreSQL URL whose user may create databases) and ``KOLODA_TEST_REDIS`` set (``.ci/run``
sets both), the ``cluster`` cases run two or three servers; without them they are skipped
saying so. The ``sqlite`` cases run the same tests on one process and its SQLite file (the
default), a kill being followed by a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.cluster

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parents[1]
PG = os.environ.get("KOLODA_TEST_PG")
REDIS = os.environ.get("KOLODA_TEST_REDIS")
#: a server killed with SIGKILL: its tables go on on another within this many seconds
TAKEOVER = 10.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``koloda serve`` process."""

    def __init__(self, db: str, redis: str | None, log: Path,
                 extra: tuple[str, ...] = ()) -> None:
        self.db, self.redis, self.log = db, redis, log
        #: more options of ``koloda serve`` (behind a proxy: its origin)
        self.extra = extra
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        return self.spawn().ready()

    def spawn(self) -> Server:
        args = [sys.executable, "-c", "from koloda.cli.main import app; app()", "serve",
                "--port", str(self.port), "--db", self.db, "--bot-workers", "0",
                "--bot-delay", "0.05", "--log-level", "warning"]
        if self.redis:
            args += ["--redis", self.redis]
        args += list(self.extra)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(args, env=env, stdout=out, stderr=out)
        return self

    def ready(self) -> Server:
        assert self.proc is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server ended: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.http}/api/stats", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@dataclass
class Servers:
    """The servers one test runs on, however many the backend gives."""

    backend: str
    servers: list[Server]

    def __getitem__(self, i: int) -> Server:
        """The i-th server; one process alone serves every index."""
        return self.servers[i % len(self.servers)]

    def after_kill(self, i: int) -> Server:
        """Where people go once server ``i`` was killed: another server, or the same
        one restarted (one process alone)."""
        if len(self.servers) == 1:
            return self.servers[0].start()
        return self.servers[(i + 1) % len(self.servers)]


def _new_pg_database(url: str) -> tuple[str, str]:
    """A fresh database beside ``url``'s (its URL, and its name to drop it)."""
    import psycopg
    name = f"koloda_t_{secrets.token_hex(4)}"
    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = plain.rpartition("/")
    return f"{base}/{name}", name


def _drop_pg_database(url: str, name: str) -> None:
    import psycopg
    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with contextlib.suppress(Exception), psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["cluster", "sqlite"])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Servers]:
    count = getattr(request, "param_count", 3)
    if request.param == "cluster":
        if not (PG and REDIS):
            pytest.skip("many servers need KOLODA_TEST_PG (postgresql://…) and "
                        "KOLODA_TEST_REDIS (redis://…); .ci/run starts both")
        pytest.importorskip("psycopg")
        pytest.importorskip("redis")
        db, name = _new_pg_database(PG)
        made = [Server(db, REDIS, tmp_path / f"server{i}.log") for i in range(count)]
    else:
        db, name = f"sqlite:///{tmp_path / 'web.db'}", ""
        made = [Server(db, None, tmp_path / "server.log")]
    try:
        for s in made:          # started together, waited for together
            s.spawn()
        for s in made:
            s.ready()
        yield Servers(request.param, made)
    finally:
        for s in made:
            s.stop()
            print(f"--- {s.log.name} (port {s.port})\n{s.log.read_text(errors='replace')[-3000:]}")
        if name:
            assert PG is not None
            _drop_pg_database(PG, name)
    for s in made:              # nothing went wrong inside them either
        logged = s.log.read_text(errors="replace")
        assert not any(bad in logged for bad in ("Traceback", "ERROR", "Warning:")), \
            logged[-3000:]


# ------------------------------------------------------------------ clients
@dataclass
class Person:
    """A seat's player: random legal moves; remembers every action acknowledged."""

    table: str
    token: str | None
    seed: int
    #: (index, action) of every ``ok``
    acked: list[tuple[int, str]] = field(default_factory=list)
    version: int = 0
    over: bool = False
    #: monotonic time of each new version seen
    seen: list[tuple[float, int]] = field(default_factory=list)
    #: the version of the first state of the latest connection
    welcome: int | None = None

    async def play(self, base: str, until: float, stop_at_version: int | None = None
                   ) -> None:
        """Play on ``base``'s server until the match ends, ``stop_at_version`` is
        reached or the time is up (then it fails)."""
        rng = random.Random(self.seed + self.version)
        async with websockets.connect(f"{base}/ws/tables/{self.table}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            acted = -1
            sent = ""
            self.welcome = None
            while True:
                left = until - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"table {self.table}: not over in time, "
                                         f"at version {self.version}")
                msg = json.loads(await asyncio.wait_for(ws.recv(), left))
                if msg["type"] == "ok":
                    self.acked.append((msg["version"] - 1, msg["action"]))
                elif msg["type"] == "refused" and msg["code"] == "rate_limited":
                    # two people on one address, playing at machine speed: the server
                    # did not read it, so it is sent again a moment later, as a page does
                    await asyncio.sleep(0.25)
                    await ws.send(sent)
                elif msg["type"] == "refused":
                    assert msg["code"] in ("stale", "not_your_turn"), msg
                    acted = -1          # the next state says what to do
                elif msg["type"] == "state":
                    if self.welcome is None:
                        self.welcome = msg["version"]
                    if msg["version"] > self.version:
                        self.seen.append((time.monotonic(), msg["version"]))
                    self.version = max(self.version, msg["version"])
                    if msg["view"]["match_over"]:
                        self.over = True
                        return
                    if stop_at_version is not None and self.version >= stop_at_version:
                        return
                    if msg["legal"] and msg["version"] != acted:
                        acted = msg["version"]
                        sent = json.dumps({
                            "type": "act", "version": msg["version"],
                            "action": rng.choice(msg["legal"]), "id": msg["version"]})
                        await ws.send(sent)


def _create(server: Server, seats: list[dict[str, Any]], players: int) -> tuple[str, str]:
    made = httpx.post(f"{server.http}/api/tables", json={
        "game": "durak", "players": players, "seats": seats, "sit": 0, "name": "Anna",
        "settings": {"away_policy": "wait"}}, timeout=10)
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["token"]


def _record(server: Server, table: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while True:
        res = httpx.get(f"{server.http}/api/tables/{table}/record", timeout=10)
        if res.status_code == 200 or time.monotonic() > deadline:
            assert res.status_code == 200, res.text
            return dict(res.json())
        time.sleep(0.1)      # this server's copy has not heard of the end yet


def _assert_nothing_lost(record: dict[str, Any], *people: Person) -> None:
    actions = [(a["seat"], a["action"]) for a in record["actions"]]
    for p in people:
        for index, action in p.acked:
            assert index < len(actions) and actions[index][1] == action, \
                f"acknowledged action {index} ({action}) not in the record"


# -------------------------------------------------------------------- tests
def test_people_connected_to_different_servers_play_one_table_to_the_end(
        servers: Servers) -> None:
    table, token0 = _create(servers[0], [{"kind": "person"}] * 2, 2)
    sat = httpx.post(f"{servers[1].http}/api/tables/{table}/sit",
                     json={"seat": 1, "name": "Boris"}, timeout=10)
    assert sat.status_code == 200, sat.text
    anna = Person(table, token0, 1)
    boris = Person(table, sat.json()["token"], 2)
    watcher = Person(table, None, 3)
    until = time.monotonic() + 90

    async def play() -> None:
        await asyncio.gather(anna.play(servers[0].ws, until), boris.play(servers[1].ws, until),
                             watcher.play(servers[2].ws, until))
    asyncio.run(play())
    assert anna.over and boris.over and watcher.over
    records = [_record(servers[i], table) for i in range(3)]
    assert records[0]["actions"] == records[1]["actions"] == records[2]["actions"]
    assert anna.version == boris.version == watcher.version == len(records[0]["actions"])
    assert {a["seat"] for a in records[0]["actions"]} == {0, 1}
    _assert_nothing_lost(records[0], anna, boris)


def test_a_server_killed_mid_game_its_tables_and_computers_go_on_elsewhere_nothing_lost(
        servers: Servers) -> None:
    seats = [{"kind": "person"}, {"kind": "computer", "bot": "random"},
             {"kind": "computer", "bot": "random"}]
    table, token = _create(servers[0], seats, 3)      # server 0 drives its computers
    anna = Person(table, token, 7)
    until = time.monotonic() + 120
    # mid-game: some moves of Anna's and the computers' made and acknowledged
    asyncio.run(anna.play(servers[0].ws, until, stop_at_version=12))
    assert not anna.over and len(anna.acked) >= 1
    before = anna.version
    servers[0].kill()
    killed_at = time.monotonic()
    elsewhere = servers.after_kill(0)
    reconnected = len(anna.seen)
    asyncio.run(anna.play(elsewhere.ws, until))
    assert len(anna.seen) > reconnected
    assert anna.over
    record = _record(elsewhere, table)
    _assert_nothing_lost(record, anna)
    actions = record["actions"]
    assert len(actions) == anna.version and len(actions) > before
    # the computers went on after the kill, and soon enough
    assert any(a["seat"] != 0 for a in actions[before:]), "no computer moved after the kill"
    mine = {i for i, _ in anna.acked}
    # a computer's move made after the kill: after the state the other server first
    # showed (which may hold moves the killed server stored before it died)
    after = max(before, anna.welcome or 0)
    first_computer = next(t for t, v in anna.seen if v > after and v - 1 not in mine)
    assert first_computer - killed_at < TAKEOVER, \
        f"the computers waited {first_computer - killed_at:.1f} s after the kill"


# ------------------------------------------- two servers on one database, in one process
def test_two_servers_never_both_accept_a_move_at_one_index_the_loser_catches_up_stale(
        tmp_path: Path) -> None:
    """The database decides: both copies of a table take an action at version 0; the
    second server's insert at that index is refused, it reloads the table from the
    database and refuses its own action as stale (the same path PostgreSQL takes)."""
    from koloda.web.protocol import Refusal
    from koloda.web.tables import TableManager

    async def scenario() -> None:
        url = f"sqlite:///{tmp_path / 'shared.db'}"
        first = TableManager(url, bot_workers=0, use_store=False)
        second = TableManager(url, bot_workers=0, use_store=False)
        await first.start()
        await second.start()
        try:
            table, _, _ = await first.create("durak", 2, {}, [{"kind": "person"}] * 2,
                                             "Anna", 0, {"away_policy": "wait"})
            copy = await second.find(table.id)
            assert copy is not None and copy is not table and copy.version == 0
            legal = table.match.legal_actions()
            mover = table.match.to_move
            assert mover is not None
            won = await first.submit(table, mover, 0, legal[0])
            assert won == legal[0]
            lost = await second.submit(copy, mover, 0, legal[-1])
            assert isinstance(lost, Refusal) and lost.code == "stale"
            assert copy.version == 1 and copy.match.history == table.match.history
            assert second.conflicts == 1
        finally:
            await first.stop()
            await second.stop()
    asyncio.run(scenario())


def test_serve_with_redis_but_not_postgresql_says_what_is_missing() -> None:
    from typer.testing import CliRunner

    from koloda.cli.main import app
    runner = CliRunner()
    res = runner.invoke(app, ["serve", "--redis", "redis://127.0.0.1:1/0"])
    assert res.exit_code != 0 and "--redis needs --db postgresql://" in res.output
    res = runner.invoke(app, ["serve", "--db", "postgresql://x/y", "--redis", "http://r"])
    assert res.exit_code != 0 and "--redis must be a redis:// URL" in res.output


def test_a_server_with_nobody_at_a_table_leaves_its_moves_to_the_database_and_reads_it_back(
        servers: Servers) -> None:
    """Server 2 has no connection to the table and no lease: it does not replay the
    other servers' moves (the database has them); a watcher coming to it mid-game is shown
    the table as it stands, and follows it live to the end."""
    if servers.backend == "sqlite":
        pytest.skip("one process alone holds every table and every connection")

    def cold_news(server: Server) -> int:
        return int(httpx.get(f"{server.http}/api/stats", timeout=10)
                   .json()["cluster"]["news_left_cold"])
    before = cold_news(servers[2])
    table, token0 = _create(servers[0], [{"kind": "person"}] * 2, 2)
    sat = httpx.post(f"{servers[1].http}/api/tables/{table}/sit",
                     json={"seat": 1, "name": "Boris"}, timeout=10)
    assert sat.status_code == 200, sat.text
    anna = Person(table, token0, 11)
    boris = Person(table, sat.json()["token"], 12)
    until = time.monotonic() + 90

    async def first_moves() -> None:
        await asyncio.gather(anna.play(servers[0].ws, until, stop_at_version=12),
                             boris.play(servers[1].ws, until, stop_at_version=12))
    asyncio.run(first_moves())
    assert cold_news(servers[2]) - before >= 10          # left to the database there
    described = httpx.get(f"{servers[2].http}/api/tables/{table}", timeout=10).json()
    assert described["version"] >= anna.version           # read back for the request
    watcher = Person(table, None, 13)

    async def to_the_end() -> None:
        await asyncio.gather(anna.play(servers[0].ws, until), boris.play(servers[1].ws, until),
                             watcher.play(servers[2].ws, until))
    asyncio.run(to_the_end())
    assert watcher.welcome is not None and watcher.welcome >= 12
    assert anna.over and boris.over and watcher.over
    records = [_record(servers[i], table) for i in range(3)]
    assert records[0]["actions"] == records[1]["actions"] == records[2]["actions"]
    assert watcher.version == anna.version == len(records[0]["actions"])
    _assert_nothing_lost(records[0], anna, boris)
