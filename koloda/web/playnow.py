"""Play now: one button that seats a person with others waiting for the same table.

A request (game, player count, computer level or people only, how long to wait for people
before computers fill the rest, or never) is a row of ``playnow_requests`` — in the
database, not in a process's memory, so every server process behind one address shares
one queue. Whoever asks about the queue (a new request, a waiting page's poll of
``GET /api/playnow/<ticket>``) first tries to match it:

* enough requests wait for the same table (game, players, level): the oldest are claimed;
* the oldest has waited its wait out and computers may play: it and whoever waits with it
  are claimed, computers take the other seats.

Claiming is one transaction: the rows are read ``FOR UPDATE SKIP LOCKED`` (PostgreSQL:
another process skips them instead of waiting) and each is moved from ``waiting`` to
``claimed`` by an UPDATE that checks its ``version`` — on SQLite too, where the lock
clause is not spoken: a row another process claimed first has another version, the UPDATE
touches nothing, and the whole claim is rolled back. So no request is seated twice. The
process that claimed creates the table through ``TableManager.create``/``sit`` and writes
each request's table, seat and seat token into its row; each waiting page reads them at
its next poll and opens the table. The ticket (the page's secret) is stored only as its
SHA-256; a page that stops polling for ``STALE`` seconds leaves the queue.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, Integer, String, create_engine, select, update
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from koloda.engine.errors import ConfigError
from koloda.engine.registry import get_spec
from koloda.store.store import driver_url, schema_lock
from koloda.web import limits
from koloda.web.bots import bots_for
from koloda.web.tables import TableError, TableManager, token_hash

log = logging.getLogger("koloda.web.playnow")
#: seconds without a poll after which a waiting request leaves the queue
STALE = 30.0
#: the longest wait one may choose (seconds)
MAX_WAIT = 600
#: how long a seated request's row is kept for its page to read (seconds)
KEEP = 600.0

limits.TEXTS.update({
    "playnow_wait": ("wait: a whole number of seconds from 0 to {n}, or null (never)",
                     "ожидание: целое число секунд от 0 до {n} или null (никогда)"),
    "playnow_bot": ("{bot}: not a computer level of this game (levels: {levels})",
                    "{bot}: такого уровня компьютера в этой игре нет (уровни: {levels})"),
    "no_ticket": ("no such play-now request (it ended, or was never made here)",
                  "такой заявки «играть сейчас» нет (она закончилась или не подавалась)"),
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
    #: waiting, claimed, seated, cancelled, gone (stopped polling), failed
    state: Mapped[str] = mapped_column(String(12), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    table_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the seat token, for this ticket's page only (read by whoever holds the ticket)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)


class _Lost(Exception):
    """A row of a claim had been claimed by another process."""


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class PlayNow:
    """The queue on ``db_url``, seating through ``manager``."""

    def __init__(self, db_url: str, manager: TableManager) -> None:
        self.manager = manager
        self.engine = create_engine(driver_url(db_url))
        with schema_lock(self.engine):      # other servers may be making it now
            _Base.metadata.create_all(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._matching = asyncio.Lock()

    def close(self) -> None:
        self.engine.dispose()

    # -------------------------------------------------------------- asking
    def check(self, game: str, players: int | None, bot: str | None,
              wait: int | None) -> tuple[str, int, str, int | None]:
        """``(game, players, bot, wait)`` as stored, or a :class:`TableError` saying
        what is wrong. ``bot`` None or "": people only (then no wait)."""
        try:
            spec = get_spec(game)
            n = spec.check_players(spec.default_players if players is None else players)
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

        def write() -> None:
            with self.sessions.begin() as s:
                if account_id is not None:      # one request an account: the newest
                    s.execute(update(PlayNowRow).where(PlayNowRow.account_id == account_id,
                                                       PlayNowRow.state == "waiting")
                              .values(state="cancelled", version=PlayNowRow.version + 1))
                now = _now()
                s.add(PlayNowRow(ticket_hash=token_hash(ticket), game=game, players=n,
                                 bot=level, wait=wait, name=name, account_id=account_id,
                                 client=client, created=now, seen=now, state="waiting", version=0))
        await asyncio.to_thread(write)
        await self.match(game, n, level)
        return dict(await self.status(ticket, match=False), ticket=ticket)

    async def status(self, ticket: str, match: bool = True) -> dict[str, Any]:
        """A request's state: ``waiting`` (with how many wait for its table), ``seated``
        (``table``, ``seat``, ``token``, ``url``), or ended (``cancelled``, ``gone``,
        ``failed``). Polling keeps a request in the queue, and tries to match it."""
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
        return await asyncio.to_thread(self._json, row)

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
            with self.sessions() as s:
                out["waiting"] = len(s.scalars(select(PlayNowRow.id).where(
                    *self._same(row.game, row.players, row.bot),
                    PlayNowRow.state == "waiting")).all())
            if row.wait is not None:
                left = row.wait - (_now() - row.created).total_seconds()
                out["computers_in"] = max(0, round(left))
        if row.state == "seated":
            out.update(table=row.table_id, seat=row.seat, token=row.token,
                       url=f"/t/{row.table_id}")
        return out

    @staticmethod
    def _same(game: str, players: int, bot: str) -> tuple[Any, ...]:
        return (PlayNowRow.game == game, PlayNowRow.players == players, PlayNowRow.bot == bot)

    # ------------------------------------------------------------ matching
    async def match(self, game: str, players: int, bot: str) -> None:
        """Seat whoever can be seated at tables of (game, players, bot), as many tables
        as the queue fills."""
        async with self._matching:          # one matcher a process; the database for more
            while True:
                group = await asyncio.to_thread(self._claim, game, players, bot)
                if not group or not await self._seat(game, players, bot, group):
                    return

    def _claim(self, game: str, players: int, bot: str) -> list[PlayNowRow]:
        """Claim the requests for one table, or none; see the module's doc."""
        try:
            return self._try_claim(game, players, bot)
        except _Lost:                       # another process claimed one first
            return []

    def _try_claim(self, game: str, players: int, bot: str) -> list[PlayNowRow]:
        now = _now()
        with self.sessions.begin() as s:
            s.execute(update(PlayNowRow).where(   # pages that stopped asking leave
                *self._same(game, players, bot), PlayNowRow.state == "waiting",
                PlayNowRow.seen < now - timedelta(seconds=STALE))
                .values(state="gone", version=PlayNowRow.version + 1))
            rows = list(s.scalars(
                select(PlayNowRow).where(*self._same(game, players, bot),
                                         PlayNowRow.state == "waiting")
                .order_by(PlayNowRow.id).limit(players)
                .with_for_update(skip_locked=True)))
            if not rows:
                return []
            first = rows[0]
            due = bool(bot) and first.wait is not None and \
                (now - first.created).total_seconds() >= first.wait
            if len(rows) < players and not due:
                return []
            self._mark(s, rows)
            return rows

    @staticmethod
    def _mark(s: Session, rows: list[PlayNowRow]) -> None:
        """Move ``rows`` from waiting to claimed, each only at the version it was read
        at; :class:`_Lost` (the transaction rolls back) if any had moved meanwhile."""
        for row in rows:
            done = s.execute(update(PlayNowRow)
                             .where(PlayNowRow.id == row.id,
                                    PlayNowRow.version == row.version,
                                    PlayNowRow.state == "waiting")
                             .values(state="claimed", version=row.version + 1))
            if getattr(done, "rowcount", 0) != 1:
                raise _Lost

    async def _seat(self, game: str, players: int, bot: str, group: list[PlayNowRow]) -> bool:
        """Create the table the claimed ``group`` sits at and tell their rows; False if
        no table could be made."""
        seats = [{"kind": "person"} for _ in group] + \
            [{"kind": "computer", "bot": bot} for _ in range(players - len(group))]
        seated: list[tuple[int, int, str]] = []
        try:
            first = group[0]
            table, token, _ = await self.manager.create(
                game, players, {}, seats, first.name, 0, {}, client=first.client,
                account_id=first.account_id)
            assert token is not None
            seated.append((first.id, 0, token))
            for i, row in enumerate(group[1:], start=1):
                seated.append((row.id, i, await self.manager.sit(
                    table, i, row.name, account_id=row.account_id)))
        except TableError as exc:
            log.error("play now: no table for %s requests of %s: %s", len(group), game, exc)
            # the server full or the address creating too fast: they wait on; else ended
            again = exc.status in (429, 503)
            await asyncio.to_thread(self._release, [r.id for r in group], again)
            return False

        def write() -> None:
            with self.sessions.begin() as s:
                for row_id, seat, tok in seated:
                    s.execute(update(PlayNowRow).where(PlayNowRow.id == row_id).values(
                        state="seated", table_id=table.id, seat=seat, token=tok,
                        version=PlayNowRow.version + 1))
                s.execute(update(PlayNowRow).where(   # old seated rows leave
                    PlayNowRow.state != "waiting",
                    PlayNowRow.seen < _now() - timedelta(seconds=KEEP))
                    .values(token=None))
        await asyncio.to_thread(write)
        return True

    def _release(self, ids: list[int], again: bool) -> None:
        with self.sessions.begin() as s:
            s.execute(update(PlayNowRow).where(PlayNowRow.id.in_(ids))
                      .values(state="waiting" if again else "failed",
                              version=PlayNowRow.version + 1))

