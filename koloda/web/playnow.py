"""Play now: one button that seats a person with others waiting for the same table.

A request (game, player count, computer level or people only, how long to wait for people
before computers fill the rest, or never) is a row of ``playnow_requests`` — in the
database, not in a process's memory, so every server process behind one address shares
one queue. Whoever learns of a change in a queue (a new request, a cancel, a page's look
at its request, the sweeper every ``SWEEP`` seconds) tries to match it:

* enough requests wait for the same table (game, players, level): the oldest are claimed;
* the oldest has waited its wait out and computers may play: it and whoever waits with it
  are claimed, computers take the other seats.

Claiming is one transaction: the rows are read ``FOR UPDATE SKIP LOCKED`` (PostgreSQL:
another process skips them instead of waiting) and each is moved from ``waiting`` to
``claimed`` by an UPDATE that checks its ``version`` — on SQLite too, where the lock
clause is not spoken: a row another process claimed first has another version, the UPDATE
touches nothing, and the whole claim is rolled back. So no request is seated twice. The
process that claimed creates the table through ``TableManager.create``/``sit`` and writes
each request's table, seat and seat token into its row.

**A claim is a lease**, the way ``koloda.web.cluster`` leases tables: it names its process
(``claimed_by``) and lasts until ``lease_until``, renewed every ``RENEW`` seconds while
the process seats the group. A process that dies mid-claim stops renewing; once the lease
has run out, any process's sweeper puts the rows back in the queue (``waiting``, a new
version: the dead process's late write, were it only slow, finds nothing to seat) and
matches them again.

**The page is told, not polled.** A waiting page holds ``/ws/playnow/<ticket>`` open
(:meth:`PlayNow.follow`): it gets the request's state at once and again whenever it
changes. Whoever changes a request wakes the connections that follow it: in one process
by an :class:`asyncio.Event`, across processes by the Redis news of ``koloda.web.cluster``
(``{"t": "playnow", "rows": […], "queue": […]}``) when the server runs with ``--redis``.
A following connection also looks at the database every ``RECHECK`` seconds (news can be
lost; servers on one SQLite file without Redis have none), and keeps its request alive
(``seen``). A page whose push connection drops polls ``GET /api/playnow/<ticket>`` until
it can connect again. The ticket (the page's secret) is stored only as its SHA-256; a
request nobody follows or polls for ``STALE`` seconds leaves the queue, and one that
computers never fill ends ``expired`` after ``EXPIRE`` seconds without a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import AsyncGenerator
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, Integer, String, create_engine, func, inspect, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec
from koloda.store.store import driver_url, schema_lock
from koloda.web import limits
from koloda.web.bots import bots_for
from koloda.web.cluster import every
from koloda.web.tables import TableError, TableManager, token_hash

log = logging.getLogger("koloda.web.playnow")
#: seconds without a poll or a following connection after which a request leaves
STALE = 30.0
#: the longest wait one may choose (seconds)
MAX_WAIT = 600
#: seconds a request that computers never fill waits for people before it ends
EXPIRE = 900
#: how long a seated request's token is kept for its page to read (seconds)
KEEP = 600.0
#: seconds a claim lasts unless renewed, and between two renewals (well inside)
LEASE = 5.0
RENEW = 1.5
#: seconds between two sweeps (leases renewed, run-out claims returned, queues matched)
SWEEP = RENEW


def _recheck() -> float:
    """``KOLODA_PLAYNOW_RECHECK`` (seconds, default 5), or an error naming it."""
    text = os.environ.get("KOLODA_PLAYNOW_RECHECK", "5")
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise RuntimeError(f"KOLODA_PLAYNOW_RECHECK={text!r}: a number of seconds above 0")
    return value


#: seconds between two looks at the database by a following connection
RECHECK = _recheck()
#: following connections one request may have at once
FOLLOWERS = 4
#: the states a request ends in (its page stops following)
ENDED = ("seated", "cancelled", "gone", "failed", "expired")

limits.TEXTS.update({
    "playnow_wait": ("wait: a whole number of seconds from 0 to {n}, or null (never)",
                     "ожидание: целое число секунд от 0 до {n} или null (никогда)"),
    "playnow_bot": ("{bot}: not a computer level of this game (levels: {levels})",
                    "{bot}: такого уровня компьютера в этой игре нет (уровни: {levels})"),
    "no_ticket": ("no such play-now request (it ended, or was never made here)",
                  "такой заявки «играть сейчас» нет (она закончилась или не подавалась)"),
    "playnow_followers": ("this request is followed by {n} pages already",
                          "за этой заявкой уже следят {n} страницы"),
    "playnow_many": ("your address has {n} play-now requests waiting, the most it may",
                     "с вашего адреса уже ждут {n} заявок «играть сейчас» — больше нельзя"),
})


class _Base(DeclarativeBase):
    pass


class PlayNowRow(_Base):
    """One person waiting to be seated (or seated, or gone)."""

    __tablename__ = "playnow_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ticket_hash: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(60), index=True)
    players: Mapped[int] = mapped_column(Integer)
    #: the computer level that fills empty seats; "" for people only
    bot: Mapped[str] = mapped_column(String(40))
    #: seconds to wait for people before computers fill the rest; None: never
    wait: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(200))
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the address that asked (the table counts against its first person's address)
    client: Mapped[str | None] = mapped_column(String(100), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    seen: Mapped[datetime] = mapped_column(DateTime)
    #: waiting, claimed, seated, cancelled, gone (nobody looked), failed, expired
    state: Mapped[str] = mapped_column(String(12), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    table_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the seat token, for this ticket's page only (read by whoever holds the ticket)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: a claim: the server process seating the request, and until when it surely is
    claimed_by: Mapped[str | None] = mapped_column(String(40), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


#: columns added since the table was first made: (name, SQL type)
_ADDED = (("claimed_by", "VARCHAR(40)"), ("lease_until", "TIMESTAMP"))


def _make_schema(engine: Engine) -> None:
    """The table, or the columns an older one lacks (under the store's schema lock:
    other servers may be making it now)."""
    with schema_lock(engine):
        _Base.metadata.create_all(engine)
        have = {c["name"] for c in inspect(engine).get_columns("playnow_requests")}
        with engine.begin() as conn:
            for name, kind in _ADDED:
                if name not in have:
                    conn.execute(text(f"ALTER TABLE playnow_requests ADD COLUMN {name} {kind}"))


class _Lost(Exception):
    """A row of a claim had been claimed by another process."""


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


Queue = tuple[str, int, str]


class _Followers:
    """This process's connections following requests: an event each, woken on news."""

    def __init__(self) -> None:
        self.by_row: dict[int, set[asyncio.Event]] = {}
        self.queue_of: dict[int, Queue] = {}

    def add(self, row_id: int, queue: Queue) -> asyncio.Event:
        if len(self.by_row.get(row_id, ())) >= FOLLOWERS:
            raise TableError("playnow_followers", 429, n=FOLLOWERS)
        event = asyncio.Event()
        self.by_row.setdefault(row_id, set()).add(event)
        self.queue_of[row_id] = queue
        return event

    def remove(self, row_id: int, event: asyncio.Event) -> None:
        events = self.by_row.get(row_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self.by_row[row_id]
                self.queue_of.pop(row_id, None)

    def wake(self, rows: list[int], queue: Queue | None) -> int:
        """Wake the followers of ``rows`` and of every request of ``queue``."""
        ids = set(rows)
        if queue is not None:
            ids.update(r for r, q in self.queue_of.items() if q == queue)
        woken = 0
        for row_id in ids:
            for event in self.by_row.get(row_id, ()):
                event.set()
                woken += 1
        return woken


class PlayNow:
    """The queue on ``db_url``, seating through ``manager``."""

    def __init__(self, db_url: str, manager: TableManager) -> None:
        self.manager = manager
        self.cluster = manager.cluster
        self.engine = create_engine(driver_url(db_url))
        _make_schema(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._matching = asyncio.Lock()
        self.followers = _Followers()
        #: rows this process has claimed and not yet seated (their leases are renewed)
        self._claiming: set[int] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: claims whose lease had run out, put back in the queue by this process
        self.returned = 0
        #: news of play now from other servers, and followers they woke
        self.news_heard = 0
        self.recheck = RECHECK
        self.cluster.listen("playnow", self._heard)

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        for events in self.followers.by_row.values():
            for event in events:
                event.set()

    def close(self) -> None:
        self.engine.dispose()

    # -------------------------------------------------------------- asking
    def check(self, game: str, players: int | None, bot: str | None,
              wait: int | None) -> tuple[str, int, str, int | None]:
        """``(game, players, bot, wait)`` as stored, or a :class:`TableError` saying
        what is wrong. ``bot`` None or "": people only (then no wait)."""
        try:
            spec = get_spec(game)
            n = spec.player_count(players)
        except ConfigError as exc:
            raise TableError(exc.reason) from None
        level = (bot or "").strip().lower()
        if level and level not in bots_for(spec.name):
            raise TableError("playnow_bot", bot=level, levels=", ".join(bots_for(spec.name)))
        if wait is not None and (isinstance(wait, bool) or not 0 <= wait <= MAX_WAIT):
            raise TableError("playnow_wait", n=MAX_WAIT)
        return spec.name, n, level, wait if level else None

    async def join(self, game: str, players: int | None, bot: str | None, wait: int | None,
                   name: str, account_id: int | None, client: str | None = None
                   ) -> dict[str, Any]:
        """Queue a request; returns its ticket and its state (perhaps seated already)."""
        game, n, level, wait = self.check(game, players, bot, wait)
        ticket = secrets.token_urlsafe(24)
        most = self.manager.limits.tables_per_client

        def write() -> list[int]:
            with self.sessions.begin() as s:
                ended: list[int] = []
                if account_id is not None:      # one request an account: the newest
                    ended = list(s.scalars(select(PlayNowRow.id).where(
                        PlayNowRow.account_id == account_id, PlayNowRow.state == "waiting")))
                    s.execute(update(PlayNowRow).where(PlayNowRow.id.in_(ended))
                              .values(state="cancelled", version=PlayNowRow.version + 1))
                elif client is not None and (s.scalar(
                        select(func.count(PlayNowRow.id)).where(
                            PlayNowRow.client == client, PlayNowRow.account_id.is_(None),
                            PlayNowRow.state == "waiting")) or 0) >= most:
                    raise TableError("playnow_many", 429, n=most)
                now = _now()
                s.add(PlayNowRow(ticket_hash=token_hash(ticket), game=game, players=n,
                                 bot=level, wait=wait, name=name, account_id=account_id,
                                 client=client, created=now, seen=now, state="waiting",
                                 version=0))
                return ended
        ended = await asyncio.to_thread(write)
        self.tell(ended, (game, n, level))
        await self.match(game, n, level)
        return dict(await self.status(ticket, match=False), ticket=ticket)

    async def status(self, ticket: str, match: bool = True) -> dict[str, Any]:
        """A request's state: ``waiting`` (with how many wait for its table, how long it
        has waited, when computers come), ``seated`` (``table``, ``seat``, ``token``,
        ``url``), or ended (``cancelled``, ``gone``, ``failed``, ``expired``). A look
        keeps a request in the queue, and tries to match it."""
        row = await asyncio.to_thread(self._touch, ticket)
        if row is None:
            raise TableError("no_ticket", 404)
        if match and row.state == "waiting":
            await self.match(row.game, row.players, row.bot)
            row = await asyncio.to_thread(self._touch, ticket) or row
        return await asyncio.to_thread(self._json, row)

    async def cancel(self, ticket: str) -> dict[str, Any]:
        def write() -> PlayNowRow | None:
            with self.sessions.begin() as s:
                row = s.scalar(select(PlayNowRow)
                               .where(PlayNowRow.ticket_hash == token_hash(ticket)))
                if row is not None and row.state == "waiting":
                    row.state, row.version = "cancelled", row.version + 1
                return row
        row = await asyncio.to_thread(write)
        if row is None:
            raise TableError("no_ticket", 404)
        self.tell([row.id], (row.game, row.players, row.bot))
        return await asyncio.to_thread(self._json, row)

    async def follow(self, ticket: str) -> AsyncGenerator[dict[str, Any], None]:
        """A request's states: the first at once, then one whenever it changes (or at
        least every ``recheck`` seconds), until it ends (seated or not)."""
        row = await asyncio.to_thread(self._touch, ticket)
        if row is None:
            raise TableError("no_ticket", 404)
        event = self.followers.add(row.id, (row.game, row.players, row.bot))
        try:
            while True:
                event.clear()           # what changes from now on wakes the wait below
                state = await self.status(ticket)
                yield state
                if state["state"] in ENDED:
                    return
                timeout = self.recheck
                if state.get("computers_in") is not None:
                    timeout = min(timeout, max(1.0, state["computers_in"] + 0.05))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), timeout)
        finally:
            self.followers.remove(row.id, event)

    def queues(self) -> list[dict[str, Any]]:
        """Who waits for which table: game, players, level, how many, longest wait."""
        now = _now()
        with self.sessions() as s:
            found = s.execute(select(PlayNowRow.game, PlayNowRow.players, PlayNowRow.bot,
                                     func.count(PlayNowRow.id), func.min(PlayNowRow.created))
                              .where(PlayNowRow.state == "waiting",
                                     PlayNowRow.seen >= now - timedelta(seconds=STALE))
                              .group_by(PlayNowRow.game, PlayNowRow.players, PlayNowRow.bot)
                              .order_by(PlayNowRow.game, PlayNowRow.players, PlayNowRow.bot))
            return [{"game": g, "players": n, "bot": b or None, "waiting": k,
                     "longest": max(0, round((now - first).total_seconds()))}
                    for g, n, b, k, first in found]

    def _touch(self, ticket: str) -> PlayNowRow | None:
        with self.sessions.begin() as s:
            row = s.scalar(select(PlayNowRow).where(PlayNowRow.ticket_hash == token_hash(ticket)))
            if row is not None and row.state == "waiting":
                row.seen = _now()
            return row

    def _json(self, row: PlayNowRow) -> dict[str, Any]:
        out: dict[str, Any] = {"state": row.state, "game": row.game, "players": row.players,
                               "bot": row.bot or None, "wait": row.wait}
        if row.state in ("waiting", "claimed"):
            now = _now()
            with self.sessions() as s:
                out["waiting"] = s.scalar(select(func.count(PlayNowRow.id)).where(
                    *self._same(row.game, row.players, row.bot),
                    PlayNowRow.state.in_(("waiting", "claimed")))) or 0
            waited = (now - row.created).total_seconds()
            out["waited"] = max(0, round(waited))
            if row.wait is not None:
                out["computers_in"] = max(0, round(row.wait - waited))
            else:
                out["expires_in"] = max(0, round(EXPIRE - waited))
        if row.state == "expired":
            out["waited"] = EXPIRE
        if row.state == "seated":
            out.update(table=row.table_id, seat=row.seat, token=row.token,
                       url=f"{self.manager.root_path}/t/{row.table_id}")
        return out

    @staticmethod
    def _same(game: str, players: int, bot: str) -> tuple[Any, ...]:
        return (PlayNowRow.game == game, PlayNowRow.players == players, PlayNowRow.bot == bot)

    # --------------------------------------------------------------- news
    def tell(self, rows: list[int], queue: Queue | None) -> None:
        """``rows`` (and the requests of ``queue``) changed: wake their followers here
        and on every other server."""
        self.followers.wake(rows, queue)
        if self.cluster.shared:
            self.cluster.publish({"t": "playnow", "rows": rows,
                                  "queue": list(queue) if queue else None})

    async def _heard(self, news: dict[str, Any]) -> None:
        self.news_heard += 1
        queue = news.get("queue")
        self.followers.wake([int(r) for r in news.get("rows") or ()],
                            (str(queue[0]), int(queue[1]), str(queue[2])) if queue else None)

    # ------------------------------------------------------------ matching
    async def match(self, game: str, players: int, bot: str) -> None:
        """Seat whoever can be seated at tables of (game, players, bot), as many tables
        as the queue fills."""
        async with self._matching:          # one matcher a process; the database for more
            while True:
                group, ended = await asyncio.to_thread(self._claim, game, players, bot)
                if ended:
                    self.tell(ended, (game, players, bot))
                if not group or not await self._seat(game, players, bot, group):
                    return

    def _claim(self, game: str, players: int, bot: str
               ) -> tuple[list[PlayNowRow], list[int]]:
        """Claim the requests for one table, or none (and the requests that ended
        meanwhile); see the module's doc."""
        try:
            return self._try_claim(game, players, bot)
        except _Lost:                       # another process claimed one first
            return [], []

    def _try_claim(self, game: str, players: int, bot: str
                   ) -> tuple[list[PlayNowRow], list[int]]:
        now = _now()
        with self.sessions.begin() as s:
            ended = self._end_old(s, (game, players, bot), now)
            rows = list(s.scalars(
                select(PlayNowRow).where(*self._same(game, players, bot),
                                         PlayNowRow.state == "waiting")
                .order_by(PlayNowRow.id).limit(players)
                .with_for_update(skip_locked=True)))
            if not rows:
                return [], ended
            first = rows[0]
            due = bool(bot) and first.wait is not None and \
                (now - first.created).total_seconds() >= first.wait
            if len(rows) < players and not due:
                return [], ended
            self._mark(s, rows, self.cluster.server_id, now)
            self._claiming.update(r.id for r in rows)
            return rows, ended

    def _end_old(self, s: Session, queue: Queue, now: datetime) -> list[int]:
        """Requests of ``queue`` nobody looked at for ``STALE`` seconds leave (``gone``);
        those computers never fill end after ``EXPIRE`` seconds (``expired``)."""
        ended: list[int] = []
        for state, old in (("gone", PlayNowRow.seen < now - timedelta(seconds=STALE)),
                           ("expired", PlayNowRow.wait.is_(None)
                            & (PlayNowRow.created < now - timedelta(seconds=EXPIRE)))):
            ids = list(s.scalars(select(PlayNowRow.id).where(
                *self._same(*queue), PlayNowRow.state == "waiting", old)))
            if ids:
                s.execute(update(PlayNowRow).where(PlayNowRow.id.in_(ids),
                                                   PlayNowRow.state == "waiting")
                          .values(state=state, version=PlayNowRow.version + 1))
                ended += ids
        return ended

    @staticmethod
    def _mark(s: Session, rows: list[PlayNowRow], server: str = "",
              now: datetime | None = None) -> None:
        """Move ``rows`` from waiting to claimed by ``server`` (its lease from ``now``),
        each only at the version it was read at; :class:`_Lost` (the transaction rolls
        back) if any had moved meanwhile."""
        until = (now or _now()) + timedelta(seconds=LEASE)
        for row in rows:
            done = s.execute(update(PlayNowRow)
                             .where(PlayNowRow.id == row.id,
                                    PlayNowRow.version == row.version,
                                    PlayNowRow.state == "waiting")
                             .values(state="claimed", version=row.version + 1,
                                     claimed_by=server, lease_until=until)
                             .execution_options(synchronize_session=False))
            if getattr(done, "rowcount", 0) != 1:
                raise _Lost
            # the row as it now stands, without a second UPDATE at the commit
            for key, value in (("state", "claimed"), ("version", row.version + 1),
                               ("claimed_by", server), ("lease_until", until)):
                set_committed_value(row, key, value)

    async def _seat(self, game: str, players: int, bot: str, group: list[PlayNowRow]) -> bool:
        """Create the table the claimed ``group`` sits at and tell their rows; False if
        no table could be made."""
        ids = [r.id for r in group]
        try:
            return await self._seat_claimed(game, players, bot, group)
        finally:
            self._claiming.difference_update(ids)
            self.tell(ids, (game, players, bot))

    async def _seat_claimed(self, game: str, players: int, bot: str,
                            group: list[PlayNowRow]) -> bool:
        seats = [{"kind": "person"} for _ in group] + \
            [{"kind": "computer", "bot": bot} for _ in range(players - len(group))]
        seated: list[tuple[PlayNowRow, int, str]] = []
        try:
            first = group[0]
            table, token, _ = await self.manager.create(
                game, players, {}, seats, first.name, 0, {}, client=first.client,
                account_id=first.account_id)
            assert token is not None
            seated.append((first, 0, token))
            for i, row in enumerate(group[1:], start=1):
                seated.append((row, i, await self.manager.sit(
                    table, i, row.name, account_id=row.account_id)))
        except TableError as exc:
            log.error("play now: no table for %s requests of %s: %s", len(group), game, exc)
            # the server full or the address creating too fast: they wait on; else ended
            again = exc.status in (429, 503)
            await asyncio.to_thread(self._release, group, again)
            return False
        me = self.cluster.server_id

        def write() -> int:
            with self.sessions.begin() as s:
                lost = 0
                for row, seat, tok in seated:
                    done = s.execute(update(PlayNowRow).where(
                        PlayNowRow.id == row.id, PlayNowRow.state == "claimed",
                        PlayNowRow.claimed_by == me, PlayNowRow.version == row.version)
                        .values(state="seated", table_id=table.id, seat=seat, token=tok,
                                version=PlayNowRow.version + 1, lease_until=None))
                    lost += getattr(done, "rowcount", 0) != 1
                s.execute(update(PlayNowRow).where(   # old seated rows forget their token
                    PlayNowRow.state != "waiting",
                    PlayNowRow.seen < _now() - timedelta(seconds=KEEP))
                    .values(token=None))
                return lost
        lost = await asyncio.to_thread(write)
        if lost:        # this process was too slow: its lease ran out, the rows went back
            log.warning("play now: %d claim(s) ran out before table %s was told", lost,
                        table.id)
        return True

    def _release(self, group: list[PlayNowRow], again: bool) -> None:
        with self.sessions.begin() as s:
            s.execute(update(PlayNowRow).where(
                PlayNowRow.id.in_([r.id for r in group]), PlayNowRow.state == "claimed",
                PlayNowRow.claimed_by == self.cluster.server_id)
                .values(state="waiting" if again else "failed", claimed_by=None,
                        lease_until=None, version=PlayNowRow.version + 1))

    # ------------------------------------------------------------- sweeping
    async def _sweep(self) -> None:
        """Every ``SWEEP`` seconds: see :meth:`sweep_once`."""
        await every(SWEEP, self.sweep_once, "play now: the sweep")

    async def sweep_once(self) -> None:
        """This process's claims renewed and its followed requests kept alive; claims
        whose lease ran out (their process died) returned to the queue; every queue with
        someone waiting matched (two requests arriving at once on two servers each skip
        the other's locked row; a wait runs out with nobody looking)."""
        returned, queues = await asyncio.to_thread(self._keep)
        if returned:
            self.returned += len(returned)
            log.warning("play now: %d claim(s) of a server gone returned to the queue",
                        len(returned))
            self.tell(returned, None)
        for queue in queues:
            await self.match(*queue)

    def _keep(self) -> tuple[list[int], list[Queue]]:
        now = _now()
        me = self.cluster.server_id
        with self.sessions.begin() as s:
            if self._claiming:
                s.execute(update(PlayNowRow).where(
                    PlayNowRow.id.in_(list(self._claiming)), PlayNowRow.state == "claimed",
                    PlayNowRow.claimed_by == me)
                    .values(lease_until=now + timedelta(seconds=LEASE)))
            if self.followers.by_row:
                s.execute(update(PlayNowRow).where(
                    PlayNowRow.id.in_(list(self.followers.by_row)),
                    PlayNowRow.state == "waiting").values(seen=now))
            ran_out = list(s.scalars(
                select(PlayNowRow).where(PlayNowRow.state == "claimed",
                                         PlayNowRow.lease_until < now)
                .with_for_update(skip_locked=True)))
            returned = []
            for row in ran_out:
                done = s.execute(update(PlayNowRow).where(
                    PlayNowRow.id == row.id, PlayNowRow.version == row.version,
                    PlayNowRow.state == "claimed")
                    .values(state="waiting", claimed_by=None, lease_until=None,
                            version=row.version + 1))
                if getattr(done, "rowcount", 0) == 1:
                    returned.append(row.id)
        with self.sessions() as s:
            queues = [(g, n, b) for g, n, b in s.execute(
                select(PlayNowRow.game, PlayNowRow.players, PlayNowRow.bot)
                .where(PlayNowRow.state == "waiting").distinct())]
        return returned, queues
