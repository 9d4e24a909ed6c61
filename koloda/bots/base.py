"""The bot interface and the bot registry (name[:level])."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from koloda.engine.errors import ConfigError


class Bot(Protocol):
    """Chooses one of ``legal`` from what its seat may know."""

    name: str

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def choose(self, observation: Mapping[str, Any], legal: list[str],
               rng: random.Random) -> str:
        return legal[rng.randrange(len(legal))]


_FACTORIES: dict[str, Callable[[str | None, str], Bot]] = {
    "random": lambda level, game: RandomBot(),
}


def _search(level: str | None, game: str) -> Bot:
    """A game may tune its own search (``koloda.bots.<family>_search.make``); else the
    generic ISMCTS."""
    import importlib

    from koloda.bots.search import make_search_bot
    from koloda.engine.registry import get_spec
    family = get_spec(game).family if game else ""
    name = f"koloda.bots.{family}_search"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return make_search_bot(level, game)
    bot: Bot = module.make(game, level)
    return bot


def _heuristic(level: str | None, game: str) -> Bot:
    import importlib

    from koloda.engine.registry import get_spec
    family = get_spec(game).family if game else ""
    try:
        module = importlib.import_module(f"koloda.bots.heuristic.{family}")
    except ModuleNotFoundError as exc:
        if exc.name != f"koloda.bots.heuristic.{family}":
            raise
        raise ConfigError("no_heuristic" if game else "no_heuristic_here", game=game) \
            from None
    bot: Bot = module.make(game, level)
    return bot


_FACTORIES["search"] = _search
_FACTORIES["heuristic"] = _heuristic


def register_bot(name: str, factory: Callable[[str | None, str], Bot]) -> None:
    """Add a bot kind; ``factory(level, game_name)`` builds one."""
    _FACTORIES[name] = factory


def available_bots() -> list[str]:
    return sorted(_FACTORIES)


def make_bot(spec: str, game: str = "") -> Bot:
    """``random``, ``heuristic``, ``search:normal`` … → a bot for ``game``."""
    name, _, level = spec.strip().lower().partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        raise ConfigError("unknown_bot", bot=repr(spec), bots=", ".join(available_bots()))
    return factory(level or None, game)
