"""A Gymnasium vector env over batched 2-player durak: ``num_envs`` games in self-play.

As ``koloda.batched.vector_env.BatchedVectorEnv`` (one policy acts for whoever is to move,
``infos["to_move"]`` says who; ``infos["action_mask"]`` and ``action_masks()``), except
that durak games end at different steps, so each game resets on its own: the step after
a game ends deals a new game into its slot (Gymnasium's next-step autoreset: that slot's
action is ignored, its reward is 0). On the step a game ends, ``rewards[i]`` is what it
earned the seat that just acted and ``infos["points"][i]`` holds both seats' (+1 the
winner, −1 the durak, 0 each in a draw). Needs gymnasium (the ``pettingzoo`` extra).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv

from koloda.batched.durak import OVER, Durak, DurakState


class DurakVectorEnv(VectorEnv):
    """``DurakVectorEnv(num_envs=1024)``: observations uint8 0/1 of 640 features
    (``Durak.observation_layout``), actions ``Discrete(2760)`` — the engine's durak action
    space, as the PettingZoo and OpenSpiel adapters number it."""

    def __init__(self, num_envs: int, first_bout_limit: int = 6) -> None:
        if num_envs < 1:
            raise ValueError("num_envs ≥ 1")
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}
        self.game = game = Durak(first_bout_limit)
        self.num_envs = num_envs
        self.single_observation_space = gymnasium.spaces.Box(
            0, 1, (game.observation_size,), dtype=np.uint8)
        self.single_action_space = gymnasium.spaces.Discrete(game.num_actions)
        self.observation_space = gymnasium.spaces.Box(
            0, 1, (num_envs, game.observation_size), dtype=np.uint8)
        self.action_space = gymnasium.spaces.MultiDiscrete(
            np.full(num_envs, game.num_actions))
        self.state: DurakState | None = None
        self._next_key = 0
        self._mask: npt.NDArray[np.bool_] | None = None

    def _keys(self, count: int) -> npt.NDArray[np.int64]:
        keys = np.arange(self._next_key, self._next_key + count, dtype=np.int64)
        self._next_key += count
        return keys

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        """Deal ``num_envs`` new games. ``seed`` fixes them: the keys are
        ``seed × 2³² + 0, 1, 2, …`` (continued by every game dealt later)."""
        if options:
            raise ValueError(f"reset: no options are known (got {sorted(options)})")
        if seed is not None:
            self._next_key = int(seed) << 32
        elif self.state is None:
            self._next_key = int(np.random.SeedSequence().entropy) % (1 << 62)  # type: ignore[arg-type]
        self.state = self.game.init(self._keys(self.num_envs), history=False)
        self._mask = self.game.mask(self.state)
        return self.game.observe(self.state), self._infos()

    def _infos(self) -> dict[str, Any]:
        assert self.state is not None and self._mask is not None
        return {"action_mask": self._mask, "to_move": self.game.to_move(self.state)}

    def step(self, actions: npt.ArrayLike) -> tuple[
            npt.NDArray[np.uint8], npt.NDArray[np.float32], npt.NDArray[np.bool_],
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
            fresh = game.init(self._keys(int(was_over.sum())), history=False)
            for name, mine in vars(state).items():
                if isinstance(mine, np.ndarray):
                    mine[was_over] = getattr(fresh, name)
        obs = game.observe(state)
        mask = game.mask(state)
        # a game just over: the next step deals anew and ignores its action, so any will do
        mask[ended] = True
        self._mask = mask
        infos = self._infos()
        infos["points"] = reward
        rewards = reward[np.arange(n), np.maximum(mover, 0)].astype(np.float32)
        rewards[was_over] = 0.0
        return obs, rewards, ended, np.zeros(n, dtype=np.bool_), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of each game's player to move (MaskablePPO's hook)."""
        if self._mask is None:
            raise RuntimeError("reset() first")
        return self._mask
