"""The Stukolka search bot: the generic ISMCTS (koloda/bots/search.py) with the heuristic's
declarations and play as its rollout.

Why not random playouts: a Stukolka deal is decided at the declaration, and whether
knocking pays depends on who else comes in — random players take the golets a third of
the time and knock on anything, which is not the table a real hand meets. The rollout
declares by hand strength and plays greedily, with a little noise.
"""

from __future__ import annotations

from koloda.bots.heuristic.stukolka import rollout
from koloda.bots.search import LEVELS, SearchBot
from koloda.engine.errors import ConfigError


def make(game: str, level: str | None = None) -> SearchBot:
    lv = level or "normal"
    if lv not in LEVELS:
        raise ConfigError(f"unknown search level {lv!r}; levels: {', '.join(LEVELS)}")
    iterations, seconds = LEVELS[lv]
    return SearchBot(game, iterations, seconds, rollout=rollout, name=f"search:{lv}")
