"""Computer seats: which bots a game offers, and a worker pool they think in.

A bot sees what a seat sees — the observation (plain JSON) and the legal actions — so a
decision can be computed in another process: the event loop hands it over and serves
every other table meanwhile. The random bot is too cheap to be worth a trip to a worker
and chooses on the spot.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import functools
import heapq
import logging
import multiprocessing
import os
import random
import select
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from koloda.bots import make_bot
from koloda.bots.base import Bot, person_time_cap
from koloda.bots.hint import hint, hint_bot
from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec

log = logging.getLogger("koloda.web")

#: the levels offered, weakest first (``make_bot`` decides which a game has)
LEVELS = ("random", "heuristic", "search:easy", "search:normal", "search:hard")
FALLBACK = "random"


@cache
def bots_for(game: str) -> tuple[str, ...]:
    """The levels ``make_bot`` accepts for ``game``."""
    out = []
    for spec in LEVELS:
        try:
            make_bot(spec, game)
        except ConfigError:
            continue
        out.append(spec)
    return tuple(out)


def resolve_bot(spec: str, game: str) -> tuple[str, str | None]:
    """``(bot, note)``: the bot to seat, and why it is not the one asked for."""
    spec = spec.strip().lower()
    try:
        make_bot(spec, game)
        return spec, None
    except ConfigError as exc:
        return FALLBACK, f"{spec}: {exc}; seated {FALLBACK} instead"


def time_budget(spec: str) -> float:
    """Seconds a level may think (its own budget); the pool waits a little longer."""
    cap = person_time_cap(spec)
    return 1.0 if cap is None else cap


_BOTS: dict[tuple[str, str], Bot] = {}


def choose(spec: str, game: str, observation: Mapping[str, Any], legal: list[str],
           seed: int) -> str:
    """A bot's decision (runs in a worker; each worker keeps its bots)."""
    bot = _BOTS.get((spec, game))
    if bot is None:
        bot = _BOTS[(spec, game)] = make_bot(spec, game, person_time_cap(spec))
    action = bot.choose(observation, legal, random.Random(seed))
    return action if action in legal else legal[0]


def advise(game: str, observation: Mapping[str, Any], legal: list[str], seed: int,
           ply: int) -> dict[str, Any] | None:
    """A hint for the seat whose observation this is (runs in a worker): the strongest
    bot's move and its top moves' values (:func:`koloda.bots.hint.hint`), as JSON."""
    found = hint(get_spec(game), observation, legal, seed, ply)
    return None if found is None else found.to_json()


def _watch_parent(server_pid: int) -> None:
    """End this worker as soon as the server ``server_pid`` is gone, however it went
    (kill -9 included): nothing else would — a worker holds the ends of its own pipes,
    and the forkserver's, so it never sees them close."""
    try:
        fd = os.pidfd_open(server_pid)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while not poller.poll(None):
            pass
    else:   # no pidfd (an old kernel): look twice a second
        while True:
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            time.sleep(0.5)
    os._exit(0)


