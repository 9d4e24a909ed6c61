"""A match is stored once whatever two servers believe: both copies of one table see its
end and both store it (each thinking it drives the table); the store's unique key (the
table's) makes the database refuse the second, which is taken as "already stored" — the
same game id on both, one game row, the ratings moved once, nothing logged as an error.
On SQLite here; on PostgreSQL too with ``KOLODA_TEST_PG`` (the ``cluster`` tier)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

pytest.importorskip("fastapi")

from koloda.store import Store
from koloda.store.models import GameRow
from koloda.store.ratings import RatingMoveRow
from koloda.web.tables import TableManager

PG = os.environ.get("KOLODA_TEST_PG")
PEOPLE = [{"kind": "person"}] * 2


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.cluster)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.db'}"
        return
    if not PG:
        pytest.skip("PostgreSQL needs KOLODA_TEST_PG (postgresql://…); .ci/run sets it")
    pytest.importorskip("psycopg")
    from tests.test_web_cluster import _drop_pg_database, _new_pg_database
    url, name = _new_pg_database(PG)
    try:
        yield url
    finally:
        _drop_pg_database(PG, name)


def _counts(url: str, game_id: int) -> tuple[int, int]:
    store = Store(url)
    try:
        with store._session() as s:
            games = s.scalar(select(func.count()).select_from(GameRow))
            moves = s.scalar(select(func.count()).select_from(RatingMoveRow)
                             .where(RatingMoveRow.game_id == game_id))
            return int(games or 0), int(moves or 0)
    finally:
        store.close()


def test_a_match_finished_by_two_servers_at_once_is_stored_once_ratings_moved_once(
        db: str, caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> tuple[Any, Any, str | None, str | None]:
        account = Store(db)
        anna = account.add_account("Anna", "$argon2id$not-a-real-hash")
        account.close()
        first = TableManager(db, bot_workers=0, bot_delay=0)
        second = TableManager(db, bot_workers=0, bot_delay=0)
        # the end is stored only below, by both at once (as two lease holders would)
        for m in (first, second):
            m.finisher.spawn = lambda _t: None  # type: ignore[method-assign]
        await first.start()
        await second.start()
        try:
            table, _, _ = await first.create("durak", 2, {}, PEOPLE, "Anna", 0,
                                             {"away_policy": "wait"}, account_id=anna.id)
            await first.sit(table, 1, "Boris")
            copy = await second.find(table.id)
            assert copy is not None and copy is not table
            while not table.match.is_over:
                seat = table.match.to_move
                assert seat is not None
                done = await first.submit(table, seat, table.version,
                                          table.match.legal_actions()[0])
                assert isinstance(done, str), done
            await second.sync.refresh(copy)
            assert copy.match.is_over and not copy.finished
            await asyncio.gather(first.finisher._finish(table),
                                 second.finisher._finish(copy))
            return table.game_id, copy.game_id, table.store_error, copy.store_error
        finally:
            await first.stop()
            await second.stop()

    one, other, error_one, error_other = asyncio.run(scenario())
    assert error_one is None and error_other is None
    assert one is not None and one == other
    assert _counts(db, one) == (1, 1)       # one game, Anna's rating moved once
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_a_second_insert_refused_by_the_database_is_taken_as_already_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race itself: the second store looked before the first wrote (it saw nothing),
    so its insert meets the unique key; it gives the first's game, ``new`` False."""
    from tests.test_store import played

    url = f"sqlite:///{tmp_path / 'store.db'}"
    first, second = Store(url), Store(url)
    try:
        record = played("durak", 5)
        stored = first.add_game(record, key="web:abc")
        looked: list[bool] = []
        real = Store._stored

        def blind_once(self: Store, s: Any, digest: str, key: str | None) -> Any:
            if not looked:          # the look before the insert: nothing there yet
                looked.append(True)
                return None
            return real(self, s, digest, key)
        monkeypatch.setattr(Store, "_stored", blind_once)
        again = second.add_game(record, key="web:abc")
        assert looked and again.id == stored.id and not again.new
        assert len(second.history()) == 1
        monkeypatch.undo()
        # another match under the same key (the table's) is not stored a second time
        assert second.add_game(played("durak", 6), key="web:abc").id == stored.id
        assert len(second.history()) == 1
    finally:
        first.close()
        second.close()
