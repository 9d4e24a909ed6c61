"""Ratings: an OpenSkill rating (mu, sigma) per account per game, moved after each rated match.

Why OpenSkill's Plackett-Luce model and not Glicko-2: Glicko-2 rates one player against
one opponent; most of koloda's games seat three to seven players, and Durak may be played
in teams (2 vs 2, 3 vs 3). Plackett-Luce rates any number of teams of any size from their
finishing order in one update, ties allowed, and keeps each rating's uncertainty (sigma).
Players are ordered by their *ordinal*, ``mu - 3 sigma``: a rating the player is very
likely above, so that a newcomer's lucky first game does not top the list.

A match is **rated** when at least one of its seats was an account's. Its seats are
ranked by outcome (won, then drawn, then lost: ``outcome_ranks``); in a team game (Durak
with ``teams``: partners alternate) each side is one team. Only accounts' ratings move
and are stored (with a history row per match, for the player page's plot). A computer
plays at the fixed rating of its level for that game (``koloda/web/bot_ratings.json``,
from the arena), and a guest at a new player's rating (25, 25/3): both take part in the
update, neither is changed.

The update is part of the transaction that stores the game (``Store.add_game``), so a
match stored once moves ratings once, on every database; the accounts' rows are read
``FOR UPDATE`` (PostgreSQL locks them; SQLite has one writer anyway).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, UniqueConstraint, func, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from koloda.store.models import Account, Base

MODEL = PlackettLuce()
#: a rank per outcome: lower is better, as OpenSkill's ``ranks`` count
OUTCOME_RANK = {"won": 0, "draw": 1, "lost": 2}


class RatingRow(Base):
    """An account's rating in one game."""

    __tablename__ = "ratings"
    __table_args__ = (UniqueConstraint("account_id", "game"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    game: Mapped[str] = mapped_column(String(60), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    #: mu - 3 sigma, kept for ordering the leaderboard in SQL
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime)


class RatingMoveRow(Base):
    """An account's rating in one game after one rated match (the history plotted)."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    game: Mapped[str] = mapped_column(String(60))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime)


@cache
def bot_ratings() -> dict[str, dict[str, dict[str, float]]]:
    """game → bot level → {"mu", "sigma", "games"}: koloda/web/bot_ratings.json, measured
    by benchmarks/bot_ratings.py with the arena's rating list."""
    text = resources.files("koloda").joinpath("web", "bot_ratings.json").read_text("utf-8")
    games: dict[str, dict[str, dict[str, float]]] = json.loads(text)["games"]
    return games


def bot_rating(game: str, bot: str | None) -> tuple[float, float]:
    """A computer level's fixed (mu, sigma) in ``game``; a level not in the file plays at
    a new player's rating."""
    found = bot_ratings().get(game, {}).get(bot or "random")
    if found is None:
        return MODEL.mu, MODEL.sigma
    return float(found["mu"]), float(found["sigma"])


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


def outcome_ranks(result: dict[str, Any], players: int) -> list[int]:
    """Each seat's place for OpenSkill: won 0, drawn 1, lost 2 (ties share a place)."""
    winners, losers = set(result.get("winners") or ()), set(result.get("losers") or ())
    return [OUTCOME_RANK["won"] if s in winners else OUTCOME_RANK["lost"] if s in losers
            else OUTCOME_RANK["draw"] for s in range(players)]


def sides(record: dict[str, Any], players: int) -> list[list[int]]:
    """The teams of a match: Durak's ``teams`` option seats partners alternately (two
    sides; a record omits an option at its default, which for 4 and 6 is teams);
    every other match is every seat for itself."""
    from koloda.engine.registry import get_spec
    options = get_spec(str(record["game"])).resolve_options(players,
                                                            dict(record.get("options") or {}))
    if options.get("teams"):
        return [[s for s in range(players) if s % 2 == side] for side in (0, 1)]
    return [[s] for s in range(players)]


def rate_game(s: Session, game: str, game_id: int, record: dict[str, Any],
              result: dict[str, Any], seat_accounts: dict[int, int],
              seat_bots: dict[int, str | None], when: datetime) -> dict[int, tuple[float, float]]:
    """Move the ratings of the accounts at ``seat_accounts`` (seat → account) after stored
    game ``game_id``; ``seat_bots``: the computers' seats and levels. Returns seat → the
    new (mu, sigma) of each account's seat. Nothing happens without an account."""
    if not seat_accounts:
        return {}
    players = int(record["players"])
    rows: dict[int, RatingRow] = {}
    for account in sorted(set(seat_accounts.values())):
        row = s.scalar(select(RatingRow).where(RatingRow.account_id == account,
                                               RatingRow.game == game).with_for_update())
        if row is None:
            row = RatingRow(account_id=account, game=game, mu=MODEL.mu, sigma=MODEL.sigma,
                            ordinal=ordinal(MODEL.mu, MODEL.sigma), games=0, updated=when)
            s.add(row)
        rows[account] = row

    def before(seat: int) -> tuple[float, float]:
        if seat in seat_accounts:
            row = rows[seat_accounts[seat]]
            return row.mu, row.sigma
        if seat in seat_bots:
            return bot_rating(game, seat_bots[seat])
        return MODEL.mu, MODEL.sigma          # a guest: a new player, not kept

    teams = sides(record, players)
    places = outcome_ranks(result, players)
    # a seat given up (its person away too often) counts as lost, with its side: behind
    # every side that played to the end, whatever the computer that finished it made
    seats = record.get("seats") or []
    for team in teams:
        if any(seat < len(seats) and isinstance(seats[seat], dict) and seats[seat].get("left")
               for seat in team):
            for seat in team:
                places[seat] = OUTCOME_RANK["lost"] + 1
    rated = MODEL.rate([[MODEL.rating(*before(seat)) for seat in team] for team in teams],
                       ranks=[places[team[0]] for team in teams])
    after: dict[int, tuple[float, float]] = {}
    for team, new in zip(teams, rated, strict=True):
        for seat, r in zip(team, new, strict=True):
            if seat not in seat_accounts:
                continue
            after[seat] = (r.mu, r.sigma)
            row = rows[seat_accounts[seat]]
            row.mu, row.sigma, row.ordinal = r.mu, r.sigma, ordinal(r.mu, r.sigma)
            row.games = (row.games or 0) + 1
            row.updated = when
            s.add(RatingMoveRow(account_id=row.account_id, game=game, game_id=game_id,
                                mu=r.mu, sigma=r.sigma, ordinal=row.ordinal, at=when))
    return after


def _rating_json(row: RatingRow) -> dict[str, Any]:
    return {"game": row.game, "mu": round(row.mu, 3), "sigma": round(row.sigma, 3),
            "ordinal": round(row.ordinal, 3), "games": row.games}


def leaderboard(s: Session, game: str, offset: int = 0, limit: int = 50) -> dict[str, Any]:
    """The accounts rated in ``game``, best ordinal first: a page and the total."""
    total = s.scalar(select(func.count()).select_from(RatingRow)
                     .where(RatingRow.game == game)) or 0
    q = (select(RatingRow, Account.name).join(Account, RatingRow.account_id == Account.id)
         .where(RatingRow.game == game)
         .order_by(RatingRow.ordinal.desc(), RatingRow.id).offset(offset).limit(limit))
    rows = [{"place": offset + i + 1, "name": name, **_rating_json(row)}
            for i, (row, name) in enumerate(s.execute(q).all())]
    return {"game": game, "total": total, "offset": offset, "limit": limit, "rows": rows}


def account_ratings(s: Session, account_id: int) -> dict[str, Any]:
    """An account's rating in every game it is rated in, and their histories."""
    ratings = [_rating_json(r) for r in s.scalars(
        select(RatingRow).where(RatingRow.account_id == account_id)
        .order_by(RatingRow.games.desc(), RatingRow.game))]
    history: dict[str, list[dict[str, Any]]] = {}
    for m in s.scalars(select(RatingMoveRow).where(RatingMoveRow.account_id == account_id)
                       .order_by(RatingMoveRow.id)):
        history.setdefault(m.game, []).append({
            "game_id": m.game_id, "mu": round(m.mu, 3), "sigma": round(m.sigma, 3),
            "ordinal": round(m.ordinal, 3), "at": m.at.isoformat()})
    return {"ratings": ratings, "history": history}
