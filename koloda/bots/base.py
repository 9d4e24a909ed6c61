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


def game_bot(kind: str, level: str | None, game: str) -> Bot:
    """The ``kind`` of bot (``heuristic``, ``search``) the game declares (``GameSpec.bots``:
    a factory, or a "module:function" string imported only now), built as
    ``factory(game, level)``. A game that declares none has none: no generic stand-in is
    guessed (a game wanting the generic ISMCTS says ``"koloda.bots.search:make"``)."""
    import importlib

    from koloda.engine.registry import get_spec
    factory = get_spec(game).bots.get(kind) if game else None
    if factory is None:
        if kind == "search":
            raise ConfigError("no_search" if game else "no_search_here", game=game)
        raise ConfigError("no_heuristic" if game else "no_heuristic_here", game=game)
    if isinstance(factory, str):
        module, _, function = factory.partition(":")
        factory = getattr(importlib.import_module(module), function or "make")
    bot: Bot = factory(get_spec(game).name, level)
    return bot


_FACTORIES["search"] = lambda level, game: game_bot("search", level, game)
_FACTORIES["heuristic"] = lambda level, game: game_bot("heuristic", level, game)


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
