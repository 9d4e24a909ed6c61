"""Many servers, one set of tables: what the servers tell each other, and who drives what.

The database is the authority on what happened (an action is accepted by the insert of its
row at its index, which is unique per table: two servers can never both accept a move at
the same index). This module carries the rest:

- **news**: every accepted action, seat taken, table created, finished or abandoned, and
  each server's presence (how many connections watch or sit at each seat) goes to every
  other server, which applies it to its own copy of the table and tells its connections;
- **leases**: each table is driven (its computers' moves, its away timeouts, its idleness,
  storing its end) by the one server that holds its lease. A lease is a Redis key that
  expires by itself (``PX``, Redis's own clock) ``LEASE`` seconds after it was last
  renewed; it is renewed and given up only by compare-and-extend / compare-and-delete
  scripts (still ours?), and when a server dies its leases run out and another server's
  sweeper takes the tables over;
- **fencing tokens**: every acquisition of a table's lease gets the next number of the
  table's counter (``INCR``), never one given before. Whatever the lease holder writes
  for the table (its computers' moves, the end, giving it up) carries that token, and the
  database refuses a token lower than the highest it has seen for the table
  (``koloda.web.persist.claim_fence``): a server that was paused past its lease and wakes
  up believing it still drives the table cannot write over the new holder. Its own
  deadline (``holds``, counted on its monotonic clock, never compared with another
  machine's) only makes it stop early.

``LocalCluster`` is one process alone (SQLite, the default): it holds every lease and has
nobody to tell. ``RedisCluster`` uses Redis pub/sub for the news and ``SET NX PX`` keys
for the leases (``pip install 'koloda[cluster]'``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import orjson

log = logging.getLogger("koloda.web.cluster")

#: seconds a lease lasts unless renewed
LEASE = 5.0
#: seconds between two renewals of every lease held (well inside ``LEASE``)
RENEW = 1.5
#: the channel every server publishes its news on and listens to
CHANNEL = "koloda:news"
#: seconds between two reminders of a server's connections (presence), and after which
#: a server not heard from is taken to have none (it died)
PRESENCE_EVERY = 2.0
PRESENCE_GONE = 6.0
#: seconds between two sweeps: tables nobody holds a lease on are taken over, copies
#: behind the database caught up
SWEEP = 1.0
LEASE_KEY = "koloda:lease:"
#: the table's fencing counter (``INCR`` at each acquisition; never expires)
FENCE_KEY = "koloda:fence:"

Handler = Callable[[dict[str, Any]], Awaitable[None]]

#: take a free lease with the next fencing token (the lease's value: ``server:token``),
#: or extend ours; 0: another server holds it. ARGV: server, ms, the lowest token the
#: caller knows the database has seen (a counter behind it, e.g. after a Redis restart,
#: is moved past it)
_ACQUIRE_LUA = """
local v = redis.call('get', KEYS[1])
if not v then
  local token = redis.call('incr', KEYS[2])
  local floor = tonumber(ARGV[3])
  if token <= floor then
    token = floor + 1
    redis.call('set', KEYS[2], token)
  end
  redis.call('set', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
  return token
end
local sep = string.find(v, ':', 1, true)
if sep and string.sub(v, 1, sep - 1) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return tonumber(string.sub(v, sep + 1))
end
return 0
"""
#: renew a lease only if it is still ours (ARGV[1]: ``server:token``)
_RENEW_LUA = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
#: give a lease up only if it is still ours
_RELEASE_LUA = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


async def every(seconds: float, step: Callable[[], Awaitable[None]], what: str) -> None:
    """Run ``step`` every ``seconds`` until cancelled; a failing step is logged (``what``
    names it) and tried again next time: the sweepers of the tables and of play now."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s failed; again in %.1f s", what, seconds)


