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
from typing import Any

from koloda.bots.flat_mc import MIN_DEALS, FlatMonteCarlo
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


class DreyfusSearch(FlatMonteCarlo[DreyfusDeal]):
    """Flat Monte Carlo (``koloda.bots.flat_mc``): a few exchange candidates, the exchange
    applied through ``DreyfusDeal.buy``, a fresh rollout generator per deal."""

    def __init__(self, game: str = "dreyfus", playouts: int = 700, seconds: float = 0.6,
                 name: str = "search") -> None:
        self.game = game
        self.playouts = playouts
        self.seconds = seconds
        self.name = name
        self.heuristic = DreyfusHeuristic()
        #: the last decision: deals sampled and seconds spent, for measurement
        self.last: tuple[int, float] = (0, 0.0)

    def candidates(self, observation: Mapping[str, Any], legal: list[str],
                   default: str) -> list[str]:
        if observation["phase"] == "exchange":
            rules, hand, _, _ = view(observation)
            actions = [discard_text(c) for c in
                       exchange_candidates(hand, rules.trump, observation["widow_size"])]
        else:
            actions = list(legal)
        if default not in actions:
            actions.append(default)
        return actions

    def deal_budget(self, actions: list[str]) -> int:
        return max(MIN_DEALS, self.playouts // len(actions))

    def sample(self, prepared: Any, rng: random.Random) -> DreyfusDeal:
        return determinize(prepared, rng)

    def act(self, state: DreyfusDeal, action: str) -> None:
        """Apply ``action``; an exchange goes through ``buy`` (no list of every discard)."""
        if state.phase == "exchange":
            words = action.split()
            cards: list[Card] = [] if words[0] == "stand" else [TEXT_CARD[w] for w in words[1:]]
            state.buy(cards)
        else:
            state.apply(action)

    def rollout(self, state: DreyfusDeal, rng: random.Random) -> None:
        rollout(state, rng)


def make(game: str, level: str | None = None) -> DreyfusSearch:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError("unknown_level", level=repr(lv), levels=", ".join(LEVELS))
    playouts, seconds = LEVELS[lv]
    return DreyfusSearch(game, playouts, seconds, name=f"search:{lv}")
