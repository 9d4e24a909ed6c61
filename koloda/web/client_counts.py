"""What each client (its address and, signed in, its account) holds now: tables in play
it made, creations under way, websockets open — counted where the caps of
``koloda.web.caps`` look.

``LocalCounts`` is one server alone (SQLite): counts in this process. ``RedisCounts`` is
the servers of one cluster (``--redis``): counts in Redis, so a client's share is the same
whichever server it reaches and whatever server restarts. Each check-and-count is one Lua
script (atomic in Redis: many servers at once cannot overshoot a cap), and every time is
Redis's own clock (``TIME``), never compared with a server's:

- a table in play is a member of its owner's sorted set, removed when the table leaves
  play (finished, abandoned) by whichever server sees it go; the owners of each table are
  kept beside it, so a server that took the table over removes it too. A member older
  than ``TABLE_AT_MOST`` is not counted (a table whose end was never seen cannot hold a
  client's share for ever);
- a creation under way holds a place for ``CREATING_AT_MOST`` seconds at most (a server
  that dies between the check and the table leaves nothing behind);
- a websocket is a member whose score is when it expires: its server renews every
  connection it holds every ``CONN_RENEW`` seconds, so the connections of a server that
  died stop counting ``CONN_TTL`` seconds later.

Redis out of reach lets the client through (logged), never stops play — as the rates do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("koloda.web")

#: the prefix of every key
PREFIX = "koloda:caps:"
#: seconds a table counts against its owner at most (a day: no table is played longer
#: without an action, ``Limits.idle_timeout`` abandons it long before)
TABLE_AT_MOST = 86400
#: seconds a creation under way holds its place at most
CREATING_AT_MOST = 30
#: seconds a websocket counts after its server last renewed it, and between renewals
CONN_TTL = 30
CONN_RENEW = 10.0

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
"""

#: KEYS: (tables, creating) per owner key; ARGV: cap, reservation id, hold, age.
#: 0: counted; i: the i-th owner key is full
_RESERVE_LUA = _NOW + """
local cap = tonumber(ARGV[1])
for i = 1, #KEYS, 2 do
  redis.call('zremrangebyscore', KEYS[i], '-inf', now - tonumber(ARGV[4]))
  redis.call('zremrangebyscore', KEYS[i + 1], '-inf', now)
  if redis.call('zcard', KEYS[i]) + redis.call('zcard', KEYS[i + 1]) >= cap then
    return (i + 1) / 2
  end
end
for i = 1, #KEYS, 2 do
  redis.call('zadd', KEYS[i + 1], now + tonumber(ARGV[3]), ARGV[2])
  redis.call('expire', KEYS[i + 1], math.ceil(tonumber(ARGV[3])) + 1)
end
return 0
"""

#: KEYS: the table's owners set, then each owner's tables set; ARGV: table id, age
_OPENED_LUA = _NOW + """
for i = 2, #KEYS do
  redis.call('zadd', KEYS[i], now, ARGV[1])
  redis.call('expire', KEYS[i], tonumber(ARGV[2]))
  redis.call('sadd', KEYS[1], KEYS[i])
end
redis.call('expire', KEYS[1], tonumber(ARGV[2]))
return 0
"""

#: KEYS: the table's owners set; ARGV: table id. Idempotent (every server may say it)
_LEFT_LUA = """
for _, key in ipairs(redis.call('smembers', KEYS[1])) do
  redis.call('zrem', key, ARGV[1])
end
return redis.call('del', KEYS[1])
"""

#: KEYS: each owner's connections set; ARGV: cap, connection id, ttl. 0: counted
_CONNECT_LUA = _NOW + """
local cap = tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('zremrangebyscore', KEYS[i], '-inf', now)
  if redis.call('zcard', KEYS[i]) >= cap then return i end
end
for i = 1, #KEYS do
  redis.call('zadd', KEYS[i], now + tonumber(ARGV[3]), ARGV[2])
  redis.call('expire', KEYS[i], tonumber(ARGV[3]) + 1)
end
return 0
"""

