"""The rating list: bots of one game on one OpenSkill scale (Plackett–Luce, which rates
multiplayer games and teams), from arena rows.

Each arena game is one rated match between the bots at the table: a bot's seats form its
team (with two bots at a four-seat table, a,b,a,b, each bot holds two seats) and the
team's score is the share of its seats among the game's winners (a draw: every team
alike). The rows are rated in a fixed order — by seed, then bots, then seating — so the
list does not depend on the order of the logs or of the games within them. A rating is
``mu`` with its uncertainty ``sigma``; the list shows ``mu ± 2 sigma``.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

from koloda.arena import Game, LogError, combine_logs, schedule_games


@dataclass(frozen=True)
class Rating:
    bot: str
    mu: float
    sigma: float
    games: int
    cheating: bool = False

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "mu": self.mu, "sigma": self.sigma,
                "interval_2sigma": [self.low, self.high], "games": self.games,
                "cheating": self.cheating}


def team_scores(row: dict[str, Any]) -> dict[str, float]:
    """Each bot at the table → the share of its seats among the winners."""
    seats: dict[str, list[int]] = {}
    for seat, bot in enumerate(row["lineup"]):
        seats.setdefault(bot, []).append(seat)
    winners = set(row["result"]["winners"])
    return {bot: sum(s in winners for s in ss) / len(ss) for bot, ss in seats.items()}


def _order(row: dict[str, Any]) -> tuple[Any, ...]:
    return (int(row["seed"]), sorted(set(row["lineup"])), list(row["lineup"]))


def rate(rows: list[dict[str, Any]]) -> list[Rating]:
    """The OpenSkill (Plackett–Luce) rating of every bot in ``rows``, best first."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = {}
    for row in sorted(rows, key=_order):
        scores = team_scores(row)
        if len(scores) < 2:
            continue            # a bot alone at the table tells nothing of its strength
        bots = list(scores)
        teams = [[ratings.setdefault(b, model.rating(name=b))] for b in bots]
        new = model.rate(teams, scores=[scores[b] for b in bots])
        for b, team in zip(bots, new, strict=True):
            ratings[b] = team[0]
            games[b] = games.get(b, 0) + 1
    cheats = {b for row in rows for b in row.get("cheating", ())}
    out = [Rating(b, float(r.mu), float(r.sigma), games[b], b in cheats)
           for b, r in ratings.items()]
    return sorted(out, key=lambda r: (-r.mu, r.bot))


def round_robin(name: str, players: int, bots: list[str], deals: int, seed: int,
                unit: str, options: dict[str, Any]) -> list[tuple[tuple[str, str], list[Game]]]:
    """Every pair of ``bots`` on the same ``deals`` deal-sets (seeds seed..), each an arena
    of its own (seats rotated)."""
    return [((a, b), schedule_games(name, players, [a, b], deals, seed, unit, options))
            for a, b in itertools.combinations(bots, 2)]


def rows_of_logs(texts: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The complete deal-sets of arena logs ``(path, text)`` of one game and player count,
    logs of the same bots combined (each game once), logs of other bots added."""
    groups: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for path, text in texts:
        first = next((line for line in text.splitlines() if line.strip()), None)
        if first is None:
            raise LogError(f"{path}: the log holds no games")
        try:
            bots = tuple(sorted(set(json.loads(first)["lineup"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise LogError(f"{path}:1: not an arena log line ({exc})") from None
        groups.setdefault(bots, []).append((path, text))
    rows: list[dict[str, Any]] = []
    table: tuple[str, int] | None = None
    for group in groups.values():
        c = combine_logs(group)
        if table is None:
            table = (c.name, c.players)
        elif (c.name, c.players) != table:
            raise LogError(f"{group[0][0]}: {c.name} with {c.players} players, but the "
                           f"first log is {table[0]} with {table[1]} players")
        rows.extend(c.rows)
    return rows
