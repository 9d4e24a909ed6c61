"""Find games by name, alias or (family, variant); build matches and single deals."""

from __future__ import annotations

import importlib
import pkgutil
import secrets
from typing import Any

from koloda.engine.errors import ConfigError
from koloda.engine.match import Match
from koloda.engine.messages import Names, Value
from koloda.engine.spec import GameSpec

_SPECS: dict[str, GameSpec] | None = None


def registry() -> dict[str, GameSpec]:
    """Every game and variant by name, collected from the modules of ``koloda.games``."""
    global _SPECS
    if _SPECS is None:
        import koloda.games as pkg
        specs: dict[str, GameSpec] = {}
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if info.name.startswith("_"):
                continue
            module = importlib.import_module(f"koloda.games.{info.name}")
            for spec in getattr(module, "SPECS", ()):
                _declare(spec)
                specs[spec.name] = spec
        _SPECS = dict(sorted(specs.items()))
    return _SPECS


def _declare(spec: GameSpec) -> None:
    """A game's own terms and sentences join the one vocabulary and the catalog."""
    from koloda.engine import messages, terms
    terms.register(spec.terms, spec.name, spec.verbs)
    messages.register(spec.messages, spec.name)


def register(spec: GameSpec) -> GameSpec:
    """Add a game that lives outside ``koloda.games`` (a plug-in, a test's game): from now
    on every interface lists and plays it. A name already taken by another game is an
    error."""
    specs = registry()
    have = specs.get(spec.name)
    if have is not None and have is not spec:
        raise ValueError(f"a game named {spec.name!r} is already registered")
    _declare(spec)
    specs[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (tests clean up with it)."""
    registry().pop(name, None)


def get_spec(name: str, variant: str | None = None) -> GameSpec:
    specs = registry()
    key = name.strip().lower()
    if variant is not None:
        family = next((s.family for s in specs.values() if key in (s.name, s.family)
                       or key in s.aliases), key)
        matches = [s for s in specs.values() if s.family == family
                   and (variant == s.variant or variant == s.name)]
        if not matches:
            variants = [s.variant for s in specs.values() if s.family == family]
            if not variants:
                raise ConfigError("unknown_game", name=Value(name), games=Names(specs))
            raise ConfigError("no_variant", family=family, variant=Value(variant),
                              variants=Names(variants))
        return matches[0]
    if key in specs:
        return specs[key]
    for spec in specs.values():
        if key in spec.aliases:
            return spec
    raise ConfigError("unknown_game", name=Value(name), games=Names(specs))


def new_game(name: str, players: int | None = None, variant: str | None = None,
             seed: int | None = None, *, single_deal: bool = False, **options: Any) -> Match:
    """A new match of ``name`` (or only its first deal with ``single_deal=True``).

    Without a seed one is drawn and kept, so the record still says how it was dealt.
    """
    spec = get_spec(name, variant)
    n = spec.player_count(players)
    opts = spec.resolve_options(n, options)
    if seed is None:
        seed = secrets.randbelow(2**63)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise ConfigError("seed_whole", seed=Value(seed))
    return spec.match_class(spec, n, opts, seed=seed, single_deal=single_deal)


def new_deal(name: str, players: int | None = None, variant: str | None = None,
             seed: int | None = None, **options: Any) -> Match:
    """A single deal of ``name`` played on its own (same API as a match)."""
    return new_game(name, players, variant, seed, single_deal=True, **options)
