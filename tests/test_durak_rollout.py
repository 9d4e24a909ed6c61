"""The search's lean rollout (bots/search/games/durak_rollout.py): the same games as the engine's
heuristic rollout, on positions met in real games (sampled from a seat's observation, so
in every phase of a round, with the stock full, nearly empty and gone)."""

from __future__ import annotations

import math
import random

import pytest

from koloda.bots import make_bot
from koloda.bots.search.games.durak import (
    OPPONENT_WIDEN,
    DurakSearch,
    heuristic_rollout,
    utilities,
)
from koloda.bots.search.games.durak_rollout import applies, play_out, utilities_of
from koloda.engine.registry import get_spec, new_game
from koloda.games.durak.rounds import DurakGame


def sampled_positions(seeds: range, per_move: int = 1) -> list[DurakGame]:
    """Deals sampled from the mover's observation at every move of games played mostly by
    the heuristic (a move in four at random, to reach positions it would not)."""
    spec = get_spec("durak")
    assert spec.determinize is not None
    heuristic = make_bot("heuristic", "durak")
    out = []
    for seed in seeds:
        limit = {"first_bout_limit": 5} if seed % 3 == 0 else {}
        match = new_game("durak", players=2, seed=seed, **limit)
        rng = random.Random(seed)
        while not match.is_over:
            seat = match.to_move
            assert seat is not None
            obs = match.observation(seat)
            for _ in range(per_move):
                g = spec.determinize(obs, rng)
                assert isinstance(g, DurakGame)
                out.append(g)
            legal = match.legal_actions()
            move = (legal[rng.randrange(len(legal))] if rng.random() < 0.25
                    else heuristic.choose(obs, legal, rng))
            match.apply(move)
    return out


def test_lean_rollout_plays_the_same_game_as_the_engine_rollout() -> None:
    positions = sampled_positions(range(12))
    assert len(positions) > 300
    outcomes = set()
    for g in positions:
        assert applies(g)
        engine = g.clone()
        finished = heuristic_rollout(engine)
        lean = play_out(g)
        assert lean == (finished, engine.durak if finished else None)
        assert utilities_of(*lean) == utilities(engine)
        outcomes.add(lean[1])
    assert outcomes == {0, 1, None}      # losses for both seats, and draws, were compared


def test_lean_rollout_leaves_the_state_alone() -> None:
    g = sampled_positions(range(1))[5]
    before = (g.hands, g.stock, g.attacks, g.covers, g.phase, g.to_move)
    snapshot = repr(before)
    play_out(g)
    assert repr((g.hands, g.stock, g.attacks, g.covers, g.phase, g.to_move)) == snapshot


def test_lean_rollout_applies_to_two_player_simple_durak_only() -> None:
    for game, players in (("durak-perevodnoy", 2), ("durak", 3)):
        match = new_game(game, players=players, seed=1)
        g = match.current
        assert isinstance(g, DurakGame)
        assert not applies(g)


def test_search_plays_the_same_moves_with_the_lean_rollout() -> None:
    spec = get_spec("durak")
    match = new_game("durak", players=2, seed=7)
    lean = DurakSearch("durak", iterations=60)
    engine = DurakSearch("durak", iterations=60)
    engine.lean = False
    for _ in range(8):
        seat = match.to_move
        assert seat is not None and spec.determinize is not None
        obs, legal = match.observation(seat), match.legal_actions()
        a = lean.choose(obs, legal, random.Random(3))
        b = engine.choose(obs, legal, random.Random(3))
        assert a == b
        assert lean.top_moves() == engine.top_moves()
        match.apply(a)


def test_search_below_the_root_searches_the_tree_actions() -> None:
    search = DurakSearch("durak", iterations=10)
    for g in sampled_positions(range(1))[:40]:
        search._seat = 0
        assert search.node_actions(g) == search.actions(g.legal_actions())


def test_the_heuristic_s_move_comes_first_for_the_other_player_by_default_in_simple_durak(
) -> None:
    simple = DurakSearch("durak", iterations=10)
    assert simple.widen == OPPONENT_WIDEN > 0 and not simple.heuristic_opponent
    assert DurakSearch("durak-perevodnoy", iterations=10).widen == 0


def test_with_more_than_two_players_there_is_no_preferred_move() -> None:
    search = DurakSearch("durak", iterations=10)
    search._seat = 0
    match = new_game("durak", players=3, seed=4)
    spec = get_spec("durak")
    assert spec.determinize is not None
    for _ in range(12):
        seat = match.to_move
        assert seat is not None
        g = spec.determinize(match.observation(seat), random.Random(seat))
        assert search.preferred(g) is None
        match.apply(match.legal_actions()[0])


def test_the_preferred_move_is_the_heuristic_s_at_the_other_seat_only() -> None:
    from koloda.bots.heuristic.durak import action_text, decide, view_from_state
    search = DurakSearch("durak", iterations=10)
    search._seat = 0
    others = 0
    for g in sampled_positions(range(2))[:80]:
        move = search.preferred(g)
        if g.to_move == 0:
            assert move is None
        else:
            others += 1
            assert move == action_text(decide(view_from_state(g)))
            assert move in g.legal_actions()
    assert others > 10


def test_heuristic_opponent_is_widening_without_end() -> None:
    search = DurakSearch("durak", iterations=10)
    search.heuristic_opponent = True
    assert search.widen == math.inf
    search.heuristic_opponent = False
    assert search.widen == 0
    search.widen = 48
    assert not search.heuristic_opponent


@pytest.mark.parametrize("widen", [0, 8, math.inf])
def test_search_with_widening_plays_legal_moves(widen: float) -> None:
    spec = get_spec("durak")
    match = new_game("durak", players=2, seed=11)
    search = DurakSearch("durak", iterations=40)
    search.widen = widen
    for _ in range(6):
        seat = match.to_move
        assert seat is not None and spec.determinize is not None
        legal = match.legal_actions()
        move = search.choose(match.observation(seat), legal, random.Random(2))
        assert move in legal
        match.apply(move)
