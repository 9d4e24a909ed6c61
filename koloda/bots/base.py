"""The bot interface and the bot registry (name[:level])."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from koloda.engine.errors import ConfigError


class Bot(Protocol):
    """Chooses one of ``legal`` from what its seat may know."""

    name: str

    def choose(self, observation: dict[str, Any], legal: list[str],
               rng: random.Random) -> str: ...


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def choose(self, observation: dict[str, Any], legal: list[str],
               rng: random.Random) -> str:
        return legal[rng.randrange(len(legal))]


_FACTORIES: dict[str, Callable[[str | None, str], Bot]] = {
    "random": lambda level, game: RandomBot(),
}


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
        raise ConfigError(f"unknown bot {spec!r}; bots: {', '.join(available_bots())}")
    return factory(level or None, game)
