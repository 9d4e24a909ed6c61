"""Table chat: the seated players talk; everyone at the table (spectators too) reads.

``{"type": "chat", "text": "…"}`` from a seat's connection; every connection at the table
gets ``{"type": "chat", "line": {"seat", "name", "text", "at"}}``, and a connection gets the
latest lines (``chat_history``) when it says hello. A line is at most ``MAX_CHAT``
characters, NFC, its spaces collapsed; a control, direction-override or invisible character
is refused, saying which. A seat may say ``RATE`` lines a second (a burst of ``BURST``). The
page draws text as text (never as HTML) and lets a person mute a seat. Lines are kept in the
database (a restart, a reload and the other servers show them) and never in the match's
record.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections import deque
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import DateTime, ForeignKey, Integer, String, select
from sqlalchemy.orm import Mapped, mapped_column

from koloda.web.conn import Conn
from koloda.web.limits import Bucket, Said, bad_name_char
from koloda.web.persist import WebBase, now
from koloda.web.protocol import Refusal
from koloda.web.table import Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager

#: characters of one line
MAX_CHAT = 200
#: lines a seat may say a second, and at once
RATE, BURST = 0.5, 5
#: lines a connection gets when it says hello
HISTORY = 50
#: the invisible characters a line may hold: the joiners emoji (👨‍👩‍👧) and some scripts
#: are written with
JOINERS = frozenset("\u200c\u200d")


class ChatLine(WebBase):
    __tablename__ = "web_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(String(MAX_CHAT * 4))
    at: Mapped[datetime] = mapped_column(DateTime)


def check_line(text: Any) -> str | Said:
    """The line as the table shows it, or why not."""
    if not isinstance(text, str) or not text.strip():
        return Said("chat_empty")
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if len(text) > MAX_CHAT:
        return Said("chat_too_long", n=MAX_CHAT)
    for pos, ch in enumerate(text, 1):
        if ch in JOINERS:
            continue
        bad = bad_name_char(ch)
        if bad is not None:
            return Said("chat_bad_char", **{**bad.args, "pos": pos})
    return text


def _json(row: ChatLine | dict[str, Any]) -> dict[str, Any]:
    if isinstance(row, dict):
        return row
    return {"seat": row.seat, "name": row.name, "text": row.text,
            "at": row.at.isoformat(timespec="seconds") + "Z"}


class ChatDesk:
    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        self._buckets: dict[tuple[str, int], Bucket] = {}
        #: the latest lines of each table this server has shown
        self._lines: dict[str, deque[dict[str, Any]]] = {}

    async def say(self, table: Table, conn: Conn, text: Any, msg_id: Any) -> Refusal | None:
        """Store and show ``conn``'s seat's line (None), or why not (nothing changes)."""
        seat = conn.seat
        if seat is None:
            return Refusal("chat_seats_only", Said("chat_seats_only"), msg_id)
        line = check_line(text)
        if isinstance(line, Said):
            return Refusal("chat_refused", line, msg_id)
        bucket = self._buckets.setdefault((table.id, seat), Bucket(RATE, BURST))
        if not bucket.take():
            return Refusal("rate_limited", Said("chat_too_fast", s=max(1, round(
                bucket.wait()))), msg_id)
        name = table.seats[seat].name or f"Player {seat + 1}"
        row = {"seat": seat, "name": name, "text": line,
               "at": now().isoformat(timespec="seconds") + "Z"}
        table_id = table.id
        at = now()
        await self.m.writer.run(lambda s: s.add(ChatLine(table_id=table_id, seat=seat,
                                                         name=name, text=line, at=at)))
        self.show(table, row)
        self.m.cluster.publish({"t": "chat", "table": table.id, "line": row})
        return None

    def show(self, table: Table, line: dict[str, Any]) -> None:
        """A line to every connection at the table on this server."""
        lines = self._lines.get(table.id)
        if lines is not None:
            lines.append(line)
        frame = {"type": "chat", "line": line}
        for c in list(table.conns):
            c.push_json(frame)

    async def history(self, table: Table, conn: Conn) -> None:
        """The latest lines to a connection that just said hello."""
        lines = self._lines.get(table.id)
        if lines is None:
            rows = await asyncio.to_thread(self._load, table.id)
            lines = self._lines.setdefault(table.id, deque(rows, maxlen=HISTORY))
        if lines:
            conn.push_json({"type": "chat_history", "lines": list(lines)})

    def _load(self, table_id: str) -> list[dict[str, Any]]:
        with self.m.sessions() as s:
            rows = s.scalars(select(ChatLine).where(ChatLine.table_id == table_id)
                             .order_by(ChatLine.id.desc()).limit(HISTORY))
            return [_json(r) for r in reversed(list(rows))]

    def forget(self, table_id: str) -> None:
        """A table left memory: its lines and rates too."""
        self._lines.pop(table_id, None)
        for key in [k for k in self._buckets if k[0] == table_id]:
            del self._buckets[key]
