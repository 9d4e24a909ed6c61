"""Flat Monte Carlo over determinizations with heuristic playouts, the one flat search of
every game; a game's own parts are hooks (methods a game's search overrides).

One decision: sample a full deal consistent with the observation, try every candidate
action on that same deal (common random numbers: the differences between actions are not
drowned by the luck of the deal), play on with the game's heuristic rollout, and record
the seat's payoff (times the sample's weight) for the action. Repeat until the deal
budget is spent. The action with the best mean wins; ties go to the heuristic's own
choice. Two options: every ``prune_every`` deals an action clearly worse than the best so
far (by ``prune_z`` standard errors of the paired difference) stops being sampled, and
with ``confidence`` set the heuristic's choice is left only when another beats it by that
many standard errors of the paired difference.

Hooks: ``prepare`` (once per decision), ``sample`` and ``weight`` (one determinization
and how much it counts), ``act`` (apply an action to a sample), ``rollout``, ``value``,
``candidates``, ``deal_budget`` and ``fresh_rollout_rng``. The budget is ``iterations``
(rollouts or deals, as ``deal_budget`` reads it); ``seconds`` is a time cap only when a
caller with a person waiting gives one (see :mod:`koloda.bots.search.levels`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar, cast

from koloda.bots.interface import Bot
from koloda.bots.search.ismcts import SearchStats
from koloda.bots.search.levels import Clock
from koloda.engine.deal import DealState

#: deals sampled before a time cap is looked at
MIN_DEALS = 4

S = TypeVar("S", bound=DealState)


class FlatMonteCarlo(Generic[S]):
    """Flat Monte Carlo over determinizations, heuristic playouts, shared deals per action.

    A game's search sets ``heuristic`` and gives ``sample`` and ``rollout``; the other
    hooks have defaults."""

    #: the iterations of the normal level (levels are shares of it)
    normal_iterations: ClassVar[int] = 400
    #: the default action, and the tie-break between equal means
    heuristic: Bot
    #: deals sampled before a time cap is looked at
    min_deals: int = MIN_DEALS
    #: True: each deal's rollouts run on ``random.Random(seed)`` with one ``seed =
    #: rng.random()`` drawn after the sample, the same generator state for every action;
    #: False: on the decision's own ``rng``
    fresh_rollout_rng: bool = True
    #: every this many deals drop the actions clearly worse than the best (0: never)
    prune_every: int = 0
    prune_z: float = 3.0
    #: leave the heuristic's choice only when beaten by this many standard errors (None:
    #: the best mean wins)
    confidence: float | None = None
    #: True: ``deal_budget`` counts rollouts, not deals (the deals an action dropped by
    #: pruning would have had go to the actions still live)
    budget_in_rollouts: bool = False

    def __init__(self, game: str, iterations: int | None = None,
                 seconds: float | None = None, name: str = "search") -> None:
        self.game = game
        self.iterations = iterations or self.normal_iterations
        self.seconds = seconds
        self.name = name
        self.last = SearchStats()
        self._means: dict[str, float] = {}
        self.errors: dict[str, float] = {}

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
        state.apply_unchecked(action)   # every candidate is legal: no re-check

    def rollout(self, state: S, rng: random.Random) -> None:
        """Play the deal to its end."""
        raise NotImplementedError

    def value(self, state: S, seat: int) -> float:
        """What a played-out deal is worth to ``seat`` (default: its payoff)."""
        return state.payoffs()[seat]

    def candidates(self, observation: Mapping[str, Any], legal: list[str],
                   default: str) -> list[str]:
        """The actions tried (default: every legal one); the heuristic's is added."""
        return legal

    def deal_budget(self, observation: Mapping[str, Any], actions: list[str]) -> int:
        """The most deals sampled for these candidates (default: ``iterations``)."""
        return self.iterations

    # ------------------------------------------------------------------ search
    def evaluate(self, observation: Mapping[str, Any], actions: list[str],
                 rng: random.Random, default: str | None = None,
                 sample: Callable[[], S] | None = None) -> dict[str, float]:
        """The weighted mean payoff of each action for the observing seat over sampled
        deals (or the deals ``sample`` gives); ``errors`` keeps the standard error of each
        one's difference from ``default`` (the first action if None) on the same deals."""
        if sample is None:
            prepared = self.prepare(observation)
            sample = lambda: self.sample(prepared, rng)  # noqa: E731
        seat = observation["seat"]
        base = default if default is not None else actions[0]
        clock = Clock(self.deal_budget(observation, actions), self.seconds, self.min_deals)
        got: dict[str, list[float]] = {a: [] for a in actions}
        weights: dict[str, float] = dict.fromkeys(actions, 0.0)
        totals: dict[str, float] = dict.fromkeys(actions, 0.0)
        live = list(actions)
        n = rollouts = 0
        while clock.more(rollouts if self.budget_in_rollouts else n):
            det = sample()
            w = self.weight(det, seat)
            seed = rng.random() if self.fresh_rollout_rng else None
            for a in live:
                st = cast(S, det.clone())
                self.act(st, a)
                self.rollout(st, rng if seed is None else random.Random(seed))
                v = self.value(st, seat)
                got[a].append(v)
                totals[a] += w * v
                weights[a] += w
            n += 1
            rollouts += len(live)
            if self.prune_every and n % self.prune_every == 0 and len(live) > 2:
                live = self._prune(live, got, base)
        self.last = SearchStats(n, clock.elapsed())
        means = {a: totals[a] / weights[a] if weights[a] else -math.inf for a in actions}
        self.errors = {a: _paired_error(got[a], got[base]) for a in actions}
        # an action dropped early is judged on its own deals only: not worth leaving for
        for a in actions:
            if a not in live:
                means[a] = min(means[a], means[base])
        return means

    def _prune(self, live: list[str], got: dict[str, list[float]], base: str) -> list[str]:
        k = len(got[base])
        best = max(live, key=lambda a: sum(got[a]) / k)
        keep = []
        for a in live:
            if a in (best, base):
                keep.append(a)
                continue
            d = [x - y for x, y in zip(got[best], got[a], strict=True)]
            m = sum(d) / k
            sd = math.sqrt(max(0.0, sum(x * x for x in d) / k - m * m) / max(1, k - 1))
            if m <= self.prune_z * sd:
                keep.append(a)
        return keep

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        return self.decide(observation, legal, rng, None)

    def decide(self, observation: Mapping[str, Any], legal: list[str], rng: random.Random,
               sample: Callable[[], S] | None) -> str:
        """The move, over sampled deals (or the deals ``sample`` gives)."""
        if len(legal) == 1:
            return legal[0]
        default: str = self.heuristic.choose(observation, legal, rng)
        actions = list(self.candidates(observation, legal, default))
        if default not in actions:
            actions.append(default)
        means = self._means = self.evaluate(observation, actions, rng, default, sample)
        best = max(actions, key=lambda a: (means[a], a == default))
        if self.confidence is not None and (means[best] - means[default]
                                            <= self.confidence * self.errors[best]):
            return default      # sampling noise alone favours some action
        return best

    def top_moves(self) -> list[tuple[str, float]]:
        """The last decision's candidates, best first, with their mean payoff for the
        deciding seat (what a hint shows)."""
        return sorted(self._means.items(), key=lambda kv: -kv[1])


def _paired_error(xs: list[float], ys: list[float]) -> float:
    """The standard error of mean(xs - ys) over the deals both were played on."""
    k = min(len(xs), len(ys))
    if k < 2:
        return math.inf
    d = [xs[i] - ys[i] for i in range(k)]
    m = sum(d) / k
    return math.sqrt(max(0.0, sum(x * x for x in d) / k - m * m) / (k - 1))
