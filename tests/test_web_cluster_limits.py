"""The rate limits with ``--redis`` are the cluster's, not a process's: two servers on one
Redis share a client's budget, and a server started afresh finds what was spent. Without
Redis (one server on SQLite) each process counts in its own memory."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from koloda.web.app import create_app
from koloda.web.limits import Limits

REDIS = os.environ.get("KOLODA_TEST_REDIS")
TWO = [{"kind": "person"}, {"kind": "person"}]


@contextmanager
def _apps(tmp_path: Path, address: str, count: int, redis: str | None,
          first: int = 0) -> Iterator[list[TestClient]]:
    """``count`` servers (each its own SQLite file, so only Redis joins them), seen from
    ``address``."""
    with ExitStack() as stack:
        yield [stack.enter_context(TestClient(
            create_app(f"sqlite:///{tmp_path / f'web{first + i}.db'}", bot_workers=0,
                       use_store=False, redis_url=redis,
                       limits=Limits(creations_per_minute=3)),
            client=(address, 4000 + i))) for i in range(count)]


def _create(c: TestClient) -> int:
    return c.post("/api/tables", json={"game": "durak", "players": 2,
                                       "seats": TWO}).status_code


@pytest.mark.cluster
def test_two_servers_on_one_redis_share_a_clients_budget_and_a_restart_keeps_it(
        tmp_path: Path) -> None:
    if not REDIS:
        pytest.skip("needs KOLODA_TEST_REDIS (redis://…); .ci/run starts Redis")
    pytest.importorskip("redis")
    # an address of this run's own (the Redis may serve other runs at the same time)
    address, other_address = (f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}."
                              f"{secrets.randbelow(250)}" for _ in range(2))
    with _apps(tmp_path, address, 2, REDIS) as (one, two):
        assert [_create(one), _create(two), _create(one)] == [201, 201, 201]
        refused = two.post("/api/tables", json={"game": "durak", "players": 2,
                                                "seats": TWO})
        assert refused.status_code == 429          # the budget of 3 is spent over both
        assert "too many tables created from your address" in refused.json()["error"]
        assert int(refused.headers["retry-after"]) >= 1
        assert _create(one) == 429
    with _apps(tmp_path, address, 1, REDIS, first=2) as (fresh,):
        assert _create(fresh) == 429               # a new server still sees it spent
    with _apps(tmp_path, other_address, 1, REDIS, first=3) as (other,):
        assert _create(other) == 201               # another address has its own


def test_without_redis_each_server_counts_in_its_own_memory(tmp_path: Path) -> None:
    with _apps(tmp_path, "10.0.0.9", 2, None) as (one, two):
        assert [_create(one) for _ in range(4)] == [201, 201, 201, 429]
        assert _create(two) == 201                 # its own process, its own count
