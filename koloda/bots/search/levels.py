"""The search levels, one table for every game, and the one way to build a search bot.

A level is a share of the game's own normal budget in iterations (an ISMCTS iteration, or
one rollout of a flat Monte Carlo): each game's search names how many iterations its
normal level runs (``normal_iterations``, measured so that a move takes well under a
second here), and every level is that times its share. Budgets are iterations, never the
clock: the same seed gives the same moves on any machine and under any load. Only a caller
that has a person waiting passes ``seconds``, a time cap on top (``Level.seconds`` is the
cap the terminal and the browser use).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from koloda.engine.errors import ConfigError


@dataclass(frozen=True)
class Level:
    #: the share of the game's normal iteration budget
    share: float
    #: the time cap, in seconds, when a person waits for the move
    seconds: float


LEVELS: dict[str, Level] = {
    "easy": Level(0.15, 0.1),
    "normal": Level(1.0, 0.6),
    "hard": Level(6.0, 3.0),
}
DEFAULT_LEVEL = "normal"


def level_named(level: str | None) -> tuple[str, Level]:
    """The level's name and settings; an unknown level is refused, naming the levels."""
    name = level or DEFAULT_LEVEL
    found = LEVELS.get(name)
    if found is None:
        raise ConfigError("unknown_level", level=repr(name), levels=", ".join(LEVELS))
    return name, found


def level_iterations(normal: int, level: Level) -> int:
    return max(1, round(normal * level.share))


def build_search(cls: Any, game: str, level: str | None, seconds: float | None = None) -> Any:
    """``cls`` (a game's search: an :class:`~koloda.bots.search.ismcts.ISMCTS` or
    :class:`~koloda.bots.search.flat.FlatMonteCarlo`) at ``level`` for ``game``."""
    name, lv = level_named(level)
    return cls(game, iterations=level_iterations(cls.normal_iterations, lv), seconds=seconds,
               name=f"search:{name}")


class Clock:
    """An iteration budget, and a time cap only when one is given.

    ``more(it)``: another iteration may start after ``it`` done — while the budget lasts
    and, with a cap, before it (at least ``least`` iterations are always run)."""

    __slots__ = ("deadline", "iterations", "least", "start")

    def __init__(self, iterations: int, seconds: float | None, least: int = 4) -> None:
        self.iterations = iterations
        self.least = least
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds

    def more(self, it: int) -> bool:
        if it >= self.iterations:
            return False
        return self.deadline is None or it < self.least or time.perf_counter() < self.deadline

    def left(self, it: int) -> float:
        """Iterations still to come at most (with a cap: as many as its time allows at
        the pace so far)."""
        left: float = self.iterations - it
        if self.deadline is not None:
            now = time.perf_counter()
            left = min(left, it / max(now - self.start, 1e-9) * (self.deadline - now))
        return left

    def elapsed(self) -> float:
        return time.perf_counter() - self.start
