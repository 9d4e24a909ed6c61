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
    """A uniformly random legal action per env; 0 where none is legal (an episode's end:
    the action is ignored), as gymnasium's ``Discrete.sample(mask)`` draws."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


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
        assert not env.action_masks().any()   # over: nothing is legal, the next step deals
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


PACED = [Kopilka(), MushkaFull(5), StukolkaFull(6), Dreyfus(4)]


@pytest.mark.parametrize("game", [*PACED, Opendaum(4, 3), Mushka(4, 3)],
                         ids=["kopilka", "mushka-full", "stukolka-full", "dreyfus", "opendaum",
                              "mushka"])
def test_batched_vector_env_pays_rewards_on_terminal_steps_only(game: Any) -> None:
    """Dreyfus, Mushka, Stukolka and Kopilka whole deals paid a deal's points on the step
    it ended, while its episode was not terminal (the batch ends together): every reward
    now comes on the terminal step, the points of the seat that made the deal's last
    move."""
    env = BatchedVectorEnv(game, num_envs=16)
    rng = np.random.default_rng(2)
    _, infos = env.reset(seed=7)
    for _episode in range(2):
        last_mover = np.full(16, -1)
        paid = np.zeros(16, dtype=np.float32)
        terms = np.zeros(16, dtype=bool)
        while not terms.any():
            moving = infos["to_move"]
            last_mover = np.where(moving >= 0, moving, last_mover)
            _, rewards, terms, _, infos = env.step(masked_random(env.action_masks(), rng))
            assert not rewards[~terms].any()
            paid += rewards
        assert terms.all() and (last_mover >= 0).all()
        assert (paid == infos["points"][np.arange(16), last_mover]).all()
        assert paid.any()
        _, rewards, terms, _, infos = env.step(np.zeros(16, dtype=np.int64))
        assert not rewards.any() and not terms.any()


@pytest.mark.parametrize("game", [Opendaum(4, 3), Kopilka()], ids=["opendaum", "kopilka"])
def test_batched_vector_env_reset_accepts_a_list_of_seeds_one_per_env(game: Any) -> None:
    """``reset(seed=[...])`` raised a bare TypeError: a list of one seed per env is taken
    as Gymnasium's vector envs take it; env i's episodes are dealt from its own seed."""
    env = BatchedVectorEnv(game, num_envs=3)
    obs, _ = env.reset(seed=[4, 4, 9])
    assert (obs[0] == obs[1]).all() and not (obs[0] == obs[2]).all()
    alone, _ = BatchedVectorEnv(game, num_envs=1).reset(seed=4)
    nine, _ = BatchedVectorEnv(game, num_envs=1).reset(seed=9)
    assert (obs[0] == alone[0]).all() and (obs[2] == nine[0]).all()
    # the next episodes: each env's own second key, the same for the same seed
    rng = np.random.default_rng(0)
    while not env.game.is_over(env.state):
        env.step(masked_random(env.action_masks(), rng))
    again, _, _, _, _ = env.step(np.zeros(3, dtype=np.int64))
    assert (again[0] == again[1]).all() and not (again[0] == obs[0]).all()
    # None draws one afresh; the numpy integers of a seed array are seeds too
    env.reset(seed=[1, None, 2])
    env.reset(seed=np.array([1, 2, 3]))


def test_batched_vector_env_reset_refuses_other_seeds_with_a_clear_error() -> None:
    env = BatchedVectorEnv(Opendaum(4, 3), num_envs=3)
    with pytest.raises(ValueError, match="one seed per env, 3 of them, not 2"):
        env.reset(seed=[1, 2])
    with pytest.raises(TypeError, match=r"an int, a list of one int \(or None\) per env"):
        env.reset(seed="7")         # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"not float 1\.5"):
        env.reset(seed=[1, 1.5, 2])  # type: ignore[list-item]


def test_durak_vector_env_reset_accepts_a_list_of_seeds_one_per_env() -> None:
    from koloda.batched.durak_env import DurakVectorEnv
    env = DurakVectorEnv(num_envs=2)
    obs, _ = env.reset(seed=[5, 5])
    assert (obs[0] == obs[1]).all()
    alone, _ = DurakVectorEnv(num_envs=1).reset(seed=5)
    assert (obs[0] == alone[0]).all()
