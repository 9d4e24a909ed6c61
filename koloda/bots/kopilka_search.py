"""The Kopilka search bot: Monte Carlo over determinizations with heuristic playouts.

Random playouts would draw and pass at random, and random players never shed: every
action would look alike. Here each legal action is tried on the same sampled deals, every
seat then plays on with the heuristic (``koloda.bots.heuristic.kopilka.rollout``), and the
action with the best mean money change in the deal is taken — the heuristic's own choice
unless another beats it by more than the sampling noise (``FlatSearch``, shared with
Mushka). Deals come from the game's sampler: voids, shown cards, the exchange as the seat
saw it, every count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from koloda.bots.heuristic.kopilka import KopilkaHeuristic, rollout
from koloda.bots.mushka_search import FlatSearch
from koloda.engine.errors import ConfigError
from koloda.games.kopilka.determinize import Sampler

#: level → (most deals sampled, seconds): whichever runs out first ends the search
LEVELS: dict[str, tuple[int, float]] = {
    "easy": (30, 0.1),
    "normal": (400, 0.6),
    "hard": (3000, 3.0),
}


def every_action(observation: Mapping[str, Any], legal: list[str]) -> list[str]:
    return list(legal)


class KopilkaSearch(FlatSearch):
    def __init__(self, game: str = "kopilka", deals: int = 400, seconds: float = 0.6,
                 name: str = "search") -> None:
        super().__init__(KopilkaHeuristic(), Sampler, rollout, every_action, deals,
                         seconds, name)


def make(game: str, level: str | None = None) -> KopilkaSearch:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError("unknown_level", level=repr(lv), levels=", ".join(LEVELS))
    deals, seconds = LEVELS[lv]
    return KopilkaSearch(game, deals, seconds, name=f"search:{lv}")
