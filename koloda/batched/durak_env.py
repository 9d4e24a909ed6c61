"""A Gymnasium vector env over batched 2-player durak: ``num_envs`` games in self-play.

As ``koloda.batched.vector_env.BatchedVectorEnv`` (one policy acts for whoever is to move,
``infos["to_move"]`` says who; ``infos["action_mask"]`` and ``action_masks()``), except
that durak games end at different steps, so each game resets on its own: the step after
a game ends deals a new game into its slot (Gymnasium's next-step autoreset: that slot's
action is ignored, its reward is 0; its mask on the step it ends is all zeros, as every
koloda env's is at an episode's end). ``reset(seed=[...])`` gives slot ``i`` the keys
``seedᵢ × 2³² + 0, 1, …`` for its games in turn. On the step a game ends, ``rewards[i]`` is what it
earned the seat that just acted and ``infos["points"][i]`` holds both seats' (+1 the
winner, −1 the durak, 0 each in a draw). Needs gymnasium (the ``pettingzoo`` extra).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from koloda.batched.durak import OVER, Durak, DurakState
from koloda.batched.vector_env import BatchedVectorEnv

#: what a DurakVectorEnv's observations are: the adapters' vector, or the compact bits
OBSERVATIONS = ("features", "bits")


class DurakVectorEnv(BatchedVectorEnv):
    """``DurakVectorEnv(num_envs=1024)``: observations the adapters' float32 vector of 559
    (``Durak.features``: what the PettingZoo, OpenSpiel and Gymnasium envs give, so a
    policy trained here plays through them and as a bot), or with ``observation="bits"``
    uint8 0/1 of 640 (``Durak.observation_layout``); actions ``Discrete(2760)`` — the
    engine's durak action space, as the adapters number it. ``reset``, ``infos`` and
    ``action_masks`` are ``BatchedVectorEnv``'s; dealing and stepping are per game."""

    game: Durak                       # type: ignore[assignment]
    state: DurakState | None

    def __init__(self, num_envs: int, first_bout_limit: int = 6,
                 observation: str = "features") -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation={observation!r}: one of {', '.join(OBSERVATIONS)}")
        # the base class reads only the game's observation size and action count
        super().__init__(Durak(first_bout_limit), num_envs)  # type: ignore[arg-type]
        self.observation = observation
        if observation == "features":
            low, high = self.game.features_bounds()
            self.single_observation_space = gymnasium.spaces.Box(low, high,
                                                                 dtype=np.float32)
            self.observation_space = gymnasium.spaces.Box(
                np.tile(low, (num_envs, 1)), np.tile(high, (num_envs, 1)), dtype=np.float32)

    def _observe(self, state: DurakState) -> Any:
        return self.game.features(state) if self.observation == "features" \
            else self.game.observe(state)

    def _deal(self) -> tuple[Any, dict[str, Any]]:
        self.state = self.game.init(self._keys(), history=False)
        self._mask = self.game.mask(self.state)
        return self._observe(self.state), self._infos()

    def step(self, actions: npt.ArrayLike) -> tuple[
            Any, npt.NDArray[np.float32], npt.NDArray[np.bool_],
            npt.NDArray[np.bool_], dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("reset() first")
        game, state, n = self.game, self.state, self.num_envs
        was_over = state.phase == OVER          # ended last step: dealt anew now
        mover = game.to_move(state)
        a = np.where(was_over, -1, np.asarray(actions, dtype=np.int64))
        _, _, _, reward = game.step(state, a)
        ended = (state.phase == OVER) & ~was_over
        if was_over.any():
            fresh = game.init(self._keys(np.flatnonzero(was_over)), history=False)
            for name, mine in vars(state).items():
                if isinstance(mine, np.ndarray):
                    mine[was_over] = getattr(fresh, name)
        obs = self._observe(state)
        mask = game.mask(state)
        # a game just over: no action is legal (the next step deals anew and ignores it)
        mask[ended] = False
        self._mask = mask
        infos = self._infos()
        infos["points"] = reward
        rewards = reward[np.arange(n), np.maximum(mover, 0)].astype(np.float32)
        rewards[was_over] = 0.0
        return obs, rewards, ended, np.zeros(n, dtype=np.bool_), infos