class LocalCluster:
    """One server alone: every lease is its own, nobody else to tell."""

    shared = False

    def __init__(self) -> None:
        self.server_id = secrets.token_hex(6)
        self.published = 0
        #: news kinds handled elsewhere than the tables (play now's): kind -> handler
        self.listeners: dict[str, Handler] = {}

    def listen(self, kind: str, handler: Handler) -> None:
        """Give the other servers' news of ``kind`` to ``handler`` (not the tables')."""
        self.listeners[kind] = handler

    async def start(self, on_news: Handler, on_lost: Callable[[str], None]) -> None:
        return None

    async def stop(self) -> None:
        return None

    def publish(self, news: dict[str, Any]) -> None:
        self.published += 1

    def holds(self, table_id: str) -> bool:
        return True

    async def acquire(self, table_id: str, floor: int = 0) -> bool:
        return True

    def token(self, table_id: str) -> int | None:
        """The fencing token of the lease held on ``table_id`` (None: alone, no fencing;
        or not held)."""
        return None

    def drop(self, table_id: str) -> None:
        """The database refused this server's token: another holds the lease now."""
        return None

    async def release(self, table_id: str) -> None:
        return None

    async def unleased(self, table_ids: Iterable[str]) -> list[str]:
        return []

    def held(self) -> list[str]:
        return []

    def stats(self) -> dict[str, Any]:
        return {"kind": "local", "server": self.server_id}


