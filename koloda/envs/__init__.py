"""Research adapters: PettingZoo (``koloda.envs.pettingzoo``) and OpenSpiel
(``koloda.envs.openspiel``), both optional extras, and what they share.

Importing this package needs nothing beyond the standard library; numpy, pettingzoo and
pyspiel are imported only by the adapter modules themselves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from koloda.engine.deal import DealState
from koloda.engine.registry import get_spec
from koloda.envs.actions import ActionSpace, Selection, action_space
from koloda.envs.common import Features, result_rewards


class NoDeterminizer(NotImplementedError):
    """The game has no determinizer yet (``GameSpec.determinize`` is None)."""


def determinize(game: str, observation: Mapping[str, Any], rng: random.Random) -> DealState:
    """A full deal state consistent with everything ``observation`` says its seat knows:
    the seat's own cards and every public fact kept, the unknown cards dealt at random by
    ``rng`` (the game's own determinizer, the one the search bot uses)."""
    spec = get_spec(game)
    if spec.determinize is None:
        raise NoDeterminizer(f"{spec.name} has no determinizer yet, so it cannot be "
                             f"determinized (nor searched by ISMCTS); games that have one: "
                             f"{', '.join(determinizable()) or 'none'}")
    return spec.determinize(observation, rng)


def determinizable() -> list[str]:
    """The games whose observations can be determinized now."""
    from koloda.engine.registry import registry
    return [name for name, spec in registry().items() if spec.determinize is not None]


__all__ = ["ActionSpace", "Features", "NoDeterminizer", "Selection", "action_space",
           "determinizable", "determinize", "result_rewards"]
