"""Live tables in the database: nothing accepted is ever only in memory.

A table is its configuration (game, players, resolved options, seed), its seats (who sits
there, the hash of the seat token — never the token itself) and every accepted action in
order. That is a record without its deals: the seed deals them again, so replaying the
actions on a restart rebuilds every table exactly where it stood.

Writes go through ``Writer``: one thread that owns every write and commits whatever has
queued up in one transaction (group commit). An action is acknowledged only once its
transaction has committed; under load many tables share one commit, so the database is
not the bottleneck, and the event loop never waits on the disk.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    false,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from koloda.store.store import driver_url, schema_lock

log = logging.getLogger("koloda.web")


class WebBase(DeclarativeBase):
    """The web server's own tables, beside the store's in the same database."""


class LiveTable(WebBase):
    __tablename__ = "web_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(60))
    players: Mapped[int] = mapped_column(Integer)
    #: every option resolved (defaults filled in), so a later default change cannot move it
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: away_timeout (seconds), away_policy ("wait" or "computer"), away_bot
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    #: the finished game's id in the store (koloda.store)
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: when the table was given up for idleness (kept, never played or loaded again)
    abandoned: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: the highest fencing token a lease holder wrote for this table with (0: none yet;
    #: ``claim_fence``): a lower one is refused
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    #: what the table counts against while in play (``koloda.web.caps.owners``: the
    #: creating address and account), so a restarted server counts it again
    owners: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)


class LiveSeat(WebBase):
    __tablename__ = "web_seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))          # "person" or "computer"
    name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(60), nullable=True)
    #: sha256 of the seat token; None while the seat is open
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: the account (koloda.store) signed in when the seat was taken; None: a guest
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: hints shown to the seat
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: times a computer stood in for its away person, and whether it was given up
    strikes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    left: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class LiveAction(WebBase):
    __tablename__ = "web_actions"
    __table_args__ = (UniqueConstraint("table_id", "idx"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("web_tables.id"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    at: Mapped[datetime] = mapped_column(DateTime)


class LiveMeta(WebBase):
    """Facts of the database itself (``key`` → ``value``): its ``cluster`` id, the name
    every server on it gives what it keeps in Redis that is the database's alone."""

    __tablename__ = "web_meta"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


def cluster_id(sessions: sessionmaker[Session]) -> str:
    """This database's cluster id: made by the first server to ask (a random name),
    read by every other; two servers asking at once get the one stored first."""
    import secrets
    for _ in range(3):
        with sessions() as s:
            have = s.get(LiveMeta, "cluster")
            if have is not None:
                return have.value
        try:
            with sessions() as s, s.begin():
                s.add(LiveMeta(key="cluster", value=secrets.token_hex(8)))
        except IntegrityError:
            continue                     # another server stored its own first: read it
    raise RuntimeError("no cluster id could be stored in the database")


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


#: the PostgreSQL advisory lock servers take while making the schema
#: the driver named in a URL (psycopg 3 for postgresql://)
database_url = driver_url


class FencedOut(RuntimeError):
    """A lease holder's write carried a fencing token lower than the highest the database
    has seen for the table: another server took the lease since (this one was paused, or
    cut off); nothing of the write is kept."""

    def __init__(self, table_id: str, token: int) -> None:
        super().__init__(f"table {table_id}: fencing token {token} is stale (another "
                         f"server holds the lease)")
        self.table_id, self.token = table_id, token


def is_conflict(exc: BaseException) -> bool:
    """The database refused a row because another one holds its place: another server
    accepted an action at that index first (or took that seat), or holds the table's
    lease with a newer fencing token."""
    return isinstance(exc, IntegrityError | FencedOut)


def claim_fence(s: Session, table_id: str, token: int | None) -> None:
    """In the transaction of a lease holder's write: the table's highest token becomes
    ``token``, or :class:`FencedOut` if it is already higher (then the transaction is
    rolled back, the write with it). ``token`` None: one server alone, nothing fenced.
    The row's update also serialises two holders' writes (PostgreSQL locks the row)."""
    if token is None:
        return
    done = s.execute(update(LiveTable).where(LiveTable.id == table_id,
                                             LiveTable.fence <= token)
                     .values(fence=token))
    if not getattr(done, "rowcount", 1):
        raise FencedOut(table_id, token)


