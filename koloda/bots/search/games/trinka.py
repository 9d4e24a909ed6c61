"""The Trinka search bot: the generic ISMCTS (koloda/bots/search/ismcts.py) with the heuristic's
play as its rollout.

Why not random playouts: Trinka scores exact trick counts (one or three for the pair, six
or nine against it), and random play lands on them by luck — a playout where every seat
steers its pair's count as the heuristic does values a card far more truly.
"""

from __future__ import annotations

import random
from typing import ClassVar

from koloda.bots.heuristic.trinka import rollout
from koloda.bots.search.ismcts import ISMCTS
from koloda.engine.deal import DealState


class TrinkaSearch(ISMCTS):
    """The shared ISMCTS with the heuristic's play as its rollout."""

    normal_iterations: ClassVar[int] = 1000

    def rollout(self, state: DealState, rng: random.Random) -> None:
        rollout(state, rng)
