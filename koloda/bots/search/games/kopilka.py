"""The Kopilka search bot: Monte Carlo over determinizations with heuristic playouts.

Random playouts would draw and pass at random, and random players never shed: every
action would look alike. Here each legal action is tried on the same sampled deals, every
seat then plays on with the heuristic (``koloda.bots.heuristic.kopilka.rollout``), and the
action with the best mean money change in the deal is taken — the heuristic's own choice
unless another beats it by more than the sampling noise (the shared flat search with
pruning and a confidence rule, as Mushka). Deals come from the game's sampler: voids,
shown cards, the exchange as the seat saw it, every count.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from koloda.bots.heuristic.kopilka import KopilkaHeuristic, rollout
from koloda.bots.search.flat import FlatMonteCarlo
from koloda.engine.deal import DealState
from koloda.engine.view import Observation
from koloda.games.kopilka.determinize import Sampler


class KopilkaSearch(FlatMonteCarlo[DealState]):
    """Flat Monte Carlo (``koloda.bots.search.flat``): every legal action, the game's
    sampler, ``iterations`` deals, clearly worse actions pruned, the heuristic left only
    on evidence."""

    normal_iterations: ClassVar[int] = 330
    fresh_rollout_rng = False
    prune_every = 16
    confidence = 1.0

    def __init__(self, game: str = "kopilka", iterations: int | None = None,
                 seconds: float | None = None, name: str = "search") -> None:
        super().__init__(game, iterations, seconds, name)
        self.heuristic = KopilkaHeuristic()

    def prepare(self, observation: Mapping[str, Any]) -> Sampler:
        assert isinstance(observation, Observation), "the search reads the typed observation"
        return Sampler(observation)

    def sample(self, prepared: Any, rng: random.Random) -> DealState:
        det: DealState = prepared.sample(rng)
        return det

    def rollout(self, state: DealState, rng: random.Random) -> None:
        rollout(state)
