"""The tables. A finished game is kept whole (its record) so that it can always be replayed;
the seat rows and rank changes are what statistics and profiles are read from."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, Text, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Player(Base):
    """A person's profile, found by name. ``rank`` is the Opendaum-33 rank held (a
    ``koloda.ranks.Rank`` id) or None before their first complete opendaum-33 match."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True, index=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    rank: Mapped[str | None] = mapped_column(String(40), nullable=True)

    seats: Mapped[list[SeatRow]] = relationship(back_populates="player")


class Account(Base):
    """A registered name: whoever knows its password. Its rank and statistics are its own —
    a guest or a record that merely names it never reaches it. ``key`` is the name as
    names are compared (NFC, case folded: ``koloda.store.name_key``), unique, and so is
    ``skeleton`` (what the name looks like); ``rank`` as :class:`Player`'s."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    key: Mapped[str] = mapped_column(String(200), unique=True, index=True)
    #: the name's confusables skeleton (:func:`koloda.store.skeleton.skeleton`), unique: no
    #: two accounts whose names look alike (NULL only until a store older than it migrates)
    skeleton: Mapped[str | None] = mapped_column(String(800), unique=True, index=True,
                                                 nullable=True)
    #: the password's hash in PHC form (``$argon2id$…``); never the password
    password_hash: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)
    rank: Mapped[str | None] = mapped_column(String(40), nullable=True)


class GameRow(Base):
    """One finished match: the record (koloda-record/1) and its verified result."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(60), index=True)
    players: Mapped[int] = mapped_column(Integer)
    finished: Mapped[datetime] = mapped_column(DateTime, index=True)
    capped: Mapped[bool] = mapped_column(Boolean, default=False)
    #: sha256 of what makes the match (game, options, deals, actions): a game saved twice
    #: is stored once, so ranks never move twice for one match
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    #: where the match was played, when its player says so (the web server: ``web:`` and
    #: the table's id, one match a table): unique, so that two servers storing the same
    #: end store it once — the second insert is refused by the database itself
    match_key: Mapped[str | None] = mapped_column(String(100), unique=True, nullable=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)

    seats: Mapped[list[SeatRow]] = relationship(back_populates="game", order_by="SeatRow.seat",
                                                cascade="all, delete-orphan")


class SeatRow(Base):
    """Who sat where in a stored game, and how that seat ended."""

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    bot: Mapped[str | None] = mapped_column(String(60), nullable=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True,
                                                  index=True)
    #: the account that played this seat (signed in), if any
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True,
                                                   index=True)
    score: Mapped[float] = mapped_column(Float)
    #: "won", "lost" or "draw"
    outcome: Mapped[str] = mapped_column(String(10))
    #: the seat was given up (its person away too often): a computer finished it
    left: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    game: Mapped[GameRow] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship(back_populates="seats")


class RankMove:
    """The columns of one rank change (a mixin): the match, its total, the rank earned by
    it, the rank held before and the rank held after."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    total: Mapped[float] = mapped_column(Float)
    earned: Mapped[str] = mapped_column(String(40))
    before: Mapped[str | None] = mapped_column(String(40), nullable=True)
    after: Mapped[str] = mapped_column(String(40))


class RankRow(RankMove, Base):
    """One application of koloda/rules/opendaum.en.md §Precisely 27 to one player after one
    opendaum-33 match."""

    __tablename__ = "rank_changes"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)


class AccountRankRow(RankMove, Base):
    """As :class:`RankRow`, for an account."""

    __tablename__ = "account_rank_changes"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
