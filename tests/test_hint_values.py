"""The hint: the strongest bot says what it would play and its estimated value
of the top moves (``top_moves()`` of the search bots, read by the terminal's hint)."""

from __future__ import annotations

import random

import pytest

import koloda
from koloda.bots import make_bot


@pytest.mark.parametrize("game", ["durak", "dreyfus", "stukolka", "opendaum", "trinka"])
def test_the_search_bots_expose_their_values_of_the_top_moves(game: str) -> None:
    m = koloda.new_game(game, seed=2)
    while len(m.legal_actions()) < 2:
        m.apply(m.legal_actions()[0])
    bot = make_bot("search:easy", game)
    choice = bot.choose(m.observation(m.to_move), m.legal_actions(), random.Random(0))
    top = bot.top_moves()   # type: ignore[attr-defined]
    assert top and all(a in m.legal_actions() for a, _ in top)
    assert choice in [a for a, _ in top]
    assert all(isinstance(v, float) for _, v in top)


def test_the_hint_carries_the_values_of_the_top_moves(tmp_path: object) -> None:
    from koloda.tui.session import Session, make_seats
    m = koloda.new_game("durak", players=2, seed=2)
    s = Session(m, make_seats(2, 0, ["random"], "Аня"), use_store=False)
    seat = m.to_move
    assert seat is not None
    before = m.record()
    hint = s.hint_decide(seat, m.observation(seat), m.legal_actions())
    assert hint is not None
    move, values = hint
    assert move in m.legal_actions() and values and values[0][0] in m.legal_actions()
    assert m.record() == before   # the hint changes nothing
