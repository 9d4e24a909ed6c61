"""Spectating that scales: a table's spectators get its frames from one fan-out, a chunk
at a time with the event loop free between chunks, and states that pile up meanwhile go
out as one (the latest)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from koloda.web.tables import FAN_CHUNK, Conn, TableManager

CROWD = 1000


def test_a_thousand_spectators_get_each_state_from_one_fan_out_a_chunk_per_loop_turn(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        manager = TableManager(f"sqlite:///{tmp_path / 'k.db'}", bot_workers=0,
                               use_store=False)
        await manager.start()
        try:
            table, _, _ = await manager.create("durak", 2, {}, [{"kind": "person"}] * 2,
                                               "Anna", 0, {"away_policy": "wait"})
            got: list[list[dict]] = []

            def watcher() -> Conn:
                frames: list[dict] = []
                got.append(frames)

                async def send(text: str) -> None:
                    frames.append(json.loads(text))
                return Conn(send)
            crowd = [watcher() for _ in range(CROWD)]
            for c in crowd:
                manager.attach(table, c, None)
            # the welcomes and the crowd's one presence frame sent
            for _ in range(300):
                await asyncio.sleep(0.01)
                if table._seats_timer is None \
                        and (table._fan_task is None or table._fan_task.done()) \
                        and all(c.queue.empty() for c in crowd):
                    break
            assert all(any(f["type"] == "seats" for f in frames) for frames in got)
            for frames in got:
                frames.clear()
            m = table.match
            mover = m.to_move
            assert mover is not None
            first = await manager.submit(table, mover, 0, m.legal_actions()[0])
            assert isinstance(first, str)
            # handed out by the fan-out, not by the game loop: none has it yet ...
            assert all(c.queue.empty() for c in crowd)
            await asyncio.sleep(0)
            # ... then one chunk per turn of the event loop, not the whole crowd at once
            handed = sum(1 for c in crowd if not c.queue.empty())
            assert 0 < handed <= FAN_CHUNK, handed
            for _ in range(200):
                await asyncio.sleep(0.01)
                if all(any(f["type"] == "state" for f in frames) for frames in got):
                    break
            assert all([f["version"] for f in frames if f["type"] == "state"] == [1]
                       for frames in got)
            async def settled() -> None:
                for _ in range(300):
                    await asyncio.sleep(0.01)
                    if (table._fan_task is None or table._fan_task.done()) \
                            and all(c.queue.empty() for c in crowd):
                        return
            # the next moves reach every spectator, the latest last
            for _ in range(2):
                mover = m.to_move
                assert mover is not None
                assert isinstance(await manager.submit(table, mover, table.version,
                                                       m.legal_actions()[0]), str)
            await settled()
            assert all([f["version"] for f in frames if f["type"] == "state"][-1] == 3
                       for frames in got)
            # states that pile up before the fan-out's turn go out once, the latest
            for frames in got:
                frames.clear()
            sent_before = table.fanned
            for _ in range(3):
                table.broadcast_state()
            await settled()
            assert table.fanned - sent_before == 1
            assert all([f["type"] for f in frames] == ["state"] for frames in got)
        finally:
            await manager.stop()
    asyncio.run(scenario())
