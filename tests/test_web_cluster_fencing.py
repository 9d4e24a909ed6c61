"""Fencing tokens on the tables' leases: each acquisition of a lease gets a higher token
(Redis ``INCR``), the lease holder's writes carry it, and the database refuses a token
lower than the highest it has seen for the table — a server paused past its lease cannot
write over the server that took the table over."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import sessionmaker

pytest.importorskip("fastapi")

from koloda.web import persist
from koloda.web.cluster import FENCE_KEY, LEASE_KEY
from koloda.web.protocol import Refusal
from koloda.web.tables import TableManager

REDIS = os.environ.get("KOLODA_TEST_REDIS")
PEOPLE = [{"kind": "person"}] * 2


def _writer(tmp_path: Path) -> tuple[Any, Any, persist.Writer]:
    """A database on ``tmp_path`` and its writer, started."""
    engine = persist.open_engine(f"sqlite:///{tmp_path / 'web.db'}")
    sessions = sessionmaker(engine, expire_on_commit=False)
    writer = persist.Writer(sessions)
    writer.start()
    return engine, sessions, writer


async def _new_table(writer: persist.Writer, table_id: str) -> None:
    await writer.run(lambda s: s.add(persist.LiveTable(
        id=table_id, game="durak", players=2, options={}, seed=1, settings={},
        created=persist.now())))


def test_the_database_refuses_a_write_with_a_token_lower_than_the_highest_seen(
        tmp_path: Path) -> None:
    engine, sessions, writer = _writer(tmp_path)

    async def scenario() -> list[str]:
        said = []
        await _new_table(writer, "t1")
        await writer.run(lambda s: persist.claim_fence(s, "t1", 5))
        for token in (3, 5, 6):
            try:
                await writer.add_action("t1", token, 0, f"play {token}", fence=token)
                said.append(f"{token} stored")
            except persist.FencedOut:
                said.append(f"{token} refused")
        for what, write in (
                ("abandon 4", lambda s: persist.mark_abandoned(s, ["t1"], {"t1": 4})),
                ("finish 5", lambda s: persist.mark_finished(s, "t1", None, 5)),
                ("finish 6", lambda s: persist.mark_finished(s, "t1", None, 6))):
            try:
                await writer.run(write)
                said.append(f"{what} stored")
            except persist.FencedOut:
                said.append(f"{what} refused")
        return said
    try:
        said = asyncio.run(scenario())
    finally:
        writer.stop()
    stored = persist.load_one(sessions, "t1")
    engine.dispose()
    # the same token again is the same holder: stored
    assert said == ["3 refused", "5 stored", "6 stored", "abandon 4 refused",
                    "finish 5 refused", "finish 6 stored"]
    assert stored is not None and stored.actions == [(0, "play 5"), (0, "play 6")]
    assert stored.row.fence == 6 and stored.row.abandoned is None
    assert stored.row.finished is not None


def test_in_one_batch_a_stale_token_is_refused_alone_and_the_others_are_written(
        tmp_path: Path) -> None:
    engine, sessions, writer = _writer(tmp_path)

    async def scenario() -> list[str]:
        for tid in ("t1", "t2"):
            await _new_table(writer, tid)
            await writer.run(lambda s, tid=tid: persist.claim_fence(s, tid, 5))
        writes = [writer.add_action("t1", 0, 0, "play a", fence=5),
                  writer.add_action("t1", 1, 1, "play b", fence=4),     # stale
                  writer.add_action("t2", 0, 0, "play c", fence=7),     # not claimed yet
                  writer.add_action("t2", 1, 1, "play d")]              # a person's
        said = await asyncio.gather(*writes, return_exceptions=True)
        return ["refused" if isinstance(r, persist.FencedOut) else "stored" for r in said]
    try:
        said = asyncio.run(scenario())
    finally:
        writer.stop()
    one, two = persist.load_one(sessions, "t1"), persist.load_one(sessions, "t2")
    engine.dispose()
    assert said == ["stored", "refused", "stored", "stored"]
    assert one is not None and one.actions == [(0, "play a")] and one.row.fence == 5
    assert two is not None and two.actions == [(0, "play c"), (1, "play d")]
    assert two.row.fence == 7            # a higher token is written with its action


@pytest.mark.cluster
def test_a_stale_lease_holders_write_is_refused_after_another_server_took_the_lease(
        tmp_path: Path) -> None:
    """Server one holds the lease (token t1) and pauses; its lease runs out in Redis and
    server two takes the table over (token t2 > t1, written to the database at once).
    Server one wakes up still believing it drives the table: its computer's move (with
    t1) is refused — stale, nothing stored — and it knows the lease is gone; server
    two's move (with t2) is stored."""
    if not REDIS:
        pytest.skip("needs KOLODA_TEST_REDIS (redis://…); .ci/run starts Redis")
    pytest.importorskip("redis")
    import redis.asyncio as aioredis

    async def scenario() -> None:
        url = f"sqlite:///{tmp_path / 'shared.db'}"
        one = TableManager(url, bot_workers=0, use_store=False, redis_url=REDIS)
        two = TableManager(url, bot_workers=0, use_store=False, redis_url=REDIS)
        r = aioredis.from_url(REDIS)
        await one.start()
        await two.start()
        try:
            table, _, _ = await one.create("durak", 2, {}, PEOPLE, "Anna", 0,
                                           {"away_policy": "wait"})
            t1 = one.cluster.token(table.id)
            assert t1 is not None and one.cluster.holds(table.id)
            assert persist.fence_of(one.sessions, table.id) == t1
            copy = await two.find(table.id)
            assert copy is not None
            assert not await two.cluster.acquire(table.id)       # one holds it
            await r.delete(LEASE_KEY + table.id)    # one paused: its lease ran out
            assert await two.cluster.acquire(table.id)
            assert await two.sync.claim(table.id)
            t2 = two.cluster.token(table.id)
            assert t2 is not None and t2 > t1
            assert persist.fence_of(two.sessions, table.id) == t2
            assert one.cluster.holds(table.id)      # one still believes it drives it
            seat = table.match.to_move
            assert seat is not None
            legal = table.match.legal_actions()
            lost = await one.submit(table, seat, 0, legal[0], fence=t1)
            assert isinstance(lost, Refusal) and lost.code == "stale"
            assert persist.load_actions(one.sessions, table.id) == []
            assert not one.cluster.holds(table.id)  # it knows now
            won = await two.submit(copy, seat, 0, legal[-1], fence=two.cluster.token(
                table.id))
            assert won == legal[-1]
            assert persist.load_actions(two.sessions, table.id) == [(seat, legal[-1])]
        finally:
            await one.stop()
            await two.stop()
            await r.delete(FENCE_KEY + table.id)
            await r.aclose()
    asyncio.run(scenario())


