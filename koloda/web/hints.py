"""The browser's hint: what the game's strongest computer player would play for the seat
that asks (the terminal's ``h``), with its values of its top moves.

Asked over the websocket (``{"type": "hint", "version": N}``) by a seat that is to move, at
a table where every other seat is a computer (``Table.hint_bot``). The bot reads only that
seat's observation and runs in the bot pool beside the computers' moves; the answer goes to
the asking connection alone, through the same last check as every frame, and the seat's
count of hints is stored (the record says ``"hints": n`` on the seat, as the terminal's).
A hint changes nothing in the game.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import update

from koloda.engine.turns import TurnRefused, check_seat_to_move
from koloda.web.conn import Conn
from koloda.web.limits import Said
from koloda.web.persist import LiveSeat
from koloda.web.protocol import Refusal
from koloda.web.table import Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager

log = logging.getLogger("koloda.web")


class HintDesk:
    """Answers hints, one at a time per seat."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager
        #: (table, seat) whose hint is being thought about
        self.asking: set[tuple[str, int]] = set()
        self.given = 0
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, table: Table, conn: Conn, version: int, msg_id: Any) -> None:
        """Answer in the background: the connection goes on reading (the seat may move
        while the bot thinks; the hint then is no longer sent)."""
        task = asyncio.create_task(self._answer(table, conn, version, msg_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, table: Table, conn: Conn, version: int, msg_id: Any) -> None:
        refusal = await self.ask(table, conn, version, msg_id)
        if refusal is not None and not conn.dead:
            self.m.send(table, conn, refusal.to_json(table.version))

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    async def ask(self, table: Table, conn: Conn, version: int, msg_id: Any) -> Refusal | None:
        """Think about a hint for ``conn``'s seat at ``version`` and send it (None), or
        the reason there is none (a refusal to send; nothing changes)."""
        m = table.match
        try:
            seat = check_seat_to_move(m, conn.seat, seen=version, version=table.version)
        except TurnRefused as exc:
            return Refusal(exc.code, exc.reason, msg_id)
        if table.seats[seat].left:
            return Refusal("seat_given_up", Said("seat_given_up"), msg_id)
        bot = table.hint_bot()
        if bot is None:
            return Refusal("no_hint", Said("no_hint_here"), msg_id)
        key = (table.id, seat)
        if key in self.asking:
            return Refusal("hint_busy", Said("hint_busy"), msg_id)
        self.asking.add(key)
        try:
            legal = list(m.legal_actions())
            seed = (table.seed + version * 7919) % 2**63
            try:
                found = await self.m.pool.advise(table.spec.name, m.observation(seat), legal,
                                                 seed, len(m.history))
            except Exception as exc:
                log.warning("table %s: no hint for seat %d: %s", table.id, seat + 1, exc)
                return Refusal("hint_failed", Said("hint_failed"), msg_id)
        finally:
            self.asking.discard(key)
        if found is None:
            return Refusal("no_hint", Said("no_hint_here"), msg_id)
        if table.version != version or table.match.to_move != seat or conn.dead:
            return None             # the game moved on while it thought: no longer asked
        table.seats[seat].hints += 1
        table_id = table.id
        await self.m.writer.run(lambda s: s.execute(
            update(LiveSeat).where(LiveSeat.table_id == table_id, LiveSeat.seat == seat)
            .values(hints=LiveSeat.hints + 1)))
        self.given += 1
        out = {"type": "hint", "version": version, **found}
        if msg_id is not None:
            out["id"] = msg_id
        self.m.send(table, conn, out)
        return None
