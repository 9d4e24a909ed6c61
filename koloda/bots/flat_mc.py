"""Flat Monte Carlo over determinizations with heuristic playouts, shared by the Dreyfus,
Stukolka and Opendaum search bots.

One decision: sample a full deal consistent with the observation, try every candidate
action on that same deal (common random numbers: the differences between actions are not
drowned by the luck of the deal), play on with the game's heuristic rollout, and add the
seat's payoff (times the sample's weight) to the action's total. Repeat until the deal
budget is spent, or the time budget once ``min_deals`` deals are in. The action with the
best mean wins; ties go to the heuristic's own choice.

A game's own parts are hooks of :class:`FlatMonteCarlo`: ``prepare`` (once per decision),
``sample`` and ``weight`` (one determinization and how much it counts), ``act`` (apply an
action to a sample), ``rollout``, ``candidates``, ``deal_budget`` and
``fresh_rollout_rng``. Why each game searches flat and not with the generic ISMCTS is told
in its own module.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any, Generic, TypeVar, cast

from koloda.bots.base import Bot
from koloda.engine.deal import DealState

#: deals sampled before the clock is looked at
MIN_DEALS = 4

S = TypeVar("S", bound=DealState)


class FlatMonteCarlo(Generic[S]):
    """Flat Monte Carlo over determinizations, heuristic playouts, shared deals per action.

    A subclass sets ``name``, ``seconds`` and ``heuristic`` and gives ``sample``,
    ``rollout`` and ``deal_budget``; the other hooks have defaults."""

    name: str
    #: the time budget of one decision, looked at once ``min_deals`` deals are in
    seconds: float
    #: the default action, and the tie-break between equal means
    heuristic: Bot
    #: deals sampled before the clock is looked at
    min_deals: int = MIN_DEALS
    #: True: each deal's rollouts run on ``random.Random(seed)`` with one ``seed =
    #: rng.random()`` drawn after the sample, the same generator state for every action;
    #: False: on the decision's own ``rng``
    fresh_rollout_rng: bool = True
    #: the last decision: deals sampled and seconds spent, for measurement
    last: tuple[int, float] = (0, 0.0)

    # ------------------------------------------------------------------ hooks
    def prepare(self, observation: Mapping[str, Any]) -> Any:
        """What ``sample`` draws from, made once per decision (default: the observation)."""
        return observation

    def sample(self, prepared: Any, rng: random.Random) -> S:
        """One full deal consistent with the observation."""
        raise NotImplementedError

    def weight(self, det: S, seat: int) -> float:
        """How much the sample ``det`` counts in the means (default: all alike)."""
        return 1.0

    def act(self, state: S, action: str) -> None:
        """Apply a candidate action to a copy of the sample."""
        state.apply(action)

    def rollout(self, state: S, rng: random.Random) -> None:
        """Play the deal to its end."""
        raise NotImplementedError

    def candidates(self, observation: Mapping[str, Any], legal: list[str],
                   default: str) -> list[str]:
        """The actions tried (default: every legal one)."""
        return legal

    def deal_budget(self, actions: list[str]) -> int:
        """The most deals sampled for these candidates."""
        raise NotImplementedError

    # ------------------------------------------------------------------ search
    def evaluate(self, observation: Mapping[str, Any], actions: list[str],
                 rng: random.Random) -> dict[str, float]:
        """The mean payoff of each action for the observing seat over sampled deals."""
        start = time.perf_counter()
        deadline = start + self.seconds
        prepared = self.prepare(observation)
        seat = observation["seat"]
        totals = dict.fromkeys(actions, 0.0)
        most = self.deal_budget(actions)
        n = 0
        weights = 0.0
        while n < most and (n < self.min_deals or time.perf_counter() < deadline):
            det = self.sample(prepared, rng)
            w = self.weight(det, seat)
            seed = rng.random() if self.fresh_rollout_rng else None
            for a in actions:
                st = cast(S, det.clone())
                self.act(st, a)
                self.rollout(st, rng if seed is None else random.Random(seed))
                totals[a] += w * st.payoffs()[seat]
            weights += w
            n += 1
        self.last = (n, time.perf_counter() - start)
        return {a: t / weights for a, t in totals.items()}

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        default = self.heuristic.choose(observation, legal, rng)
        actions = self.candidates(observation, legal, default)
        means = self.evaluate(observation, actions, rng)
        self._means = means
        return max(actions, key=lambda a: (means[a], a == default))

    def top_moves(self) -> list[tuple[str, float]]:
        """The last decision's candidates, best first, with their mean payoff for the
        deciding seat (what a hint shows)."""
        means: dict[str, float] = getattr(self, "_means", {})
        return sorted(means.items(), key=lambda kv: -kv[1])
