"""The clairvoyant: a measuring bot that sees every card — the ceiling our search is
measured against, never a player at a table (it cheats, and says so: ``cheating``).

It is the game's own search (its hooks: rollouts, candidates, endgame solver) with the
determinization replaced by the true deal, at ``BUDGET`` (twice the normal level's
iterations: on the true deal no budget goes to averaging over unseen cards). The arena calls
``choose_state`` with the live deal state (``needs_state``); the state is copied before
anything is played on it.
"""

from __future__ import annotations

import random
from typing import Any

from koloda.bots.search.flat import FlatMonteCarlo
from koloda.bots.search.ismcts import ISMCTS
from koloda.bots.search.levels import Level, level_iterations
from koloda.engine.deal import DealState
from koloda.engine.registry import get_spec
from koloda.engine.view import EmptyView, Observation

#: the clairvoyant's budget: a share of the game's normal iterations (and a time cap for
#: a caller that asks for one)
BUDGET = Level(2.0, 1.2)


class Clairvoyant:
    """The game's search, searching the true deal (see the module docstring)."""

    name = "clairvoyant"
    cheating = True
    needs_state = True

    def __init__(self, game: str, search: Any = None, seconds: float | None = None) -> None:
        from koloda.bots.interface import search_class
        spec = get_spec(game)
        self.game = spec.name
        if search is None:
            cls = search_class(spec.name)
            search = cls(spec.name, iterations=level_iterations(cls.normal_iterations, BUDGET),
                         seconds=seconds, name=self.name)
        self.search: ISMCTS | FlatMonteCarlo[Any] = search

    def observation(self, state: DealState, seat: int) -> Observation:
        """What ``seat`` sees of ``state``, as the match would give it (no sheet)."""
        return Observation(self.game, state.players, seat, 0, getattr(state, "dealer", None),
                           state.to_move, False, EmptyView(), state.observation(seat))

    def choose_state(self, state: DealState, seat: int, legal: list[str],
                     rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        truth = state.clone()
        obs = self.observation(truth, seat)
        return self.search.decide(obs, legal, rng, truth.clone)

    def choose(self, observation: Any, legal: list[str], rng: random.Random) -> str:
        raise TypeError("the clairvoyant needs the deal state: call choose_state")

    def top_moves(self) -> list[tuple[str, float]]:
        return self.search.top_moves()
