"""``Store``: keep finished games, read players' statistics, move Opendaum-33 ranks.

A game enters the store only by its record, and only after replaying it: what is stored is
what the rules say happened. The human seats of a record (``"kind": "human"``) are the
players with profiles; computer seats are kept by name and bot, without a profile.

Accounts (a registered name and its password's hash, :class:`Account`) have ranks and
statistics of their own: a seat reaches an account only when whoever stores the game says
so (``add_game(accounts={seat: account id})`` — the web server does, for the seats of
people signed in). A human seat merely *named* like an account (a guest, a record typed
by hand) gets no profile at all, so nobody moves an account's rank by typing its name.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, func, inspect, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from koloda.engine.errors import RecordError
from koloda.engine.records import replay
from koloda.ranks import RANK_BY_ID, Rank, next_held_rank, rank_for_total
from koloda.store import ratings as _ratings  # its tables join Base's (ratings)
from koloda.store.models import (
    Account,
    AccountRankRow,
    Base,
    GameRow,
    Player,
    RankMove,
    RankRow,
    SeatRow,
)
from koloda.store.skeleton import skeleton

#: the largest id a row has (the databases' 64-bit signed integers)
ID_MAX = 2**63 - 1


class StoreError(RuntimeError):
    """The database could not be opened or written (the message says which and why).

    ``url`` and ``cause`` (the database's own words) let an interface say it in the
    player's language."""

    def __init__(self, message: str, url: str | None = None, cause: str | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.cause = cause


class NameTaken(ValueError):
    """An account already holds this name (compared as :func:`name_key` says), or one that
    looks like it (the same :func:`~koloda.store.skeleton.skeleton`): ``like`` is that
    account's name when it is not the same name."""

    def __init__(self, name: str, like: str | None = None) -> None:
        super().__init__(f"the name {name!r} is already registered" if like is None
                         else f"the name {name!r} looks like the registered name {like!r}")
        self.name = name
        self.like = like


def name_key(name: str) -> str:
    """A name as names are compared: NFC, case folded, spaces collapsed — «Аня», «аня»
    and «А\u0301ня»'s NFC twin are one name; so are "ALICE " and "alice"."""
    folded = unicodedata.normalize("NFC", name).casefold()
    return " ".join(unicodedata.normalize("NFC", folded).split())


def default_url() -> str:
    """``$KOLODA_DB`` if set, else a SQLite file in the user's data directory."""
    import os
    if os.environ.get("KOLODA_DB"):
        return os.environ["KOLODA_DB"]
    from koloda.paths import data_dir
    return f"sqlite:///{Path(data_dir()) / 'koloda.db'}"


@dataclass(frozen=True)
class RankChange:
    player: str
    total: float
    earned: Rank
    before: Rank | None
    after: Rank

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "total": self.total, "earned": self.earned.id,
                "before": self.before.id if self.before else None, "after": self.after.id}


@dataclass(frozen=True)
class AccountInfo:
    id: int
    name: str
    created: datetime
    rank: Rank | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created": self.created.isoformat(),
                "rank": self.rank.to_json() if self.rank else None}


def _info(a: Account) -> AccountInfo:
    return AccountInfo(a.id, a.name, a.created, RANK_BY_ID[a.rank] if a.rank else None)


@dataclass
class GameSummary:
    id: int
    game: str
    finished: datetime
    names: list[str]
    kinds: list[str]
    winners: list[int]
    scores: list[float]
    capped: bool
    rank_changes: list[RankChange] = field(default_factory=list)
    new: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "finished": self.finished.isoformat(),
                "names": self.names, "kinds": self.kinds, "winners": self.winners,
                "scores": self.scores, "capped": self.capped,
                "rank_changes": [r.to_json() for r in self.rank_changes]}


@dataclass
class GameStats:
    """One player's games of one kind."""

    game: str
    played: int
    won: int
    lost: int
    drawn: int
    mean_score: float
    best_score: float
    worst_score: float

    def to_json(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class PlayerStats:
    name: str
    rank: Rank | None
    games: list[GameStats]
    rank_history: list[dict[str, Any]]
    recent: list[GameSummary]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "rank": self.rank.to_json() if self.rank else None,
                "games": [g.to_json() for g in self.games], "rank_history": self.rank_history,
                "recent": [g.to_json() for g in self.recent]}


