"""The arena: bots against each other on duplicate deals, measured honestly.

Each deal-set is one seed; it is played once for every distinct rotation of the bots round
the table, so every bot sits in every seat with the same cards (and in pair and team games
the partnerships swap). Figures come with 95% intervals: Wilson for rates (wins, draws, bids
made, losses: always inside [0, 1]), the normal interval for means of points, and for a
paired difference the normal interval of the per-deal-set differences, cut to [−1, 1] when
the measure is a rate.

A game's log row holds no wall-clock figure: the same seed and bots give the same row,
byte for byte, on any machine and under any load (the bots' budgets are iterations). The
per-move times travel beside the row (``GameResult.times``), into the printed table and
an optional timings file.

A bot with ``needs_state`` is a measuring bot: it is asked
``choose_state(state, seat, legal, rng)`` with the live deal state (it copies before it
mutates) instead of ``choose(observation, legal, rng)``. A bot with ``cheating`` sees what
its seat may not (the clairvoyant); every row of its games names it under ``cheating``,
and the table marks it. A bot with ``start(game, players, options)`` is told the match's
game and resolved options before the first move.
"""

from __future__ import annotations

import itertools
import json
import math
import multiprocessing
import random
import signal
import statistics
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from koloda.bots import make_bot
from koloda.engine.deal import DealState
from koloda.engine.errors import ConfigError
from koloda.engine.match import Match
from koloda.engine.registry import get_spec, new_deal, new_game, registry
from koloda.engine.spec import Column, GameSpec, Measure
from koloda.measure.openspiel_ismcts import register as _register_measuring_bots

Z95 = 1.959963984540054

