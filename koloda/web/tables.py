"""Live tables: the server's authority over every match it hosts.

``TableManager`` holds every table in memory and in the database (with other servers, a
table nobody plays or watches here is a copy left behind, read back when someone comes:
``koloda.web.sync``). A table's match is
changed only by ``submit``: under the table's lock it checks the version the client saw
and the seat to move, lets the engine apply the action (the engine's reason is the
refusal), stores it, and only then acknowledges and broadcasts. Computer seats and seats
whose person has been away too long are played by bots in the worker pool, through the
same ``submit`` (``koloda.web.botdriver``). The rest of the work is done beside it: the
table and its broadcasts (``koloda.web.table``), the connections (``koloda.web.conn``),
the checks on what a table is made with (``koloda.web.checks``), the caps on making
tables (``koloda.web.caps``), the other servers (``koloda.web.sync``), the ticker and idle
tables (``koloda.web.sweeper``), storing a finished match (``koloda.web.finish``), and the
server's figures (``koloda.web.stats``).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from koloda.engine.errors import ConfigError, IllegalAction
from koloda.engine.messages import Reason, Value
from koloda.engine.registry import get_spec, new_game, registry
from koloda.engine.spec import GameSpec
from koloda.engine.turns import TurnRefused, check_turn
from koloda.web import persist
from koloda.web.botdriver import BotDriver
from koloda.web.bots import BotPool, resolve_bot
from koloda.web.caps import CreationCaps, owners
from koloda.web.chat import ChatDesk
from koloda.web.checks import TableError, check_name, check_settings, check_sizes
from koloda.web.client_counts import make_counts
from koloda.web.cluster import make_cluster
from koloda.web.collector import Collector
from koloda.web.conn import Conn, dumps
from koloda.web.finish import Finisher
from koloda.web.hints import HintDesk
from koloda.web.limits import Limits, Rates, Said
from koloda.web.params import well_formed_table_id
from koloda.web.persist import LiveAction, LiveSeat, LiveTable, Writer
from koloda.web.protocol import Refusal
from koloda.web.rematch import RematchDesk
from koloda.web.stats import server_stats
from koloda.web.sweeper import Sweeper
from koloda.web.sync import ClusterSync
from koloda.web.table import Seat, Table, fresh_match, is_takeback, token_hash
from koloda.web.views import cards_in, guarded

__all__ = ["TableError", "TableManager", "token_hash"]

log = logging.getLogger("koloda.web")

#: seconds a lobby page is served from its cache
LOBBY_FRESH = 1.0


class TableManager:
    """Every live table: creating, seating, connecting, acting (``submit``), persistence;
    its parts do the rest: ``driver`` (computers' moves), ``sync`` (the other servers),
    ``sweeper`` (the ticker, idle tables), ``finisher`` (storing a finished match),
    ``caps`` (the caps on making tables)."""

    def __init__(self, db_url: str, bot_workers: int = 2, bot_delay: float = 0.8,
                 use_store: bool = True, tick: float = 0.25,
                 limits: Limits | None = None, redis_url: str | None = None,
                 root_path: str = "") -> None:
        #: the path prefix the pages are served under (``koloda serve --root-path``):
        #: the start of every address the tables hand out
        self.root_path = root_path
        self.limits = limits = limits or Limits()
        #: the other servers (news, leases); alone: every lease is ours
        self.cluster = make_cluster(redis_url)
        self.redis_url = redis_url
        #: tables taken over from another server (its lease ran out)
        self.taken_over = 0
        #: actions another server accepted first (this one's refused ``stale``)
        self.conflicts = 0
        #: the caps on making tables (the server's, each client's, the rate)
        #: the rates (tables made, messages): in Redis with other servers, else here
        self.rates = Rates(limits, redis_url)
        self.caps = CreationCaps(limits, self.rates, make_counts(redis_url))
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
        self._ticker: asyncio.Task[None] | None = None
        self.stopping = False
        self._background: set[asyncio.Task[Any]] = set()
        self._lobby_cache: dict[tuple[int, int, str | None], tuple[float, dict[str, Any]]] \
            = {}
        self.started = time.monotonic()
        self.accepted = 0
        #: how late the ticker woke (seconds): how long the event loop was busy
        self.lags: deque[float] = deque(maxlen=2000)
        self.collector = Collector()
        #: the parts of the work: computers' moves, the other servers, the ticker,
        #: finishing a match
        self.driver = BotDriver(self)
        self.sync = ClusterSync(self)
        self.sweeper = Sweeper(self)
        self.finisher = Finisher(self)
        self.hints = HintDesk(self)
        self.chat = ChatDesk(self)
        self.rematches = RematchDesk(self)

    # ---------------------------------------------------------- life cycle
    async def start(self) -> None:
        self.writer.start()
        self.started = time.monotonic()
        stale: list[str] = []
        wall = persist.now()
        for stored in persist.load_unfinished(self.sessions):
            idle = (wall - (stored.last_at or stored.row.created)).total_seconds()
            try:
                table = self.rebuild(stored)
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
            self.finisher.store = await asyncio.to_thread(self.finisher.open_store)
        await self.cluster.start(self.sync.on_news, self.sync.lease_lost)
        await self.caps.counts.start(
            await asyncio.to_thread(persist.cluster_id, self.sessions)
            if self.caps.counts.shared else "")
        if not self.caps.counts.shared:     # alone: count what was resumed again (with
            for table in self.tables.values():   # other servers Redis kept it)
                if table.in_play:
                    await self.caps.opened(table)
        for table in self.tables.values():
            self.drive(table)
        self._ticker = asyncio.create_task(self.sweeper.run())
        if self.cluster.shared:
            self.sync.task = asyncio.create_task(self.sync.sweep())
        # everything loaded so far (FastAPI, SQLAlchemy, the games) lives as long as the
        # server: keep it out of the collector's full passes, which otherwise stall the
        # event loop for hundreds of milliseconds once many tables are in play (and
        # what survives from then on too, now and then: koloda.web.collector)
        registry()
        self.collector.start()

    async def stop(self) -> None:
        self.stopping = True
        self.collector.stop()
        if self._ticker is not None:
            self._ticker.cancel()
        if self.sync.task is not None:
            self.sync.task.cancel()
        self.hints.stop()
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
        await self.rates.close()
        await self.caps.counts.close()
        if self.finisher.store is not None:
            self.finisher.store.close()
        self.engine.dispose()

    def rebuild(self, stored: persist.StoredTable) -> Table:
        """A table as it stood: the match from its seed, every stored action replayed."""
        row = stored.row
        spec = get_spec(row.game)
        match = fresh_match(row.game, row.players, row.options, row.seed)
        seats = [Seat(s.kind, s.name, s.bot, s.token_hash, account_id=s.account_id,
                      hints=s.hints or 0, strikes=s.strikes or 0, left=bool(s.left))
                 for s in stored.seats]
        for s in seats:
            if s.kind == "person" and s.taken:
                s.away_since = time.monotonic()
        table = Table(row.id, spec, match, row.seed, dict(row.options), seats,
                      dict(row.settings), row.created.timestamp(),
                      finished=row.finished is not None,
                      abandoned=row.abandoned is not None, game_id=row.game_id,
                      owners=tuple(row.owners or ()))
        for i, (seat, action) in enumerate(stored.actions):
            if seat != table.match.to_move and not is_takeback(action):
                raise IllegalAction("stored_out_of_turn", i=i, seat=seat)
            table.apply_logged(seat, action)
        return table

    # ------------------------------------------------------------- tables
    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    async def find(self, table_id: str) -> Table | None:
        """A table in memory, or a finished one read back from the database (finished
        tables leave memory an hour after their last watcher); None for an id not of the
        server's form (``koloda.web.params.TABLE_ID``)."""
        if not well_formed_table_id(table_id):
            return None         # no id the server makes: not looked for
        table = self.tables.get(table_id)
        if table is not None:
            return table
        stored = await asyncio.to_thread(persist.load_one, self.sessions, table_id)
        if stored is None:
            return None
        table = self.tables.get(table_id)   # loaded meanwhile by another request
        if table is None:
            table = self.rebuild(stored)
            table.finished_at = time.monotonic()
            self.tables[table_id] = table
        return table

    def lobby(self) -> list[dict[str, Any]]:
        """Every table in play, newest first (all of them: see ``lobby_page``)."""
        return [t.info() for t in self._in_play_newest()]

    def _in_play_newest(self, game: str | None = None) -> list[Table]:
        return sorted((t for t in self.tables.values()
                       if t.in_play and not t.private and (game is None or t.spec.name == game
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

    #: what a creation counts against (``koloda.web.caps.owners``)
    owners = staticmethod(owners)

    async def create(self, game: str, players: int | None, options: dict[str, Any],
                     seats: list[dict[str, Any]], name: str | None, sit: int | None,
                     settings: dict[str, Any], client: str | None = None,
                     account_id: int | None = None
                     ) -> tuple[Table, str | None, list[str]]:
        """A new table; returns it, the creator's seat token (if they sit) and notes."""
        keys = self.owners(client, account_id)
        reservation = await self.caps.reserve(keys, self.playing())
        try:
            await self.caps.count_rate(keys)
            return await self._create(game, players, options, seats, name, sit, settings,
                                      client, account_id)
        finally:
            await self.caps.release(keys, reservation)

    async def _create(self, game: str, players: int | None, options: dict[str, Any],
                      seats: list[dict[str, Any]], name: str | None, sit: int | None,
                      settings: dict[str, Any], client: str | None,
                      account_id: int | None = None
                      ) -> tuple[Table, str | None, list[str]]:
        check_sizes(self.limits, options, "options")
        check_sizes(self.limits, settings, "settings")
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
            made[sit].name = check_name(name)
            made[sit].token_hash = token_hash(token)
            made[sit].account_id = account_id
            made[sit].away_since = time.monotonic()
        settings = check_settings(spec.name, settings, notes)
        invite = None
        if settings.pop("private"):
            invite = secrets.token_urlsafe(16)
            settings["invite"] = token_hash(invite)
        table = await self.open_table(spec, n, options, made, settings, client,
                                      self.owners(client, account_id))
        table.invite = invite
        return table, token, notes

    async def open_table(self, spec: GameSpec, n: int, options: dict[str, Any],
                         made: list[Seat], settings: dict[str, Any], client: str | None,
                         owners: tuple[str, ...],
                         also: Callable[[Session, str], None] | None = None) -> Table:
        """A new table of these seats on a fresh seed: stored (with ``also``'s rows, in
        the same transaction, given the new id), held and driven from here."""
        seed = secrets.randbelow(2**63)
        match = new_game(spec.name, players=n, seed=seed, **options)
        table = Table(secrets.token_urlsafe(6), spec, match, seed, dict(match.options), made,
                      settings, time.time(), client=client or "?", owners=owners)

        def write(s: Session) -> None:
            s.add(LiveTable(id=table.id, game=spec.name, players=n, options=table.options,
                            seed=seed, settings=settings, created=persist.now(),
                            owners=list(owners)))
            s.flush()
            for i, seat in enumerate(made):
                s.add(LiveSeat(table_id=table.id, seat=i, kind=seat.kind, name=seat.name,
                               bot=seat.bot, token_hash=seat.token_hash,
                               account_id=seat.account_id))
            if also is not None:
                also(s, table.id)
        await self.writer.run(write)
        self.tables[table.id] = table
        await self.caps.opened(table)
        if self.cluster.shared:
            if await self.cluster.acquire(table.id):     # its creator drives it
                await self.sync.claim(table.id)
            self.cluster.publish({"t": "created", "table": table.id})
        self.driver.kick(table)
        return table

    async def sit(self, table: Table, seat: int, name: Any,
                  account_id: int | None = None) -> str:
        """Take an open person seat; returns the seat token (shown once, never stored)."""
        name = check_name(name)
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
                raise TableError(self.sweeper.abandoned_text(table), 409)
            if not await self.writer.run(write):
                # taken meanwhile through another server: this copy learns who has it
                await self.sync.refresh(table)
                raise TableError("seat_taken", 409, n=seat + 1)
            s.name, s.token_hash = name, digest
            s.account_id = account_id
            if not s.connected:
                s.away_since = time.monotonic()
            table.last_active = time.monotonic()
        self.cluster.publish({"t": "seat", "table": table.id, "seat": seat, "name": name,
                              "token_hash": digest, "account_id": account_id})
        table.broadcast_seats()
        self.driver.kick(table)
        return token

    async def seat_of_fresh(self, table: Table, token: str) -> int | None:
        """``seat_of``; with other servers, a token this copy does not know yet (the seat
        was taken through another server a moment ago) is looked up in the database."""
        seat = self.seat_of(table, token)
        if seat is None and self.cluster.shared:
            await self.sync.refresh(table)
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
        conn.push(guarded(msg, table.hidden_for(conn.seat), dumps))

    @staticmethod
    def acknowledge(table: Table, conn: Conn, msg_id: Any, text: str) -> None:
        """The ``ok`` of a seat's own action ``text`` (its id as the seat sent it): the
        seat knew the cards of both, even when the action ended its deal and the next
        deal hides those cards' texts from it; every other card still passes the last
        check."""
        own = frozenset(cards_in(text) + cards_in(str(msg_id)))
        conn.push(guarded({"type": "ok", "id": msg_id, "version": table.version,
                           "action": text}, table.hidden_for(conn.seat) - own, dumps))

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
            s.struck = False            # back: the next time away counts again
        else:
            table.spectators += 1
        self.collector.opened()
        conn.push_json({"type": "welcome", "table": table.info(), "seat": seat})
        conn.push(table.state_text(seat))
        table.seats_changed()
        self.sync.presence_changed(table)

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
        self.sync.presence_changed(table)

    # ------------------------------------------------------------- acting
    async def submit(self, table: Table, seat: int | None, version: int, action: str,
                     conn: Conn | None = None, msg_id: Any = None,
                     notice: Said | None = None, fence: int | None = None
                     ) -> Refusal | str:
        """Apply ``action`` for ``seat`` if it is that seat's move at ``version``; store
        it; acknowledge to ``conn``; broadcast. Refused: nothing changes. ``fence``: the
        lease's token, when the lease holder plays (a computer's move): refused as stale
        if another server took the lease since (``koloda.web.cluster``)."""
        async with table.lock:
            m = table.match
            if table.abandoned and seat is not None:
                return Refusal("abandoned", self.sweeper.abandoned_text(table), msg_id)
            if conn is not None and seat is not None and table.seats[seat].left:
                # its person is back, but the computer plays it to the end
                return Refusal("seat_given_up", Said("seat_given_up"), msg_id)
            try:
                # seat, match over, version, turn and the rules: the one check every
                # front end makes (a refusal changes nothing)
                text = check_turn(m, seat, action, seen=version, version=table.version)
            except TurnRefused as exc:
                return Refusal(exc.code, exc.reason, msg_id)
            except Exception as exc:
                return self._engine_failed(table, action, exc, msg_id)
            assert seat is not None          # check_turn refuses a spectator
            stored = await self.store_and_apply(table, seat, version, text, conn, msg_id,
                                                 notice, fence)
        if isinstance(stored, Refusal):
            return stored
        table.broadcast_state()
        self.drive(table)
        return text

    async def store_and_apply(self, table: Table, seat: int, version: int, text: str,
                              conn: Conn | None, msg_id: Any, notice: Said | None,
                              fence: int | None = None) -> Refusal | str:
        """Under the table's lock, an action already checked (or a takeback): stored at
        the table's version first, applied second, told to the other servers and
        acknowledged to ``conn``. Refused (nothing changes) when another server stored an
        action at this version first, or the store or the engine failed."""
        index = table.version
        # stored first, applied second: no one ever sees a state the database lacks
        try:
            await self.writer.add_action(table.id, index, seat, text, fence)
        except Exception as exc:
            if isinstance(exc, persist.FencedOut):
                self.cluster.drop(table.id)     # the new holder drives it now
            if persist.is_conflict(exc):
                # another server accepted an action at this index first: this copy
                # was behind; it catches up, and this one is refused as stale
                self.conflicts += 1
                await self.sync.refresh(table, locked=True)
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
            self.acknowledge(table, conn, msg_id, text)
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
        fresh = fresh_match(table.spec.name, table.match.players, table.options, table.seed)
        table.match, table.log, table._cache, table._logs = fresh, [], {}, {}
        table._hidden = {}
        table.deal_start = table.undone = 0
        table._behind = None
        for s in table.seats:
            s.takebacks = 0                 # counted again from the stored takebacks
        for seat, action in stored:
            table.apply_logged(seat, action)


    def stats(self) -> dict[str, Any]:
        """Figures for operators and the load benchmark (``koloda.web.stats``)."""
        return server_stats(self)

    # ------------------------------------------------- used by the parts
    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background (kept referenced until it ends)."""
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def drive(self, table: Table) -> None:
        """What the table's driver does next: store its end, or start a computer's move
        (only the server holding the table's lease drives it)."""
        if table.match.is_over:
            self.finisher.spawn(table)
        else:
            self.driver.kick(table)