@pytest.mark.cluster
def test_a_lost_fencing_counter_starts_above_what_the_database_has_seen(
        tmp_path: Path) -> None:
    """Redis restarted empty: the counter would begin again at 1, below the database's
    highest token; the acquisition is given what the server last read (its floor), so
    the new token is still higher and the new holder's writes go through."""
    if not REDIS:
        pytest.skip("needs KOLODA_TEST_REDIS (redis://…); .ci/run starts Redis")
    pytest.importorskip("redis")
    import redis.asyncio as aioredis

    async def scenario() -> tuple[int, int | None]:
        url = f"sqlite:///{tmp_path / 'shared.db'}"
        one = TableManager(url, bot_workers=0, use_store=False, redis_url=REDIS)
        r = aioredis.from_url(REDIS)
        await one.start()
        try:
            table, _, _ = await one.create("durak", 2, {}, PEOPLE, None, None, {})
            await one.writer.run(lambda s: persist.claim_fence(s, table.id, 40))
            await one.cluster.release(table.id)
            await r.delete(FENCE_KEY + table.id)      # the counter is lost
            await one.sync.refresh(table)             # reads the database's 40
            assert await one.cluster.acquire(table.id, one.sync.fences[table.id])
            claimed = await one.sync.claim(table.id)
            assert claimed
            return persist.fence_of(one.sessions, table.id), one.cluster.token(table.id)
        finally:
            await one.stop()
            await r.delete(FENCE_KEY + table.id)
            await r.aclose()
    stored, token = asyncio.run(scenario())
    assert token == stored == 41
