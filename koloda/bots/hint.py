"""A hint: what the strongest computer player a game has would play for a seat, and its
estimated values of its top moves. The terminal's ``h`` and the browser's hint button ask
it the same way; it reads only the seat's observation, so a hint tells nothing the seat
could not know, and it touches no match and no computer seat's generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from koloda.bots.base import make_bot, person_time_cap
from koloda.engine.spec import GameSpec

#: how many of the bot's top moves a hint shows with their values
TOP = 3


@dataclass(frozen=True)
class Hint:
    #: the bot asked (``search`` or ``heuristic``)
    bot: str
    #: the move it would play
    action: str
    #: its best moves and their estimated values, best first (empty: it gives none)
    values: tuple[tuple[str, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "action": self.action,
                "values": [[a, round(v, 4)] for a, v in self.values]}


def hint_bot(spec: GameSpec) -> str | None:
    """The strongest computer player the game declares: its search, else its heuristic
    (``spec.bots``); None when it declares neither."""
    return next((k for k in ("search", "heuristic") if k in spec.bots), None)


def hint(spec: GameSpec, obs: Mapping[str, Any], legal: Sequence[str], seed: int,
         ply: int) -> Hint | None:
    """The hint for the seat whose observation ``obs`` is, with ``legal`` its moves; the
    bot's generator is drawn from ``seed`` and ``ply`` (the actions played so far), so the
    same position gives the same hint. None: the game has no bot to ask."""
    name = hint_bot(spec)
    if name is None or not legal:
        return None
    bot = make_bot(name, spec.name, person_time_cap(name))
    rng = random.Random((seed * 1_000_003) ^ ply)
    choice = legal[0] if len(legal) == 1 else bot.choose(obs, list(legal), rng)
    top = getattr(bot, "top_moves", None)
    values = list(top())[:TOP] if callable(top) and len(legal) > 1 else []
    return Hint(name, str(choice), tuple((str(a), float(v)) for a, v in values))