def record_digest(record: dict[str, Any]) -> str:
    """What makes a match (not its seats' names or its result): a stored game's identity."""
    core = {k: record.get(k) for k in ("game", "players", "options", "seed", "first_dealer",
                                       "deals", "actions")}
    return hashlib.sha256(json.dumps(core, sort_keys=True, ensure_ascii=False)
                          .encode("utf-8")).hexdigest()


#: the matches a player's reliability is counted over
RELIABILITY_OF = 20

def ranked(game: str, record: dict[str, Any], capped: bool) -> bool:
    """Does this match move ranks? As its game declares (``GameSpec.moves_ranks``): only a
    whole opendaum-33 match, not stopped by the max_deals cap, not begun part-way through
    the schedule (start_deal, for practice)."""
    from koloda.engine.errors import ConfigError
    from koloda.engine.registry import get_spec
    try:
        rule = get_spec(game).moves_ranks
    except ConfigError:
        return False
    return rule is not None and rule(record.get("options") or {}, capped)


def assisted(record: dict[str, Any]) -> bool:
    """Did a person play with help: hints (the strongest computer's move shown) or
    takebacks (moves undone)? The record says so on the seat (``"hints"``,
    ``"takebacks"``); such a match is stored but moves no rating and no rank."""
    return any(isinstance(info, dict) and (info.get("hints") or info.get("takebacks"))
               for info in record.get("seats") or [])


def _outcome(seat: int, result: dict[str, Any]) -> str:
    if seat in result["winners"]:
        return "won"
    if seat in result["losers"]:
        return "lost"
    return "draw"


