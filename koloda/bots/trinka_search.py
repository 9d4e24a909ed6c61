"""The Trinka search bot: the generic ISMCTS (koloda/bots/search.py) with the heuristic's
play as its rollout.

Why not random playouts: Trinka scores exact trick counts (one or three for the pair, six
or nine against it), and random play lands on them by luck — a playout where every seat
steers its pair's count as the heuristic does values a card far more truly.
"""

from __future__ import annotations

from koloda.bots.heuristic.trinka import rollout
from koloda.bots.search import LEVELS, SearchBot
from koloda.engine.errors import ConfigError


def make(game: str, level: str | None = None) -> SearchBot:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError("unknown_level", level=repr(lv), levels=", ".join(LEVELS))
    iterations, seconds = LEVELS[lv]
    return SearchBot(game, iterations, seconds, rollout=rollout, name=f"search:{lv}")