_register_measuring_bots()


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(xs: list[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) with the normal 95% interval."""
    if not xs:
        return (0.0, 0.0, 0.0)
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return (m, m, m)
    half = z * statistics.stdev(xs) / math.sqrt(len(xs))
    return (m, m - half, m + half)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[k]


def lineups(bots: list[str], players: int) -> list[tuple[str, ...]]:
    """Every distinct rotation of the bots round the table (bots repeat to fill seats)."""
    base = [bots[i % len(bots)] for i in range(players)]
    seen: list[tuple[str, ...]] = []
    for r in range(players):
        lineup = tuple(base[(i + r) % players] for i in range(players))
        if lineup not in seen:
            seen.append(lineup)
    return seen


@dataclass(frozen=True)
class Game:
    name: str
    players: int
    seed: int
    lineup: tuple[str, ...]
    unit: str
    options: tuple[tuple[str, Any], ...]
    deal_set: int


def schedule_length(name: str, players: int, options: dict[str, Any]) -> int | None:
    """How many deals the game's deal schedule holds (its ``start_deal`` positions), or
    None for a game without one."""
    spec = get_spec(name)
    if not any(o.name == "start_deal" for o in spec.options) or "start_deal" in options:
        return None
    length = 1
    while True:  # the schedule's length: the first start_deal refused
        try:
            spec.resolve_options(players, options | {"start_deal": length})
        except ValueError:
            return length
        length += 1


def _make(game: Game) -> Match:
    opts = dict(game.options)
    if game.unit == "deal":
        length = schedule_length(game.name, game.players, opts)
        if length is not None:
            # single deals from every position of a deal schedule in turn
            opts["start_deal"] = game.deal_set % length
        return new_deal(game.name, players=game.players, seed=game.seed, **opts)
    return new_game(game.name, players=game.players, seed=game.seed, **opts)


def bot_seed(game: Game) -> int:
    """The seed of the bots' generator: from the deal's seed and the seating, the same in
    every process (``hash`` of strings is salted per process, so it would not replay)."""
    return game.seed * 1_000_003 + zlib.crc32(",".join(game.lineup).encode()) % 1000


CHEATING_MARK = "sees all cards"


def is_cheating(bot: object) -> bool:
    return bool(getattr(bot, "cheating", False))


def shown_name(name: str, cheating: bool) -> str:
    """A bot's name as tables print it: a cheating bot says so."""
    return f"{name} ({CHEATING_MARK})" if cheating else name


def cheating_in(rows: list[dict[str, Any]]) -> set[str]:
    """The bots the rows mark as cheating."""
    return {b for row in rows for b in row.get("cheating", ())}


class StateBot(Protocol):
    """A measuring bot that reads the live deal state (``needs_state``)."""

    def choose_state(self, state: DealState, seat: int, legal: list[str],
                     rng: random.Random) -> str: ...


@dataclass
class GameResult:
    """One game: its log row (no wall clock in it) and each seat's move times (seconds)."""
    row: dict[str, Any]
    times: list[list[float]]


def play_game(game: Game, bots: list[Any] | None = None,
              clock: Callable[[], float] | None = None) -> GameResult:
    """Play one game; return its row (result, measures) and the per-seat move times, by
    ``clock`` (by default the wall clock; a measurement may pass ``time.process_time``). ``bots``,
    when given, are the lineup's bots already made (e.g. with experimental settings)."""
    clock = clock or time.perf_counter
    match = _make(game)
    if bots is None:
        bots = [make_bot(b, match.spec.name) for b in game.lineup]
    for bot in bots:
        start_game = getattr(bot, "start", None)
        if start_game is not None:
            start_game(match.spec.name, match.players, dict(match.options))
    state_seats = [bool(getattr(bot, "needs_state", False)) for bot in bots]
    rng = random.Random(bot_seed(game))
    times: list[list[float]] = [[] for _ in range(game.players)]
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        if len(legal) == 1:
            match.apply(legal[0])
            continue
        bot = bots[seat]
        start = clock()
        if state_seats[seat]:
            action = cast(StateBot, bot).choose_state(match.current, seat, list(legal), rng)
        else:
            action = bot.choose(match.observation(seat), legal, rng)
        times[seat].append(clock() - start)
        match.apply(action)
    result = match.result
    assert result is not None
    row = {"name": game.name, "seed": game.seed, "deal_set": game.deal_set,
           "lineup": list(game.lineup), "unit": game.unit, "options": dict(game.options),
           "result": result.to_json(), "deals": match.deals_played,
           "measure": game_measure(match),
           "cheating": sorted({b for b, bot in zip(game.lineup, bots, strict=True)
                               if is_cheating(bot)})}
    return GameResult(row, times)


def play(game: Game) -> dict[str, Any]:
    """Play one game; its log row (see :func:`play_game` for the move times too)."""
    return play_game(game).row


def timings_line(res: GameResult) -> dict[str, Any]:
    """A game's move times as a line of a timings file (matched to its row by seed and
    seats)."""
    return {"seed": res.row["seed"], "lineup": res.row["lineup"], "times": res.times}


def game_measure(match: Match) -> list[float | None]:
    """Each seat's own measure of the game, as its spec declares it (``GameSpec.measure``:
    Opendaum's share of bids made, Durak's loss, by default the points per deal)."""
    return match.spec.measure.of(match)


def spec_of(game: str) -> GameSpec | None:
    """The spec of a game's name, or of a family's first game (the arena's tables are made
    per family); None for a name no registered game has."""
    try:
        return get_spec(game)
    except ConfigError:
        return next((s for s in registry().values() if s.family == game), None)


def measure_of(game: str) -> Measure:
    """What the arena measures ``game`` (a name or family) by; the default for a game it
    does not know."""
    spec = spec_of(game)
    return spec.measure if spec is not None else Measure()


def measure_is_rate(family: str) -> bool:
    """Is the game's own measure a share in [0, 1] (a bid made, a loss): its interval is
    Wilson's, and a paired difference of it lies in [−1, 1]."""
    return measure_of(family).rate


WIN = Column("win_rate", "win rate", "доля побед", True)
DRAW = Column("draw_rate", "draw rate", "доля ничьих", True)


def table_columns(family: str, rows: list[dict[str, Any]]) -> list[Column]:
    """The figures that mean something distinct for the game, in table order, as its
    measure declares them: the win rate (unless a win is implied by the measure, as in
    Durak, where it is 1 − draw − loss), the draw rate (always beside such a measure, else
    when a draw happened), the measure, then its extra columns (Opendaum's points per deal;
    Durak's games lost per game, with matches of several games). The raw score is no
    column: per deal it is the default measure itself (or, in Mushka, 25 less it)."""
    measure = measure_of(family)
    drew = any(not row["result"]["winners"] for row in rows)
    several = any(int(row.get("deals", 1)) > 1 for row in rows)
    if measure.win_implied:
        cols = [DRAW, measure.column]
    else:
        cols = [WIN, *([DRAW] if drew else []), measure.column]
    cols.extend(c for c in measure.extra if several or not c.several_deals)
    return cols


def bounded(interval: tuple[float, float, float], low: float, high: float
            ) -> tuple[float, float, float]:
    """(mean, lo, hi) with the interval cut to [low, high], where the quantity must lie."""
    m, lo, hi = interval
    return (m, max(low, lo), min(high, hi))


@dataclass
class BotStats:
    bot: str
    seats: int = 0
    wins: float = 0.0
    draws: int = 0
    points: list[float] = field(default_factory=list)
    per_deal: list[float] = field(default_factory=list)
    measure: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    cheating: bool = False
    #: the measure is a share in [0, 1] (Wilson interval), not a mean of points
    measure_rate: bool = False

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.seats)
        dlo, dhi = wilson(self.draws, self.seats)
        pm, plo, phi = mean_interval(self.points)
        qm, qlo, qhi = mean_interval(self.per_deal)
        if self.measure_rate:
            mm = statistics.fmean(self.measure) if self.measure else 0.0
            mlo, mhi = wilson(sum(self.measure), len(self.measure))
        else:
            mm, mlo, mhi = mean_interval(self.measure)
        return {"bot": self.bot, "cheating": self.cheating,
                "seat_games": self.seats, "wins": self.wins,
                "draws": self.draws,
                "win_rate": self.wins / self.seats if self.seats else 0.0,
                "win_rate_95": [lo, hi],
                "draw_rate": self.draws / self.seats if self.seats else 0.0,
                "draw_rate_95": [dlo, dhi],
                "points_mean": pm, "points_95": [plo, phi],
                "per_deal": qm, "per_deal_95": [qlo, qhi],
                "measure_mean": mm, "measure_95": [mlo, mhi],
                "move_ms_median": 1000 * statistics.median(self.times) if self.times else 0.0,
                "move_ms_p95": 1000 * percentile(self.times, 0.95),
                "moves": len(self.times)}