def _worker_start(server_pid: int) -> None:
    """Each worker: ends with the server, ends on SIGTERM, leaves Ctrl-C to the server
    (which then ends its workers itself); and has the games loaded before its first
    decision."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(server_pid,), daemon=True,
                     name="koloda-watch-server").start()
    import koloda.engine.registry as registry
    registry.registry()


#: priorities of a computer's move: a person is connected at the table, a person sits
#: there (away) or someone watches, nobody
PEOPLE, SEATED, NOBODY = 0, 1, 2


def hard_limit(spec: str) -> float:
    """Seconds a decision may take once a worker has it, before the machine counts as
    overloaded and a random legal move is played instead."""
    return time_budget(spec) * 2 + 5.0


@dataclass
class Decision:
    action: str
    #: why it is a random legal move instead of the bot's ("overloaded", "failed"), None
    fallback: str | None = None
    #: seconds it waited for a worker
    waited: float = 0.0


@dataclass(order=True)
class _Job:
    priority: int
    seq: int
    enqueued: float = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    started: asyncio.Future[asyncio.Future[Any]] = field(compare=False)
    #: what the worker runs with ``args``: a hint (:func:`advise`); None: a move
    #: (:func:`choose`, looked up when it starts)
    fn: Callable[..., Any] | None = field(default=None, compare=False)


class BotPool:
    """Worker processes (``workers`` > 0) or threads (0: tests, tiny installs), and the
    scheduler in front of them.

    At most one decision per worker is handed over at a time, so a decision's time
    budget starts when a worker starts it, not while it waits in a queue behind others.
    The waiting ones are served people's tables first (``PEOPLE``, then ``SEATED``, then
    ``NOBODY``), in order of arrival within a priority. A move at a table where a person
    sits falls back to random only when the machine is overloaded: it waited
    ``max_wait`` seconds for a worker, or its worker took longer than ``hard_limit``."""

    def __init__(self, workers: int = 2, max_wait: float = 15.0) -> None:
        self.workers = workers
        self.slots = workers if workers > 0 else 2
        self.max_wait = max_wait
        self._pool: concurrent.futures.Executor | None = None
        self._queue: list[_Job] = []
        self._seq = 0
        self.busy = 0
        #: of which for tables where nobody sits
        self.busy_nobody = 0
        self.fallbacks = 0
        self.decided = 0
        #: (priority, seconds waited) of the latest decisions, for /api/stats
        self.waits: deque[tuple[int, float]] = deque(maxlen=2000)

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers > 0:
                # forkserver: workers do not inherit the server's threads and sockets
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["koloda.web.bots"])
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=ctx, initializer=_worker_start,
                    initargs=(os.getpid(),))
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(
                    self.slots, thread_name_prefix="koloda-bot")
        return self._pool

    async def choose(self, spec: str, game: str, observation: Mapping[str, Any],
                     legal: list[str], seed: int) -> str:
        return (await self.decide(spec, game, observation, legal, seed)).action

    async def decide(self, spec: str, game: str, observation: Mapping[str, Any],
                     legal: list[str], seed: int, priority: int = SEATED) -> Decision:
        """The bot's move (or a random legal one, and why)."""
        if len(legal) == 1:
            return Decision(legal[0])
        if spec == "random":
            return Decision(choose(spec, game, observation, legal, seed))
        loop = asyncio.get_running_loop()
        self._seq += 1
        job = _Job(priority, self._seq, time.monotonic(),
                   (spec, game, observation, legal, seed), loop.create_future())
        heapq.heappush(self._queue, job)
        self._dispatch()
        wait = self.max_wait if priority < NOBODY else None
        try:
            fut = await asyncio.wait_for(asyncio.shield(job.started), wait)
        except asyncio.CancelledError:
            if not job.started.done():
                job.started.cancel()         # not needed any more: off the queue
            raise
        except TimeoutError:
            if not job.started.done():
                job.started.cancel()         # taken off the queue (skipped when popped)
            waited = time.monotonic() - job.enqueued
            return self._fallback(job, legal, seed, "overloaded",
                                  f"waited {waited:.1f} s for a worker")
        waited = time.monotonic() - job.enqueued
        self.waits.append((priority, waited))
        try:
            action = await asyncio.wait_for(asyncio.shield(fut), hard_limit(spec))
        except TimeoutError:
            return self._fallback(job, legal, seed, "overloaded",
                                  f"ran out of time ({hard_limit(spec):.0f} s)")
        except concurrent.futures.process.BrokenProcessPool:
            self._pool = None                # a worker died: a new pool next time
            return self._fallback(job, legal, seed, "failed", "a worker died")
        self.decided += 1
        return Decision(action, None, waited)

    async def advise(self, game: str, observation: Mapping[str, Any], legal: list[str],
                     seed: int, ply: int) -> dict[str, Any] | None:
        """A hint (:func:`advise`) from a worker, queued as a people's table's move; None
        when the game has no bot to ask. Raises TimeoutError when no worker was free in
        ``max_wait`` seconds or the search ran past its hard limit (no random stand-in: a
        hint is the bot's or nothing)."""
        name = hint_bot(get_spec(game))
        if name is None:
            return None
        loop = asyncio.get_running_loop()
        self._seq += 1
        job = _Job(PEOPLE, self._seq, time.monotonic(), (game, observation, legal, seed, ply),
                   loop.create_future(), advise)
        heapq.heappush(self._queue, job)
        self._dispatch()
        try:
            fut = await asyncio.wait_for(asyncio.shield(job.started), self.max_wait)
        except BaseException:
            if not job.started.done():
                job.started.cancel()
            raise
        try:
            found: dict[str, Any] | None = await asyncio.wait_for(asyncio.shield(fut),
                                                                   hard_limit(name))
        except concurrent.futures.process.BrokenProcessPool:
            self._pool = None
            raise TimeoutError("a worker died") from None
        return found

    def _fallback(self, job: _Job, legal: list[str], seed: int, why: str,
                  detail: str) -> Decision:
        spec, game = job.args[0], job.args[1]
        self.fallbacks += 1
        log.warning("%s at %s (priority %d) %s; a random legal action instead", spec, game,
                    job.priority, detail)
        return Decision(random.Random(seed).choice(legal), why,
                        time.monotonic() - job.enqueued)

    def _dispatch(self) -> None:
        """Hand waiting decisions to free workers, the most urgent first. Tables where
        nobody sits never take the last free worker: it is kept for people's tables, so
        a person's computer does not wait for a long search at an unwatched one."""
        while self.busy < self.slots and self._queue:
            job = self._queue[0]
            if job.started.done():           # given up while waiting
                heapq.heappop(self._queue)
                continue
            if job.priority >= NOBODY and self.busy_nobody >= max(1, self.slots - 1):
                return                       # (the queue's head is the most urgent)
            heapq.heappop(self._queue)
            loop = asyncio.get_running_loop()
            try:
                fut = loop.run_in_executor(self._executor(), job.fn or choose, *job.args)
            except RuntimeError as exc:      # the pool is shut down
                job.started.set_exception(exc)
                continue
            self.busy += 1
            nobody = job.priority >= NOBODY
            self.busy_nobody += nobody
            fut.add_done_callback(functools.partial(self._finished, nobody=nobody))
            job.started.set_result(fut)

    def _finished(self, fut: asyncio.Future[str], *, nobody: bool) -> None:
        # the worker is free only now — even if its caller stopped waiting long ago
        self.busy -= 1
        self.busy_nobody -= nobody
        if not fut.cancelled():
            fut.exception()                  # retrieved: no "never retrieved" warning
        self._dispatch()

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {"workers": self.slots, "busy": self.busy,
                               "waiting": sum(1 for j in self._queue
                                              if not j.started.done()),
                               "decided": self.decided, "fallbacks": self.fallbacks}
        for prio, name in ((PEOPLE, "people"), (SEATED, "seated"), (NOBODY, "nobody")):
            w = sorted(x for p, x in self.waits if p == prio)
            if w:
                out[f"wait_ms_{name}"] = {"p50": round(w[len(w) // 2] * 1000, 1),
                                          "max": round(w[-1] * 1000, 1)}
        return out

    def processes(self) -> list[int]:
        """The worker processes' ids (none with threads, or before the first use)."""
        procs = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in procs.values() if p.pid is not None]

    def close(self) -> None:
        """Stop every worker now, busy or not (a decision in progress is not needed any
        more: the server is stopping)."""
        for job in self._queue:
            if not job.started.done():
                job.started.cancel()
        self._queue.clear()
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            with contextlib.suppress(Exception):
                p.terminate()
        deadline = time.monotonic() + 2
        for p in procs:
            with contextlib.suppress(Exception):
                p.join(max(0.0, deadline - time.monotonic()))
                if p.is_alive():
                    p.kill()
