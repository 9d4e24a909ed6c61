"""Computer seats: which bots a game offers, and a worker pool they think in.

A bot sees what a seat sees — the observation (plain JSON) and the legal actions — so a
decision can be computed in another process: the event loop hands it over and serves
every other table meanwhile. The random bot is too cheap to be worth a trip to a worker
and chooses on the spot.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import random
import select
import signal
import threading
import time
from functools import cache
from typing import Any

from koloda.bots import make_bot
from koloda.bots.base import Bot
from koloda.engine.errors import ConfigError

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
    name, _, level = spec.partition(":")
    if name == "search":
        from koloda.bots.search import LEVELS as SEARCH
        return float(SEARCH.get(level or "normal", (0, 1.0))[1])
    return 1.0


_BOTS: dict[tuple[str, str], Bot] = {}


def choose(spec: str, game: str, observation: dict[str, Any], legal: list[str],
           seed: int) -> str:
    """A bot's decision (runs in a worker; each worker keeps its bots)."""
    bot = _BOTS.get((spec, game))
    if bot is None:
        bot = _BOTS[(spec, game)] = make_bot(spec, game)
    action = bot.choose(observation, legal, random.Random(seed))
    return action if action in legal else legal[0]


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


class BotPool:
    """Worker processes (``workers`` > 0) or threads (0: tests, tiny installs)."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor | None = None

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
                    2, thread_name_prefix="koloda-bot")
        return self._pool

    async def choose(self, spec: str, game: str, observation: dict[str, Any],
                     legal: list[str], seed: int) -> str:
        if len(legal) == 1:
            return legal[0]
        if spec == "random":
            return choose(spec, game, observation, legal, seed)
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self._executor(), choose, spec, game, observation, legal,
                                   seed)
        try:
            return await asyncio.wait_for(fut, time_budget(spec) * 2 + 5.0)
        except TimeoutError:
            log.warning("%s at %s ran out of time; a random legal action instead", spec, game)
            return random.Random(seed).choice(legal)

    def processes(self) -> list[int]:
        """The worker processes' ids (none with threads, or before the first use)."""
        procs = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in procs.values() if p.pid is not None]

    def close(self) -> None:
        """Stop every worker now, busy or not (a decision in progress is not needed any
        more: the server is stopping)."""
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
