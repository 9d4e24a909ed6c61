"""A rematch: once a match is over, any seated player asks for the next one with the same
seats (``{"type": "rematch"}``): the same game, options and settings (a private table's
invite stays the same), the same people at the same seats with the same seat tokens (each
browser plays on with the token it has), the same computers, a new seed. One table per
rematch, however many ask and on whichever server: the database's row for it decides.
Everyone at the finished table is told where it is played (``{"type": "rematch"}``).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import ForeignKey, String, select
from sqlalchemy.orm import Mapped, mapped_column

from koloda.engine.messages import Reason
from koloda.web import persist
from koloda.web.conn import Conn
from koloda.web.limits import Said
from koloda.web.persist import WebBase
from koloda.web.protocol import Refusal
from koloda.web.table import Seat, Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager


class RematchRow(WebBase):
    __tablename__ = "web_rematch"

    #: the finished table, and the table its rematch is played at
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), primary_key=True)
    next_id: Mapped[str] = mapped_column(String(32))


class RematchDesk:
    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self._locks: dict[str, asyncio.Lock] = {}

    async def ask(self, table: Table, conn: Conn, msg_id: Any) -> Refusal | None:
        """Make (or find) the rematch of ``table`` and tell everyone there (None), or why
        not (nothing changes)."""
        if conn.seat is None:
            return Refusal("spectator", Reason("spectator"), msg_id)
        if not table.match.is_over:
            return Refusal("rematch_not_over", Said("rematch_not_over"), msg_id)
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            if table.rematch is None:
                table.rematch = await asyncio.to_thread(self._stored, table.id)
            if table.rematch is None:
                try:
                    table.rematch = await self._make(table, conn)
                except Exception as exc:
                    if not persist.is_conflict(exc):
                        raise
                    # another server made it first: that one is the rematch
                    table.rematch = await asyncio.to_thread(self._stored, table.id)
                if table.rematch is not None:
                    self.m.cluster.publish({"t": "rematch", "table": table.id,
                                            "next": table.rematch})
        self.show(table)
        return None

    def show(self, table: Table) -> None:
        """Where the rematch is played, to every connection at the finished table."""
        frame = {"type": "rematch", "table": table.id, "next": table.rematch,
                 "url": f"{self.m.root_path}/t/{table.rematch}"}
        for c in list(table.conns):
            c.push_json(frame)

    def _stored(self, table_id: str) -> str | None:
        with self.m.sessions() as s:
            found: str | None = s.scalar(select(RematchRow.next_id).where(
                RematchRow.table_id == table_id))
            return found

    async def _make(self, table: Table, conn: Conn) -> str:
        seats = []
        for s in table.seats:
            again = Seat(s.kind, s.name, s.bot, s.token_hash, account_id=s.account_id)
            if again.kind == "person" and again.taken:
                again.away_since = time.monotonic()
            seats.append(again)
        asker = table.seats[conn.seat] if conn.seat is not None else None
        keys = self.m.owners(conn.client, asker.account_id if asker else None)
        reservation = await self.m.caps.reserve(keys, self.m.playing())
        try:
            old = table.id
            made = await self.m.open_table(
                table.spec, table.match.players, dict(table.options), seats,
                dict(table.settings), conn.client, keys,
                also=lambda s, new_id: s.add(RematchRow(table_id=old, next_id=new_id)))
        finally:
            await self.m.caps.release(keys, reservation)
        return made.id

    def forget(self, table_id: str) -> None:
        self._locks.pop(table_id, None)
