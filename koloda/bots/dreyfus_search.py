"""The Dreyfus search bot: Monte Carlo over determinizations with heuristic playouts.

Each candidate action is tried on the same sampled deals (common random numbers: the
differences between actions are not drowned by the luck of the deal), every seat then plays
on as the heuristic does (``koloda.bots.heuristic.dreyfus.rollout``), and the action with
the best mean of the seat's payoff (tricks − 4 − bought) wins; ties go to the heuristic's
own choice.

Candidates: in play every legal card. At the exchange, up to 4096 discard sets are legal —
far too many to sample and nearly all absurd (every card bought costs a point) — so only a
few sensible ones are tried (``exchange_candidates``: stand, the heuristic's choice, each
short side suit, each single low card).

Why not the generic ISMCTS: its tree cannot hold 4096 exchange actions, and in the tree the
other players choose with the sampled deal in full view (in Stukolka that lost to the
heuristic; here flat sampling with honest playouts is the safer policy improvement).
"""

from __future__ import annotations

import random
import time
from typing import Any

from koloda.bots.heuristic.dreyfus import (
    DreyfusHeuristic,
    discard_text,
    exchange_candidates,
    rollout,
    view,
)
from koloda.bots.search import LEVELS
from koloda.cards import TEXT_CARD, Card
from koloda.engine.errors import ConfigError
from koloda.games.dreyfus import DreyfusDeal, determinize

#: deals sampled before the clock is looked at
MIN_DEALS = 4


class DreyfusSearch:
    def __init__(self, game: str = "dreyfus", playouts: int = 700, seconds: float = 0.6,
                 name: str = "search") -> None:
        self.game = game
        self.playouts = playouts
        self.seconds = seconds
        self.name = name
        self.heuristic = DreyfusHeuristic()
        #: the last decision: deals sampled and seconds spent, for measurement
        self.last: tuple[int, float] = (0, 0.0)

    def choose(self, observation: dict[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        default = self.heuristic.choose(observation, legal, rng)
        if observation["phase"] == "exchange":
            rules, hand, _, _ = view(observation)
            actions = [discard_text(c) for c in
                       exchange_candidates(hand, rules.trump, observation["widow_size"])]
        else:
            actions = list(legal)
        if default not in actions:
            actions.append(default)
        means = self.evaluate(observation, actions, rng)
        return max(actions, key=lambda a: (means[a], a == default))

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
                _act(st, a)
                rollout(st, random.Random(seed))
                totals[a] += st.payoffs()[seat]
            n += 1
        self.last = (n, time.perf_counter() - start)
        return {a: t / n for a, t in totals.items()}


def _act(st: DreyfusDeal, action: str) -> None:
    """Apply ``action``; an exchange goes through ``buy`` (no list of every discard)."""
    if st.phase == "exchange":
        words = action.split()
        cards: list[Card] = [] if words[0] == "stand" else [TEXT_CARD[w] for w in words[1:]]
        st.buy(cards)
    else:
        st.apply(action)


def make(game: str, level: str | None = None) -> DreyfusSearch:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError(f"unknown search level {lv!r}; levels: {', '.join(LEVELS)}")
    playouts, seconds = LEVELS[lv]
    return DreyfusSearch(game, playouts, seconds, name=f"search:{lv}")
