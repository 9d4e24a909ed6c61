"""The browser service over time: tables that never freeze, connections that are closed
when they cannot keep up, bot workers that never outlive the server, fair computers,
presence updates that do not grow with the square of the watchers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from tests.test_web import client_for, create, server_table


def test_tables_with_an_away_person_and_computer_seats_never_freeze(tmp_path: Path) -> None:
    """A computer stands in for an away person and the next seat is a computer: the
    stand-in's commit used to race the ticker into a second stand-in, which was refused
    ``stale`` while the computer's move was never started — the table froze."""
    with client_for(tmp_path, tick=0.005, bot_delay=0.01) as c:
        ids = []
        for _ in range(12):
            made = create(c, "durak", 2, seats=[{"kind": "person"},
                                                 {"kind": "computer", "bot": "random"}],
                          settings={"away_policy": "computer", "away_timeout": 1,
                                    "away_bot": "random"})
            ids.append(made["id"])        # the creator sits at seat 0 and never comes
        deadline = time.monotonic() + 25
        while time.monotonic() < deadline:
            if all(server_table(c, t).match.is_over for t in ids):
                break
            time.sleep(0.1)
        stuck = [(t, server_table(c, t).version, server_table(c, t).match.to_move)
                 for t in ids if not server_table(c, t).match.is_over]
        assert stuck == []


# ------------------------------------------------------ a client reading too slowly
def test_a_connection_whose_send_queue_fills_is_closed_once_and_detached(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A client that never reads: its queue fills; it is closed (the page reconnects),
    its seat no longer shows connected, and one line is logged — not one per message."""
    import asyncio

    from koloda.web.tables import Conn, TableManager

    async def scenario() -> tuple[list[int], Any, int, bool]:
        manager = TableManager(f"sqlite:///{tmp_path / 'k.db'}", bot_workers=0,
                               bot_delay=0, use_store=False)
        await manager.start()
        try:
            table, _token, _ = await manager.create(
                "durak", 2, {}, [{"kind": "person"}, {"kind": "person"}], "Anna", 0, {})
            closed: list[int] = []
            stuck = asyncio.Event()

            async def send(_text: str) -> None:
                await stuck.wait()           # the client never reads

            async def close(code: int = 1000) -> None:
                closed.append(code)
            conn = Conn(send, close, client="10.0.0.9")
            manager.attach(table, conn, 0)
            for _ in range(Conn.QUEUE * 3):
                table.broadcast_state()
                conn.push("x")
            await asyncio.sleep(0.05)
            seats = table.seats_json()
            return closed, seats[0], len(table.conns), conn.dead
        finally:
            await manager.stop()

    with caplog.at_level("WARNING", logger="koloda.web"):
        closed, seat0, conns, dead = asyncio.run(scenario())
    assert closed == [Conn.SLOW_CODE]
    assert dead and conns == 0
    assert not seat0["connected"] and seat0["away"]
    slow = [r for r in caplog.records if "reads too slowly" in r.getMessage()]
    assert len(slow) == 1
