"""Live tables: the server's authority over every match it hosts.

``TableManager`` holds every table in memory and in the database. A table's match is
changed only by ``submit``: under the table's lock it checks the version the client saw
and the seat to move, lets the engine apply the action (the engine's reason is the
refusal), stores it, and only then acknowledges and broadcasts. Computer seats and seats
whose person has been away too long are played by bots in the worker pool, through the
same ``submit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import random
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from koloda.engine.errors import ConfigError, IllegalAction
from koloda.engine.match import Match
from koloda.engine.messages import CATALOG, Names, Reason, Value
from koloda.engine.records import from_record
from koloda.engine.registry import get_spec, new_game, registry
from koloda.engine.spec import GameSpec
from koloda.engine.turns import TurnRefused, check_turn
from koloda.web import persist
from koloda.web.bots import NOBODY, PEOPLE, SEATED, BotPool, bots_for, resolve_bot
from koloda.web.cluster import PRESENCE_EVERY, PRESENCE_GONE, SWEEP, every, make_cluster
from koloda.web.collector import Collector
from koloda.web.limits import TEXTS, Buckets, Limits, Said, bad_name_char
from koloda.web.persist import LiveAction, LiveSeat, LiveTable, Writer
from koloda.web.protocol import Refusal
from koloda.web.views import (
    LogEntry,
    displays,
    guarded,
    hidden_texts,
    log_entry,
    moves_json,
    public_view,
)

log = logging.getLogger("koloda.web")

AWAY_POLICIES = ("wait", "computer")
MAX_NAME = 40
#: seconds a finished table stays in memory once nobody watches it
KEEP_FINISHED = 3600.0
#: log entries a state carries (the current deal's latest)
LOG_LENGTH = 60
#: seconds presence changes are gathered into one ``seats`` frame (longer at a crowded
#: table: ``seats`` frames to at most PRESENCE_RATE connections a second, but never
#: more than PRESENCE_MAX seconds late)
PRESENCE_DELAY = 0.1
PRESENCE_RATE = 2000.0
PRESENCE_MAX = 2.0
#: spectators offered a frame at once, the event loop free before the next ones (a table
#: watched by more than this many sends them its frames from its one fan-out task)
FAN_CHUNK = 100
#: sends a second at most to one table's spectators in all, a chunk every FAN_CHUNK /
#: FAN_RATE seconds (a crowd of 1 000 sees at most two states a second, each reaching
#: the last of them half a second after the first; every frame is one send on every
#: connection, ~30 µs of the event loop's CPU here)
FAN_RATE = 2000.0
#: seconds before a computer's move that failed is tried again
BOT_RETRY = 1.0
#: seconds a lobby page is served from its cache
LOBBY_FRESH = 1.0


class TableError(ValueError):
    """A request about tables that cannot be done (the message says why).

    Raised with a catalog key and its arguments (or a :class:`Reason`, e.g. a
    ``ConfigError``'s), the answer also carries the Russian sentence (``error_ru``)."""

    def __init__(self, reason: str, status: int = 400, **args: Any) -> None:
        if not isinstance(reason, Reason | Said):
            if reason in CATALOG:
                reason = Reason(reason, **args)
            elif reason in TEXTS:
                reason = Said(reason, **args)
        super().__init__(reason)
        self.reason = reason
        self.status = status
        #: seconds after which trying again may work (429): the Retry-After header
        self.retry_after: float | None = None

    def to_json(self) -> dict[str, str]:
        out = {"error": str(self.reason)}
        if isinstance(self.reason, Reason | Said):
            out["error_ru"] = self.reason.render("ru")
        return out


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (0 if it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _small_value(value: Any, text: int, depth: int) -> bool:
    """A number, a short text, true/false, null, or a short list/object of them."""
    if value is None or isinstance(value, bool | int | float):
        return True
    if isinstance(value, str):
        return len(value) <= text
    if depth <= 0:
        return False
    if isinstance(value, list):
        return len(value) <= 64 and all(_small_value(v, text, depth - 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= 64 and all(isinstance(k, str) and len(k) <= text
                                        and _small_value(v, text, depth - 1)
                                        for k, v in value.items())
    return False


def _long_text(value: Any, text: int) -> bool:
    return isinstance(value, str) and len(value) > text


# ---------------------------------------------------------------- connections
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
        self.push(_dumps(data))

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


# --------------------------------------------------------------------- tables
@dataclass
class Seat:
    kind: str                      # "person" or "computer"
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    conns: set[Conn] = field(default_factory=set)
    away_since: float | None = None
    #: the account signed in when the seat was taken (None: a guest)
    account_id: int | None = None
    #: connections at this seat on other servers (server id -> how many)
    remote: dict[str, int] = field(default_factory=dict)

    @property
    def connected(self) -> bool:
        """Someone's page is open at this seat, on this server or another."""
        return bool(self.conns) or any(self.remote.values())

    @property
    def taken(self) -> bool:
        return self.kind == "computer" or self.token_hash is not None

    def record_seat(self, index: int) -> dict[str, Any]:
        if self.kind == "computer":
            return {"name": self.name or f"Computer {index + 1}", "kind": "bot",
                    "bot": self.bot}
        return {"name": self.name or f"Player {index + 1}", "kind": "human"}


@dataclass
class Table:
    id: str
    spec: GameSpec
    match: Match
    seed: int
    options: dict[str, Any]
    seats: list[Seat]
    settings: dict[str, Any]
    created: float
    finished: bool = False
    #: idle too long: stored as abandoned, no longer played (shown, not listed)
    abandoned: bool = False
    #: when an action was last accepted (or the table made, a seat taken), monotonic
    last_active: float = field(default_factory=time.monotonic)
    #: the address that created it (per-client limits; not stored)
    client: str | None = None
    #: what its creation counts against: the address, and the account signed in if any
    owners: tuple[str, ...] = ()
    #: said with the latest state: a computer had to play a random move (overloaded)
    notice: Said | None = None
    game_id: int | None = None
    store_error: str | None = None
    log: list[LogEntry] = field(default_factory=list)
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    #: the version ``bot_task`` thinks about, and whether it is storing its move
    bot_version: int = -1
    bot_submitting: bool = False
    finishing: bool = False
    finish_task: asyncio.Task[None] | None = None
    #: when the match was stored (monotonic), to let the table leave memory later
    finished_at: float | None = None
    _cache: dict[int | None, tuple[int, str]] = field(default_factory=dict)
    _hidden: dict[int | None, tuple[int, frozenset[str]]] = field(default_factory=dict)
    #: each viewer's log as it may see it, built once per entry
    _logs: dict[int | None, list[tuple[int, str]]] = field(default_factory=dict)
    #: index in ``log`` of the current deal's first entry
    deal_start: int = 0
    #: connections watching (no seat)
    spectators: int = 0
    #: spectators on other servers (server id -> how many), and when each last said so
    remote_spectators: dict[str, int] = field(default_factory=dict)
    remote_seen: dict[str, float] = field(default_factory=dict)
    #: the version this copy stood at when the database was last seen ahead of it
    lag_mark: int | None = None
    _seats_timer: asyncio.TimerHandle | None = None
    #: what the spectators' fan-out still has to send, the newest frame of each kind
    #: (``"state"``: None, the state as it is then; ``"seats"``)
    _fan: dict[str, str | None] = field(default_factory=dict)
    _fan_task: asyncio.Task[None] | None = None
    #: frames sent to the spectators by the fan-out task (each to all of them)
    fanned: int = 0

    @property
    def closed(self) -> bool:
        """No longer played: finished (stored) or abandoned."""
        return self.finished or self.abandoned

    def watching(self) -> int:
        """Spectators on every server."""
        return self.spectators + sum(self.remote_spectators.values())

    def set_remote(self, server: str, counts: list[int], spectators: int,
                   now: float) -> bool:
        """Another server's connections at this table; True if what the table shows
        changed (a seat's person came or left, the spectators' number)."""
        changed = self.remote_spectators.get(server, 0) != spectators
        for seat, n in zip(self.seats, counts, strict=False):
            before = seat.connected
            if n:
                seat.remote[server] = n
            else:
                seat.remote.pop(server, None)
            if seat.connected != before:
                changed = True
                seat.away_since = None if seat.connected else now
        if spectators:
            self.remote_spectators[server] = spectators
        else:
            self.remote_spectators.pop(server, None)
        if any(counts) or spectators:
            self.remote_seen[server] = now
        else:
            self.remote_seen.pop(server, None)
        return changed

    def presence(self) -> list[int]:
        """This server's connections: per seat, then spectators."""
        return [len(s.conns) for s in self.seats] + [self.spectators]

    @property
    def in_play(self) -> bool:
        return not self.finished and not self.abandoned

    @property
    def version(self) -> int:
        """The state version: the number of accepted actions."""
        return len(self.match.history)

    def apply_logged(self, seat: int, action: str) -> str:
        deal = len(self.match.deals) - 1
        text = self.match.apply(action)
        self.log.append(log_entry(self.match, seat, text, deal))
        if len(self.match.deals) - 1 != deal:
            self.deal_start = len(self.log)
        return text

    def log_for(self, viewer: int | None) -> list[tuple[int, str]]:
        """The current deal's log as ``viewer`` may see it (its latest entries)."""
        rendered = self._logs.setdefault(viewer, [])
        players = self.match.players
        rendered.extend(e.for_viewer(viewer, players) for e in self.log[len(rendered):])
        return rendered[max(self.deal_start, len(rendered) - LOG_LENGTH):]

    def seats_json(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        timeout = self.settings["away_timeout"]
        out = []
        for i, s in enumerate(self.seats):
            away = s.kind == "person" and s.taken and not s.connected
            out.append({
                "seat": i, "kind": s.kind, "name": s.name, "bot": s.bot, "taken": s.taken,
                "registered": s.account_id is not None,
                "connected": s.connected, "away": away,
                "computer_plays": away and self.settings["away_policy"] == "computer"
                and s.away_since is not None and now - s.away_since >= timeout,
            })
        return out

    def info(self) -> dict[str, Any]:
        """What the lobby and a table page show before any state: public only."""
        m = self.match
        return {
            "id": self.id, "game": self.spec.name, "family": self.spec.family,
            "variant": self.spec.variant,
            "title": {"en": self.spec.title_en, "ru": self.spec.title_ru},
            "players": m.players, "options": self.spec.changed_options(m.players,
                                                                      self.options),
            "settings": self.settings, "seats": self.seats_json(), "version": self.version,
            "over": m.is_over, "finished": self.finished, "abandoned": self.abandoned,
            "game_id": self.game_id,
            "spectators": self.watching(),
            "open_seats": [i for i, s in enumerate(self.seats) if not s.taken],
        }

    def hidden_for(self, viewer: int | None) -> frozenset[str]:
        """The card texts ``viewer`` cannot know now (cached per version)."""
        cached = self._hidden.get(viewer)
        version = self.version
        if cached is not None and cached[0] == version:
            return cached[1]
        hidden = hidden_texts(self.match, viewer)
        self._hidden[viewer] = (version, hidden)
        return hidden

    def state_text(self, viewer: int | None) -> str:
        """The ``state`` message for a seat (None: spectators), cached per version."""
        cached = self._cache.get(viewer)
        version = self.version
        if cached is not None and cached[0] == version:
            return cached[1]
        m = self.match
        hidden = self.hidden_for(viewer)
        view = m.observation(viewer).to_json() if viewer is not None \
            else public_view(m, hidden)
        legal = m.legal_actions() if viewer is not None and viewer == m.to_move \
            and not self.abandoned else []
        entries = self.log_for(viewer)
        msg = {"type": "state", "table": self.id, "version": version, "seat": viewer,
               "view": view, "display": displays(m, viewer, self.seats_json()),
               "legal": legal, "moves": moves_json(m, viewer, legal), "log": entries,
               "result": m.result.to_json() if m.result is not None else None,
               "game_id": self.game_id,
               # "abandoned" once the table was given up for idleness (no more moves)
               "closed": "abandoned" if self.abandoned else None,
               # {"code", "en", "ru"}: something the page should say about the last
               # move (e.g. the server was overloaded and a computer played at random)
               "notice": None if self.notice is None else
               {"code": self.notice.key, **self.notice.to_json()}}
        text = guarded(msg, hidden, _dumps)
        self._cache[viewer] = (version, text)
        return text

    def broadcast_state(self) -> None:
        """The new state to every seat's connections now, and to the spectators by the
        table's one fan-out (``to_spectators``)."""
        watchers = 0
        for c in list(self.conns):
            if c.seat is None:
                watchers += 1
            else:
                c.push(self.state_text(c.seat))
        if watchers:
            self.to_spectators("state", None)

    def to_spectators(self, kind: str, text: str | None) -> None:
        """The newest frame of ``kind`` (``"state"``: None, the state as it is when its
        turn comes; ``"seats"``) to every spectator. Every spectator gets the same text,
        made once; frames of one kind that pile up go out as one, the newest.

        A few spectators are offered it at once. Many get it from one task per table
        that offers it to ``FAN_CHUNK`` connections at a time, one chunk every
        ``FAN_CHUNK / FAN_RATE`` seconds, the event loop free in between to serve every
        other table — so a crowd watching one table does not hold up the moves at the
        others (spectators see a move up to ``spectators / FAN_RATE`` seconds late)."""
        busy = self._fan_task is not None and not self._fan_task.done()
        if not busy and self.spectators <= FAN_CHUNK:
            shown = self.state_text(None) if text is None else text
            cpu = time.thread_time()
            for c in list(self.conns):
                if c.seat is None:
                    c.offer(kind, shown)
            fan_totals.cpu_s += time.thread_time() - cpu
            fan_totals.frames += 1
            return
        self._fan.pop(kind, None)       # an older one waiting: this one instead, last
        self._fan[kind] = text
        if not busy:
            self._fan_task = asyncio.get_running_loop().create_task(self._fan_out())

    async def _fan_out(self) -> None:
        while self._fan:
            kind = next(iter(self._fan))
            item = self._fan.pop(kind)
            self.fanned += 1
            fan_totals.frames += 1
            watchers = [c for c in self.conns if c.seat is None]
            for start in range(0, len(watchers), FAN_CHUNK):
                chunk = watchers[start:start + FAN_CHUNK]
                cpu = time.thread_time()
                # the newest state for every chunk (made once per version); one a
                # spectator was offered already is not offered again
                text = self.state_text(None) if item is None else item
                for c in chunk:
                    if c.table is self:
                        c.offer(kind, text)
                fan_totals.cpu_s += time.thread_time() - cpu
                # paced: at most FAN_RATE sends a second to one table's crowd, one
                # chunk at a time, the event loop free in between (for the other
                # tables, and for the threads that wait for the interpreter's lock);
                # frames that come meanwhile are gathered into one of each kind
                await asyncio.sleep(len(chunk) / FAN_RATE)

    def broadcast_seats(self) -> None:
        """Presence to everyone now (rare events: a finish, an abandon)."""
        if self._seats_timer is not None:
            self._seats_timer.cancel()
            self._seats_timer = None
        text = _dumps({"type": "seats", "seats": self.seats_json(),
                       "spectators": self.watching()})
        watchers = 0
        for c in list(self.conns):
            if c.seat is None:
                watchers += 1
            else:
                c.push(text)
        if watchers:
            self.to_spectators("seats", text)

    def seats_changed(self) -> None:
        """Presence changed (someone came, left, sat, or a computer stepped in): one
        ``seats`` frame goes to everyone within ``PRESENCE_DELAY``, however many changes
        came meanwhile — so n people joining cost n frames, not n²."""
        if self._seats_timer is None:
            loop = asyncio.get_running_loop()
            # a crowded table waits longer: at most ~PRESENCE_RATE frames a second in all
            delay = min(PRESENCE_MAX, max(PRESENCE_DELAY, len(self.conns) / PRESENCE_RATE))
            self._seats_timer = loop.call_later(delay, self._flush_seats)

    def _flush_seats(self) -> None:
        self._seats_timer = None
        self.broadcast_seats()


# -------------------------------------------------------------------- manager
class TableManager:
    """Every live table: creating, seating, connecting, acting, bots, persistence."""

    def __init__(self, db_url: str, bot_workers: int = 2, bot_delay: float = 0.8,
                 use_store: bool = True, tick: float = 0.25,
                 limits: Limits | None = None, redis_url: str | None = None) -> None:
        self.limits = limits = limits or Limits()
        #: the other servers (news, leases); alone: every lease is ours
        self.cluster = make_cluster(redis_url)
        self.redis_url = redis_url
        self._presence_dirty: set[str] = set()
        self._presence_timer: asyncio.TimerHandle | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: tables taken over from another server (its lease ran out)
        self.taken_over = 0
        #: actions another server accepted first (this one's refused ``stale``)
        self.conflicts = 0
        #: creations under way (checked, not yet stored): counted against the caps, so
        #: concurrent requests cannot overshoot them
        self._creating = 0
        self._creating_by: dict[str, int] = {}
        #: tables in play per creating address
        self._by_client: dict[str, set[str]] = {}
        self._creations = Buckets(limits.creations_per_minute / 60.0,
                                  limits.creations_per_minute)
        self.abandoned = 0
        self.db_url = persist.database_url(db_url)
        self.bot_delay = bot_delay
        self.use_store = use_store
        self.tick = tick
        self.tables: dict[str, Table] = {}
        self.pool = BotPool(bot_workers)
        self.engine = persist.open_engine(db_url)
        self.sessions: sessionmaker[Session] = sessionmaker(self.engine,
                                                            expire_on_commit=False)
        self.writer = Writer(self.sessions)
        self._store: Any = None
        self._ticker: asyncio.Task[None] | None = None
        self._stopping = False
        self._background: set[asyncio.Task[Any]] = set()
        self._lobby_cache: dict[tuple[int, int, str | None], tuple[float, dict[str, Any]]] \
            = {}
        self._pruned = time.monotonic()
        self._presence_said = 0.0
        self.started = time.monotonic()
        self.accepted = 0
        #: how late the ticker woke (seconds): how long the event loop was busy
        self.lags: deque[float] = deque(maxlen=2000)
        self.collector = Collector()

    # ---------------------------------------------------------- life cycle
    async def start(self) -> None:
        self.writer.start()
        self.started = time.monotonic()
        stale: list[str] = []
        wall = persist.now()
        for stored in persist.load_unfinished(self.sessions):
            idle = (wall - (stored.last_at or stored.row.created)).total_seconds()
            try:
                table = self._rebuild(stored)
            except Exception as exc:  # one broken table must not stop the server
                log.error("table %s cannot be resumed: %s", stored.row.id, exc)
                continue
            if idle > self.idle_limit(stored.row.settings) and not table.match.is_over:
                stale.append(table.id)     # given up while the server was down
                continue                   # (an ended match is stored, never given up)
            self.tables[table.id] = table
            table.last_active = time.monotonic() - max(0.0, idle)
            log.info("resumed table %s (%s) at version %d", table.id, table.spec.name,
                     table.version)
        if stale:
            await self.writer.run(lambda s: persist.mark_abandoned(s, stale))
            self.abandoned += len(stale)
            log.info("%d idle table(s) stored as abandoned, not resumed", len(stale))
        if self.cluster.shared and self.use_store:
            # made now, not at the first finish: servers starting together make the
            # store's schema one after another, not at the same moment
            self._store = await asyncio.to_thread(self._open_store)
        await self.cluster.start(self._on_news, self._lease_lost)
        for table in self.tables.values():
            self._drive(table)
        self._ticker = asyncio.create_task(self._tick())
        if self.cluster.shared:
            self._sweeper = asyncio.create_task(self._sweep())
        # everything loaded so far (FastAPI, SQLAlchemy, the games) lives as long as the
        # server: keep it out of the collector's full passes, which otherwise stall the
        # event loop for hundreds of milliseconds once many tables are in play (and
        # what survives from then on too, now and then: koloda.web.collector)
        registry()
        self.collector.start()

    async def stop(self) -> None:
        self._stopping = True
        self.collector.stop()
        if self._ticker is not None:
            self._ticker.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            if table._fan_task is not None:
                table._fan_task.cancel()
            for c in list(table.conns):
                c.shut()
        await asyncio.to_thread(self.writer.stop)
        await self.cluster.stop()
        self.pool.close()
        if self._store is not None:
            self._store.close()
        self.engine.dispose()

    def _rebuild(self, stored: persist.StoredTable) -> Table:
        """A table as it stood: the match from its seed, every stored action replayed."""
        row = stored.row
        spec = get_spec(row.game)
        match = from_record({"format": "koloda-record/1", "game": row.game,
                             "players": row.players, "options": row.options,
                             "seed": row.seed, "deals": [], "actions": []})
        seats = [Seat(s.kind, s.name, s.bot, s.token_hash, account_id=s.account_id)
                 for s in stored.seats]
        for s in seats:
            if s.kind == "person" and s.taken:
                s.away_since = time.monotonic()
        table = Table(row.id, spec, match, row.seed, dict(row.options), seats,
                      dict(row.settings), row.created.timestamp(),
                      finished=row.finished is not None,
                      abandoned=row.abandoned is not None, game_id=row.game_id)
        for i, (seat, action) in enumerate(stored.actions):
            if seat != match.to_move:
                raise IllegalAction("stored_out_of_turn", i=i, seat=seat)
            table.apply_logged(seat, action)
        return table

    # ------------------------------------------------------------- tables
    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    async def find(self, table_id: str) -> Table | None:
        """A table in memory, or a finished one read back from the database (finished
        tables leave memory an hour after their last watcher)."""
        table = self.tables.get(table_id)
        if table is not None or len(table_id) > 32:
            return table
        stored = await asyncio.to_thread(persist.load_one, self.sessions, table_id)
        if stored is None:
            return None
        table = self.tables.get(table_id)   # loaded meanwhile by another request
        if table is None:
            table = self._rebuild(stored)
            table.finished_at = time.monotonic()
            self.tables[table_id] = table
        return table

    def lobby(self) -> list[dict[str, Any]]:
        """Every table in play, newest first (all of them: see ``lobby_page``)."""
        return [t.info() for t in self._in_play_newest()]

    def _in_play_newest(self, game: str | None = None) -> list[Table]:
        return sorted((t for t in self.tables.values()
                       if t.in_play and (game is None or t.spec.name == game
                                         or t.spec.family == game)),
                      key=lambda t: -t.created)

    def lobby_page(self, offset: int = 0, limit: int | None = None,
                   game: str | None = None) -> dict[str, Any]:
        """One page of the lobby, newest first: ``{"tables", "total", "offset",
        "limit"}``. Built at most once a second per page asked for, however many lobbies
        ask (only the page's tables are described)."""
        lim = self.limits
        limit = lim.lobby_page if limit is None else max(1, min(limit, lim.lobby_page_max))
        offset = max(0, offset)
        key = (offset, limit, game)
        now = time.monotonic()
        cached = self._lobby_cache.get(key)
        if cached is not None and now - cached[0] < LOBBY_FRESH:
            return cached[1]
        tables = self._in_play_newest(game)
        page = {"tables": [t.info() for t in tables[offset:offset + limit]],
                "total": len(tables), "offset": offset, "limit": limit}
        if len(self._lobby_cache) > 256:
            self._lobby_cache.clear()
        self._lobby_cache[key] = (now, page)
        return page

    def idle_limit(self, settings: dict[str, Any]) -> float:
        """Seconds without an accepted action after which a table is abandoned (waiting
        for an away person or for someone to sit counts as idle)."""
        return self.limits.idle_timeout

    def playing(self) -> int:
        return sum(1 for t in self.tables.values() if t.in_play)

    @staticmethod
    def owners(client: str | None, account_id: int | None) -> tuple[str, ...]:
        """What a creation counts against: the address and, signed in, the account (one
        account from many addresses is one client; many people behind one address each
        have their account's share only once the address's is not used up)."""
        keys = (client or "?",)
        return keys if account_id is None else (*keys, f"account:{account_id}")

    def _reserve(self, keys: tuple[str, ...]) -> None:
        """Count a creation against the server's cap and each of the client's keys, or
        say which is full. Synchronous (no await between the check and the count), so the
        caps are exact however many requests come at once."""
        lim = self.limits
        if self.playing() + self._creating >= lim.max_tables:
            raise TableError("server_full", 503)
        for key in keys:
            mine = len(self._by_client.get(key, ())) + self._creating_by.get(key, 0)
            if mine >= lim.tables_per_client:
                raise TableError("too_many_tables", 429, n=lim.tables_per_client)
        for key in keys:
            bucket = self._creations.get(key)
            if not bucket.take():
                wait = bucket.wait()
                err = TableError("creating_too_fast", 429, s=max(1, round(wait)))
                err.retry_after = wait
                raise err
        self._creating += 1
        for key in keys:
            self._creating_by[key] = self._creating_by.get(key, 0) + 1

    def _release(self, keys: tuple[str, ...]) -> None:
        self._creating -= 1
        for key in keys:
            left = self._creating_by.get(key, 1) - 1
            if left > 0:
                self._creating_by[key] = left
            else:
                self._creating_by.pop(key, None)

    def _closed(self, table: Table) -> None:
        """A table left play (finished or abandoned): its creator may make another."""
        for key in table.owners:
            mine = self._by_client.get(key)
            if mine is not None:
                mine.discard(table.id)
                if not mine:
                    del self._by_client[key]

    async def create(self, game: str, players: int | None, options: dict[str, Any],
                     seats: list[dict[str, Any]], name: str | None, sit: int | None,
                     settings: dict[str, Any], client: str | None = None,
                     account_id: int | None = None
                     ) -> tuple[Table, str | None, list[str]]:
        """A new table; returns it, the creator's seat token (if they sit) and notes."""
        keys = self.owners(client, account_id)
        self._reserve(keys)
        try:
            return await self._create(game, players, options, seats, name, sit, settings,
                                      client, account_id)
        finally:
            self._release(keys)

    async def _create(self, game: str, players: int | None, options: dict[str, Any],
                      seats: list[dict[str, Any]], name: str | None, sit: int | None,
                      settings: dict[str, Any], client: str | None,
                      account_id: int | None = None
                      ) -> tuple[Table, str | None, list[str]]:
        self._check_sizes(options, "options")
        self._check_sizes(settings, "settings")
        try:
            spec = get_spec(game)
            n = spec.player_count(players)
            spec.resolve_options(n, options)
        except ConfigError as exc:
            raise TableError(exc.reason) from None
        if len(seats) != n:
            raise TableError("seats_count", given=len(seats), players=n)
        notes: list[str] = []
        made: list[Seat] = []
        for i, s in enumerate(seats):
            kind = s.get("kind")
            if kind == "person":
                made.append(Seat("person"))
            elif kind == "computer":
                bot, note = resolve_bot(str(s.get("bot") or "random"), spec.name)
                if note:
                    notes.append(f"seat {i + 1}: {note}")
                made.append(Seat("computer", f"Computer {i + 1}", bot))
            else:
                raise TableError("seat_kind", i=i, kind=Value(kind))
        token = None
        if sit is not None:
            if not 0 <= sit < n or made[sit].kind != "person":
                raise TableError("sit_not_person", seat=sit)
            token = secrets.token_urlsafe(24)
            made[sit].name = self._check_name(name)
            made[sit].token_hash = token_hash(token)
            made[sit].account_id = account_id
            made[sit].away_since = time.monotonic()
        settings = self._check_settings(spec.name, settings, notes)
        seed = secrets.randbelow(2**63)
        match = new_game(spec.name, players=n, seed=seed, **options)
        table = Table(secrets.token_urlsafe(6), spec, match, seed, dict(match.options), made,
                      settings, time.time(), client=client or "?",
                      owners=self.owners(client, account_id))

        def write(s: Session) -> None:
            s.add(LiveTable(id=table.id, game=spec.name, players=n, options=table.options,
                            seed=seed, settings=settings, created=persist.now()))
            s.flush()
            for i, seat in enumerate(made):
                s.add(LiveSeat(table_id=table.id, seat=i, kind=seat.kind, name=seat.name,
                               bot=seat.bot, token_hash=seat.token_hash,
                               account_id=seat.account_id))
        await self.writer.run(write)
        self.tables[table.id] = table
        for key in table.owners:
            self._by_client.setdefault(key, set()).add(table.id)
        if self.cluster.shared:
            await self.cluster.acquire(table.id)     # its creator drives it
            self.cluster.publish({"t": "created", "table": table.id})
        self._kick(table)
        return table, token, notes

    def _check_sizes(self, given: Any, what: str) -> None:
        """Options (or settings) small enough to be read, and named briefly enough to be
        echoed in an error: checked before the engine sees them, so an error never
        repeats a huge name or value."""
        lim = self.limits
        if not isinstance(given, dict):
            raise TableError("options_not_object")
        if len(given) > lim.max_options:
            raise TableError("too_many_options", n=lim.max_options)
        for name, value in given.items():
            if not isinstance(name, str) or len(name) > lim.max_option_name:
                raise TableError("option_name_long", n=lim.max_option_name,
                                 given=len(str(name)))
            if not _small_value(value, lim.max_option_text, 2):
                kind = "option_value_long" if _long_text(value, lim.max_option_text) \
                    else "option_value_kind"
                raise TableError(kind, name=f"{name}" if what == "options"
                                 else f"{name} ({what})", n=lim.max_option_text)

    @staticmethod
    def _check_name(name: Any) -> str:
        """A name as the table shows it: NFC, spaces collapsed; a control, NUL,
        zero-width, direction-override, separator or private-use character is refused
        (saying which and where), so two names that look alike are alike."""
        if not isinstance(name, str) or not name.strip():
            raise TableError("name_missing")
        name = unicodedata.normalize("NFC", name)
        bad = bad_name_char(name)
        if bad is not None:
            raise TableError(bad)
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            raise TableError("name_too_long", n=MAX_NAME)
        return name

    @staticmethod
    def _check_settings(game: str, given: dict[str, Any], notes: list[str]) -> dict[str, Any]:
        unknown = sorted(set(given) - {"away_timeout", "away_policy", "away_bot"})
        if unknown:
            raise TableError("settings_unknown", names=Names(unknown))
        timeout = given.get("away_timeout", 120)
        if not isinstance(timeout, int) or isinstance(timeout, bool) \
                or not 1 <= timeout <= 86400:
            raise TableError("away_timeout")
        policy = given.get("away_policy", "computer")
        if policy not in AWAY_POLICIES:
            raise TableError("away_policy", policies=Names(AWAY_POLICIES))
        offered = bots_for(game)
        default = "heuristic" if "heuristic" in offered else "random"
        bot, note = resolve_bot(str(given.get("away_bot") or default), game)
        if note:
            notes.append(f"away_bot: {note}")
        return {"away_timeout": timeout, "away_policy": policy, "away_bot": bot}

    async def sit(self, table: Table, seat: int, name: Any,
                  account_id: int | None = None) -> str:
        """Take an open person seat; returns the seat token (shown once, never stored)."""
        name = self._check_name(name)
        async with table.lock:
            if not 0 <= seat < len(table.seats):
                raise TableError("no_seat", 404, seat=seat)
            s = table.seats[seat]
            if s.kind != "person":
                raise TableError("seat_computer", 409, n=seat + 1)
            if s.taken:
                raise TableError("seat_taken", 409, n=seat + 1)
            token = secrets.token_urlsafe(24)
            digest = token_hash(token)

            def write(ses: Session) -> bool:
                return persist.claim_seat(ses, table.id, seat, name, digest, account_id)
            if table.abandoned:
                raise TableError(self._abandoned_text(table), 409)
            if not await self.writer.run(write):
                # taken meanwhile through another server: this copy learns who has it
                await self._refresh(table)
                raise TableError("seat_taken", 409, n=seat + 1)
            s.name, s.token_hash = name, digest
            s.account_id = account_id
            if not s.connected:
                s.away_since = time.monotonic()
            table.last_active = time.monotonic()
        self.cluster.publish({"t": "seat", "table": table.id, "seat": seat, "name": name,
                              "token_hash": digest, "account_id": account_id})
        table.broadcast_seats()
        self._kick(table)
        return token

    async def seat_of_fresh(self, table: Table, token: str) -> int | None:
        """``seat_of``; with other servers, a token this copy does not know yet (the seat
        was taken through another server a moment ago) is looked up in the database."""
        seat = self.seat_of(table, token)
        if seat is None and self.cluster.shared:
            await self._refresh(table)
            seat = self.seat_of(table, token)
        return seat

    def seat_of(self, table: Table, token: str) -> int | None:
        digest = token_hash(token)
        for i, s in enumerate(table.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return i
        return None

    # -------------------------------------------------------- connections
    @staticmethod
    def send(table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        """``msg`` to ``conn`` through the last check (its receiver's hidden cards
        redacted): for the frames not built as states — ``ok``, ``refused``."""
        conn.push(guarded(msg, table.hidden_for(conn.seat), _dumps))

    def attach(self, table: Table, conn: Conn, seat: int | None) -> None:
        if conn.dead:
            return
        conn.table, conn.seat = table, seat
        conn.on_dead = self.detach
        table.conns.add(conn)
        if seat is not None:
            s = table.seats[seat]
            s.conns.add(conn)
            s.away_since = None
        else:
            table.spectators += 1
        self.collector.opened()
        conn.push_json({"type": "welcome", "table": table.info(), "seat": seat})
        conn.push(table.state_text(seat))
        table.seats_changed()
        self._presence_changed(table)

    def detach(self, conn: Conn) -> None:
        table = conn.table
        if table is None:
            return
        if conn not in table.conns:
            conn.table = None
            return
        table.conns.discard(conn)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            s.conns.discard(conn)
            if not s.connected:
                s.away_since = time.monotonic()
        else:
            table.spectators -= 1
        conn.table = None
        table.seats_changed()
        self._presence_changed(table)

    # ------------------------------------------------------------- acting
    async def submit(self, table: Table, seat: int | None, version: int, action: str,
                     conn: Conn | None = None, msg_id: Any = None,
                     notice: Said | None = None) -> Refusal | str:
        """Apply ``action`` for ``seat`` if it is that seat's move at ``version``; store
        it; acknowledge to ``conn``; broadcast. Refused: nothing changes."""
        async with table.lock:
            m = table.match
            if table.abandoned and seat is not None:
                return Refusal("abandoned", self._abandoned_text(table), msg_id)
            try:
                # seat, match over, version, turn and the rules: the one check every
                # front end makes (a refusal changes nothing)
                text = check_turn(m, seat, action, seen=version, version=table.version)
            except TurnRefused as exc:
                return Refusal(exc.code, exc.reason, msg_id)
            except Exception as exc:
                return self._engine_failed(table, action, exc, msg_id)
            assert seat is not None          # check_turn refuses a spectator
            index = table.version
            # stored first, applied second: no one ever sees a state the database lacks
            try:
                await self.writer.add_action(table.id, index, seat, text)
            except Exception as exc:
                if persist.is_conflict(exc):
                    # another server accepted an action at this index first: this copy
                    # was behind; it catches up, and this one is refused as stale
                    self.conflicts += 1
                    await self._refresh(table, locked=True)
                    refusal = Refusal("stale", Reason("stale", seen=version,
                                                      now=table.version), msg_id)
                    table.broadcast_state()
                    return refusal
                log.error("table %s: action %d not stored: %s", table.id, index, exc)
                return Refusal("server_error", "the action could not be stored; nothing "
                                               "changed", msg_id)
            try:
                table.apply_logged(seat, text)
            except Exception as exc:
                await self.writer.run(lambda s: s.execute(delete(LiveAction).where(
                    LiveAction.table_id == table.id, LiveAction.idx == index)))
                return self._engine_failed(table, text, exc, msg_id)
            self.accepted += 1
            table.last_active = time.monotonic()
            table.notice = notice
            self.cluster.publish({"t": "action", "table": table.id, "idx": index,
                                  "seat": seat, "action": text,
                                  "notice": None if notice is None else
                                  [notice.key, notice.args]})
            if conn is not None:
                self.send(table, conn, {"type": "ok", "id": msg_id,
                                        "version": table.version, "action": text})
        table.broadcast_state()
        self._drive(table)
        return text

    def _engine_failed(self, table: Table, action: str, exc: Exception, msg_id: Any
                       ) -> Refusal:
        """The engine raised something other than a refusal: the match may be half
        changed, so it is rebuilt from the database (which holds no trace of it)."""
        log.error("table %s: %r failed in the engine: %r", table.id, action, exc)
        self._reload(table)
        return Refusal("server_error", f"the engine failed on this action "
                                       f"({type(exc).__name__}); nothing changed", msg_id)

    def _reload(self, table: Table) -> None:
        """Rebuild a table's match from what the database holds (after a failure)."""
        stored = persist.load_actions(self.sessions, table.id)
        fresh = from_record({"format": "koloda-record/1", "game": table.spec.name,
                             "players": table.match.players, "options": table.options,
                             "seed": table.seed, "deals": [], "actions": []})
        table.match, table.log, table._cache, table._logs = fresh, [], {}, {}
        table._hidden = {}
        table.deal_start = 0
        for seat, action in stored:
            table.apply_logged(seat, action)

    # ---------------------------------------------------------------- bots
    def _bot_for(self, table: Table, seat: int) -> str | None:
        s = table.seats[seat]
        if s.kind == "computer":
            return s.bot or "random"
        st = table.settings
        if s.taken and not s.connected and st["away_policy"] == "computer" \
                and s.away_since is not None \
                and time.monotonic() - s.away_since >= st["away_timeout"]:
            return str(st["away_bot"])
        return None

    @staticmethod
    def _priority(table: Table) -> int:
        """How urgent a computer's move at ``table`` is for the bot scheduler."""
        if any(s.kind == "person" and s.connected for s in table.seats):
            return PEOPLE
        if table.conns or table.remote_spectators \
                or any(s.kind == "person" and s.taken for s in table.seats):
            return SEATED
        return NOBODY

    def _kick(self, table: Table) -> None:
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
        if m.is_over or seat is None or table.closed or not self.cluster.holds(table.id):
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
            if not self._stopping:
                if failed:      # not at once: a move that fails every time must not spin
                    asyncio.get_running_loop().call_later(BOT_RETRY, self._kick, table)
                else:
                    self._kick(table)

    async def _bot_decide_and_submit(self, table: Table, seat: int, spec: str) -> None:
        start = time.monotonic()
        version = table.version
        m = table.match
        legal = list(m.legal_actions())
        seed = (table.seed + version * 7919) % 2**63
        notice = None
        priority = self._priority(table)
        try:
            decision = await self.pool.decide(spec, table.spec.name, m.observation(seat),
                                              legal, seed, priority)
            action = decision.action
            if decision.fallback == "overloaded" and priority < NOBODY:
                notice = Said("overloaded", seat=seat + 1)
        except Exception:
            log.exception("table %s: bot %s failed; a random legal action instead",
                          table.id, spec)
            action = random.Random(seed).choice(legal)
        wait = self.bot_delay - (time.monotonic() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        if table.seats[seat].kind == "person" and table.seats[seat].connected:
            return  # the person came back while the stand-in was thinking
        if table.version != version:
            return  # the person came back and moved meanwhile
        if table.bot_task is asyncio.current_task():
            table.bot_submitting = True     # from now on never cancelled but by stop()
        result = await self.submit(table, seat, version, action, notice=notice)
        if isinstance(result, Refusal) and result.code not in ("stale", "abandoned"):
            log.error("table %s: bot %s refused: %s", table.id, spec, result.reason)

    async def _tick(self) -> None:
        """Seats away too long are handed to the stand-in; presence shown to all."""
        while True:
            slept = time.monotonic()
            await asyncio.sleep(self.tick)
            now = time.monotonic()
            self.lags.append(now - slept - self.tick)
            idle: list[Table] = []
            for table in list(self.tables.values()):
                if table.closed and not table.conns and table.finished_at is not None \
                        and now - table.finished_at > KEEP_FINISHED:
                    del self.tables[table.id]
                    continue
                if table.in_play and not table.finishing and not table.match.is_over \
                        and now - table.last_active > self.idle_limit(table.settings) \
                        and self.cluster.holds(table.id):
                    idle.append(table)
                    continue
                seat = table.match.to_move
                if seat is None or table.closed or table.seats[seat].kind != "person":
                    continue
                before = table.bot_task
                self._kick(table)
                if table.bot_task is not before:
                    table.seats_changed()
            if idle:
                self._spawn(self._abandon(idle))
            if self.cluster.shared:
                self._presence_tick(now)
            self.collector.tick(now)
            if now - self._pruned > 60:
                self._pruned = now
                self._creations.prune()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _abandoned_text(self, table: Table) -> Said:
        return Said("abandoned", m=max(1, round(self.idle_limit(table.settings) / 60)))

    async def _abandon(self, tables: list[Table]) -> None:
        """Idle tables leave play: stored as abandoned (their actions stay), no longer
        played, listed or resumed; whoever watches is told."""
        now = time.monotonic()
        gone = [t for t in tables if t.in_play and not t.finishing
                and not t.match.is_over
                and now - t.last_active > self.idle_limit(t.settings)]
        if not gone:
            return
        for t in gone:
            t.abandoned = True        # no move from now on (submit checks it)
        try:
            await self.writer.run(lambda s: persist.mark_abandoned(s, [t.id for t in gone]))
        except Exception as exc:      # not stored: they stay in play, to try again later
            log.error("idle tables not stored as abandoned: %s", exc)
            for t in gone:
                t.abandoned = False
                t.last_active = time.monotonic()
            return
        self.abandoned += len(gone)
        self.cluster.publish({"t": "abandoned", "tables": [t.id for t in gone]})
        for t in gone:
            self._spawn(self.cluster.release(t.id))
        self._show_abandoned(gone)
        log.info("%d idle table(s) stored as abandoned", len(gone))

    def _show_abandoned(self, gone: list[Table]) -> None:
        for t in gone:
            t.abandoned = True
            t.finished_at = time.monotonic()
            t._cache = {}
            self._closed(t)
            notice = _dumps({"type": "closed", "reason": "abandoned",
                             "text": str(self._abandoned_text(t)),
                             "text_ru": self._abandoned_text(t).render("ru")})
            for c in list(t.conns):
                c.push(notice)
            t.broadcast_state()
            t.broadcast_seats()

    def stats(self) -> dict[str, Any]:
        """Figures for operators and the load benchmark."""
        def pct(values: list[float], q: float) -> float | None:
            if not values:
                return None
            values = sorted(values)
            return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 2)
        commits = [c for c, _ in self.writer.recent]
        sizes = [n for _, n in self.writer.recent]
        lags = list(self.lags)
        return {
            "tables": len(self.tables),
            "playing": self.playing(), "abandoned": self.abandoned,
            "connections": sum(len(t.conns) for t in self.tables.values()),
            "actions_accepted": self.accepted, "transactions": self.writer.commits,
            "commit_ms": {"p50": pct(commits, .5), "p99": pct(commits, .99),
                          "max": pct(commits, 1.0)},
            "jobs_per_commit": round(sum(sizes) / len(sizes), 2) if sizes else None,
            "loop_lag_ms": {"p50": pct(lags, .5), "p99": pct(lags, .99),
                            "max": pct(lags, 1.0)},
            "uptime_s": round(time.monotonic() - self.started, 1),
            "cluster": {**self.cluster.stats(), "taken_over": self.taken_over,
                        "conflicts": self.conflicts},
            "bots": self.pool.stats(),
            "gc": self.collector.stats(),
            "spectator_fanout": {"frames": fan_totals.frames, "offers": fan_totals.offers,
                                 "deferred": fan_totals.deferred,
                                 "cpu_s": round(fan_totals.cpu_s, 3)},
            # CPU seconds used so far (user + system): this process, its bot workers
            "cpu_s": {"server": round(sum(os.times()[:2]), 3),
                      "bot_workers": round(sum(_cpu_of(p) for p in self.pool.processes()),
                                           3)},
        }

    # ------------------------------------------------------------- finish
    def _drive(self, table: Table) -> None:
        """What the table's driver does next: store its end, or start a computer's move
        (only the server holding the table's lease drives it)."""
        if table.match.is_over:
            self._spawn_finish(table)
        else:
            self._kick(table)

    # ------------------------------------------------------- other servers
    async def _refresh(self, table: Table, locked: bool = False) -> None:
        """Bring this copy of ``table`` to what the database holds (its actions, seats,
        end): after a version gap, a lost race, or before driving a table taken over."""
        if not locked:
            async with table.lock:
                await self._refresh(table, locked=True)
            return
        stored = await asyncio.to_thread(persist.load_one, self.sessions, table.id)
        if stored is None:
            return
        fresh = self._rebuild(stored)
        before = table.version
        table.match, table.log, table.deal_start = fresh.match, fresh.log, fresh.deal_start
        table._cache, table._logs, table._hidden = {}, {}, {}
        table.lag_mark = None
        for mine, theirs in zip(table.seats, fresh.seats, strict=True):
            if mine.token_hash != theirs.token_hash:
                mine.name, mine.token_hash = theirs.name, theirs.token_hash
                mine.account_id = theirs.account_id
                if not mine.connected:
                    mine.away_since = time.monotonic()
        if table.version != before:
            table.last_active = time.monotonic()
        if fresh.finished and not table.finished:
            self._show_finished(table, fresh.game_id)
        if fresh.abandoned and not table.abandoned:
            self._show_abandoned([table])

    def _show_finished(self, table: Table, game_id: int | None) -> None:
        table.finished, table.game_id = True, game_id
        table.finishing = False
        table.finished_at = time.monotonic()
        self._closed(table)
        table._cache = {}
        table.broadcast_state()
        table.broadcast_seats()

    def _presence_changed(self, table: Table) -> None:
        """Tell the other servers who is connected here (gathered for a moment)."""
        if not self.cluster.shared:
            return
        self._presence_dirty.add(table.id)
        if self._presence_timer is None:
            self._presence_timer = asyncio.get_running_loop().call_later(
                PRESENCE_DELAY, self._publish_presence)

    def _publish_presence(self, tables: list[Table] | None = None) -> None:
        self._presence_timer = None
        if tables is None:
            tables = [t for t in map(self.tables.get, self._presence_dirty)
                      if t is not None]
            self._presence_dirty.clear()
        if tables:
            self.cluster.publish({"t": "presence",
                                  "tables": {t.id: t.presence() for t in tables}})

    def _lease_lost(self, table_id: str) -> None:
        """Another server drives the table now: a computer's move not yet being stored
        is stopped (if it were stored, the database would refuse it anyway)."""
        table = self.tables.get(table_id)
        if table is not None and table.bot_task is not None and not table.bot_submitting:
            table.bot_task.cancel()
            table.bot_task = None

    async def _on_news(self, news: dict[str, Any]) -> None:
        """What another server did, applied to this server's copy and shown here."""
        kind = news.get("t")
        if kind == "presence":
            now = time.monotonic()
            for table_id, counts in news["tables"].items():
                table = self.tables.get(table_id)
                if table is not None and table.set_remote(news["from"], counts[:-1],
                                                          counts[-1], now):
                    table.seats_changed()
                    self._kick(table)
            return
        if kind == "abandoned":
            self._show_abandoned([t for t in map(self.tables.get, news["tables"])
                                  if t is not None and not t.abandoned])
            return
        table_id = str(news.get("table"))
        table = self.tables.get(table_id)
        if kind == "created":
            if table is None:
                stored = await asyncio.to_thread(persist.load_one, self.sessions, table_id)
                if stored is not None and table_id not in self.tables:
                    self.tables[table_id] = self._rebuild(stored)
            return
        if table is None:
            return
        if kind == "action":
            await self._apply_news(table, news)
        elif kind == "seat":
            s = table.seats[int(news["seat"])]
            s.name, s.token_hash = news["name"], news["token_hash"]
            s.account_id = news.get("account_id")
            if not s.connected:
                s.away_since = time.monotonic()
            table.last_active = time.monotonic()
            table.broadcast_seats()
            self._kick(table)
        elif kind == "finished" and not table.finished:
            if not table.match.is_over:
                await self._refresh(table)
            if not table.finished:
                self._show_finished(table, news.get("game_id"))

    async def _apply_news(self, table: Table, news: dict[str, Any]) -> None:
        async with table.lock:
            idx = int(news["idx"])
            if idx < table.version:
                return                  # known already (this copy caught up before)
            if idx == table.version:
                try:
                    table.apply_logged(int(news["seat"]), str(news["action"]))
                except Exception:
                    await self._refresh(table, locked=True)
            else:                       # some news never came: the database knows
                await self._refresh(table, locked=True)
            table.last_active = time.monotonic()
            notice = news.get("notice")
            table.notice = None if not notice else Said(
                notice[0], **{k: tuple(v) if isinstance(v, list) else v
                              for k, v in notice[1].items()})
        table.broadcast_state()
        self._drive(table)

    async def _sweep(self) -> None:
        """Every ``SWEEP`` seconds: tables in play this server does not know are loaded,
        copies the database is ahead of (twice running) are caught up, and tables whose
        lease nobody holds (their server died) are taken over and driven from here."""
        await every(SWEEP, self._sweep_once, "the sweep")

    async def _sweep_once(self) -> None:
        versions = await asyncio.to_thread(persist.versions_in_play, self.sessions)
        for table_id, version in versions.items():
            table = self.tables.get(table_id)
            if table is None:
                stored = await asyncio.to_thread(persist.load_one, self.sessions, table_id)
                if stored is not None and table_id not in self.tables:
                    try:
                        self.tables[table_id] = self._rebuild(stored)
                    except Exception as exc:
                        log.error("table %s cannot be loaded: %s", table_id, exc)
                continue
            if table.version >= version:
                table.lag_mark = None
            elif table.lag_mark == table.version:
                await self._refresh(table)
                table.broadcast_state()
                self._drive(table)
            else:
                table.lag_mark = table.version
        free = await self.cluster.unleased(versions)
        random.shuffle(free)
        for table_id in free:
            table = self.tables.get(table_id)
            if table is None or table.closed or not await self.cluster.acquire(table_id):
                continue
            self.taken_over += 1
            log.info("table %s taken over (nobody held its lease)", table_id)
            await self._refresh(table)
            table.broadcast_state()
            self._drive(table)

    def _presence_tick(self, now: float) -> None:
        """Remind the others who is connected here; forget servers not heard from."""
        if now - self._presence_said >= PRESENCE_EVERY:
            self._presence_said = now
            self._publish_presence([t for t in self.tables.values() if t.conns])
        for table in self.tables.values():
            if not table.remote_seen:
                continue
            gone = [s for s, seen in table.remote_seen.items() if now - seen > PRESENCE_GONE]
            for server in gone:
                if table.set_remote(server, [0] * len(table.seats), 0, now):
                    table.seats_changed()

    def _spawn_finish(self, table: Table) -> None:
        if table.finishing or table.finished or not self.cluster.holds(table.id):
            return
        table.finishing = True
        table.finish_task = asyncio.create_task(self._finish(table))

    async def _finish(self, table: Table) -> None:
        """Store the finished match (history, statistics, ranks) and close the table."""
        record = table.match.record([s.record_seat(i) for i, s in enumerate(table.seats)])
        game_id = None
        if self.use_store:
            try:
                accounts = {i: s.account_id for i, s in enumerate(table.seats)
                            if s.account_id is not None}
                game_id = await self.writer.run_outside(lambda: self._store_game(record,
                                                                                 accounts))
            except Exception as exc:
                table.store_error = f"{type(exc).__name__}: {exc}"
                table.finishing = False
                log.error("table %s: the finished match was not stored: %s", table.id, exc)
                return

        first = await self.writer.run(lambda s: persist.mark_finished(s, table.id, game_id))
        if not first:     # stored by another server meanwhile: its game id is the one
            stored = await asyncio.to_thread(persist.load_one, self.sessions, table.id)
            game_id = stored.row.game_id if stored is not None else game_id
        table.finished, table.game_id = True, game_id
        self.cluster.publish({"t": "finished", "table": table.id, "game_id": game_id})
        self._spawn(self.cluster.release(table.id))
        table.finished_at = time.monotonic()
        self._closed(table)
        table._cache = {}
        table.broadcast_state()
        table.broadcast_seats()

    def _open_store(self) -> Any:
        from koloda.store import Store
        return Store(self.db_url)     # its schema made under the store's lock

    def _store_game(self, record: dict[str, Any], accounts: dict[int, int]) -> int:
        if self._store is None:
            self._store = self._open_store()
        summary = self._store.add_game(record, accounts=accounts)
        return int(summary.id)