def _fenced_out(s: Session, jobs: list[_Job]) -> list[_Job]:
    """Of these fenced action rows, those whose token is below the highest the database
    has seen for their table (another server took the lease since: each is refused, the
    batch's others are written). One read for all, locking the tables' rows until the
    commit (PostgreSQL), so a new holder's claim (``claim_fence``, written when its lease
    is taken) comes wholly before or after it. A token is written when its lease is taken
    (``claim_fence``), so what a holder plays carries the token already there and
    nothing is written for it; a higher one is written here."""
    fenced = [j for j in jobs if j.fence is not None and j.row is not None]
    if not fenced:
        return []
    ids = sorted({str(j.row["table_id"]) for j in fenced if j.row is not None})
    have = dict(s.execute(select(LiveTable.id, LiveTable.fence)
                          .where(LiveTable.id.in_(ids)).with_for_update()).tuples().all())
    out: list[_Job] = []
    raised: dict[str, int] = {}
    for j in fenced:
        assert j.row is not None and j.fence is not None
        tid = j.row["table_id"]
        if j.fence < (have.get(tid) or 0):
            out.append(j)
        elif j.fence > (have.get(tid) or 0):
            raised[tid] = max(j.fence, raised.get(tid, 0))
    for tid, token in raised.items():    # a token its claim did not write yet: now
        claim_fence(s, tid, token)
    return out


def fence_of(sessions: sessionmaker[Session], table_id: str) -> int:
    """The highest fencing token the database has seen for ``table_id``."""
    with sessions() as s:
        return int(s.scalar(select(LiveTable.fence).where(LiveTable.id == table_id)) or 0)


def open_engine(url: str) -> Engine:
    """The engine for ``url``; SQLite gets WAL (readers never wait for the writer) and a
    busy timeout (the store writes to the same file from the same thread). Several
    servers starting at once on one PostgreSQL make the schema one at a time."""
    url = database_url(url)
    is_sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"timeout": 30} if is_sqlite else {},
                           **({} if is_sqlite else {"pool_pre_ping": True}))
    if is_sqlite:
        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed action survives a power cut, not only a killed server
            cur.execute("PRAGMA synchronous=FULL")
            cur.close()
    with schema_lock(engine), engine.begin() as conn:   # the store's lock: one at a time
        WebBase.metadata.create_all(conn)
        _add_missing_columns(conn)
    return engine


def _add_missing_columns(conn: Connection) -> None:
    """Columns added since a database was made (``create_all`` makes missing tables
    only): added empty, so an older database keeps working."""
    have = {c["name"] for c in inspect(conn).get_columns("web_tables")}
    if "abandoned" not in have:
        conn.execute(text("ALTER TABLE web_tables ADD COLUMN abandoned TIMESTAMP"))
    seats = {c["name"] for c in inspect(conn).get_columns("web_seats")}
    if "account_id" not in seats:
        conn.execute(text("ALTER TABLE web_seats ADD COLUMN account_id INTEGER"))
    if "hints" not in seats:
        conn.execute(text("ALTER TABLE web_seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0"))
    if "strikes" not in seats:
        conn.execute(text("ALTER TABLE web_seats ADD COLUMN strikes INTEGER NOT NULL "
                          "DEFAULT 0"))
        conn.execute(text("ALTER TABLE web_seats ADD COLUMN \"left\" BOOLEAN NOT NULL "
                          "DEFAULT FALSE"))
    if "fence" not in have:
        conn.execute(text("ALTER TABLE web_tables ADD COLUMN fence BIGINT NOT NULL DEFAULT 0"))
    if "owners" not in have:
        conn.execute(text("ALTER TABLE web_tables ADD COLUMN owners JSON"))


