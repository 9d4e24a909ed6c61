"""Keeping this server's copies in step with the other servers' (``--redis``): their news
applied here, this server's presence told to them, copies the database is ahead of caught
up, and tables whose lease nobody holds (their server died) taken over. Alone, a server
publishes nothing and holds every lease (``koloda.web.cluster``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import TYPE_CHECKING, Any

from koloda.web import persist
from koloda.web.cluster import PRESENCE_EVERY, PRESENCE_GONE, SWEEP, every
from koloda.web.limits import Said
from koloda.web.table import PRESENCE_DELAY, Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager

log = logging.getLogger("koloda.web")


class ClusterSync:
    """This server's side of the cluster: news, presence, refreshes, the sweep."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self._presence_dirty: set[str] = set()
        self._presence_timer: asyncio.TimerHandle | None = None
        self._presence_said = 0.0
        #: the sweep's task (only with other servers)
        self.task: asyncio.Task[None] | None = None
        #: table id -> the highest fencing token the database had when last read: a
        #: new lease's token comes above it, even from a counter that was lost
        self.fences: dict[str, int] = {}
        #: actions of other servers left unapplied here (``cold``), and copies read
        #: back for a connection or a request (``warm``)
        self.left_cold = 0
        self.warmed = 0

    async def claim(self, table_id: str) -> bool:
        """A lease just taken: its fencing token written to the database at once, so that
        the previous holder's writes are refused from now on, not only from this server's
        first. False (the lease given up again) if a newer token is there already."""
        token = self.m.cluster.token(table_id)
        try:
            await self.m.writer.run(lambda s: persist.claim_fence(s, table_id, token))
        except persist.FencedOut:
            self.fences[table_id] = await asyncio.to_thread(
                persist.fence_of, self.m.sessions, table_id)
            await self.m.cluster.release(table_id)
            return False
        return True

    async def refresh(self, table: Table, locked: bool = False) -> None:
        """Bring this copy of ``table`` to what the database holds (its actions, seats,
        end): after a version gap, a lost race, or before driving a table taken over."""
        if not locked:
            async with table.lock:
                await self.refresh(table, locked=True)
            return
        stored = await asyncio.to_thread(persist.load_one, self.m.sessions, table.id)
        if stored is None:
            return
        self.fences[table.id] = stored.row.fence or 0
        fresh = self.m.rebuild(stored)
        table.cold_version = None
        before = table.version
        table.match, table.log, table.deal_start = fresh.match, fresh.log, fresh.deal_start
        table.undone, table._behind = fresh.undone, fresh._behind
        table._cache, table._logs, table._hidden = {}, {}, {}
        table.lag_mark = None
        for mine, theirs in zip(table.seats, fresh.seats, strict=True):
            mine.takebacks, mine.hints = theirs.takebacks, theirs.hints
            mine.strikes, mine.left = theirs.strikes, theirs.left
            if mine.token_hash != theirs.token_hash:
                mine.name, mine.token_hash = theirs.name, theirs.token_hash
                mine.account_id = theirs.account_id
                if not mine.connected:
                    mine.away_since = time.monotonic()
        if table.version != before:
            table.last_active = time.monotonic()
        if fresh.finished and not table.finished:
            self.m.finisher.show_finished(table, fresh.game_id)
        if fresh.abandoned and not table.abandoned:
            self.m.sweeper.show_abandoned([table])

    def presence_changed(self, table: Table) -> None:
        """Tell the other servers who is connected here (gathered for a moment)."""
        if not self.m.cluster.shared:
            return
        self._presence_dirty.add(table.id)
        if self._presence_timer is None:
            self._presence_timer = asyncio.get_running_loop().call_later(
                PRESENCE_DELAY, self._publish_presence)

    def _publish_presence(self, tables: list[Table] | None = None) -> None:
        self._presence_timer = None
        if tables is None:
            tables = [t for t in map(self.m.tables.get, self._presence_dirty)
                      if t is not None]
            self._presence_dirty.clear()
        if tables:
            self.m.cluster.publish({"t": "presence",
                                  "tables": {t.id: t.presence() for t in tables}})

    def lease_lost(self, table_id: str) -> None:
        """Another server drives the table now: a computer's move not yet being stored
        is stopped (if it were stored, the database would refuse it anyway)."""
        table = self.m.tables.get(table_id)
        if table is not None and table.bot_task is not None and not table.bot_submitting:
            table.bot_task.cancel()
            table.bot_task = None

    async def on_news(self, news: dict[str, Any]) -> None:
        """What another server did, applied to this server's copy and shown here."""
        kind = news.get("t")
        if kind == "presence":
            now = time.monotonic()
            for table_id, counts in news["tables"].items():
                table = self.m.tables.get(table_id)
                if table is not None and table.set_remote(news["from"], counts[:-1],
                                                          counts[-1], now):
                    table.seats_changed()
                    self.m.driver.kick(table)
            return
        if kind == "abandoned":
            self.m.sweeper.show_abandoned([t for t in map(self.m.tables.get, news["tables"])
                                  if t is not None and not t.abandoned])
            return
        table_id = str(news.get("table"))
        table = self.m.tables.get(table_id)
        if kind == "created":
            if table is None:
                stored = await asyncio.to_thread(persist.load_one, self.m.sessions, table_id)
                if stored is not None and table_id not in self.m.tables:
                    self.m.tables[table_id] = self.m.rebuild(stored)
            return
        if table is None:
            return
        if kind == "action":
            await self._apply_news(table, news)
        elif kind == "chat":
            self.m.chat.show(table, dict(news["line"]))
        elif kind == "rematch":
            table.rematch = str(news["next"])
            self.m.rematches.show(table)
        elif kind == "seat":
            s = table.seats[int(news["seat"])]
            s.name, s.token_hash = news["name"], news["token_hash"]
            s.account_id = news.get("account_id")
            if not s.connected:
                s.away_since = time.monotonic()
            table.last_active = time.monotonic()
            table.broadcast_seats()
            self.m.driver.kick(table)
        elif kind == "finished" and not table.finished:
            if not table.match.is_over:
                await self.refresh(table)
            if not table.finished:
                self.m.finisher.show_finished(table, news.get("game_id"))

    async def warm(self, table: Table) -> None:
        """A copy left behind (``cold``) brought to what the database holds, before a
        connection here or a request needs it (the caller holds its lock)."""
        if table.cold_version is not None:
            self.warmed += 1
            await self.refresh(table, locked=True)

    @staticmethod
    def cold(table: Table, holds: bool) -> bool:
        """Whether an action told by another server may be left unapplied here: no
        connection to show it to and another server driving the table. The database has
        it; :meth:`warm` reads it back when a connection comes (or this server takes the
        lease over), so a server does the work of the tables people play on it, not of
        every table of the cluster."""
        return not table.conns and not holds

    async def _apply_news(self, table: Table, news: dict[str, Any]) -> None:
        async with table.lock:
            idx = int(news["idx"])
            if self.cold(table, self.m.cluster.holds(table.id)):
                table.cold_version = max(idx + 1, table.cold_version or 0)
                table.last_active = time.monotonic()
                self.left_cold += 1
                return
            if table.cold_version is not None:
                await self.refresh(table, locked=True)
                table.last_active = time.monotonic()
                table.broadcast_state()
                self.m.drive(table)
                return
            if idx < table.version:
                return                  # known already (this copy caught up before)
            if idx == table.version:
                try:
                    table.apply_logged(int(news["seat"]), str(news["action"]))
                except Exception:
                    await self.refresh(table, locked=True)
            else:                       # some news never came: the database knows
                await self.refresh(table, locked=True)
            table.last_active = time.monotonic()
            notice = news.get("notice")
            table.notice = None if not notice else Said(
                notice[0], **{k: tuple(v) if isinstance(v, list) else v
                              for k, v in notice[1].items()})
        table.broadcast_state()
        self.m.drive(table)

    async def sweep(self) -> None:
        """Every ``SWEEP`` seconds: tables in play this server does not know are loaded,
        copies the database is ahead of (twice running) are caught up, and tables whose
        lease nobody holds (their server died) are taken over and driven from here."""
        await every(SWEEP, self._sweep_once, "the sweep")

    async def _sweep_once(self) -> None:
        versions = await asyncio.to_thread(persist.versions_in_play, self.m.sessions)
        for table_id, version in versions.items():
            table = self.m.tables.get(table_id)
            if table is None:
                stored = await asyncio.to_thread(persist.load_one, self.m.sessions, table_id)
                if stored is not None and table_id not in self.m.tables:
                    try:
                        self.m.tables[table_id] = self.m.rebuild(stored)
                    except Exception as exc:
                        log.error("table %s cannot be loaded: %s", table_id, exc)
                continue
            if table.cold_version is not None:
                table.cold_version = max(version, table.cold_version)   # behind, knowingly
            elif table.version >= version:
                table.lag_mark = None
            elif table.lag_mark == table.version:
                await self.refresh(table)
                table.broadcast_state()
                self.m.drive(table)
            else:
                table.lag_mark = table.version
        free = await self.m.cluster.unleased(versions)
        random.shuffle(free)
        for table_id in free:
            table = self.m.tables.get(table_id)
            if table is None or table.closed or not await self.m.cluster.acquire(
                    table_id, self.fences.get(table_id, 0)):
                continue
            if not await self.claim(table_id):
                continue
            self.m.taken_over += 1
            log.info("table %s taken over (nobody held its lease)", table_id)
            await self.refresh(table)
            table.broadcast_state()
            self.m.drive(table)

    def presence_tick(self, now: float) -> None:
        """Remind the others who is connected here; forget servers not heard from."""
        if now - self._presence_said >= PRESENCE_EVERY:
            self._presence_said = now
            self._publish_presence([t for t in self.m.tables.values() if t.conns])
        for table in self.m.tables.values():
            if not table.remote_seen:
                continue
            gone = [s for s, seen in table.remote_seen.items() if now - seen > PRESENCE_GONE]
            for server in gone:
                if table.set_remote(server, [0] * len(table.seats), 0, now):
                    table.seats_changed()