def paired_difference(rows: list[dict[str, Any]], a: str, b: str, rate: bool = False
                      ) -> tuple[float, float, float, int]:
    """The duplicate comparison of two bots on the game's measure: per deal-set (one seed,
    every rotation) the mean over a's seats minus the mean over b's seats; the mean of
    those differences with its 95% normal interval, and the number of deal-sets. Each
    deal-set is one sample, so the luck of the cards cancels out. With ``rate`` (the
    measure a share in [0, 1]) the difference lies in [−1, 1] and so does its interval."""
    diffs = list(deal_set_differences(rows, a, b).values())
    mean, lo, hi = mean_interval(diffs)
    if rate:
        mean, lo, hi = bounded((mean, lo, hi), -1.0, 1.0)
    return mean, lo, hi, len(diffs)


def deal_set_differences(rows: list[dict[str, Any]], a: str, b: str) -> dict[int, float]:
    """Seed → that deal-set's mean of the measure over a's seats minus the mean over b's
    (every rotation in ``rows``; deal-sets where either has no measure are left out)."""
    per_seed: dict[int, tuple[list[float], list[float]]] = {}
    for row in rows:
        xa, xb = per_seed.setdefault(int(row["seed"]), ([], []))
        for seat, bot in enumerate(row["lineup"]):
            m = row["measure"][seat]
            if m is not None and bot in (a, b):
                (xa if bot == a else xb).append(float(m))
    return {seed: statistics.fmean(xa) - statistics.fmean(xb)
            for seed, (xa, xb) in per_seed.items() if xa and xb}


def tally(rows: list[dict[str, Any]], bots: list[str],
          times: list[list[list[float]]] | None = None, family: str = "") -> dict[str, BotStats]:
    """Each bot's figures over ``rows`` (of a game of ``family``, whose measure may be a
    rate); move times from ``times`` (per row, per seat) or, in logs written before the
    rows lost their clock, from the rows' own ``times``."""
    cheats = cheating_in(rows)
    rate = measure_is_rate(family)
    stats = {b: BotStats(b, cheating=b in cheats, measure_rate=rate) for b in bots}
    for k, row in enumerate(rows):
        row_times = times[k] if times is not None else row.get("times")
        res = row["result"]
        for seat, bot in enumerate(row["lineup"]):
            st = stats[bot]
            st.seats += 1
            if seat in res["winners"]:
                st.wins += 1
            elif not res["winners"]:
                st.draws += 1
            st.points.append(float(res["scores"][seat]))
            st.per_deal.append(float(res["scores"][seat]) / max(1, int(row.get("deals", 1))))
            m = row["measure"][seat]
            if m is not None:
                st.measure.append(float(m))
            if row_times:
                st.times.extend(row_times[seat])
    return stats


def schedule_games(name: str, players: int, bots: list[str], deal_sets: int, seed: int,
                   unit: str, options: dict[str, Any]) -> list[Game]:
    opts = tuple(sorted(options.items()))
    return [Game(name, players, seed + k, lineup, unit, opts, k)
            for k in range(deal_sets) for lineup in lineups(bots, players)]


