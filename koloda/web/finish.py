"""Finishing a match: the record stored in the store (history, statistics, ranks), the
table marked finished, the other servers told, and everyone watching shown the end. Only
the server holding the table's lease finishes it; a store that fails is tried again at the
next start (the table stays unfinished, never abandoned).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from koloda.web import persist
from koloda.web.table import Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager

log = logging.getLogger("koloda.web")


def match_key(table_id: str) -> str:
    """The store's key of a table's match (one match a table)."""
    return f"web:{table_id}"


class Finisher:
    """Stores finished matches (through one ``koloda.store.Store``, opened once)."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self.store: Any = None

    def spawn(self, table: Table) -> None:
        if table.finishing or table.finished or not self.m.cluster.holds(table.id):
            return
        table.finishing = True
        table.finish_task = asyncio.create_task(self._finish(table))

    async def _finish(self, table: Table) -> None:
        """Store the finished match (history, statistics, ranks) and close the table."""
        record = table.record()
        game_id = None
        if self.m.use_store:
            try:
                accounts = {i: s.account_id for i, s in enumerate(table.seats)
                            if s.account_id is not None}
                game_id = await self.m.writer.run_outside(
                    lambda: self.store_game(record, accounts, table.id))
            except Exception as exc:
                table.store_error = f"{type(exc).__name__}: {exc}"
                table.finishing = False
                log.error("table %s: the finished match was not stored: %s", table.id, exc)
                return

        fence = self.m.cluster.token(table.id)
        try:
            first = await self.m.writer.run(
                lambda s: persist.mark_finished(s, table.id, game_id, fence))
        except persist.FencedOut:
            # another server took the lease meanwhile: it marks the end (the match is
            # stored once either way, by its key)
            table.finishing = False
            self.m.cluster.drop(table.id)
            return
        if not first:     # stored by another server meanwhile: its game id is the one
            stored = await asyncio.to_thread(persist.load_one, self.m.sessions, table.id)
            game_id = stored.row.game_id if stored is not None else game_id
        table.finished, table.game_id = True, game_id
        self.m.cluster.publish({"t": "finished", "table": table.id, "game_id": game_id})
        self.m.spawn(self.m.cluster.release(table.id))
        table.finished_at = time.monotonic()
        self.m.spawn(self.m.caps.left_play(table))
        table._cache = {}
        table.broadcast_state()
        table.broadcast_seats()


    def show_finished(self, table: Table, game_id: int | None) -> None:
        table.finished, table.game_id = True, game_id
        table.finishing = False
        table.finished_at = time.monotonic()
        self.m.spawn(self.m.caps.left_play(table))
        table._cache = {}
        table.broadcast_state()
        table.broadcast_seats()

    def open_store(self) -> Any:
        from koloda.store import Store
        return Store(self.m.db_url)     # its schema made under the store's lock

    def store_game(self, record: dict[str, Any], accounts: dict[int, int],
                   table_id: str) -> int:
        if self.store is None:
            self.store = self.open_store()
        # the table's key: whichever servers store this end, the database keeps it once
        # (the second is told it is there, and moves no rank or rating again)
        summary = self.store.add_game(record, accounts=accounts, key=match_key(table_id))
        return int(summary.id)
