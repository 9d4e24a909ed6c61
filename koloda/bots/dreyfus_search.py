"""The Dreyfus search bot: Monte Carlo at the exchange, ISMCTS in play.

The exchange offers up to 4096 discard sets — far too many for a tree, and nearly all of
them absurd (every card bought costs a point). So a few sensible candidates are tried
(``exchange_candidates``: stand, the heuristic's choice, each short side suit, each single
low card) on the same sampled deals (common random numbers: the differences between
candidates are not drowned by the luck of the deal), every seat then plays on with the
heuristic (``koloda.bots.heuristic.dreyfus.rollout``), and the candidate with the best mean
of the seat's payoff (tricks − 4 − bought) is chosen; ties go to standing.

In play the generic ISMCTS (koloda/bots/search.py) runs with that same heuristic rollout:
random playouts would have the later buyers discard half their hands.
"""

from __future__ import annotations

import random
import time
from typing import Any

from koloda.bots.heuristic.dreyfus import discard_text, exchange_candidates, rollout, view
from koloda.bots.search import LEVELS, SearchBot
from koloda.engine.errors import ConfigError
from koloda.games.dreyfus import determinize

#: deals sampled before the clock is looked at
MIN_DEALS = 4


class DreyfusSearch:
    def __init__(self, game: str, iterations: int = 700, seconds: float = 0.6,
                 name: str = "search") -> None:
        self.tree = SearchBot(game, iterations, seconds, rollout=rollout, name=name)
        self.iterations = iterations
        self.seconds = seconds
        self.name = name
        #: the last exchange: deals sampled and seconds spent, for measurement
        self.last: tuple[int, float] = (0, 0.0)

    def choose(self, observation: dict[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        if observation["phase"] != "exchange":
            self.tree.iterations, self.tree.seconds = self.iterations, self.seconds
            return self.tree.choose(observation, legal, rng)
        return self.exchange(observation, rng)

    def exchange(self, obs: dict[str, Any], rng: random.Random) -> str:
        seat = obs["seat"]
        rules, hand, _, _ = view(obs)
        cands = exchange_candidates(hand, rules.trump, obs["widow_size"])
        totals = [0.0] * len(cands)
        start = time.perf_counter()
        deadline = start + self.seconds
        n = 0
        # each sampled deal is played once per candidate: iterations count playouts
        while (n + 1) * len(cands) <= max(self.iterations, MIN_DEALS * len(cands)) and \
                (n < MIN_DEALS or time.perf_counter() < deadline):
            det = determinize(obs, rng)
            seed = rng.random()
            for i, cand in enumerate(cands):
                st = det.clone()
                st.buy(cand)
                rollout(st, random.Random(seed))
                totals[i] += st.payoffs()[seat]
            n += 1
        self.last = (n, time.perf_counter() - start)
        best = max(range(len(cands)), key=lambda i: (totals[i], not cands[i]))
        return discard_text(cands[best])


def make(game: str, level: str | None = None) -> DreyfusSearch:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError(f"unknown search level {lv!r}; levels: {', '.join(LEVELS)}")
    iterations, seconds = LEVELS[lv]
    return DreyfusSearch(game, iterations, seconds, name=f"search:{lv}")
