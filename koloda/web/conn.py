"""A websocket as a table sees it: its seat and its own outgoing queue (``Conn``), and the
spectators' frames offered in place of older ones (what every fan-out did: ``fan_totals``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from koloda.web.table import Table

log = logging.getLogger("koloda.web")


def dumps(data: Any) -> str:
    """``data`` as compact JSON text, characters as they are: what ``json.dumps(data,
    ensure_ascii=False, separators=(",", ":"))`` makes, by ``orjson`` (several times
    faster; the standard library's for what orjson does not take, e.g. an integer past
    64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@dataclass
class FanTotals:
    """What the spectators' fan-outs of this process did (for ``stats``)."""

    #: frames handed to a whole crowd, offers made (one per spectator per frame), offers
    #: that found the connection still busy (sent or replaced later by its own task)
    frames: int = 0
    offers: int = 0
    deferred: int = 0
    #: CPU seconds of the event loop's thread spent offering (sends made at once included)
    cpu_s: float = 0.0


fan_totals = FanTotals()


class _Rest:
    """Awaits the rest of a coroutine that was started outside any task (``coro.send``)
    and suspended at ``step``: the awaiting task takes over where it stopped."""

    __slots__ = ("coro", "step")

    def __init__(self, coro: Coroutine[Any, Any, Any], step: Any) -> None:
        self.coro = coro
        self.step = step

    def __await__(self) -> Generator[Any, Any, Any]:
        step = self.step
        while True:
            try:
                got = yield step
            except BaseException as exc:   # cancelled (or closed): the coroutine hears it
                try:
                    step = self.coro.throw(exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    step = self.coro.send(got)
                except StopIteration as stop:
                    return stop.value


class Conn:
    """One websocket: its seat (None: a spectator) and its own outgoing queue, so a slow
    client never holds up the others. A client that lets ``QUEUE`` messages pile up is
    closed (once, with one log line): the page reconnects and gets the state as it is
    now, instead of a seat that shows connected and a page that hears nothing.

    A spectator's ``state`` and ``seats`` frames come by ``offer`` instead: each is a
    whole snapshot, so one that has not gone out yet is replaced by a newer one of its
    kind (a spectator who falls behind gets the newest state next, never a backlog), and
    a connection with nothing waiting is sent it at once, in the caller's turn of the
    event loop, without waking its own task (the send finishes in that task only if the
    socket makes it wait)."""

    QUEUE = 512
    #: websocket close code for a client that reads too slowly ("try again later")
    SLOW_CODE = 1013

    def __init__(self, send: Callable[[str], Coroutine[Any, Any, Any]],
                 close: Callable[..., Awaitable[None]] | None = None,
                 client: str | None = None) -> None:
        self._send = send
        self._close = close
        self.client = client
        self.seat: int | None = None
        self.table: Table | None = None
        #: messages to send in order (every one of them)
        self._out: deque[str] = deque()
        #: the newest frame of each kind offered and not sent yet (spectators)
        self._latest: dict[str, str] = {}
        #: the frame of each kind offered last (the same text is not offered twice)
        self._offered: dict[str, str] = {}
        #: a send started by ``offer`` that had to wait: the pump finishes it
        self._inflight: tuple[Coroutine[Any, Any, Any], Any] | None = None
        self._wake = asyncio.Event()
        #: the pump waits with nothing to send and no send under way
        self._idle = False
        self._ending = False
        #: closed for reading too slowly (or shut): later messages are dropped silently
        self.dead = False
        #: frames sent, and offered frames replaced by a newer one before going out
        self.sent = 0
        self.replaced = 0
        #: called once when the connection is given up (the manager detaches it)
        self.on_dead: Callable[[Conn], None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self.task = asyncio.create_task(self._pump())

    @property
    def waiting(self) -> int:
        """Frames queued or offered and not yet sent (a send under way counts)."""
        return len(self._out) + len(self._latest) + (self._inflight is not None)

    def _kick(self) -> None:
        self._idle = False
        self._wake.set()

    def push(self, text: str) -> None:
        if self.dead or self._ending:
            return
        if len(self._out) >= self.QUEUE:
            log.warning("a client (%s) reads too slowly: %d messages waiting; closing its "
                        "connection", self.client or "?", self.QUEUE)
            self.abandon()
            return
        self._out.append(text)
        self._kick()

    def push_json(self, data: dict[str, Any]) -> None:
        self.push(dumps(data))

    def offer(self, kind: str, text: str) -> None:
        """``text``, the newest frame of ``kind``: sent now if nothing is waiting, else
        in place of an older one of that kind still waiting."""
        if self.dead or self._ending or self._offered.get(kind) is text:
            return
        self._offered[kind] = text
        fan_totals.offers += 1
        if not self._idle:
            fan_totals.deferred += 1
            if kind in self._latest:
                self.replaced += 1
            self._latest[kind] = text
            self._kick()
            return
        coro = self._send(text)
        try:
            step = coro.send(None)
        except StopIteration:
            self.sent += 1
            return
        except Exception:   # the socket went away: the receive loop notices and detaches
            self._idle = False
            return
        self._inflight = (coro, step)
        self._kick()

    def abandon(self) -> None:
        """Give the connection up now: nothing more is queued, the socket is closed."""
        if self.dead:
            return
        self.dead = True
        self.task.cancel()
        if self.on_dead is not None:
            with contextlib.suppress(Exception):
                self.on_dead(self)
        if self._close is not None:
            self._closer = asyncio.create_task(self._close_now())

    async def _close_now(self) -> None:
        assert self._close is not None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._close(code=self.SLOW_CODE), 5)

    def shut(self) -> None:
        """Send what waits, then close."""
        self._ending = True
        self._kick()

    async def _pump(self) -> None:
        try:
            while True:
                if self._inflight is not None:
                    await _Rest(*self._inflight)
                    self._inflight = None
                elif self._out:
                    await self._send(self._out.popleft())
                elif self._latest:
                    kind = next(iter(self._latest))
                    await self._send(self._latest.pop(kind))
                elif self._ending:
                    break
                else:
                    self._idle = True
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                self.sent += 1
        except Exception:  # the socket went away: the receive loop notices and detaches
            return
        finally:
            self._idle = False
            if self._inflight is not None:
                self._inflight[0].close()
                self._inflight = None
        if self._close is not None:
            with contextlib.suppress(Exception):
                await self._close()

    async def drain(self) -> None:
        """Let everything queued be sent, then stop (used when a connection ends)."""
        self.shut()
        try:
            await asyncio.wait_for(self.task, 5)
        except (TimeoutError, asyncio.CancelledError):
            self.task.cancel()