# --------------------------------------------------------------------- the writer
@dataclass
class _Job:
    fn: Callable[[Session | None], Any] | None
    uses_session: bool
    done: Callable[[Any, BaseException | None], None]
    #: an action row (the hot path): all of a batch's go in one executemany
    row: dict[str, Any] | None = None
    #: the lease holder's fencing token the row is written with (None: not fenced)
    fence: int | None = None

    def run(self, s: Session | None) -> Any:
        if self.row is not None:
            assert s is not None
            if _fenced_out(s, [self]):
                raise FencedOut(self.row["table_id"], self.fence or 0)
            s.execute(insert(LiveAction), [self.row])
            return None
        assert self.fn is not None
        return self.fn(s)


class Writer:
    """One thread for every write; batches jobs into one transaction per wake-up."""

    MAX_BATCH = 500

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self._sessions = sessions
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name="koloda-web-writer",
                                        daemon=True)
        self.commits = 0
        self.jobs = 0
        #: (seconds, jobs) of the latest transactions, for /api/stats
        self.recent: deque[tuple[float, int]] = deque(maxlen=2000)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Finish every queued job, then end the thread."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()

    async def run(self, fn: Callable[[Session], Any]) -> Any:
        """Run ``fn(session)`` in the next transaction; return once it has committed."""
        return await self._submit(fn, True)  # type: ignore[arg-type]

    async def add_action(self, table_id: str, idx: int, seat: int, action: str,
                         fence: int | None = None) -> None:
        """Store one accepted action; return once it has committed. ``fence``: the lease
        holder's token, for what it plays (a computer's move): refused with
        :class:`FencedOut` when another server holds the lease with a newer one."""
        row = {"table_id": table_id, "idx": idx, "seat": seat, "action": action,
               "at": now()}
        await self._submit(None, True, row, fence)

    async def run_outside(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn()`` on the writer thread outside any transaction of ours (the store,
        which has its own engine, writes this way: one writer for the whole file)."""
        return await self._submit(lambda _s: fn(), False)

    def _submit(self, fn: Callable[[Session | None], Any] | None, uses_session: bool,
                row: dict[str, Any] | None = None, fence: int | None = None
                ) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()

        def done(value: Any, exc: BaseException | None) -> None:
            def settle() -> None:
                if fut.done():
                    return
                if exc is not None:
                    fut.set_exception(exc)
                else:
                    fut.set_result(value)
            loop.call_soon_threadsafe(settle)

        self._queue.put(_Job(fn, uses_session, done, row, fence))
        return fut

    def _loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._run_batch(batch)
            if stop:
                return

    def _run_batch(self, batch: list[_Job]) -> None:
        in_tx = [j for j in batch if j.uses_session]
        if in_tx:
            start = time.perf_counter()
            try:
                with self._sessions() as s, s.begin():
                    out = {id(j) for j in _fenced_out(s, [j for j in in_tx
                                                          if j.fence is not None])}
                    rows = [j.row for j in in_tx if j.row is not None and id(j) not in out]
                    if rows:
                        s.execute(insert(LiveAction), rows)
                    results = [None if j.row is not None else j.run(s) for j in in_tx]
                self.commits += 1
                self.recent.append((time.perf_counter() - start, len(in_tx)))
                for j, r in zip(in_tx, results, strict=True):
                    if id(j) in out:
                        assert j.row is not None
                        j.done(None, FencedOut(j.row["table_id"], j.fence or 0))
                    else:
                        j.done(r, None)
            except Exception:
                # one bad job must not sink the others: each alone in its own transaction
                for j in in_tx:
                    try:
                        with self._sessions() as s, s.begin():
                            r = j.run(s)
                        self.commits += 1
                        j.done(r, None)
                    except Exception as exc:
                        if is_conflict(exc):    # another server was first: said, not logged
                            log.debug("a write lost to another server's: %s", exc)
                        else:
                            log.exception("a database write failed")
                        j.done(None, exc)
        for j in batch:
            if not j.uses_session:
                try:
                    j.done(j.run(None), None)
                except Exception as exc:
                    log.exception("a store write failed")
                    j.done(None, exc)
        self.jobs += len(batch)


# ------------------------------------------------------------------- reading back
@dataclass
class StoredTable:
    """One unfinished table as the database holds it."""

    row: LiveTable
    seats: list[LiveSeat]
    actions: list[tuple[int, str]] = field(default_factory=list)
    #: when it last changed: its latest action, else its creation (UTC, naive)
    last_at: datetime | None = None


def load_unfinished(sessions: sessionmaker[Session]) -> list[StoredTable]:
    """Every table still in play: neither finished nor abandoned."""
    return _load(sessions, LiveTable.finished.is_(None) & LiveTable.abandoned.is_(None))


def versions_in_play(sessions: sessionmaker[Session]) -> dict[str, int]:
    """Every table in play and how many actions the database holds for it (its version):
    what the servers' sweepers compare their copies and leases with."""
    with sessions() as s:
        count = (select(func.count(LiveAction.id)).where(LiveAction.table_id == LiveTable.id)
                 .correlate(LiveTable).scalar_subquery())
        rows = s.execute(select(LiveTable.id, count).where(
            LiveTable.finished.is_(None) & LiveTable.abandoned.is_(None)))
        return {str(table_id): int(n) for table_id, n in rows}


def mark_finished(s: Session, table_id: str, game_id: int | None,
                  fence: int | None = None) -> bool:
    """Store that a table's match ended (once: False if it was stored already);
    ``fence``: the lease holder's token (``claim_fence``)."""
    claim_fence(s, table_id, fence)
    done = s.execute(update(LiveTable).where(LiveTable.id == table_id,
                                             LiveTable.finished.is_(None))
                     .values(finished=now(), game_id=game_id))
    return bool(getattr(done, "rowcount", 1))


def claim_seat(s: Session, table_id: str, seat: int, name: str, digest: str,
               account_id: int | None = None) -> bool:
    """Give an open seat its person, and the account signed in if any (False: someone took
    it first, maybe elsewhere)."""
    done = s.execute(update(LiveSeat).where(LiveSeat.table_id == table_id,
                                            LiveSeat.seat == seat,
                                            LiveSeat.token_hash.is_(None))
                     .values(name=name, token_hash=digest, account_id=account_id))
    return bool(getattr(done, "rowcount", 1))


def mark_abandoned(s: Session, table_ids: list[str],
                   fences: dict[str, int | None] | None = None) -> None:
    """Store the tables as given up for idleness; ``fences``: the lease holder's token of
    each (``claim_fence``: one stale token refuses them all, to be tried again)."""
    for table_id in table_ids:
        claim_fence(s, table_id, (fences or {}).get(table_id))
    s.execute(update(LiveTable).where(LiveTable.id.in_(table_ids),
                                      LiveTable.finished.is_(None))
              .values(abandoned=now()))


def load_one(sessions: sessionmaker[Session], table_id: str) -> StoredTable | None:
    """One table by id, finished or not (a finished one is shown, no longer played)."""
    found = _load(sessions, LiveTable.id == table_id)
    return found[0] if found else None


def _load(sessions: sessionmaker[Session], where: Any) -> list[StoredTable]:
    with sessions() as s:
        rows = list(s.scalars(select(LiveTable).where(where).order_by(LiveTable.created)))
        out = []
        for row in rows:
            seats = list(s.scalars(select(LiveSeat).where(LiveSeat.table_id == row.id)
                                   .order_by(LiveSeat.seat)))
            rows_ = list(s.scalars(select(LiveAction).where(LiveAction.table_id == row.id)
                                   .order_by(LiveAction.idx)))
            acts = [(a.seat, a.action) for a in rows_]
            last = max([row.created, *(a.at for a in rows_)])
            out.append(StoredTable(row, seats, acts, last))
        s.expunge_all()
        return out


def load_actions(sessions: sessionmaker[Session], table_id: str) -> list[tuple[int, str]]:
    with sessions() as s:
        return [(a.seat, a.action) for a in s.scalars(
            select(LiveAction).where(LiveAction.table_id == table_id)
            .order_by(LiveAction.idx))]
