"""Batched durak writes the adapters' observation vector: one space from the batch to
every env. Random batches are played, every game replayed through the engine, and at each
step the batch's ``features`` row must equal the vector the adapters build for the seat to
move (``koloda.envs.common.Features``: the tensor, the cards seen this deal, the cards
selected), float for float."""

from __future__ import annotations

import numpy as np
import pytest

from koloda.batched.durak import Durak
from koloda.envs.actions import Selection, action_space
from koloda.envs.common import features
from koloda.tensors import TableMemory
from tests.test_batched_durak import engine_match


def play_batch(game: Durak, keys: np.ndarray, seed: int
               ) -> tuple[list[np.ndarray], object]:
    rng = np.random.default_rng(seed)
    state = game.init(keys)
    seen = [game.features(state)]
    while not game.is_over(state):
        game.step(state, game.random_actions(state, rng))
        seen.append(game.features(state))
    return seen, state


@pytest.mark.parametrize(("first_bout_limit", "count", "seed"), [(6, 60, 3), (5, 30, 4)])
def test_batched_durak_features_are_the_adapters_vector_at_every_step(
        first_bout_limit: int, count: int, seed: int) -> None:
    game = Durak(first_bout_limit)
    steps, state = play_batch(game, np.arange(count) + 1000 * seed, seed)
    feats = features("durak", 2)
    assert game.features_size == feats.size
    space = action_space("durak")
    compared = 0
    for g in range(state.games):
        match = engine_match(game.record(state, g))
        memory, sel = TableMemory(), Selection()
        for t in range(int(state.steps[g])):
            seat = match.to_move
            want = np.array(feats.vector(match.observation(seat), memory, sel), np.float32)
            got = steps[t][g]
            bad = np.flatnonzero(got != want)
            assert not len(bad), (g, t, [(i, got[i], want[i]) for i in bad[:8]],
                                  [(i.name, i.offset) for i in feats.infos()])
            compared += 1
            action, sel = space.step(int(state.history[t][g]), match.legal_actions(), sel)
            if action is not None:
                memory.record(match.apply(action))
        assert match.is_over
        assert not steps[int(state.steps[g])][g].any(), "all zero once over"
    assert compared > 20 * count


def test_a_game_dealt_into_a_finished_slot_starts_with_nobody_holding_the_trump_card(
        ) -> None:
    game = Durak()
    state = game.init(np.arange(8))
    rng = np.random.default_rng(0)
    while not game.is_over(state):
        game.step(state, game.random_actions(state, rng))
    assert (state.trump_by >= 0).sum() > 0
    game.reset_done(state, np.arange(100, 108))
    assert (state.trump_by == -1).all()
    assert not game.features(state)[:, 434:436].any()


def test_the_durak_vector_env_gives_the_adapters_vector_in_their_space() -> None:
    pytest.importorskip("gymnasium")
    from koloda.batched.durak_env import DurakVectorEnv
    lows, highs = features("durak", 2).bounds()
    env = DurakVectorEnv(num_envs=4)
    space = env.single_observation_space
    assert space.shape == (559,) and space.dtype == np.float32
    assert space.low.tolist() == lows and space.high.tolist() == highs
    obs, _ = env.reset(seed=1)
    assert obs.dtype == np.float32 and obs.shape == (4, 559)
    assert (obs == env.game.features(env.state)).all()
    bits, _ = DurakVectorEnv(num_envs=4, observation="bits").reset(seed=1)
    assert bits.shape == (4, 640) and bits.dtype == np.uint8
    with pytest.raises(ValueError, match=r"observation=.tensor.: one of features, bits"):
        DurakVectorEnv(num_envs=4, observation="tensor")