#: KEYS: connections sets; ARGV: ttl, then the connection id of each key in turn
_RENEW_LUA = _NOW + """
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('zadd', KEYS[i], 'XX', now + ttl, ARGV[i + 1])
  redis.call('expire', KEYS[i], ttl + 1)
end
return 0
"""


class LocalCounts:
    """One server's counts, in its memory."""

    shared = False

    def __init__(self) -> None:
        #: tables in play per owner key
        self._tables: dict[str, set[str]] = {}
        #: creations under way per owner key
        self._creating: dict[str, int] = {}
        #: websockets open per owner key
        self._conns: dict[str, int] = {}

    async def start(self, namespace: str = "") -> None:
        return None

    async def close(self) -> None:
        return None

    async def reserve(self, keys: tuple[str, ...], cap: int) -> tuple[int | None, str]:
        """Count a creation against each key unless one has ``cap`` tables in play or
        under way: (the full key's index or None, the reservation)."""
        for i, key in enumerate(keys):
            if len(self._tables.get(key, ())) + self._creating.get(key, 0) >= cap:
                return i, ""
        for key in keys:
            self._creating[key] = self._creating.get(key, 0) + 1
        return None, "local"

    async def release(self, keys: tuple[str, ...], reservation: str) -> None:
        if not reservation:
            return
        for key in keys:
            _down(self._creating, key)

    async def opened(self, table_id: str, keys: tuple[str, ...]) -> None:
        for key in keys:
            self._tables.setdefault(key, set()).add(table_id)

    async def left_play(self, table_id: str, keys: tuple[str, ...]) -> None:
        for key in keys:
            mine = self._tables.get(key)
            if mine is not None:
                mine.discard(table_id)
                if not mine:
                    del self._tables[key]

    async def connect(self, keys: tuple[str, ...], cap: int) -> str | None:
        """Count a websocket against each key unless one has ``cap`` open: its id, or
        None (refused)."""
        if any(self._conns.get(k, 0) >= cap for k in keys):
            return None
        for key in keys:
            self._conns[key] = self._conns.get(key, 0) + 1
        return "local"

    async def disconnect(self, keys: tuple[str, ...], conn_id: str) -> None:
        for key in keys:
            _down(self._conns, key)

def _down(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 1) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


