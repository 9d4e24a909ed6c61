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
from collections.abc import Mapping
from typing import Any, ClassVar

from koloda.bots.heuristic.dreyfus import (
    DreyfusHeuristic,
    discard_text,
    exchange_candidates,
    rollout,
    view,
)
from koloda.bots.search.flat import MIN_DEALS, FlatMonteCarlo
from koloda.cards import TEXT_CARD, Card
from koloda.games.dreyfus import DreyfusDeal, determinize


class DreyfusSearch(FlatMonteCarlo[DreyfusDeal]):
    """Flat Monte Carlo (``koloda.bots.search.flat``): a few exchange candidates, the
    exchange applied through ``DreyfusDeal.buy``, ``iterations`` rollouts shared among the
    candidates, a fresh rollout generator per deal."""

    normal_iterations: ClassVar[int] = 1000

    def __init__(self, game: str = "dreyfus", iterations: int | None = None,
                 seconds: float | None = None, name: str = "search") -> None:
        super().__init__(game, iterations, seconds, name)
        self.heuristic = DreyfusHeuristic()

    def candidates(self, observation: Mapping[str, Any], legal: list[str],
                   default: str) -> list[str]:
        if observation["phase"] == "exchange":
            rules, hand, _, _ = view(observation)
            return [discard_text(c) for c in
                    exchange_candidates(hand, rules.trump, observation["widow_size"])]
        return list(legal)

    def deal_budget(self, observation: Mapping[str, Any], actions: list[str]) -> int:
        return max(MIN_DEALS, self.iterations // len(actions))

    def sample(self, prepared: Any, rng: random.Random) -> DreyfusDeal:
        return determinize(prepared, rng)

    def act(self, state: DreyfusDeal, action: str) -> None:
        """Apply ``action``; an exchange goes through ``buy`` (no list of every discard)."""
        if state.phase == "exchange":
            words = action.split()
            cards: list[Card] = [] if words[0] == "stand" else [TEXT_CARD[w] for w in words[1:]]
            state.buy(cards)
        else:
            state.apply_unchecked(action)

    def rollout(self, state: DreyfusDeal, rng: random.Random) -> None:
        rollout(state, rng)
