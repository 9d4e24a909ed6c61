"""The single-agent env passes Gymnasium's checker, and every env's mask at an episode's
end is the same: all zeros (no action is legal; the adapters and the vector envs alike)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from gymnasium.utils.env_checker import check_env

import koloda
from koloda.envs.pettingzoo import env
from koloda.envs.single import SingleAgentEnv

GAMES = sorted(koloda.registry())


def opponents(game: str) -> str:
    """The heuristic bot where the game has one (pyanitsy has none: random)."""
    return "random" if game == "pyanitsy" else "heuristic"


@pytest.mark.parametrize("game", GAMES)
def test_single_agent_env_passes_gymnasium_check_env(game: str) -> None:
    """``check_env`` steps with unmasked sampled actions, which raised: an illegal action
    now ends the episode with the documented penalty."""
    e = SingleAgentEnv(game, opponents=opponents(game))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # (no registered spec: render modes)
        check_env(e, skip_render_check=True)


def test_single_agent_env_illegal_action_ends_the_episode_with_a_penalty() -> None:
    e = SingleAgentEnv("durak", players=2, opponents="random", max_deals=1)
    obs, info = e.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == illegal and not info["action_mask"].any()
    assert (after == obs).all() and not e.action_masks().any()
    with pytest.raises(RuntimeError, match="the episode is over"):
        e.step(0)
    e.reset(seed=3)                               # a reset plays on as before
    assert e.action_masks().any()
    strict = SingleAgentEnv("durak", players=2, opponents="random", illegal="raise",
                            illegal_reward=-5)
    strict.reset(seed=3)
    with pytest.raises(ValueError, match=f"action {illegal} is not allowed now"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="not in the action space"):
        strict.step(10**6)
    with pytest.raises(ValueError, match="illegal='maybe': one of end, raise"):
        SingleAgentEnv("durak", illegal="maybe")
    cost = SingleAgentEnv("durak", players=2, opponents="random", illegal_reward=-5)
    cost.reset(seed=3)
    assert cost.step(illegal)[1] == -5.0


# ------------------------------------------------------------ the episode-end mask
def _masked(mask: np.ndarray, rng: random.Random) -> int:
    allowed = np.flatnonzero(mask)
    return int(allowed[rng.randrange(len(allowed))])


@pytest.mark.parametrize("game", ["durak", "mushka", "dreyfus"])
def test_episode_end_action_mask_is_all_zeros_in_every_env_pettingzoo(game: str) -> None:
    e = env(game, max_deals=1)
    e.reset(seed=1)
    rng = random.Random(1)
    ends = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert not obs["action_mask"].any()
            ends += 1
            e.step(None)
            continue
        e.step(_masked(obs["action_mask"], rng))
    assert ends == e.unwrapped.players


@pytest.mark.parametrize("game", ["durak", "opendaum", "kopilka"])
def test_episode_end_action_mask_is_all_zeros_in_every_env_single(game: str) -> None:
    e = SingleAgentEnv(game, opponents="random", max_deals=1)
    _, info = e.reset(seed=2)
    rng = random.Random(2)
    while True:
        _, _, terminated, truncated, info = e.step(_masked(info["action_mask"], rng))
        if terminated or truncated:
            break
    assert not info["action_mask"].any() and not e.action_masks().any()


def test_episode_end_action_mask_is_all_zeros_in_every_env_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import koloda.envs.openspiel  # noqa: F401  (registers the games)
    state = pyspiel.load_game("koloda_durak(players=2,max_deals=1)").new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
    assert not any(state.legal_actions_mask(0)) and not any(state.legal_actions_mask(1))


def _batched_games() -> list[Any]:
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
        Trinka,
    )
    return [Opendaum(4, 3), Trinka(), OpendaumShakhi(4, 3), Opendaum33(2), Mushka(4, 3),
            Stukolka(5, 3), MushkaFull(4), StukolkaFull(5), Dreyfus(0), Kopilka()]


@pytest.mark.parametrize("game", _batched_games(), ids=lambda g: type(g).__name__)
def test_episode_end_action_mask_is_all_zeros_in_every_env_batched(game: Any) -> None:
    """The batched vector env offered an all-ones mask at an episode's end, the adapters
    all zeros: all zeros everywhere now (the action of the next, resetting step is
    ignored; gymnasium's ``sample(mask)`` draws 0 from such a mask)."""
    from koloda.batched.vector_env import BatchedVectorEnv
    e = BatchedVectorEnv(game, num_envs=4)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    terms = np.zeros(4, dtype=bool)
    while not terms.any():
        actions = [rng.choice(np.flatnonzero(m)) for m in e.action_masks()]
        _, _, terms, _, infos = e.step(np.array(actions))
    assert not e.action_masks().any() and not infos["action_mask"].any()
    e.step(e.single_action_space.sample(mask=e.action_masks()[0].astype(np.int8))
           * np.ones(4, dtype=np.int64))
    assert e.action_masks().any(axis=1).all()      # dealt anew: something is legal


def test_episode_end_action_mask_is_all_zeros_in_every_env_durak_vector() -> None:
    from koloda.batched.durak_env import DurakVectorEnv
    e = DurakVectorEnv(num_envs=8)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(300):
        mask = e.action_masks()
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]
        _, _, terms, _, _ = e.step(np.array(actions))
        assert not e.action_masks()[terms].any()
        assert e.action_masks()[~terms].any(axis=1).all()
        seen += int(terms.sum())
    assert seen > 0
