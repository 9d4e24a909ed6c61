"""The caps on making tables: the server's number of tables in play, each client's
(its address and, signed in, its account), and the rate each of them may create at.
"""

from __future__ import annotations

from koloda.web.checks import TableError
from koloda.web.limits import Limits, Rates
from koloda.web.table import Table


def owners(client: str | None, account_id: int | None) -> tuple[str, ...]:
    """What a creation counts against: the address and, signed in, the account (one
    account from many addresses is one client; many people behind one address each
    have their account's share only once the address's is not used up)."""
    keys = (client or "?",)
    return keys if account_id is None else (*keys, f"account:{account_id}")


class CreationCaps:
    """Creations counted against the caps, exactly however many requests come at once."""

    def __init__(self, limits: Limits, rates: Rates) -> None:
        self.limits = limits
        #: how fast each client creates (``koloda.web.limits.Rates``: shared by the
        #: servers on one Redis)
        self.rates = rates
        #: creations under way (checked, not yet stored): counted against the caps, so
        #: concurrent requests cannot overshoot them
        self._creating = 0
        self._creating_by: dict[str, int] = {}
        #: tables in play per creating address
        self._by_client: dict[str, set[str]] = {}

    def reserve(self, keys: tuple[str, ...], playing: int) -> None:
        """Count a creation against the server's cap (``playing``: the tables in play
        now) and each of the client's keys, or say which is full. Synchronous (no await
        between the check and the count), so the caps are exact however many requests
        come at once."""
        lim = self.limits
        if playing + self._creating >= lim.max_tables:
            raise TableError("server_full", 503)
        for key in keys:
            mine = len(self._by_client.get(key, ())) + self._creating_by.get(key, 0)
            if mine >= lim.tables_per_client:
                raise TableError("too_many_tables", 429, n=lim.tables_per_client)
        self._creating += 1
        for key in keys:
            self._creating_by[key] = self._creating_by.get(key, 0) + 1

    async def count_rate(self, keys: tuple[str, ...]) -> None:
        """Count a creation (reserved) against each key's rate, or say how long to wait."""
        for key in keys:
            wait = await self.rates.creation(key)
            if wait:
                err = TableError("creating_too_fast", 429, s=max(1, round(wait)))
                err.retry_after = wait
                raise err

    def release(self, keys: tuple[str, ...]) -> None:
        self._creating -= 1
        for key in keys:
            left = self._creating_by.get(key, 1) - 1
            if left > 0:
                self._creating_by[key] = left
            else:
                self._creating_by.pop(key, None)

    def opened(self, table: Table) -> None:
        """A table made: it counts against its owners while it is in play."""
        for key in table.owners:
            self._by_client.setdefault(key, set()).add(table.id)

    def left_play(self, table: Table) -> None:
        """A table left play (finished or abandoned): its creator may make another."""
        for key in table.owners:
            mine = self._by_client.get(key)
            if mine is not None:
                mine.discard(table.id)
                if not mine:
                    del self._by_client[key]