class RedisCounts(LocalCounts):
    """The counts of every server on one Redis."""

    shared = True

    def __init__(self, url: str, conn_ttl: int = CONN_TTL,
                 conn_renew: float = CONN_RENEW) -> None:
        super().__init__()
        self.conn_ttl, self.conn_renew = conn_ttl, conn_renew
        import redis.asyncio as aioredis
        self._redis = aioredis.from_url(url)
        self._server = secrets.token_hex(6)
        self._serial = 0
        self._reserve = self._redis.register_script(_RESERVE_LUA)
        self._opened = self._redis.register_script(_OPENED_LUA)
        self._left = self._redis.register_script(_LEFT_LUA)
        self._connect = self._redis.register_script(_CONNECT_LUA)
        self._renew = self._redis.register_script(_RENEW_LUA)
        #: this server's open websockets: id -> their owner keys (renewed in Redis)
        self._open: dict[str, tuple[str, ...]] = {}
        self._renewer: asyncio.Task[None] | None = None
        self._complained = 0.0
        self._ns = ""

    async def start(self, namespace: str = "") -> None:
        """Begin renewing; ``namespace``: the database's cluster id (``persist.
        cluster_id``), so deployments sharing one Redis never count each other's."""
        self._ns = f"{namespace}:" if namespace else ""
        self._renewer = asyncio.create_task(self._renew_forever())

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._renewer
        try:
            await self._redis.aclose()
        except Exception as exc:  # pragma: no cover - closing a dead connection
            log.debug("caps' Redis not closed: %s", exc)

    def _key(self, kind: str, key: str) -> str:
        """The Redis key of ``kind`` (tables, creating, conns; owners: of a table id)."""
        return f"{PREFIX}{self._ns}{kind}:{key}"

    def _id(self) -> str:
        self._serial += 1
        return f"{self._server}:{self._serial}"

    def _unreachable(self, exc: BaseException) -> None:
        now = time.monotonic()
        if now - self._complained > 10:
            self._complained = now
            log.error("client caps not counted (%s); let through meanwhile", exc)

    async def reserve(self, keys: tuple[str, ...], cap: int) -> tuple[int | None, str]:
        rid = self._id()
        names = [n for k in keys for n in (self._key('tables', k), self._key('creating', k))]
        try:
            full = int(await self._reserve(keys=names,
                                           args=[cap, rid, CREATING_AT_MOST, TABLE_AT_MOST]))
        except Exception as exc:
            self._unreachable(exc)
            return None, ""
        return (full - 1, "") if full else (None, rid)

    async def release(self, keys: tuple[str, ...], reservation: str) -> None:
        if not reservation:
            return
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zrem(self._key('creating', key), reservation)
                await pipe.execute()
        except Exception as exc:     # it expires by itself in CREATING_AT_MOST
            self._unreachable(exc)

    async def opened(self, table_id: str, keys: tuple[str, ...]) -> None:
        if not keys:
            return
        try:
            await self._opened(keys=[self._key('owners', table_id),
                                     *(self._key('tables', k) for k in keys)],
                               args=[table_id, TABLE_AT_MOST])
        except Exception as exc:
            self._unreachable(exc)

    async def left_play(self, table_id: str, keys: tuple[str, ...]) -> None:
        try:
            await self._left(keys=[self._key('owners', table_id)], args=[table_id])
        except Exception as exc:     # it stops counting after TABLE_AT_MOST
            self._unreachable(exc)

    async def connect(self, keys: tuple[str, ...], cap: int) -> str | None:
        cid = self._id()
        try:
            full = int(await self._connect(keys=[self._key('conns', k) for k in keys],
                                           args=[cap, cid, self.conn_ttl]))
        except Exception as exc:
            self._unreachable(exc)
            full = 0
        if full:
            return None
        self._open[cid] = keys
        return cid

    async def disconnect(self, keys: tuple[str, ...], conn_id: str) -> None:
        self._open.pop(conn_id, None)
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zrem(self._key('conns', key), conn_id)
                await pipe.execute()
        except Exception as exc:     # it stops counting after CONN_TTL
            self._unreachable(exc)

    async def renew(self) -> None:
        """Renew every websocket this server holds (every ``conn_renew`` seconds)."""
        pairs = [(self._key('conns', k), cid) for cid, keys in list(self._open.items())
                 for k in keys]
        for chunk in _chunks(pairs, 500):
            await self._renew(keys=[k for k, _ in chunk],
                              args=[self.conn_ttl, *(cid for _, cid in chunk)])

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.conn_renew)
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._unreachable(exc)

    async def count(self, kind: str, key: str) -> int:
        """What Redis counts for ``key`` now (``kind``: tables, creating or conns; by
        Redis's clock)."""
        name = self._key(kind, key)
        low = f"now - {TABLE_AT_MOST}" if kind == "tables" else "now"
        script = _NOW + f"return redis.call('zcount', KEYS[1], {low}, '+inf')"
        return int(await self._redis.eval(script, 1, name))


def _chunks(items: list[Any], n: int) -> Iterable[list[Any]]:
    for i in range(0, len(items), n):
        yield items[i:i + n]


def make_counts(redis_url: str | None) -> LocalCounts:
    """The counts for a server: in Redis with ``redis_url``, else in this process."""
    return RedisCounts(redis_url) if redis_url else LocalCounts()
