"""Every batched game's state copies and pickles mid-deal, and a key always deals (and,
for a play-phase game, plays its exchange or declarations) the same way."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from koloda.batched import (
    Dreyfus,
    Kopilka,
    Mushka,
    MushkaFull,
    Opendaum33,
    OpendaumShakhi,
    Stukolka,
    StukolkaFull,
)

GAMES: list[Any] = [OpendaumShakhi(4, 9), Opendaum33(11), Mushka(5, 3), Stukolka(6, 4),
                    Dreyfus(2), Kopilka(), MushkaFull(5), StukolkaFull(7)]


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_copied_or_pickled_state_plays_on_alike(game: Any) -> None:
    state = game.init(np.arange(32) + 11)
    rng = np.random.default_rng(7)
    for _ in range(5):
        game.advance(state, game.random_actions(state, rng))
    branch = state.copy()
    again_game, again = pickle.loads(pickle.dumps((game, state)))
    while not game.is_over(state):
        actions = game.random_actions(state, rng)
        for g, s in ((game, state), (game, branch), (again_game, again)):
            g.advance(s, actions)
    for other in (branch, again):
        assert (other.hands == state.hands).all() and (other.points == state.points).all()
        assert [game.record(other, i) for i in range(4)] == \
            [game.record(state, i) for i in range(4)]


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_a_key_deals_and_plays_its_opening_phase_alike_in_any_batch(game: Any) -> None:
    a = game.init(np.arange(40))
    b = game.init(np.array([39, 5, 17]))
    for i, j in ((39, 0), (5, 1), (17, 2)):
        assert game.record(a, i) == game.record(b, j)
        assert (a.hands[:, i] == b.hands[:, j]).all()
    assert game.record(a, 1)["deals"] != game.record(a, 2)["deals"]


@pytest.mark.parametrize(("make", "words"), [
    (lambda: OpendaumShakhi(7), "2 to 6 players"),
    (lambda: OpendaumShakhi(4, 10), "1 to 9 cards"),
    (lambda: Opendaum33(5, final=True), "final deal is of one card"),
    (lambda: Mushka(4, 1), "players in play"),
    (lambda: Mushka(7), "2 to 6 seats"),
    (lambda: MushkaFull(1), "2 to 6 seats"),
    (lambda: Stukolka(3), "4 to 7 seats"),
    (lambda: StukolkaFull(8), "4 to 7 seats"),
    (lambda: Stukolka(5, 3, ante=4), "multiple of 3"),
    (lambda: Stukolka(5, 3, deck=32), "36 or 52"),
    (lambda: Dreyfus(-1), "deal number"),
    (lambda: Kopilka(fee=-1), "fee"),
])
def test_bad_shapes_are_refused_by_name(make: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make()


def test_kopilka_refuses_an_illegal_action_naming_the_game() -> None:
    from koloda.batched import IllegalBatchAction
    from koloda.batched.kopilka import DRAW
    game = Kopilka()
    state = game.init(np.arange(3))
    with pytest.raises(IllegalBatchAction, match="game 0"):
        game.advance(state, np.full(3, DRAW))          # the leader never draws


def test_mushka_full_refuses_a_pass_holding_the_ace_of_spades() -> None:
    """§2: a player holding AS may not pass (refused by the batch, the game named)."""
    from koloda.batched import IllegalBatchAction
    from koloda.batched.mushka_full import AS_BIT, PASS
    game = MushkaFull(4)
    state = game.init(np.arange(64))
    holds = (state.hands[state.mover, np.arange(64)] & AS_BIT) != 0
    assert holds.any() and not game.mask(state)[holds, PASS].any()
    g = int(np.argmax(holds))
    with pytest.raises(IllegalBatchAction, match=f"game {g}"):
        game.advance(state, np.where(np.arange(64) == g, PASS, 52))