class RedisCluster(LocalCluster):
    """Servers on one Redis: news by pub/sub, leases as keys that expire."""

    shared = True

    def __init__(self, url: str, lease: float = LEASE, renew: float = RENEW) -> None:
        super().__init__()
        try:
            import redis.asyncio as aioredis
        except ModuleNotFoundError as exc:   # pragma: no cover - an install problem
            raise RuntimeError("--redis needs the redis package: "
                               "pip install 'koloda[cluster]'") from exc
        self.url = url
        self.lease = lease
        self.renew = renew
        self._redis = aioredis.from_url(url)
        self._outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        #: table id -> monotonic time until which the lease is surely ours
        self._held: dict[str, float] = {}
        #: table id -> the fencing token of the lease held
        self._tokens: dict[str, int] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._on_news: Handler | None = None
        self._on_lost: Callable[[str], None] | None = None
        self.received = 0
        self.lost = 0
        self._acquire_script: Any = None
        self._release_script: Any = None

    async def start(self, on_news: Handler, on_lost: Callable[[str], None]) -> None:
        self._on_news, self._on_lost = on_news, on_lost
        await self._redis.ping()
        self._acquire_script = self._redis.register_script(_ACQUIRE_LUA)
        self._release_script = self._redis.register_script(_RELEASE_LUA)
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(CHANNEL)
        self._tasks = [asyncio.create_task(self._listen(pubsub)),
                       asyncio.create_task(self._send()),
                       asyncio.create_task(self._renew_all())]

    async def stop(self) -> None:
        # what is still queued goes out first (a finish, the last presence)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._drain(), 2)
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        held = [(t, self._value(t)) for t in self._held]
        self._held.clear()
        self._tokens.clear()
        with contextlib.suppress(Exception):
            for table_id, value in held:   # the others need not wait for them to expire
                await self._release_script(keys=[LEASE_KEY + table_id], args=[value])
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    async def _drain(self) -> None:
        while not self._outbox.empty():
            await asyncio.sleep(0.01)

    # ----------------------------------------------------------------- news
    def publish(self, news: dict[str, Any]) -> None:
        """Queue ``news`` for every other server (sent in order, in batches)."""
        news["from"] = self.server_id
        self.published += 1
        self._outbox.put_nowait(news)

    async def _send(self) -> None:
        while True:
            first = await self._outbox.get()
            batch = [first]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            try:
                # one message for the whole batch: each server parses and dispatches
                # one reply however many actions it holds
                await self._redis.publish(CHANNEL, orjson.dumps(
                    {"from": self.server_id, "batch": batch},
                    option=orjson.OPT_NON_STR_KEYS))
            except Exception as exc:
                # the others catch up from the database (they see the version gap)
                log.error("news not published (%d): %s", len(batch), exc)
                await asyncio.sleep(0.5)

    async def _listen(self, pubsub: Any) -> None:
        assert self._on_news is not None
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    said = orjson.loads(message["data"])
                    if said.get("from") == self.server_id:
                        continue
                    for news in said.get("batch") or (said,):
                        self.received += 1
                        try:
                            await self.listeners.get(news.get("t"), self._on_news)(news)
                        except Exception:
                            log.exception("news %s could not be applied", news.get("t"))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("listening to the other servers failed (%s); again in 1 s", exc)
                await asyncio.sleep(1)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(CHANNEL)

    # --------------------------------------------------------------- leases
    def holds(self, table_id: str) -> bool:
        until = self._held.get(table_id)
        return until is not None and time.monotonic() < until

    def held(self) -> list[str]:
        return [t for t in self._held if self.holds(t)]

    def _value(self, table_id: str) -> str:
        return f"{self.server_id}:{self._tokens.get(table_id, 0)}"

    def token(self, table_id: str) -> int | None:
        return self._tokens.get(table_id) if self.holds(table_id) else None

    async def acquire(self, table_id: str, floor: int = 0) -> bool:
        """Take the table's lease if nobody holds it (or it is ours already); a new one
        comes with the table's next fencing token (above ``floor``)."""
        started = time.monotonic()
        ms = int(self.lease * 1000)
        token = int(await self._acquire_script(
            keys=[LEASE_KEY + table_id, FENCE_KEY + table_id],
            args=[self.server_id, ms, max(0, floor)]))
        if token:
            # ours until the lease's end as counted from before we asked, less a margin:
            # a server that cannot renew stops driving before the key expires in Redis
            # (and if it is too slow even so, the database refuses its token)
            self._held[table_id] = started + self.lease - 0.5
            self._tokens[table_id] = token
        return bool(token)

    def drop(self, table_id: str) -> None:
        if self._held.pop(table_id, None) is not None:
            self._tokens.pop(table_id, None)
            self.lost += 1
            log.warning("table %s: another server holds its lease now (fenced out)",
                        table_id)
            if self._on_lost is not None:
                self._on_lost(table_id)

    async def release(self, table_id: str) -> None:
        if self._held.pop(table_id, None) is not None:
            value = self._value(table_id)
            self._tokens.pop(table_id, None)
            with contextlib.suppress(Exception):
                await self._release_script(keys=[LEASE_KEY + table_id], args=[value])

    async def unleased(self, table_ids: Iterable[str]) -> list[str]:
        """Which of ``table_ids`` nobody holds a lease on."""
        ids = [t for t in table_ids if not self.holds(t)]
        if not ids:
            return []
        owners = await self._redis.mget([LEASE_KEY + t for t in ids])
        return [t for t, owner in zip(ids, owners, strict=True) if owner is None]

    async def _renew_all(self) -> None:
        ms = int(self.lease * 1000)
        while True:
            await asyncio.sleep(self.renew)
            ids = list(self._held)
            if not ids:
                continue
            started = time.monotonic()
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for t in ids:
                        pipe.eval(_RENEW_LUA, 1, LEASE_KEY + t, self._value(t), ms)
                    kept = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("leases not renewed: %s", exc)
                continue        # they run out by themselves (``holds`` says no)
            for t, ok in zip(ids, kept, strict=True):
                if t not in self._held:
                    continue
                if ok:
                    self._held[t] = started + self.lease - 0.5
                else:
                    del self._held[t]
                    self._tokens.pop(t, None)
                    self.lost += 1
                    log.warning("lease on table %s lost", t)
                    if self._on_lost is not None:
                        self._on_lost(t)

    def stats(self) -> dict[str, Any]:
        return {"kind": "redis", "server": self.server_id, "leases": len(self.held()),
                "published": self.published, "received": self.received,
                "leases_lost": self.lost}


def make_cluster(redis_url: str | None) -> LocalCluster:
    return RedisCluster(redis_url) if redis_url else LocalCluster()
