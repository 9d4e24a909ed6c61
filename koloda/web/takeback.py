"""A takeback against computers: the seat's own last move in the current deal, and every
computer's move since, undone.

Only where every other seat is a computer (``Table.solo``), never once the match is over
and never past the start of the deal. It is stored like an action — ``takeback N`` at the
table's version, N the actions it undoes — so the database's actions only grow, two
servers can never store different actions at one version, and a restart or another
server replays it the same way (the match is played again from its seed up to there).
The finished record holds the line played to the end, and says ``"takebacks": n`` on the
seat; a match with takebacks or hints is not rated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from koloda.engine.messages import Reason
from koloda.web.conn import Conn
from koloda.web.limits import Said
from koloda.web.protocol import Refusal
from koloda.web.table import TAKEBACK, Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager


async def take_back(manager: TableManager, table: Table, seat: int | None, version: int,
                    conn: Conn | None = None, msg_id: Any = None) -> Refusal | str:
    """Undo ``seat``'s last move (and the computers' since) if it may; the stored text
    (``takeback N``), or the refusal (nothing changes)."""
    async with table.lock:
        if table.abandoned:
            return Refusal("abandoned", manager.sweeper.abandoned_text(table), msg_id)
        if seat is None:
            return Refusal("spectator", Reason("spectator"), msg_id)
        if table.match.is_over:
            return Refusal("over", Reason("match_over"), msg_id)
        if version != table.version:
            return Refusal("stale", Reason("stale", seen=version, now=table.version), msg_id)
        if not table.solo():
            return Refusal("no_takeback", Said("no_takeback_here"), msg_id)
        if table.seats[seat].left:
            return Refusal("seat_given_up", Said("seat_given_up"), msg_id)
        n = table.takeback_size(seat)
        if n == 0:
            return Refusal("nothing_to_take_back", Said("nothing_to_take_back"), msg_id)
        stored = await manager.store_and_apply(table, seat, version, f"{TAKEBACK} {n}",
                                               conn, msg_id, None)
    if isinstance(stored, Refusal):
        return stored
    table.broadcast_state()
    table.broadcast_seats()
    manager.drive(table)
    return stored
