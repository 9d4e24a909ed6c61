"""The Opendaum search bot: Monte Carlo over determinizations with heuristic playouts.

Why not the generic ISMCTS with random playouts: a bid is worth something only if the
deal is then played to make it, and random play makes every bid look alike (it takes a
random number of tricks). Here each candidate action — a bid or a card — is tried on the
same sampled deals (common random numbers: the differences between actions are not
drowned by the luck of the deal), every seat then plays on with the heuristic policy
(``koloda.bots.heuristic.opendaum.rollout``: bid from the hand, play to make the bid
exactly), and the action with the best mean of the seat's deal points is chosen; ties go
to the heuristic's own choice. A bid is thus chosen by how many tricks this hand really
takes when played for that bid, from this seat, after and before these bids.

Determinizations come from the game's own determinizer (voids, cards played, the trump
card, hand sizes), prepared once per decision from the typed observation and sampled many
times.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from koloda.bots.heuristic.opendaum import OpendaumHeuristic, rollout
from koloda.bots.search.flat import MIN_DEALS, FlatMonteCarlo
from koloda.engine.view import Observation
from koloda.games.opendaum.deal import OpendaumDeal
from koloda.games.opendaum.determinize import Template, prepare

#: the most deals one decision samples
MAX_DEALS = 2000


class OpendaumSearch(FlatMonteCarlo[OpendaumDeal]):
    """Flat Monte Carlo (``koloda.bots.search.flat``): every legal action, a
    determinization template prepared once per decision, the budget in cards played (see
    ``normal_iterations``), the rollouts on the decision's own generator."""

    #: in cards played in rollouts: a decision's deals are this over (candidates × cards
    #: in hand), so a bid of nine cards and a last trick take about the same time
    normal_iterations: ClassVar[int] = 12000
    fresh_rollout_rng = False

    def __init__(self, game: str, iterations: int | None = None,
                 seconds: float | None = None, name: str = "search") -> None:
        super().__init__(game, iterations, seconds, name)
        self.heuristic = OpendaumHeuristic(game)

    def prepare(self, observation: Mapping[str, Any]) -> Template:
        assert isinstance(observation, Observation), "the search reads the typed observation"
        return prepare(observation)

    def deal_budget(self, observation: Mapping[str, Any], actions: list[str]) -> int:
        cards = max(1, len(observation["hand"]))
        return max(MIN_DEALS, min(MAX_DEALS, self.iterations // (len(actions) * cards)))

    def sample(self, prepared: Any, rng: random.Random) -> OpendaumDeal:
        det: OpendaumDeal = prepared.sample(rng)
        return det

    def rollout(self, state: OpendaumDeal, rng: random.Random) -> None:
        rollout(state, rng)
