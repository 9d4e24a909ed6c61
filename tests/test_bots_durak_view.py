"""The durak heuristic reads one view (``position``) of the game's typed observation; the
rollouts read the same fields off the deal state (``StateSeen``): both give the same
position, move for move, with two to four players and in the endgame where the other hand
is known."""

from __future__ import annotations

import random

import pytest

import koloda
from koloda.bots.heuristic.durak import View, view_from_observation, view_from_state
from koloda.games.durak import DurakGame


def fields(v: View) -> dict[str, object]:
    out = {k: getattr(v, k) for k in View.__slots__ if k != "transfer_ok"}
    out["hand"] = sorted(out["hand"])          # type: ignore[call-overload]
    return out


@pytest.mark.parametrize("name", ["durak", "durak-perevodnoy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_state_and_the_observation_give_the_same_position(name: str, players: int) -> None:
    rng = random.Random(players)
    known = 0
    for seed in range(6):
        m = koloda.new_game(name, players=players, seed=seed)
        while not m.is_over:
            g = m.current
            assert isinstance(g, DurakGame)
            seat = m.to_move
            assert seat is not None
            legal = m.legal_actions()
            a, b = view_from_observation(m.observation(seat), legal), view_from_state(g)
            assert fields(a) == fields(b)
            if a.transfer_ok:
                assert b.transfer_ok        # the rules leave room whenever one is legal
            known += a.opp_hand is not None
            m.apply(legal[rng.randrange(len(legal))])
    assert (known > 0) == (players == 2)    # the endgame view was reached and compared
