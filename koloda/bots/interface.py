"""What a bot is and how a game names its own (the level below the bot registry and the
searches: ``koloda.bots.base`` builds bots by name on top of it)."""

from __future__ import annotations

import importlib
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


#: ``factory(level, game_name, seconds)`` builds a bot; ``seconds`` is a time cap, given
#: only by a caller with a person waiting
Factory = Callable[[str | None, str, float | None], Bot]


def resolve(target: Any) -> Any:
    """A "module:name" string imported now (anything else as it is); a missing module or
    name is an error, never a guess."""
    if not isinstance(target, str):
        return target
    module, _, attr = target.partition(":")
    if not attr:
        raise ValueError(f"bot factory {target!r} must be 'module:name'")
    found = getattr(importlib.import_module(module), attr, None)
    if found is None:
        raise ImportError(f"bot factory {target!r}: {module} has no {attr}")
    return found


def declared(kind: str, game: str) -> Any:
    """What the game's spec declares for ``kind`` (``GameSpec.bots``), imported; a game
    that declares none has none: no generic stand-in is guessed (a game wanting the
    generic ISMCTS names ``"koloda.bots.search:SearchBot"``)."""
    from koloda.engine.registry import get_spec
    factory = get_spec(game).bots.get(kind) if game else None
    if factory is None:
        if kind == "search":
            raise ConfigError("no_search" if game else "no_search_here", game=game)
        raise ConfigError("no_heuristic" if game else "no_heuristic_here", game=game)
    return resolve(factory)


def search_class(game: str) -> Any:
    """The game's search (a class on the shared ISMCTS or flat Monte Carlo)."""
    return declared("search", game)
