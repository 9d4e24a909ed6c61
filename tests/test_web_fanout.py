"""Spectating that scales: a table's spectators get its frames from one fan-out (one
text made once for all of them), a chunk at a time with the event loop free between
chunks; a spectator who falls behind gets the newest state, not a backlog; a stalled
one holds up nobody; counts and presence stay right as spectators come and go."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from koloda.web.conn import Conn
from koloda.web.table import FAN_CHUNK, LOG_LENGTH, Table
from koloda.web.tables import TableManager

CROWD = 1000


class Watcher:
    """A fake websocket: what it was sent, in order; its send can be held up."""

    def __init__(self, gate: asyncio.Event | None = None) -> None:
        self.frames: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.gate = gate
        self.conn = Conn(self.send)

    async def send(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.texts.append(text)
        self.frames.append(json.loads(text))

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "state"]

    def version(self) -> int:
        """The version of the latest state it was sent (-1: none yet)."""
        states = self.states()
        return states[-1]["version"] if states else -1


async def _table(tmp_path: Path) -> tuple[TableManager, Table]:
    manager = TableManager(f"sqlite:///{tmp_path / 'k.db'}", bot_workers=0,
                           use_store=False)
    await manager.start()
    table, _, _ = await manager.create("durak", 2, {}, [{"kind": "person"}] * 2, "Anna",
                                       0, {"away_policy": "wait"})
    return manager, table


async def _until(done: Callable[[], bool], what: str, tries: int = 500) -> None:
    for _ in range(tries):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"not within {tries * 0.01:.0f} s: {what}")


def _settled(table: Table, watchers: list[Watcher]) -> Callable[[], bool]:
    return lambda: (table._seats_timer is None and not table._fan
                    and (table._fan_task is None or table._fan_task.done())
                    and all(w.conn.waiting == 0 for w in watchers))


async def _move(manager: TableManager, table: Table) -> None:
    m = table.match
    mover = m.to_move
    assert mover is not None
    assert isinstance(await manager.submit(table, mover, table.version,
                                           m.legal_actions()[0]), str)


def _run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


@pytest.mark.slow
def test_a_thousand_spectators_get_each_state_from_one_fan_out_a_chunk_per_loop_turn(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        manager, table = await _table(tmp_path)
        try:
            crowd = [Watcher() for _ in range(CROWD)]
            for w in crowd:
                manager.attach(table, w.conn, None)
            await _until(_settled(table, crowd), "the welcomes and one presence frame")
            assert all(any(f["type"] == "seats" and f["spectators"] == CROWD
                           for f in w.frames) for w in crowd)
            for w in crowd:
                w.frames.clear()
                w.texts.clear()
            await _move(manager, table)
            # handed out by the fan-out, not by the game loop: none has it yet ...
            assert all(not w.frames for w in crowd)
            await asyncio.sleep(0)
            # ... then one chunk per turn of the event loop, not the whole crowd at once
            handed = sum(1 for w in crowd if w.frames)
            assert 0 < handed <= FAN_CHUNK, handed
            await _until(lambda: all(w.frames for w in crowd), "the state everywhere")
            assert all([f["version"] for f in w.states()] == [1] for w in crowd)
            # one text made once, the same object sent to everyone
            assert len({id(w.texts[0]) for w in crowd}) == 1
            # the next moves reach every spectator, the latest last
            for _ in range(2):
                await _move(manager, table)
            await _until(_settled(table, crowd), "the fan-out done")
            assert all(w.states()[-1]["version"] == 3 for w in crowd)
            # states that pile up before the fan-out's turn go out once, the latest
            for w in crowd:
                w.frames.clear()
            sent_before = table.fanned
            m = table.match
            for _ in range(3):
                mover = m.to_move
                assert mover is not None
                table.apply_logged(mover, m.legal_actions()[0])
                table.broadcast_state()
            await _until(_settled(table, crowd), "the fan-out done")
            assert table.fanned - sent_before == 1
            assert all([(f["type"], f["version"]) for f in w.frames] == [("state", 6)]
                       for w in crowd)
            # the same state again (nothing changed) is not sent again
            table.broadcast_state()
            await _until(_settled(table, crowd), "the fan-out done")
            assert all(len(w.frames) == 1 for w in crowd)
        finally:
            await manager.stop()
    _run(scenario)


def test_a_spectator_who_falls_behind_gets_the_newest_state_what_a_newcomer_gets(
        tmp_path: Path) -> None:
    """A spectator's state is a whole snapshot: after a burst of moves it is sent only
    the newest (states it could not take meanwhile are dropped, not queued), and that
    one is exactly what a spectator arriving now is given — view, log, everything — so
    the dropped ones lose nothing."""
    async def scenario() -> None:
        manager, table = await _table(tmp_path)
        try:
            gate = asyncio.Event()
            slow = Watcher(gate)
            manager.attach(table, slow.conn, None)
            await asyncio.sleep(0.01)        # its welcome is being sent, held up
            burst = 12
            for _ in range(burst):
                await _move(manager, table)
            assert slow.conn.waiting <= 4    # welcome, first state, one newest of each
            gate.set()
            await _until(lambda: slow.conn.waiting == 0, "the slow one caught up")
            versions = [f["version"] for f in slow.states()]
            assert versions == [0, burst], versions
            assert slow.conn.replaced >= burst - 2
            newcomer = Watcher()
            manager.attach(table, newcomer.conn, None)
            await _until(lambda: bool(newcomer.states()), "the newcomer's state")
            assert slow.states()[-1] == newcomer.states()[-1]
            # the newest state carries the whole log of the moves it skipped
            log = slow.states()[-1]["log"]
            assert len(log) == min(burst, LOG_LENGTH) and log == newcomer.states()[-1]["log"]
        finally:
            await manager.stop()
    _run(scenario)


def test_a_stalled_spectator_delays_neither_the_players_nor_the_other_spectators(
        tmp_path: Path) -> None:
    """One spectator's socket never takes anything: every player's page and every other
    spectator still gets every state at once, at a small and a crowded table; the stalled
    one holds at most one frame of each kind, never a backlog, and is not closed."""
    async def scenario(crowd_size: int) -> None:
        manager, table = await _table(tmp_path / str(crowd_size))
        try:
            never = asyncio.Event()
            stalled = Watcher(never)
            players = [Watcher(), Watcher()]
            for seat, p in enumerate(players):
                manager.attach(table, p.conn, seat)
            manager.attach(table, stalled.conn, None)
            crowd = [Watcher() for _ in range(crowd_size)]
            for w in crowd:
                manager.attach(table, w.conn, None)
            await _until(_settled(table, players + crowd), "everyone welcomed")
            for n in range(1, 9):
                await _move(manager, table)
                await _until(lambda n=n: all(p.version() == n for p in players),
                             "the players' state")
                await _until(lambda n=n: all(w.version() == n for w in crowd),
                             "the other spectators' state")
                assert stalled.conn.waiting <= 4
            assert not stalled.conn.dead and not stalled.frames
            never.set()
            await _until(lambda: stalled.conn.waiting == 0, "the stalled one freed")
            assert stalled.states()[-1]["version"] == 8
        finally:
            await manager.stop()

    async def both() -> None:
        await scenario(3)
        await scenario(FAN_CHUNK * 3)
    (tmp_path / "3").mkdir()
    (tmp_path / str(FAN_CHUNK * 3)).mkdir()
    _run(both)


def test_spectators_counts_and_presence_stay_right_and_the_gone_are_cleaned_up(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        manager, table = await _table(tmp_path)
        try:
            player = Watcher()
            manager.attach(table, player.conn, 0)
            crowd = [Watcher() for _ in range(FAN_CHUNK * 2 + 7)]
            for w in crowd:
                manager.attach(table, w.conn, None)
            everyone = [player, *crowd]
            await _until(_settled(table, everyone), "everyone welcomed")
            n = len(crowd)
            assert table.spectators == n and table.info()["spectators"] == n
            seats = [f for f in player.frames if f["type"] == "seats"]
            assert seats[-1]["spectators"] == n
            gone, staying = crowd[: n // 2], crowd[n // 2:]
            for w in gone:
                manager.detach(w.conn)
                await w.conn.drain()
            await _until(_settled(table, [player, *staying]), "the leaving told")
            left = n - n // 2
            assert table.spectators == left and table.info()["spectators"] == left
            assert not any(w.conn in table.conns for w in gone)
            assert all(w.conn.task.done() and w.conn.table is None for w in gone)
            for w in [player, *staying]:
                assert [f for f in w.frames if f["type"] == "seats"][-1]["spectators"] \
                    == left
            # the gone hear nothing more; the rest hear the next move
            heard = [len(w.frames) for w in gone]
            await _move(manager, table)
            await _until(_settled(table, [player, *staying]), "the move told")
            assert [len(w.frames) for w in gone] == heard
            assert all(w.states()[-1]["version"] == 1 for w in staying)
            # a socket that breaks is dropped quietly, the others go on
            async def broken(text: str) -> None:
                raise ConnectionError("gone")
            dead = Conn(broken)
            manager.attach(table, dead, None)
            await _move(manager, table)
            await _until(_settled(table, [player, *staying]), "the move told")
            assert all(w.states()[-1]["version"] == 2 for w in staying)
            assert dead.task.done()
            manager.detach(dead)
            assert table.spectators == left
        finally:
            await manager.stop()
    _run(scenario)


def test_a_send_that_waits_is_finished_by_the_connections_own_task_in_order(
        tmp_path: Path) -> None:
    """A frame offered to an idle connection starts at once; if the socket makes it
    wait, the connection's task finishes it, and what came meanwhile follows in order."""
    async def scenario() -> None:
        sent: list[str] = []

        async def send(text: str) -> None:
            await asyncio.sleep(0)          # the socket makes every send wait a turn
            await asyncio.sleep(0.001)
            sent.append(text)
        conn = Conn(send)
        await asyncio.sleep(0)              # its task is waiting for work
        conn.offer("state", "s1")
        conn.push("ok")
        conn.offer("state", "s2")
        conn.offer("state", "s3")           # replaces s2, which has not gone out
        conn.offer("seats", "p1")
        await _until(lambda: conn.waiting == 0, "all sent")
        assert sent == ["s1", "ok", "s3", "p1"]
        assert conn.replaced == 1
        # given up while a send waits: the send is stopped, nothing more goes out
        conn.offer("state", "s4")
        conn.abandon()
        await asyncio.sleep(0.01)
        assert sent == ["s1", "ok", "s3", "p1"]
        assert conn.task.done()
    _run(scenario)