def _ignore_sigint() -> None:
    """A worker leaves Ctrl-C to the parent, which stops the run and the workers with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(games: list[Game], jobs: int) -> Iterator[GameResult]:
    """Play the games in order, in ``jobs`` worker processes. Closing the iterator (or a
    Ctrl-C while it waits) stops the workers at once."""
    if jobs <= 1:
        for g in games:
            yield play_game(g)
        return
    with multiprocessing.Pool(jobs, initializer=_ignore_sigint) as pool:  # exit terminates
        yield from pool.imap(play_game, games, chunksize=1)


def read_timings(rows: list[dict[str, Any]], texts: list[tuple[str, str]]
                 ) -> list[list[list[float]]]:
    """The move times of ``rows`` from timings files ``(path, text)`` (lines of
    :func:`timings_line`); a row with no line gets none."""
    by_key: dict[tuple[int, tuple[str, ...]], list[list[float]]] = {}
    for path, text in texts:
        for no, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                t = json.loads(line)
                by_key[(int(t["seed"]), tuple(t["lineup"]))] = [
                    [float(x) for x in seat] for seat in t["times"]]
            except (ValueError, KeyError, TypeError) as exc:
                raise LogError(f"{path}:{no}: not an arena timings line ({exc})") from None
    return [by_key.get((int(r["seed"]), tuple(r["lineup"])), [[] for _ in r["lineup"]])
            for r in rows]


class LogError(ValueError):
    """Arena logs that cannot be combined; the message names the file and line."""


@dataclass
class Combined:
    """Rows of one or more arena logs, reduced to complete deal-sets."""
    name: str
    players: int
    unit: str
    bots: list[str]
    rows: list[dict[str, Any]]
    seeds: list[int]
    dropped: int        # rows of deal-sets with a rotation missing (a run stopped early)


def combine_logs(texts: list[tuple[str, str]]) -> Combined:
    """Combine JSONL arena logs ``(path, text)`` of one game, bots and options: each
    (seed, lineup) counted once, and only deal-sets played in every rotation (of the bots
    in any order they were named), so the duplicate-deal balance holds (a log cut short
    ends in a partial deal-set)."""
    key: tuple[Any, ...] | None = None
    by_seed: dict[int, dict[tuple[str, ...], dict[str, Any]]] = {}
    for path, text in texts:
        for no, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                this = (row["name"], len(row["lineup"]), row["unit"],
                        json.dumps(row["options"], sort_keys=True),
                        tuple(sorted(set(row["lineup"]))))
                seed, lineup = int(row["seed"]), tuple(row["lineup"])
                row["result"]["winners"], row["measure"]
            except (ValueError, KeyError, TypeError) as exc:
                raise LogError(f"{path}:{no}: not an arena log line ({exc})") from None
            if key is None:
                key = this
            elif this != key:
                raise LogError(f"{path}:{no}: {this[0]} {this[1]}p {this[4]} {this[3]} "
                               f"does not match the first log's {key[0]} {key[1]}p {key[4]} "
                               f"{key[3]}")
            got = by_seed.setdefault(seed, {})
            if lineup in got:
                raise LogError(f"{path}:{no}: seed {seed} with seats {list(lineup)} "
                               "appears twice")
            got[lineup] = row
    if key is None:
        raise LogError("the logs hold no games")
    name, players, unit = key[:3]
    first_row = next(iter(next(iter(by_seed.values())).values()))
    order = list(dict.fromkeys(first_row["lineup"]))
    # a deal-set is complete when it holds every rotation of the bots in some order: with
    # an odd table, `--bots a,b` and `--bots b,a` seat them differently, and either counts
    orders = [list(p) for p in itertools.permutations(order)]
    complete = [lineups(o, players) for o in orders]
    rows: list[dict[str, Any]] = []
    seeds: list[int] = []
    dropped = 0
    for seed in sorted(by_seed):
        got = by_seed[seed]
        whole = next((lus for lus in complete if set(lus) == set(got)), None)
        if whole is not None:
            seeds.append(seed)
            rows.extend(got[lu] for lu in whole)
        else:
            dropped += len(got)
    return Combined(name, players, unit, order, rows, seeds, dropped)


def seed_ranges(seeds: list[int]) -> str:
    """1,2,3,7,8 → '1..3, 7..8'."""
    out: list[str] = []
    start = prev = None
    for s in seeds:
        if prev is not None and s == prev + 1:
            prev = s
            continue
        if start is not None:
            out.append(f"{start}..{prev}")
        start = prev = s
    if start is not None:
        out.append(f"{start}..{prev}")
    return ", ".join(out)