class Store:
    """A database of players and finished games (created on first use)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        try:
            self.engine = create_engine(driver_url(self.url))
            with schema_lock(self.engine):
                Base.metadata.create_all(self.engine)
                _add_missing_columns(self.engine)
        except (SQLAlchemyError, ValueError, OSError) as exc:
            raise StoreError(f"cannot open the store {self.url}: {exc}", self.url,
                             str(exc)) from exc
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    def _session(self) -> Session:
        return self._sessions()

    # ------------------------------------------------------------ players
    def _player(self, s: Session, name: str, create: bool = True) -> Player | None:
        p = s.scalar(select(Player).where(Player.name == name))
        if p is None and create:
            p = Player(name=name, created=datetime.now(UTC).replace(tzinfo=None), rank=None)
            s.add(p)
            s.flush()
        return p

    @staticmethod
    def _registered(s: Session, name: str) -> bool:
        return s.scalar(select(Account.id).where(Account.key == name_key(name))) is not None

    def rank_of(self, name: str) -> Rank | None:
        """The Opendaum-33 rank ``name`` holds (None: no rank yet, or no such player)."""
        with self._session() as s:
            p = self._player(s, name, create=False)
            return RANK_BY_ID[p.rank] if p is not None and p.rank else None

    def set_rank(self, name: str, rank: Rank | str | None) -> None:
        """Give a profile a rank held from elsewhere (a paper score sheet, another club)."""
        rid = rank.id if isinstance(rank, Rank) else rank
        if rid is not None and rid not in RANK_BY_ID:
            raise ValueError(f"unknown rank {rid!r}; ranks: {', '.join(RANK_BY_ID)}")
        with self._session() as s:
            p = self._player(s, name)
            assert p is not None
            p.rank = rid
            s.commit()

    def player_names(self) -> list[str]:
        with self._session() as s:
            return list(s.scalars(select(Player.name).order_by(Player.name)))

    # ----------------------------------------------------------- accounts
    def add_account(self, name: str, password_hash: str) -> AccountInfo:
        """Register ``name`` (as given: NFC, checked by the caller) with the hash of its
        password; :class:`NameTaken` if an account holds it (by :func:`name_key`) or a name
        that looks like it (by :func:`~koloda.store.skeleton.skeleton`: the database's
        unique index decides, so two servers cannot both register look-alikes)."""
        key, skel = name_key(name), skeleton(name)
        with self._session() as s:
            held = self._look_alike(s, name)
            if held is not None:
                raise NameTaken(name, None if name_key(held) == key else held)
            a = Account(name=name, key=key, skeleton=skel, password_hash=password_hash,
                        created=datetime.now(UTC).replace(tzinfo=None), rank=None)
            s.add(a)
            try:
                s.commit()
            except IntegrityError:      # registered meanwhile by another request
                s.rollback()
                held = self._look_alike(s, name)
                raise NameTaken(name, None if held is None or name_key(held) == key
                                else held) from None
            return _info(a)

    @staticmethod
    def _look_alike(s: Session, name: str) -> str | None:
        """The registered name that is ``name`` or looks like it (None: none)."""
        found: str | None = s.scalar(
            select(Account.name).where((Account.key == name_key(name))
                                       | (Account.skeleton == skeleton(name)))
            .order_by(Account.id).limit(1))
        return found

    def account_like(self, name: str) -> str | None:
        """The registered account's name that ``name`` is (by :func:`name_key`) or looks
        like (by its skeleton): no guest may sit under it. None: no account's."""
        with self._session() as s:
            return self._look_alike(s, name)

    def account(self, account_id: int) -> AccountInfo | None:
        with self._session() as s:
            a = s.get(Account, account_id)
            return _info(a) if a is not None else None

    def credentials(self, name: str) -> tuple[AccountInfo, str] | None:
        """The account called ``name`` (by :func:`name_key`) and its password's hash."""
        with self._session() as s:
            a = s.scalar(select(Account).where(Account.key == name_key(name)))
            return (_info(a), a.password_hash) if a is not None else None

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        with self._session() as s:
            a = s.get(Account, account_id)
            if a is not None:
                a.password_hash = password_hash
                s.commit()

    # -------------------------------------------------------------- games
    def add_game(self, record: dict[str, Any], finished: datetime | None = None,
                 accounts: Mapping[int, int] | None = None,
                 key: str | None = None) -> GameSummary:
        """Store a finished match after replaying it; move ranks after an opendaum-33 match
        that ended by its rules. A match already stored (the same ``key``, or the same
        match by :func:`record_digest`) is returned unchanged, ``new`` False — also when
        another process stores it at the same moment: the database refuses the second
        row (both columns are unique) and nothing of it is kept, no rank or rating moved.

        ``accounts`` maps seats to the accounts that played them (known to the caller,
        e.g. signed in); every other human seat is a profile by its name — or none when
        an account holds that name. ``key``: where the match was played (the web server
        gives ``web:<table id>``), at most 100 characters."""
        rep = replay(record, keep_steps=False)
        if rep.error is not None:
            raise RecordError(f"not stored: the record does not replay: {rep.error}")
        assert rep.match is not None
        if rep.match.result is None:
            raise RecordError("not stored: the match is not over")
        result = rep.match.result.to_json()
        digest = record_digest(record)
        if key is not None and not 0 < len(key) <= 100:
            raise ValueError(f"a match key is 1 to 100 characters (this one has {len(key)})")
        with self._session() as s:
            old = self._stored(s, digest, key)
            if old is not None:
                return old
            try:
                return self._add_new(s, rep.match, record, result, digest, key, finished,
                                     accounts)
            except IntegrityError:
                # stored meanwhile by another process (the same key or match): that one
                # is the match's; this transaction left nothing
                s.rollback()
                old = self._stored(s, digest, key)
                if old is None:
                    raise
                return old

    def _stored(self, s: Session, digest: str, key: str | None) -> GameSummary | None:
        """The summary (``new`` False) of the game stored under ``key`` or ``digest``."""
        where = GameRow.digest == digest if key is None \
            else (GameRow.match_key == key) | (GameRow.digest == digest)
        old = s.scalar(select(GameRow).where(where).limit(1))
        if old is None:
            return None
        summary = self._summary(s, old)
        summary.new = False
        return summary

    def _add_new(self, s: Session, match: Any, record: dict[str, Any],
                 result: dict[str, Any], digest: str, key: str | None,
                 finished: datetime | None,
                 accounts: Mapping[int, int] | None) -> GameSummary:
        """The new game's rows, its ranks and ratings moved, in one transaction."""
        seats = record.get("seats") or []
        row = GameRow(game=match.spec.name, players=match.players,
                      finished=finished or datetime.now(UTC).replace(tzinfo=None),
                      capped=bool(result["capped"]), digest=digest, match_key=key,
                      record=dict(record, result=result), result=result)
        s.add(row)
        s.flush()
        changes: list[RankChange] = []
        rated: dict[int, int] = {}              # seat → account, for the ratings
        computers: dict[int, str | None] = {}   # seat → level
        counts = not assisted(record)
        for seat in range(match.players):
            info = seats[seat] if seat < len(seats) and isinstance(seats[seat], dict) else {}
            name = str(info.get("name") or f"Player {seat + 1}")
            kind = str(info.get("kind") or "human")
            account = self._seat_account(s, accounts, seat, kind)
            player = self._player(s, name) if kind == "human" and account is None \
                and not self._registered(s, name) else None
            score = float(result["scores"][seat])
            if account is not None:
                rated[seat] = account.id
            if kind == "bot":
                computers[seat] = info.get("bot")
            s.add(SeatRow(game_id=row.id, seat=seat, name=name, kind=kind,
                          bot=info.get("bot"), player=player, score=score,
                          account_id=account.id if account is not None else None,
                          outcome=_outcome(seat, result), left=bool(info.get("left"))))
            holder = account if account is not None else player
            if holder is not None and counts and ranked(row.game, record, row.capped):
                changes.append(self._move_rank(s, holder, row.id, score))
        if counts:
            _ratings.rate_game(s, row.game, row.id, record, result,
                               rated, computers, row.finished)
        s.commit()
        summary = self._summary(s, row)
        summary.rank_changes = changes
        return summary

    @staticmethod
    def _seat_account(s: Session, accounts: Mapping[int, int] | None, seat: int,
                      kind: str) -> Account | None:
        if not accounts or seat not in accounts:
            return None
        if kind != "human":
            raise RecordError(f"not stored: seat {seat + 1} is a computer's, not account "
                              f"{accounts[seat]}'s")
        account = s.get(Account, accounts[seat])
        if account is None:
            raise RecordError(f"not stored: no account {accounts[seat]} (seat {seat + 1})")
        return account

    @staticmethod
    def _move_rank(s: Session, holder: Player | Account, game_id: int,
                   total: float) -> RankChange:
        """koloda/rules/opendaum.en.md §Precisely 27, by koloda.ranks: earned ≥ held → the earned
        rank; else one down. ``holder``: a profile or an account."""
        before = RANK_BY_ID[holder.rank] if holder.rank else None
        earned = rank_for_total(total)
        after = next_held_rank(before, earned)
        holder.rank = after.id
        fields = {"game_id": game_id, "total": total, "earned": earned.id,
                  "before": before.id if before else None, "after": after.id}
        if isinstance(holder, Account):
            s.add(AccountRankRow(account_id=holder.id, **fields))
        else:
            s.add(RankRow(player_id=holder.id, **fields))
        return RankChange(holder.name, total, earned, before, after)

    @staticmethod
    def _summary(s: Session, row: GameRow) -> GameSummary:
        moved: list[tuple[Any, Any]] = [
            *s.execute(select(RankRow, Player).join(Player, RankRow.player_id == Player.id)
                       .where(RankRow.game_id == row.id).order_by(RankRow.id)).all(),
            *s.execute(select(AccountRankRow, Account)
                       .join(Account, AccountRankRow.account_id == Account.id)
                       .where(AccountRankRow.game_id == row.id)
                       .order_by(AccountRankRow.id)).all()]
        names = [x.name for x in row.seats]
        moved.sort(key=lambda rp: names.index(rp[1].name) if rp[1].name in names else 99)
        changes = [RankChange(p.name, r.total, RANK_BY_ID[r.earned],
                              RANK_BY_ID[r.before] if r.before else None, RANK_BY_ID[r.after])
                   for r, p in moved]
        return GameSummary(row.id, row.game, row.finished, [x.name for x in row.seats],
                           [x.kind for x in row.seats], list(row.result["winners"]),
                           [float(x) for x in row.result["scores"]], row.capped, changes)

    def record(self, game_id: int) -> dict[str, Any] | None:
        """The stored record of game ``game_id`` (None if there is none, or if the id
        is none the database can hold)."""
        if not 0 < game_id <= ID_MAX:
            return None
        with self._session() as s:
            row = s.get(GameRow, game_id)
            return dict(row.record) if row is not None else None

    def game(self, game_id: int) -> GameSummary | None:
        if not 0 < game_id <= ID_MAX:
            return None
        with self._session() as s:
            row = s.get(GameRow, game_id)
            return self._summary(s, row) if row is not None else None

    def history(self, limit: int = 50, player: str | None = None,
                game: str | None = None, account: int | None = None) -> list[GameSummary]:
        """Stored games, newest first (of a profile by name, or of an account by id)."""
        with self._session() as s:
            q = select(GameRow).order_by(GameRow.finished.desc(), GameRow.id.desc())
            if game:
                q = q.where(GameRow.game == game)
            if player:
                q = q.where(GameRow.id.in_(select(SeatRow.game_id).join(Player)
                                           .where(Player.name == player)))
            if account is not None:
                q = q.where(GameRow.id.in_(select(SeatRow.game_id)
                                           .where(SeatRow.account_id == account)))
            return [self._summary(s, r) for r in s.scalars(q.limit(limit))]

    # ---------------------------------------------------------- statistics
    def stats(self, name: str, recent: int = 10) -> PlayerStats | None:
        """A player's games by kind, their rank and its history (None: no such player)."""
        with self._session() as s:
            p = self._player(s, name, create=False)
            if p is None:
                return None
            games = self._games(s, SeatRow.player_id == p.id)
            history = _moves(s.scalars(select(RankRow).where(RankRow.player_id == p.id)
                                       .order_by(RankRow.id)))
            rank = RANK_BY_ID[p.rank] if p.rank else None
        return PlayerStats(name, rank, games, history, self.history(recent, player=name))

    def reliability(self, account_id: int, last: int = RELIABILITY_OF) -> dict[str, int]:
        """Of the account's ``last`` matches, how many it played to the end:
        ``{"matches", "finished", "left"}`` (a seat given up because its person was away
        too often counts as left)."""
        with self._session() as s:
            lefts = list(s.scalars(select(SeatRow.left).where(SeatRow.account_id == account_id)
                                   .order_by(SeatRow.game_id.desc()).limit(last)))
        left = sum(1 for x in lefts if x)
        return {"matches": len(lefts), "finished": len(lefts) - left, "left": left}

    def account_stats(self, account_id: int, recent: int = 10) -> PlayerStats | None:
        """An account's games by kind, its rank and its history (None: no such account)."""
        with self._session() as s:
            a = s.get(Account, account_id)
            if a is None:
                return None
            games = self._games(s, SeatRow.account_id == a.id)
            history = _moves(s.scalars(select(AccountRankRow)
                                       .where(AccountRankRow.account_id == a.id)
                                       .order_by(AccountRankRow.id)))
            name, rank = a.name, RANK_BY_ID[a.rank] if a.rank else None
        return PlayerStats(name, rank, games, history, self.history(recent, account=account_id))

    @staticmethod
    def _games(s: Session, whose: Any) -> list[GameStats]:
        """Played, won, lost, drawn and scores per game of the seats ``whose`` selects."""
        rows = s.execute(
            select(GameRow.game, SeatRow.outcome, func.count(),
                   func.avg(SeatRow.score), func.max(SeatRow.score), func.min(SeatRow.score))
            .join(GameRow, SeatRow.game_id == GameRow.id)
            .where(whose)
            .group_by(GameRow.game, SeatRow.outcome)).all()
        by_game: dict[str, dict[str, Any]] = {}
        for game, outcome, count, avg, best, worst in rows:
            g = by_game.setdefault(game, {"won": 0, "lost": 0, "draw": 0, "sum": 0.0,
                                          "best": best, "worst": worst})
            g[outcome] += count
            g["sum"] += avg * count
            g["best"] = max(g["best"], best)
            g["worst"] = min(g["worst"], worst)
        games = []
        for game, g in sorted(by_game.items()):
            played = g["won"] + g["lost"] + g["draw"]
            games.append(GameStats(game, played, g["won"], g["lost"], g["draw"],
                                   round(g["sum"] / played, 2), g["best"], g["worst"]))
        return games


