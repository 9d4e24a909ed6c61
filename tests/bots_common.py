"""What the bot tests of every game share: play a match or deal through bots, and a deal
state's observation as a match gives it."""

from __future__ import annotations

import random
from typing import Any

import koloda
from koloda.engine.deal import DealState
from koloda.engine.view import EmptyView, Observation


def drive(match: koloda.Match, bots: list[Any], rng: random.Random) -> None:
    """Play ``match`` to its end, each seat by its bot; every choice must be legal."""
    while not match.is_over:
        seat = match.to_move
        assert seat is not None
        legal = match.legal_actions()
        action = bots[seat].choose(match.observation(seat), legal, rng)
        assert action in legal
        match.apply(action)


def seat_view(game: str, st: DealState, seat: int, players: int | None = None) -> Observation:
    """The observation as a match gives it (the deal's own view under the match header)."""
    number = getattr(st, "number", 0)
    return Observation(game, players if players is not None else st.players, seat, number,
                       getattr(st, "dealer", 0), st.to_move, False, EmptyView(),
                       st.observation(seat))
