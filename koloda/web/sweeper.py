"""The ticker: every ``tick`` seconds, seats away too long are handed to their stand-in,
tables idle too long are stored as abandoned (and told so), finished tables nobody watches
leave memory, and presence is reminded to the other servers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from koloda.web import persist
from koloda.web.conn import dumps
from koloda.web.limits import Said
from koloda.web.table import Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager

log = logging.getLogger("koloda.web")

#: seconds a finished table stays in memory once nobody watches it
KEEP_FINISHED = 3600.0


class Sweeper:
    """The manager's periodic work, and giving idle tables up."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    async def run(self) -> None:
        """Seats away too long are handed to the stand-in; presence shown to all."""
        while True:
            slept = time.monotonic()
            await asyncio.sleep(self.m.tick)
            now = time.monotonic()
            self.m.lags.append(now - slept - self.m.tick)
            idle: list[Table] = []
            for table in list(self.m.tables.values()):
                if table.closed and not table.conns and table.finished_at is not None \
                        and now - table.finished_at > KEEP_FINISHED:
                    del self.m.tables[table.id]
                    self.m.chat.forget(table.id)
                    self.m.rematches.forget(table.id)
                    self.m.sync.fences.pop(table.id, None)
                    continue
                if table.in_play and not table.finishing and not table.match.is_over \
                        and now - table.last_active > self.m.idle_limit(table.settings) \
                        and self.m.cluster.holds(table.id):
                    idle.append(table)
                    continue
                seat = table.match.to_move
                if seat is None or table.closed or table.seats[seat].kind != "person":
                    continue
                before = table.bot_task
                self.m.driver.kick(table)
                if table.bot_task is not before:
                    table.seats_changed()
            if idle:
                self.m.spawn(self.abandon(idle))
            if self.m.cluster.shared:
                self.m.sync.presence_tick(now)
            self.m.collector.tick(now)

    def abandoned_text(self, table: Table) -> Said:
        return Said("abandoned", m=max(1, round(self.m.idle_limit(table.settings) / 60)))

    async def abandon(self, tables: list[Table]) -> None:
        """Idle tables leave play: stored as abandoned (their actions stay), no longer
        played, listed or resumed; whoever watches is told."""
        now = time.monotonic()
        cluster = self.m.cluster
        gone = [t for t in tables if t.in_play and not t.finishing
                and not t.match.is_over
                and now - t.last_active > self.m.idle_limit(t.settings)
                and (not cluster.shared or cluster.token(t.id) is not None)]
        if not gone:
            return
        for t in gone:
            t.abandoned = True        # no move from now on (submit checks it)
        # each with the lease's fencing token: a server whose lease ran out (paused while
        # the others played on) cannot give a table in play up
        fences = {t.id: cluster.token(t.id) for t in gone}
        try:
            await self.m.writer.run(lambda s: persist.mark_abandoned(
                s, [t.id for t in gone], fences))
        except Exception as exc:      # not stored: they stay in play, to try again later
            if isinstance(exc, persist.FencedOut):
                cluster.drop(exc.table_id)
            log.log(logging.INFO if persist.is_conflict(exc) else logging.ERROR,
                    "idle tables not stored as abandoned: %s", exc)
            for t in gone:
                t.abandoned = False
                t.last_active = time.monotonic()
            return
        self.m.abandoned += len(gone)
        self.m.cluster.publish({"t": "abandoned", "tables": [t.id for t in gone]})
        for t in gone:
            self.m.spawn(self.m.cluster.release(t.id))
        self.show_abandoned(gone)
        log.info("%d idle table(s) stored as abandoned", len(gone))

    def show_abandoned(self, gone: list[Table]) -> None:
        for t in gone:
            t.abandoned = True
            t.finished_at = time.monotonic()
            t._cache = {}
            self.m.spawn(self.m.caps.left_play(t))
            notice = dumps({"type": "closed", "reason": "abandoned",
                             "text": str(self.abandoned_text(t)),
                             "text_ru": self.abandoned_text(t).render("ru")})
            for c in list(t.conns):
                c.push(notice)
            t.broadcast_state()
            t.broadcast_seats()
