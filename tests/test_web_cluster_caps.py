"""A client's caps (tables in play, websockets open) with ``--redis`` are the cluster's,
not a server's: two servers on one Redis and one database count one share (another
database on the same Redis counts its own), a table counted out by a server
that never saw it made, a dead server's websockets stop counting by themselves. Alone on
SQLite, a restarted server counts the tables it resumed."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from koloda.web.app import create_app
from koloda.web.client_counts import RedisCounts
from koloda.web.limits import Limits

REDIS = os.environ.get("KOLODA_TEST_REDIS")
TWO = [{"kind": "person"}, {"kind": "person"}]
CAPS = Limits(tables_per_client=2, connections_per_client=2)


def _address() -> str:
    """An address of this run's own (the Redis may serve other runs at the same time)."""
    return ".".join(["10", *(str(secrets.randbelow(250)) for _ in range(3))])


def _need_redis() -> str:
    if not REDIS:
        pytest.skip("needs KOLODA_TEST_REDIS (redis://…); .ci/run starts Redis")
    pytest.importorskip("redis")
    return REDIS


@contextmanager
def _apps(tmp_path: Path, address: str, count: int, redis: str | None, first: int = 0,
          db: str | None = None) -> Iterator[list[TestClient]]:
    with ExitStack() as stack:
        yield [stack.enter_context(TestClient(
            create_app(f"sqlite:///{tmp_path / (db or f'web{first + i}.db')}",
                       bot_workers=0, use_store=False, redis_url=redis, limits=CAPS),
            client=(address, 4000 + i))) for i in range(count)]


def _create(c: TestClient) -> int:
    return c.post("/api/tables", json={"game": "durak", "players": 2,
                                       "seats": TWO}).status_code


@pytest.mark.cluster
def test_two_servers_on_one_redis_count_one_share_of_tables_per_client(
        tmp_path: Path) -> None:
    address = _address()
    with _apps(tmp_path, address, 2, _need_redis(), db="shared.db") as (one, two):
        assert [_create(one), _create(two)] == [201, 201]
        refused = one.post("/api/tables", json={"game": "durak", "players": 2,
                                                "seats": TWO})
        assert refused.status_code == 429
        assert "you have 2 tables in play" in refused.json()["error"]
        assert _create(two) == 429
    with _apps(tmp_path, _address(), 1, REDIS, db="shared.db") as (other,):
        assert _create(other) == 201               # another address has its own share
    with _apps(tmp_path, address, 1, REDIS, db="elsewhere.db") as (elsewhere,):
        assert _create(elsewhere) == 201           # another database: its own counts


@pytest.mark.cluster
def test_a_table_leaving_play_frees_its_owners_share_whichever_server_sees_it() -> None:
    redis = _need_redis()
    owner = _address()

    async def go() -> None:
        maker, other = RedisCounts(redis), RedisCounts(redis)
        try:
            for tid in ("t1", "t2"):
                full, reservation = await maker.reserve((owner,), 2)
                assert full is None
                await maker.opened(f"{owner}-{tid}", (owner,))
                await maker.release((owner,), reservation)
            assert await maker.count("tables", owner) == 2
            assert (await other.reserve((owner,), 2))[0] == 0      # full, from any server
            # the other server took the table over: it knows no owners, Redis does
            await other.left_play(f"{owner}-t1", ())
            await other.left_play(f"{owner}-t1", ())              # twice is nothing
            assert await maker.count("tables", owner) == 1
            full, reservation = await other.reserve((owner,), 2)
            assert full is None
            assert await maker.count("creating", owner) == 1
            await other.release((owner,), reservation)
            assert await maker.count("creating", owner) == 0
        finally:
            await maker.close()
            await other.close()
    asyncio.run(go())


@pytest.mark.cluster
def test_two_servers_on_one_redis_count_one_share_of_websockets_per_client(
        tmp_path: Path) -> None:
    address = _address()
    with _apps(tmp_path, address, 2, _need_redis(), db="shared.db") as (one, two):
        with one.websocket_connect("/ws/lobby") as first, \
                two.websocket_connect("/ws/lobby") as second:
            for sock in (first, second):        # counted once its first page came
                assert sock.receive_json()["type"] == "lobby"
            with one.websocket_connect("/ws/lobby") as third:
                refusal = third.receive_json()
                assert refusal["code"] == "too_many_connections"
                assert "at most 2" in refusal["reason"]
                with pytest.raises(WebSocketDisconnect):
                    third.receive_json()
        # both closed: their places are free again on either server
        with one.websocket_connect("/ws/lobby") as again:
            assert again.receive_json()["type"] == "lobby"


@pytest.mark.cluster
def test_a_dead_servers_websockets_stop_counting_and_a_live_ones_are_renewed() -> None:
    redis = _need_redis()
    owner = _address()

    async def go() -> None:
        dead = RedisCounts(redis, conn_ttl=1)
        live = RedisCounts(redis, conn_ttl=1, conn_renew=0.2)
        await live.start()
        try:
            assert await dead.connect((owner,), 2) is not None
            assert await live.connect((owner,), 2) is not None
            assert await live.connect((owner,), 2) is None          # 2 open: full
            await dead.close()           # dies without saying its connection closed
            await asyncio.sleep(1.6)
            # the dead one's ran out; the live one's was renewed all along
            assert await live.count("conns", owner) == 1
            assert await live.connect((owner,), 2) is not None
        finally:
            await live.close()
    asyncio.run(go())


def test_alone_a_restarted_server_counts_the_tables_it_resumed(tmp_path: Path) -> None:
    with _apps(tmp_path, "10.0.0.7", 1, None, db="one.db") as (one,):
        assert [_create(one), _create(one), _create(one)] == [201, 201, 429]
    with _apps(tmp_path, "10.0.0.7", 1, None, db="one.db") as (again,):
        assert _create(again) == 429               # the two in play still count
    with _apps(tmp_path, "10.0.0.8", 1, None, db="one.db") as (other,):
        assert _create(other) == 201
