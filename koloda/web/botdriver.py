"""The computers' moves: a computer seat, or a person's seat whose person has been away
longer than the table's ``away_timeout`` (the stand-in), is played by a bot in the worker
pool, through the same ``TableManager.submit`` as a person's move.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import TYPE_CHECKING

from sqlalchemy import update

from koloda.web.bots import NOBODY, PEOPLE, SEATED
from koloda.web.limits import Said
from koloda.web.persist import LiveSeat
from koloda.web.protocol import Refusal
from koloda.web.table import LEAVER_STRIKES, Table

if TYPE_CHECKING:
    from koloda.web.tables import TableManager

log = logging.getLogger("koloda.web")

#: seconds before a computer's move that failed is tried again
BOT_RETRY = 1.0


class BotDriver:
    """Starts a table's next computer move when a computer (or a stand-in) is to move,
    and only on the server that holds the table's lease; one move at a time per table."""

    def __init__(self, manager: TableManager) -> None:
        self.m = manager

    def _bot_for(self, table: Table, seat: int) -> str | None:
        s = table.seats[seat]
        if s.kind == "computer":
            return s.bot or "random"
        st = table.settings
        if s.left:
            return str(st["away_bot"])      # given up: the computer plays it to the end
        if s.taken and not s.connected and st["away_policy"] == "computer" \
                and s.away_since is not None \
                and time.monotonic() - s.away_since >= st["away_timeout"]:
            if not s.struck:
                self._strike(table, seat)
            return str(st["away_bot"])
        return None

    def _strike(self, table: Table, seat: int) -> None:
        """One more time a computer stands in for this seat's away person; the last one
        gives the seat up for the rest of the match (stored, so a restart keeps it)."""
        s = table.seats[seat]
        s.struck = True
        s.strikes += 1
        s.left = s.strikes >= LEAVER_STRIKES
        table_id, strikes, left = table.id, s.strikes, s.left
        if left:
            table._cache.pop(seat, None)     # its person is shown no more moves
        self.m.spawn(self.m.writer.run(lambda db: db.execute(
            update(LiveSeat).where(LiveSeat.table_id == table_id, LiveSeat.seat == seat)
            .values(strikes=strikes, left=left))))
        table.broadcast_seats()

    @staticmethod
    def _priority(table: Table) -> int:
        """How urgent a computer's move at ``table`` is for the bot scheduler."""
        if any(s.kind == "person" and s.connected for s in table.seats):
            return PEOPLE
        if table.conns or table.remote_spectators \
                or any(s.kind == "person" and s.taken for s in table.seats):
            return SEATED
        return NOBODY

    def kick(self, table: Table) -> None:
        """Start the computer's move if a computer (or a stand-in) is to move."""
        if table.bot_task is not None and not table.bot_task.done():
            if table.bot_version == table.version or table.bot_submitting:
                return
            # still thinking about a state that is gone (the person came back and
            # moved): not needed — stopped before it stores anything
            table.bot_task.cancel()
            table.bot_task = None
        m = table.match
        seat = m.to_move
        if m.is_over or seat is None or table.closed or not self.m.cluster.holds(table.id):
            return
        spec = self._bot_for(table, seat)
        if spec is None:
            return
        table.bot_version, table.bot_submitting = table.version, False
        table.bot_task = asyncio.create_task(self._bot_move(table, seat, spec))

    async def _bot_move(self, table: Table, seat: int, spec: str) -> None:
        """One computer move. ``table.bot_task`` stays set until the move is stored (so
        the ticker cannot start a second stand-in during the commit); then the next
        computer move, if any, is started here — by this task's own ``finally``."""
        me = asyncio.current_task()
        failed = False
        try:
            await self._bot_decide_and_submit(table, seat, spec)
        except Exception:
            failed = True
            log.exception("table %s: the computer's move failed; tried again in %.0f s",
                          table.id, BOT_RETRY)
        finally:
            if table.bot_task is me:
                table.bot_task = None
            if not self.m.stopping:
                if failed:      # not at once: a move that fails every time must not spin
                    asyncio.get_running_loop().call_later(BOT_RETRY, self.kick, table)
                else:
                    self.kick(table)

    async def _bot_decide_and_submit(self, table: Table, seat: int, spec: str) -> None:
        start = time.monotonic()
        version = table.version
        m = table.match
        legal = list(m.legal_actions())
        seed = (table.seed + version * 7919) % 2**63
        notice = None
        priority = self._priority(table)
        try:
            decision = await self.m.pool.decide(spec, table.spec.name, m.observation(seat),
                                              legal, seed, priority)
            action = decision.action
            if decision.fallback == "overloaded" and priority < NOBODY:
                notice = Said("overloaded", seat=seat + 1)
        except Exception:
            log.exception("table %s: bot %s failed; a random legal action instead",
                          table.id, spec)
            action = random.Random(seed).choice(legal)
        wait = self.m.bot_delay - (time.monotonic() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        person = table.seats[seat]
        if person.kind == "person" and person.connected and not person.left:
            return  # the person came back while the stand-in was thinking
        if table.version != version:
            return  # the person came back and moved meanwhile
        if table.bot_task is asyncio.current_task():
            table.bot_submitting = True     # from now on never cancelled but by stop()
        fence = self.m.cluster.token(table.id)
        if fence is None and self.m.cluster.shared:
            return  # the lease ran out meanwhile: its new holder plays this move
        result = await self.m.submit(table, seat, version, action, notice=notice,
                                     fence=fence)
        if isinstance(result, Refusal) and result.code not in ("stale", "abandoned"):
            log.error("table %s: bot %s refused: %s", table.id, spec, result.reason)