def test_the_collector_freezes_what_survives_and_collects_in_full_rarely() -> None:
    """What lives long (open connections above all) is moved out of the collector's
    full passes now and then and when a crowd arrives; a full collection still comes
    every ``full_every`` seconds, so garbage in cycles is freed in the end."""
    import gc
    import weakref

    from koloda.web import collector as collector_module
    from koloda.web.collector import Collector

    class Node:
        def __init__(self) -> None:
            self.me = self

    c = Collector(freeze_every=5.0, full_every=60.0)
    c.start()
    try:
        base = c._frozen_at
        kept = [Node() for _ in range(100)]
        c.tick(base + 1.0)
        assert c.freezes == 0                     # not yet
        before = gc.get_freeze_count()
        # (half a second past each period: base + 5.0 - base can round to 4.999…)
        c.tick(base + 5.5)
        assert c.freezes == 1 and gc.get_freeze_count() >= before + len(kept)
        for _ in range(collector_module.FREEZE_AFTER):
            c.opened()
        assert c.freezes == 2
        # garbage in a cycle, frozen: only the full collection frees it
        cycle = Node()
        alive = weakref.ref(cycle)
        gc.freeze()
        del cycle
        gc.collect()
        assert alive() is not None
        c.tick(base + 60.5)
        assert c.full == 1 and alive() is None
        gc.collect()
        assert c.passes[2] >= 1 and c.longest_ms[2] > 0
        assert c.stats()["full_collections"] == 1
    finally:
        c.stop()
        gc.unfreeze()
    assert c._timed not in gc.callbacks
    del kept
