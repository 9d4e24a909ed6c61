"""The bot interface and the bot registry (name[:level])."""

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


def search_bot(level: str | None, game: str, seconds: float | None = None) -> Bot:
    from koloda.bots.search.levels import build_search
    from koloda.engine.registry import get_spec
    bot: Bot = build_search(search_class(game), get_spec(game).name, level, seconds)
    return bot


def heuristic_bot(level: str | None, game: str, seconds: float | None = None) -> Bot:
    from koloda.engine.registry import get_spec
    bot: Bot = declared("heuristic", game)(get_spec(game).name, level)
    return bot


def clairvoyant_bot(level: str | None, game: str, seconds: float | None = None) -> Bot:
    from koloda.bots.search.clairvoyant import Clairvoyant
    if level:
        raise ConfigError("unknown_level", level=repr(level), levels="(none)")
    return Clairvoyant(game, seconds=seconds)


_FACTORIES: dict[str, Factory] = {
    "random": lambda level, game, seconds: RandomBot(),
    "search": search_bot,
    "heuristic": heuristic_bot,
}
#: measuring bots: made by ``make_bot`` for the arena, never offered at a table
_MEASURING: dict[str, Factory] = {
    "clairvoyant": clairvoyant_bot,
}


def register_bot(name: str, factory: Factory, measuring: bool = False) -> None:
    """Add a bot kind; ``factory(level, game_name, seconds)`` builds one. A ``measuring``
    kind (an outside floor such as OpenSpiel's ISMCTS) is made for the arena only and never
    offered at a table."""
    (_MEASURING if measuring else _FACTORIES)[name] = factory


def available_bots() -> list[str]:
    """The bots a table may seat (measuring bots such as ``clairvoyant`` are not)."""
    return sorted(_FACTORIES)


def measuring_bots() -> list[str]:
    """Bots for measurement only: they see what a player may not (``cheating``)."""
    return sorted(_MEASURING)


def bot_levels(name: str) -> list[str]:
    """The levels of a bot kind (``search``: the level table's), none for the others."""
    if name == "search":
        from koloda.bots.search.levels import LEVELS
        return list(LEVELS)
    return []


def make_bot(spec: str, game: str = "", seconds: float | None = None) -> Bot:
    """``random``, ``heuristic``, ``search:normal``, ``clairvoyant`` … → a bot for
    ``game``. Search budgets are iterations; ``seconds`` adds a time cap (for a person
    waiting — a measurement never gives one: the same seed then gives the same moves)."""
    name, _, level = spec.strip().lower().partition(":")
    factory = _FACTORIES.get(name) or _MEASURING.get(name)
    if factory is None:
        raise ConfigError("unknown_bot", bot=repr(spec),
                          bots=", ".join(available_bots() + measuring_bots()))
    return factory(level or None, game, seconds)


def person_time_cap(spec: str) -> float | None:
    """The time cap a bot gets when a person waits for its move (the terminal, the
    browser): a search level's ``Level.seconds``; None for a bot that never searches."""
    name, _, level = spec.strip().lower().partition(":")
    if name != "search":
        return None
    from koloda.bots.search.levels import DEFAULT_LEVEL, LEVELS
    found = LEVELS.get(level or DEFAULT_LEVEL)
    return found.seconds if found is not None else None
