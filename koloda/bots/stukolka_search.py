"""The Stukolka search bot: Monte Carlo over determinizations with heuristic playouts.

Why not the generic ISMCTS: a Stukolka deal is decided at the declaration, and in the tree
the players declaring after the bot choose with the sampled deal in full view — they drop
whenever knocking would cost them a remiz in that sample and so hand the bot the pot. It
then takes the golets on three unseen cards far too often (measured: the ISMCTS bot lost
to the heuristic, see docs/strength/stukolka.md). Here every legal action is tried on the
same sampled deals (common random numbers), every seat then plays on as the heuristic
does, from its own hand (``koloda.bots.heuristic.stukolka.rollout``), and the action with
the best mean of the seat's money wins; ties go to the heuristic's own choice.

The golets is weighed only by the dealer, the last to declare. Earlier, its worth hangs on
how the players still to declare answer a golets (three unseen cards, obliged to play):
the playouts have them declare by their own hands as the heuristic does, while a searching
player knocks against the golets far more readily — taking it on those playouts lost money
at the table (docs/strength/stukolka.md).
"""

from __future__ import annotations

import random
import time
from typing import Any

from koloda.bots.heuristic.stukolka import StukolkaHeuristic, rollout
from koloda.bots.search import LEVELS
from koloda.engine.errors import ConfigError
from koloda.games.stukolka import determinize

#: deals sampled before the clock is looked at
MIN_DEALS = 4


class StukolkaSearch:
    """Flat Monte Carlo over determinizations, heuristic playouts, shared deals per action."""

    def __init__(self, game: str = "stukolka", playouts: int = 700, seconds: float = 0.6,
                 name: str = "search") -> None:
        self.game = game
        self.playouts = playouts
        self.seconds = seconds
        self.name = name
        self.heuristic = StukolkaHeuristic()
        #: the last decision: deals sampled and seconds spent, for measurement
        self.last: tuple[int, float] = (0, 0.0)

    def evaluate(self, observation: dict[str, Any], actions: list[str],
                 rng: random.Random) -> dict[str, float]:
        """The mean payoff of each action for the observing seat over sampled deals."""
        start = time.perf_counter()
        deadline = start + self.seconds
        seat = observation["seat"]
        totals = dict.fromkeys(actions, 0.0)
        most = max(MIN_DEALS, self.playouts // len(actions))
        n = 0
        while n < most and (n < MIN_DEALS or time.perf_counter() < deadline):
            det = determinize(observation, rng)
            seed = rng.random()
            for a in actions:
                st = det.clone()
                st.apply(a)
                rollout(st, random.Random(seed))
                totals[a] += st.payoffs()[seat]
            n += 1
        self.last = (n, time.perf_counter() - start)
        return {a: t / n for a, t in totals.items()}

    def choose(self, observation: dict[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        obs = observation
        default = self.heuristic.choose(obs, legal, rng)
        actions = legal
        if obs["phase"] == "declare" and obs["seat"] != obs["dealer"]:
            actions = [a for a in legal if a != "golets"] or legal
        means = self.evaluate(obs, actions, rng)
        return max(actions, key=lambda a: (means[a], a == default))


def make(game: str, level: str | None = None) -> StukolkaSearch:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError(f"unknown search level {lv!r}; levels: {', '.join(LEVELS)}")
    playouts, seconds = LEVELS[lv]
    return StukolkaSearch(game, playouts, seconds, name=f"search:{lv}")
