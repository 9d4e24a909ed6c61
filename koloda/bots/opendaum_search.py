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
from typing import Any

from koloda.bots.flat_mc import FlatMonteCarlo
from koloda.bots.heuristic.opendaum import OpendaumHeuristic, rollout
from koloda.engine.errors import ConfigError
from koloda.engine.view import Observation
from koloda.games.opendaum.deal import OpendaumDeal
from koloda.games.opendaum.determinize import Template, prepare

#: level → (most deals sampled, seconds): whichever runs out first ends the search
LEVELS: dict[str, tuple[int, float]] = {
    "easy": (20, 0.1),
    "normal": (400, 0.6),
    "hard": (3000, 3.0),
}


class OpendaumSearch(FlatMonteCarlo[OpendaumDeal]):
    """Flat Monte Carlo (``koloda.bots.flat_mc``): every legal action, a determinization
    template prepared once per decision, ``deals`` deals whatever the number of actions,
    the rollouts on the decision's own generator."""

    fresh_rollout_rng = False

    def __init__(self, game: str, deals: int = 400, seconds: float = 0.6,
                 name: str = "search") -> None:
        self.game = game
        self.deals = deals
        self.seconds = seconds
        self.name = name
        self.heuristic = OpendaumHeuristic(game)
        #: the last decision: deals sampled and seconds spent, for measurement
        self.last: tuple[int, float] = (0, 0.0)

    def prepare(self, observation: Mapping[str, Any]) -> Template:
        assert isinstance(observation, Observation), "the search reads the typed observation"
        return prepare(observation)

    def sample(self, prepared: Any, rng: random.Random) -> OpendaumDeal:
        det: OpendaumDeal = prepared.sample(rng)
        return det

    def deal_budget(self, actions: list[str]) -> int:
        return self.deals

    def rollout(self, state: OpendaumDeal, rng: random.Random) -> None:
        rollout(state, rng)


def make(game: str, level: str | None = None) -> OpendaumSearch:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError("unknown_level", level=repr(lv), levels=", ".join(LEVELS))
    deals, seconds = LEVELS[lv]
    return OpendaumSearch(game, deals, seconds, name=f"search:{lv}")