def _moves(rows: Iterable[RankMove]) -> list[dict[str, Any]]:
    """A rank history as ``stats`` gives it."""
    return [{"game_id": r.game_id, "total": r.total, "earned": r.earned, "before": r.before,
             "after": r.after} for r in rows]


#: the PostgreSQL advisory lock held while a schema is made (the web's tables use it too)
SCHEMA_LOCK = 7140521


def driver_url(url: str) -> str:
    """``url`` with its driver named: ``postgresql://`` (or ``postgres://``) is psycopg 3
    (the ``cluster`` extra), whatever SQLAlchemy's own default."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


@contextmanager
def schema_lock(engine: Engine) -> Iterator[None]:
    """Held while a schema is made: on PostgreSQL one process at a time, so servers starting
    together do not make the same tables at once (``CREATE TABLE`` races otherwise)."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as conn:
        conn.execute(text(f"SELECT pg_advisory_lock({SCHEMA_LOCK})"))
        conn.commit()
        try:
            yield
        finally:
            conn.execute(text(f"SELECT pg_advisory_unlock({SCHEMA_LOCK})"))
            conn.commit()


def _add_missing_columns(engine: Engine) -> None:
    """Columns added since a database was made (``create_all`` makes missing tables only):
    added empty, in SQL every database speaks, so an older store keeps working."""
    have = {c["name"] for c in inspect(engine).get_columns("seats")}
    if "account_id" not in have:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE seats ADD COLUMN account_id INTEGER"))
    if "left" not in have:
        with engine.begin() as conn:
            conn.execute(text('ALTER TABLE seats ADD COLUMN "left" BOOLEAN NOT NULL '
                              'DEFAULT FALSE'))
    if "match_key" not in {c["name"] for c in inspect(engine).get_columns("games")}:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE games ADD COLUMN match_key VARCHAR(100)"))
            conn.execute(text("CREATE UNIQUE INDEX IF NOT EXISTS ix_games_match_key "
                              "ON games (match_key)"))
    if "skeleton" not in {c["name"] for c in inspect(engine).get_columns("accounts")}:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE accounts ADD COLUMN skeleton VARCHAR(800)"))
    _fill_skeletons(engine)


def _fill_skeletons(engine: Engine) -> None:
    """Give the accounts made before skeletons were kept their names' skeletons, and the
    unique index. Two such accounts whose names look alike both stay (nobody loses an
    account): the later one's skeleton gets its id after a newline, which no checked
    name's skeleton has, so the index holds and no new look-alike can join them."""
    with engine.begin() as conn:
        rows = conn.execute(text("SELECT id, name FROM accounts WHERE skeleton IS NULL "
                                 "ORDER BY id")).all()
        for account_id, name in rows:
            skel = skeleton(name)
            if conn.execute(text("SELECT 1 FROM accounts WHERE skeleton = :s"),
                            {"s": skel}).first() is not None:
                skel = f"{skel}\n{account_id}"
            conn.execute(text("UPDATE accounts SET skeleton = :s WHERE id = :i"),
                         {"s": skel, "i": account_id})
        conn.execute(text("CREATE UNIQUE INDEX IF NOT EXISTS ix_accounts_skeleton "
                          "ON accounts (skeleton)"))
