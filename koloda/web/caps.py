"""The caps on making tables and opening websockets: the server's number of tables in
play, each client's (its address and, signed in, its account) tables and websockets —
counted over every server of a cluster — and the rate each of them may create at.
"""

from __future__ import annotations

from koloda.web.checks import TableError
from koloda.web.client_counts import LocalCounts
from koloda.web.limits import Limits, Rates
from koloda.web.table import Table


def owners(client: str | None, account_id: int | None) -> tuple[str, ...]:
    """What a creation counts against: the address and, signed in, the account (one
    account from many addresses is one client; many people behind one address each
    have their account's share only once the address's is not used up)."""
    keys = (client or "?",)
    return keys if account_id is None else (*keys, f"account:{account_id}")


class CreationCaps:
    """Creations and websockets counted against the caps, exactly however many requests
    come at once: the server's own cap here, each client's in ``counts``
    (``koloda.web.client_counts``: in Redis with other servers, so a client's share is
    one whichever server it reaches)."""

    def __init__(self, limits: Limits, rates: Rates, counts: LocalCounts) -> None:
        self.limits = limits
        #: how fast each client creates (``koloda.web.limits.Rates``: shared by the
        #: servers on one Redis)
        self.rates = rates
        #: what each client holds now: tables in play, creations under way, websockets
        self.counts = counts
        #: creations under way on this server (checked, not yet stored): counted against
        #: its cap, so concurrent requests cannot overshoot it
        self._creating = 0

    async def reserve(self, keys: tuple[str, ...], playing: int) -> str:
        """Count a creation against the server's cap (``playing``: the tables in play
        on it now) and each of the client's keys, or say which is full; returns the
        reservation, for :meth:`release`. The server's count is taken before any await,
        so it is exact however many requests come at once; the client's is one atomic
        check-and-count in ``counts``."""
        lim = self.limits
        if playing + self._creating >= lim.max_tables:
            raise TableError("server_full", 503)
        self._creating += 1
        try:
            full, reservation = await self.counts.reserve(keys, lim.tables_per_client)
        except BaseException:
            self._creating -= 1
            raise
        if full is not None:
            self._creating -= 1
            raise TableError("too_many_tables", 429, n=lim.tables_per_client)
        return reservation

    async def count_rate(self, keys: tuple[str, ...]) -> None:
        """Count a creation (reserved) against each key's rate, or say how long to wait."""
        for key in keys:
            wait = await self.rates.creation(key)
            if wait:
                err = TableError("creating_too_fast", 429, s=max(1, round(wait)))
                err.retry_after = wait
                raise err

    async def release(self, keys: tuple[str, ...], reservation: str) -> None:
        self._creating -= 1
        await self.counts.release(keys, reservation)

    async def opened(self, table: Table) -> None:
        """A table made: it counts against its owners while it is in play."""
        await self.counts.opened(table.id, table.owners)

    async def left_play(self, table: Table) -> None:
        """A table left play (finished or abandoned): its creator may make another
        (said by every server that sees it go: counting it out twice is nothing)."""
        await self.counts.left_play(table.id, table.owners)

    async def connect(self, keys: tuple[str, ...]) -> str | None:
        """Count a websocket against each key: its id, or None when one of them has
        ``connections_per_client`` open already."""
        return await self.counts.connect(keys, self.limits.connections_per_client)

    async def disconnect(self, keys: tuple[str, ...], conn_id: str) -> None:
        await self.counts.disconnect(keys, conn_id)
