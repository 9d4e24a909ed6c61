"""The Gymnasium vector env over the batched games (skipped without gymnasium)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from koloda.batched import (
    Dreyfus,
    Kopilka,
    Mushka,
    MushkaFull,
    Opendaum,
    Opendaum33,
    OpendaumShakhi,
    Stukolka,
    StukolkaFull,
    TrickGame,
    Trinka,
)
from koloda.batched.vector_env import BatchedVectorEnv


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in mask])


GAMES = [Opendaum(4, 3), Trinka(), OpendaumShakhi(4, 3), Opendaum33(2), Mushka(5, 3),
         Stukolka(4, 2)]


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_self_play_episodes_with_next_step_autoreset(game: TrickGame) -> None:
    env = BatchedVectorEnv(game, num_envs=8)
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=3)
    again, _ = BatchedVectorEnv(game, num_envs=8).reset(seed=3)
    assert (obs == again).all()
    assert obs.shape == env.observation_space.shape and obs.dtype == np.uint8
    assert env.observation_space.contains(obs)
    for _episode in range(2):
        returns = np.zeros(8)
        for t in range(game.length):
            last_mover = infos["to_move"]
            actions = masked_random(env.action_masks(), rng)
            assert env.action_space.contains(actions)
            obs, rewards, terms, truncs, infos = env.step(actions)
            returns += rewards
            assert not truncs.any()
            assert terms.all() == (t == game.length - 1)
        points = infos["points"]
        movers = infos["to_move"]
        assert (movers == -1).all()
        assert points.shape == (8, getattr(game, "table", game.players))
        assert env.action_masks().all()       # over: anything goes, the next step deals
        # the last mover is paid its points; nobody was paid on the way
        assert (returns == points[np.arange(8), last_mover]).all()
        obs, rewards, terms, _, infos = env.step(np.zeros(8, dtype=np.int64))
        assert not terms.any() and not rewards.any() and obs.any()
        assert (infos["to_move"] >= 0).all()


@pytest.mark.parametrize("game", [Kopilka(), MushkaFull(5), StukolkaFull(6), Dreyfus(4)],
                         ids=["kopilka", "mushka-full", "stukolka-full", "dreyfus"])
def test_deals_of_their_own_length_end_apart_and_the_batch_together(game: Any) -> None:
    env = BatchedVectorEnv(game, num_envs=16)
    rng = np.random.default_rng(1)
    _, infos = env.reset(seed=5)
    returns = np.zeros(16)
    terms = np.zeros(16, dtype=bool)
    steps = 0
    while not terms.any():
        _, rewards, terms, _, infos = env.step(masked_random(env.action_masks(), rng))
        returns += rewards
        steps += 1
        assert terms.all() == terms.any()
    assert steps > 10 and (returns != 0).any()
    assert infos["points"].shape == (16, game.table) and (infos["to_move"] == -1).all()
    assert (infos["points"] == env.state.points.T).all()
    assert infos["points"].any(axis=1).all()      # every deal pays fees at least


def test_reset_refuses_options() -> None:
    env = BatchedVectorEnv(Opendaum(), num_envs=2)
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"x": 1})
